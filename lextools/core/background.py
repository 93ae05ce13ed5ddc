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

At most :data:`RUNNING` jobs compute at once per process (the others wait their turn without using
the CPU), at most :data:`PENDING` wait unfinished — a request past that is told to come back — and
at most :data:`KEPT` finished results per lexicon are kept, the least recently asked going first.

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
import ctypes
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from typing import Any

from lextools.core.lexicon import Lexicon

#: Jobs computing at once in a process.
RUNNING = 1
#: Unfinished jobs in a process, waiting or computing.
PENDING = 16
#: Finished results kept per lexicon.
KEPT = 8


class _Job:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


_jobs: weakref.WeakKeyDictionary[Lexicon, OrderedDict[Hashable, _Job]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_running = threading.BoundedSemaphore(RUNNING)
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


def result(lex: Lexicon, key: Hashable, compute: Callable[[], Any], wait: float | None) -> Any | None:
    """``compute()``'s value for ``key`` of this lexicon, starting it if nobody has; None when it is
    not ready after ``wait`` seconds (``None``: wait for it) or too much work is already waiting."""
    here = False  # computed in this thread (in_caller)
    with _lock:
        jobs = _jobs.setdefault(lex, OrderedDict())
        job = jobs.get(key)
        if job is None:
            if sum(not j.done.is_set() for js in _jobs.values() for j in js.values()) >= PENDING:
                return None
            job = jobs[key] = _Job()
            here = wait is None and _in_caller.get()
            if not here:
                start(f"background {key!r}"[:60], _run, job, compute)
            finished = [k for k, j in jobs.items() if j.done.is_set()]
            for old in finished[: max(0, len(finished) - KEPT)]:
                del jobs[old]
        else:
            jobs.move_to_end(key)
    if here:  # started above, computed here, outside the lock (as in a thread of its own)
        _run(job, compute)
    if not job.done.wait(wait):
        return None
    if job.error is not None:
        raise job.error
    return job.value


def _run(job: _Job, compute: Callable[[], Any]) -> None:
    try:
        with _running:
            job.value = compute()
    except BaseException as e:  # kept for the requests waiting on it
        job.error = e
    finally:
        job.done.set()


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


def give_back_memory() -> None:
    """Hand the heap's free pages back to the system (glibc's ``malloc_trim``; nothing elsewhere): the
    C allocator keeps what a cache freed, so a worker would stay at its peak."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)
