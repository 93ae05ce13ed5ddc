"""Work longer than a request may take, done once in the background and kept with its lexicon.

Some answers cannot come from a walk that stops and resumes in their own order: the sorted answers
of an anagram query (longest first in tiles, then in the edition's alphabet, or in probability
order; the walks find them in the DAWGs' order). A large one takes longer than a request may work.
So each is computed once, in a thread of its own that pauses every few milliseconds (under
gevent's monkey patching the thread is a greenlet and a pause hands over the event loop), and
kept beside the lexicon it belongs to — it goes when a rebuilt lexicon replaces that one. A
request asks with a deadline, its work budget: while the result is not ready it answers that it
found nothing yet, with a position to ask again from, and the pages that follow read the kept
result instead of walking again.

Background work must not starve the players (issue 33, row 5). Each job runs in a lane: a small
one (a rack of at most :data:`SMALL_TILES` tiles) never waits behind a large one, nor either behind
a list that teaches (its own lane: lists are a bounded set, each made once per lexicon, so no
admission below cancels one; one nobody asks for is, as any job), and at most
:data:`RUNNING` jobs of a lane compute at once per process (the others wait their turn without using
the CPU). A job belongs to the client whose request started it (:func:`for_client`, set by the
service): a client has at most :data:`PER_CLIENT` unfinished large jobs — a further one cancels its
oldest — and a process at most :data:`LARGE_PENDING` — a further one cancels the oldest of all. A job
nobody waits for and nobody asked for in :data:`ABANDONED` seconds (its client left or
disconnected) is cancelled too. A cancelled job stops at its next pause (every few milliseconds:
:func:`lextools.core.budget.cancellable`), its memory is handed back to the system
(:func:`give_back_memory`) and the next ask starts it again. Nothing a job made outlives it: a
cancelled or failed job keeps no frame of its work (a kept traceback would hold all the walk had
found until the collector's next full sweep, and objects freed that late leave the allocator's
arenas pinned by the few objects made beside them meanwhile: issue 33, row 3). At most :data:`PENDING` small jobs wait
unfinished — a request past that is told to come back — and at most :data:`KEPT` finished results per
lexicon and :data:`KEPT_ITEMS` answers in all are kept, the least recently asked going first, none
longer than :data:`KEPT_IDLE` seconds unasked (a :class:`Sweeper` drops them, and a lexicon left with
none lets go of the pages of its files the jobs read): the memory of a job is bounded by its query
(a 15-tile rack with two blanks) and returned when it goes.

A process that asks one question and exits (the command line) has no deadline and no other
request: inside :func:`in_caller` a job that its caller waits for with no deadline is computed in
the caller's own thread, sparing a thread's start and the hand-overs of the interpreter lock
(about 5 ms a query, the interpreter's switch interval); it is kept all the same. The service never
asks that: there a job runs in a thread (a greenlet) of its own, which an abandoned request does
not cut short.

Every thread of the library starts here (:func:`start`): these jobs, the quizzes the service asks
for with a budget, and the :class:`Sweeper` that drops what a cache kept idle (the quizzes'
lists), handing the freed memory back to the system (:func:`give_back_memory`).
"""

from __future__ import annotations

import contextlib
import threading
import time
import traceback
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from typing import Any

from lextools.core.budget import Cancelled, cancellable
from lextools.core.lexicon import Lexicon
from lextools.core.memory import give_back_memory

#: Jobs computing at once in a process, per lane.
RUNNING = 1
#: Unfinished small jobs in a process, waiting or computing: a small query past them is told to come back.
PENDING = 16
#: Unfinished large jobs in a process: a further one cancels the oldest.
LARGE_PENDING = 4
#: Unfinished large jobs of one client: a further one cancels that client's oldest.
PER_CLIENT = 2
#: Seconds a job nobody waits for and nobody asked for lives on (then it is cancelled).
ABANDONED = 3.0
#: Finished results kept per lexicon.
KEPT = 8
#: Answers (items of the finished results) kept in a process, every lexicon together.
KEPT_ITEMS = 400_000
#: Seconds a finished result nobody asked for is kept.
KEPT_IDLE = 5.0
#: Tiles (blanks included) of a rack whose job runs in the small lane.
SMALL_TILES = 8
#: Seconds between two looks of a job waiting its turn at whether it was cancelled meanwhile.
_TURN_LOOK = 0.05


class _Job:
    """One query's work: its result when done, whose client it is, who still wants it."""

    def __init__(self, client: str | None, lane: str) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None
        self.client, self.lane = client, lane  # lane: "small", "large" or "lists"
        self.started = self.asked = time.monotonic()
        self.waiting = 0  # requests waiting on it now
        self.dropped = False  # cancelled: stops at its next pause

    @property
    def small(self) -> bool:
        return self.lane == "small"

    def cancelled(self) -> bool:
        """Cancelled, or abandoned: nobody waits and nobody asked in ABANDONED seconds."""
        return self.dropped or (self.waiting == 0 and time.monotonic() - self.asked > ABANDONED)

    def size(self) -> int:
        try:
            return len(self.value)
        except TypeError:
            return 1


