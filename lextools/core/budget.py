"""How much work one query may do, and where it stopped.

A search over a large lexicon can take far longer than a request should (``pattern=*`` in probability
order, a 13-tile rack with two blanks and its subanagrams). A server cannot let one request take
that long: it holds a worker while look-ups wait behind it. So every walk in :mod:`lextools.core.search`
takes a :class:`Budget` — at most ``seconds`` of work and at most ``results`` results — and when the
budget is spent it stops and records in :attr:`Budget.resume` where it was. Handing that position
back (``after=``) continues the same walk from there: a walk never redoes the work of earlier pages.

A walk also pauses (:func:`pause`) every :data:`PAUSE_SECONDS` of work. Under threads that hands
the interpreter lock to a waiting look-up at once; under gevent's monkey-patched ``time.sleep`` (the
service's worker class, see ``service/server.py``) it lets the event loop serve other requests, which
a long pure-Python loop would otherwise hold up until it finished. Only there does a pause sleep
(:data:`PAUSE_SLEEP`): elsewhere nothing waits on an event loop, and a sleep would only slow the walk.

A pause is also where work done for a background job learns that the job was cancelled (its client
left, or asked for more than its share: :mod:`lextools.core.background`): within :func:`cancellable`
a pause raises :class:`Cancelled`, so a cancelled job stops within a pause's time of work.
"""

from __future__ import annotations

import contextlib
import heapq
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

#: How often a long walk lets other requests run.
PAUSE_SECONDS = 0.002
#: How long a pause sleeps. Not 0: gevent runs greenlets that ``sleep(0)`` one after the other
#: without polling its sockets and timers in between, so look-ups waiting on I/O would starve behind
#: two walks pausing in turn. A sleep that is a timer
#: makes the loop turn; 0.2 ms every 2 ms costs a walk a tenth of its pace.
PAUSE_SLEEP = 0.0002
#: Steps between two looks at the clock (a look costs about as much as a step).
_STEPS_PER_CHECK = 64


class Exhausted(Exception):
    """Raised inside a walk when its budget is spent; the walk has set ``Budget.resume`` first."""


class Cancelled(Exception):
    """Raised at a pause of work whose job was cancelled (:func:`cancellable`): nobody wants it now."""


#: This thread's (greenlet's, under gevent) test of whether its work is still wanted (:func:`cancellable`).
#: A context variable, not a ``threading.local``: the service imports this module before its workers
#: patch ``threading``, and an unpatched local would be one for every greenlet of the worker.
_watched: ContextVar[Callable[[], bool] | None] = ContextVar("cancelled", default=None)


@contextlib.contextmanager
def cancellable(cancelled: Callable[[], bool]) -> Iterator[None]:
    """Within it, a :func:`pause` of this thread raises :class:`Cancelled` once ``cancelled()`` is
    true: how a background job's walk, sort or filter stops when the job is cancelled."""
    token = _watched.set(cancelled)
    try:
        yield
    finally:
        _watched.reset(token)