_jobs: weakref.WeakKeyDictionary[Lexicon, OrderedDict[Hashable, _Job]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_lanes = {lane: threading.BoundedSemaphore(RUNNING) for lane in ("small", "large", "lists")}
#: The client the jobs started here belong to (:func:`for_client`).
_client: ContextVar[str | None] = ContextVar("client", default=None)
#: Whether a job waited for with no deadline is computed in the caller's thread (:func:`in_caller`).
_in_caller: ContextVar[bool] = ContextVar("in_caller", default=False)


@contextlib.contextmanager
def in_caller() -> Iterator[None]:
    """Within it, a :func:`result` that waits with no deadline (``wait=None``) for a job nobody has
    started computes it in the calling thread instead of a thread of its own: for a process that asks
    one question and exits (the ``anagram`` and ``pattern`` commands of ``lextools.cli.study``)."""
    token = _in_caller.set(True)
    try:
        yield
    finally:
        _in_caller.reset(token)


@contextlib.contextmanager
def for_client(client: str | None) -> Iterator[None]:
    """Within it, the jobs :func:`result` starts belong to ``client`` (the service: the request's
    client address, ``service/http/clients.py``), bounded per client."""
    token = _client.set(client)
    try:
        yield
    finally:
        _client.reset(token)


def result(
    lex: Lexicon,
    key: Hashable,
    compute: Callable[[], Any],
    wait: float | None,
    *,
    small: bool = False,
    once: bool = False,
) -> Any | None:
    """``compute()``'s value for ``key`` of this lexicon, starting it if nobody has (in the small
    lane when ``small``; in the lists' lane when ``once``: a list made once per lexicon, one of a
    bounded set, which no other job's admission cancels — only nobody asking for it); None when it
    is not ready after ``wait`` seconds (``None``: wait for it), when it was cancelled, or when too
    much small work is already waiting."""
    here = False  # computed in this thread (in_caller)
    with _lock:
        jobs = _jobs.setdefault(lex, OrderedDict())
        job = jobs.get(key)
        if job is None or job.dropped or isinstance(job.error, Cancelled):  # a cancelled job starts again
            if not once and not _admit(small):
                return None
            job = jobs[key] = _Job(_client.get(), "lists" if once else "small" if small else "large")
            here = wait is None and _in_caller.get()
            if not here:
                start(f"background {key!r}"[:60], _run, job, compute, lex)
            freed = _forget_finished()
            _SWEEPER.wake()
        else:
            jobs.move_to_end(key)
            freed = False
        job.waiting += 1
    if freed:
        give_back_memory()
    try:
        if here:  # started above, computed here, outside the lock (as in a thread of its own)
            _run(job, compute, lex)
        ready = job.done.wait(wait)
    finally:
        with _lock:
            job.waiting -= 1
            job.asked = time.monotonic()
    if not ready or isinstance(job.error, Cancelled):
        return None
    if job.error is not None:
        raise job.error
    return job.value


def _unfinished() -> list[_Job]:
    return [j for js in _jobs.values() for j in js.values() if not j.done.is_set() and not j.dropped]


def _admit(small: bool) -> bool:
    """Room for one more job (under ``_lock``): a small one while fewer than PENDING wait; a large
    one always, cancelling its client's oldest past PER_CLIENT and the oldest of all past LARGE_PENDING."""
    unfinished = _unfinished()
    if small:
        return sum(j.small for j in unfinished) < PENDING
    large = sorted((j for j in unfinished if j.lane == "large"), key=lambda j: j.started)
    client = _client.get()
    mine = [j for j in large if client is not None and j.client == client]
    for job in mine[: max(0, len(mine) - PER_CLIENT + 1)]:
        job.dropped = True
    large = [j for j in large if not j.dropped]
    for job in large[: max(0, len(large) - LARGE_PENDING + 1)]:
        job.dropped = True
    return True


def _forget_finished() -> bool:
    """Drop the least recently asked finished results past KEPT per lexicon and KEPT_ITEMS in all
    (under ``_lock``); True when something was dropped (its memory to give back)."""
    dropped = False
    for jobs in _jobs.values():
        finished = [k for k, j in jobs.items() if j.done.is_set()]
        for old in finished[: max(0, len(finished) - KEPT)]:
            del jobs[old]
            dropped = True
    kept = [(jobs, k) for jobs in _jobs.values() for k, j in jobs.items() if j.done.is_set()]
    total = sum(jobs[k].size() for jobs, k in kept)
    for jobs, k in kept:  # each lexicon's least recently asked first
        if total <= KEPT_ITEMS:
            break
        total -= jobs.pop(k).size()
        dropped = True
    return dropped


def _run(job: _Job, compute: Callable[[], Any], lex: Lexicon) -> None:
    """Compute the job in its lane's turn; a job cancelled meanwhile (waiting or at a pause) ends
    with :class:`Cancelled` and gives its memory back; the last large job of a lexicon to end lets go
    of the pages of its files (:func:`_release_if_idle`)."""
    lane = _lanes[job.lane]
    try:
        with cancellable(job.cancelled):
            while not lane.acquire(timeout=_TURN_LOOK):
                if job.cancelled():
                    raise Cancelled
            try:
                job.value = compute()
            finally:
                lane.release()
    except Cancelled:  # a fresh one, with no traceback: the walk's frames (and all it found) go now
        job.error, job.value = Cancelled(), None
    except BaseException as e:  # kept for the requests waiting on it: its traceback from compute() on,
        job.error = without_frames(e)  # without this frame or any frame's locals
    finally:
        job.done.set()
    if isinstance(job.error, Cancelled):
        give_back_memory()
    if not job.small:
        _release_if_idle(lex)


def _release_if_idle(lex: Lexicon) -> None:
    """When no job of ``lex`` is left unfinished, let go of the pages of its files the jobs read (the
    alphagram table, the ranking: :meth:`Lexicon.release_pages`) now, not when the sweeper drops the
    last kept result (``KEPT_IDLE`` seconds after it was last asked for, and only once every result
    is gone). A large job maps megabytes of them into its worker (issue 33, row 3: about 8.5 MB of
    es-fise's table); they stay in the page cache, shared, and the next read is a minor fault, so a
    kept result's later pages or the next job lose nothing but the page-table entries."""
    with _lock:
        busy = any(not j.done.is_set() for j in _jobs.get(lex, {}).values())
    if not busy:
        lex.release_pages()


def without_frames(error: BaseException) -> BaseException:
    """``error``, caught by a job's runner, made fit to keep for the requests waiting on it: its
    traceback from below the runner's own frame, every frame's locals dropped. Kept with its frames,
    it would keep everything the work had made (job → error → traceback → the runner's frame → job: a
    reference cycle only the collector's rare full sweeps free) — and, freed that late, those objects
    leave the allocator's arenas pinned by the few objects made beside them meanwhile."""
    tb = error.__traceback__
    below = tb.tb_next if tb is not None else None
    traceback.clear_frames(below)
    return error.with_traceback(below)


def cancelled_jobs() -> int:
    """Jobs of this process cancelled and not yet started again (for tests and probes)."""
    with _lock:
        return sum(j.dropped or isinstance(j.error, Cancelled) for js in _jobs.values() for j in js.values())


def start(name: str, target: Callable[..., object], *args: object) -> None:
    """Run ``target(*args)`` in a daemon thread of its own (a greenlet under gevent's monkey patching),
    named ``name``: the one way the library starts a thread."""
    threading.Thread(target=target, args=args, name=name, daemon=True).start()


class Sweeper:
    """A thread that calls ``sweep`` every ``interval`` seconds while there is something to sweep:
    :meth:`wake` starts it unless it runs, and it ends once ``sweep`` returns True (nothing left)
    and nobody woke it meanwhile — a process with nothing kept runs no thread for it."""

    def __init__(self, name: str, sweep: Callable[[], bool], interval: float) -> None:
        self.name, self.sweep, self.interval = name, sweep, interval
        self._lock = threading.Lock()
        self._running = self._woken = False

    def wake(self) -> None:
        """Something was kept: sweep it in time (starting the thread unless it runs)."""
        with self._lock:
            self._woken = True
            if self._running:
                return
            self._running = True
        start(self.name, self._loop)

    def _loop(self) -> None:
        while True:
            with self._lock:
                self._woken = False
            time.sleep(self.interval)
            done = self.sweep()
            with self._lock:
                if done and not self._woken:  # a wake after the sweep looked: one round more
                    self._running = False
                    return


def _swept() -> bool:
    """Drop the finished results nobody asked for in KEPT_IDLE seconds; True when no job is left (the
    sweeper ends). Freed memory goes back to the system; a lexicon with no job unfinished lets go of
    the pages of its files (the ranking, the alphagram table) its jobs and requests read — whichever
    read them last (a small job, a page walked in a request), they go at the next round."""
    now, idle_lexicons = time.monotonic(), []
    with _lock:
        dropped = 0
        for lex, jobs in list(_jobs.items()):
            idle = [k for k, j in jobs.items() if j.done.is_set() and not j.waiting and now - j.asked > KEPT_IDLE]
            for k in idle:
                del jobs[k]
            dropped += len(idle)
            if all(j.done.is_set() for j in jobs.values()):
                idle_lexicons.append(lex)
        done = not any(_jobs.values())
    if dropped:
        give_back_memory()
    for lex in idle_lexicons:
        lex.release_pages()
    return done


#: The thread (a greenlet under gevent) that drops the results kept idle, while there are jobs.
_SWEEPER = Sweeper("background results", _swept, KEPT_IDLE / 4)