class Budget:
    """Work allowed to one query. ``None`` means no limit; ``clock`` is injectable for tests.

    A class with slots written out, not a dataclass: one is made per request and per page, in
    microseconds, and a dataclass with slots takes milliseconds to make when every look-up imports
    this module (issue 37)."""

    __slots__ = ("_deadline", "_paced_at", "_pause_at", "_steps", "clock", "found", "results", "resume", "seconds")

    seconds: float | None
    results: int | None
    clock: Callable[[], float]
    #: Results counted so far.
    found: int
    #: Where the walk stopped, to pass back as ``after=``; None when it went to the end.
    resume: str | None
    _deadline: float | None
    _pause_at: float
    _steps: int
    _paced_at: float

    def __init__(
        self,
        seconds: float | None = None,
        results: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        found: int = 0,
        resume: str | None = None,
    ) -> None:
        """The fields, and the deadline and the next pause from the clock."""
        now = clock()
        self.seconds, self.results, self.clock, self.found, self.resume = seconds, results, clock, found, resume
        self._deadline = None if seconds is None else now + seconds
        self._pause_at = now + PAUSE_SECONDS
        self._steps = 0
        real = now if clock is time.monotonic else time.monotonic()
        self._paced_at = real + PAUSE_SECONDS  # work shorter than a pause never pauses

    def __repr__(self) -> str:
        shown = (f"{name}={getattr(self, name)!r}" for name in ("seconds", "results", "clock", "found", "resume"))
        return f"Budget({', '.join(shown)})"

    def remaining(self) -> float | None:
        """Seconds of work left (None: no time limit)."""
        return None if self._deadline is None else max(0.0, self._deadline - self.clock())

    @property
    def truncated(self) -> bool:
        return self.resume is not None

    def step(self, position: str) -> None:
        """One unit of work done, everything up to ``position`` settled; stops the walk when time is up.

        The clock is read only every few steps, so a walk always makes progress between two stops.
        """
        self._steps += 1
        if self._steps % _STEPS_PER_CHECK:
            return
        now = self.clock()
        if self._deadline is not None and now >= self._deadline:
            self.stop(position)
        if now >= self._pause_at:
            self.pause()

    def check(self, position: str = "") -> None:
        """One large unit of work done (a quiz question, a few milliseconds): stops the walk when time
        is up, else lets the other requests run when a pause is due. Reads the clock every time."""
        now = self.clock()
        if self._deadline is not None and now >= self._deadline:
            self.stop(position)
        if now >= self._pause_at:
            self.pause()

    def pause(self) -> None:
        pause()
        self._pause_at = self.clock() + PAUSE_SECONDS

    def pace(self) -> None:
        """One unit of work that cannot stop there (its answers are sorted once the walk is done):
        only lets the other requests run every PAUSE_SECONDS, on the real clock, never spending budget."""
        self._steps += 1
        if self._steps % _STEPS_PER_CHECK == 0 and time.monotonic() >= self._paced_at:
            pause()
            self._paced_at = time.monotonic() + PAUSE_SECONDS

    def count(self, position: str) -> None:
        """One result found at ``position``; stops the walk when it was the last one allowed."""
        self.found += 1
        if self.results is not None and self.found >= self.results:
            self.stop(position)

    def stop(self, position: str) -> None:
        self.resume = position
        raise Exhausted(position)


def pause() -> None:
    """Let the other requests of this process run (see the module docstring): long work that is not
    a budgeted walk (a probability ranking, a text export) calls this every millisecond or two. Only
    under gevent's event loop: OS threads take turns anyway (the interpreter switches them every few
    milliseconds), and a ``sleep(0)`` there hands the CPU to other processes of a busy machine.
    Raises :class:`Cancelled` within :func:`cancellable` once the work is no longer wanted."""
    test = _watched.get()
    if test is not None and test():
        raise Cancelled
    if _event_loop():
        time.sleep(PAUSE_SLEEP)


def paced(items: Iterable[T], *, slices: bool = False) -> Iterator[T]:
    """The items, letting the other requests run every :data:`PAUSE_SECONDS` (:meth:`Budget.pace`)
    between two of them: for a long loop that is not a budgeted walk (ranking a list, listing answers).
    ``slices``: each item is a slice of work (hundreds of keys), so the clock is read after every one
    rather than every few dozen — 64 slices of 256 keys held a worker for 40 ms on a busy machine."""
    pacer = Budget()
    for item in items:
        if slices:
            pacer.check()
        else:
            pacer.pace()
        yield item


#: Items sorted in one call by :func:`paced_sorted`: a few milliseconds of sorting.
SORT_SLICE = 4096


def paced_sorted(items: Iterable[T], key: Callable[[T], Any]) -> list[T]:
    """``sorted(items, key=key)``, in slices of :data:`SORT_SLICE` sorted one at a time and then
    merged, pausing for the other requests in between: one sort of a hundred thousand items is a
    single call that would hold the worker's event loop for a third of a second on a busy machine."""
    items = list(items)
    slices = []
    for start in range(0, len(items), SORT_SLICE):
        slices.append(sorted(items[start : start + SORT_SLICE], key=key))
        pause()
    if len(slices) <= 1:
        return slices[0] if slices else []
    return list(paced(heapq.merge(*slices, key=key)))


def _event_loop() -> bool:
    """Is ``time.sleep`` gevent's (the service's workers patch it before they load anything)?"""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("time"))
