"""What a quiz keeps between requests: the ranked lists of each loaded lexicon (the most recently
used, while asked for) and the quizzes made for the service's budgeted requests until they are
taken, with the :class:`~lextools.core.background.Sweeper` that drops what stays idle and gives the
memory back (:func:`~lextools.core.background.give_back_memory`)."""

from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from lextools.core import background
from lextools.core.budget import Budget
from lextools.core.errors import BusyError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.features.quiz.request import QuizRequest

T = TypeVar("T")

#: Ranked lists kept per loaded lexicon, the most recently used ones: a list is every key of its
#: length, and a rebuilt lexicon is a new object whose old lists go with it. A word-or-phony quiz
#: uses six (the keys of three lengths, one ranked list, its tile pairs and runs of three).
CACHED_LISTS = 8
#: A kept list nobody asked for in this long is dropped, so a worker's memory comes back soon after
#: a burst of quizzes (and the pages of the lexicon's files it read, :meth:`Lexicon.release_pages`);
#: making it again from the ranking file takes under a second.
LISTS_IDLE_SECONDS = 5.0
#: Quizzes a process makes at once for budgeted requests (the service's): a quiz beyond them waits
#: for one to end, at most its budget, then is told to ask again (BusyError), rather than queue work
#: that would go on after its client left.
QUIZZES_QUEUED = 1
_QUEUE = threading.BoundedSemaphore(QUIZZES_QUEUED)
#: Each lexicon's kept lists: what → (the list, when it was last asked for).
_LISTS: weakref.WeakKeyDictionary[Lexicon, OrderedDict[tuple[Any, ...], tuple[Any, float]]] = (
    weakref.WeakKeyDictionary()
)
_LOCK = threading.Lock()


def cached(lex: Lexicon, what: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """A ranked list (or what is made from one), computed once per lexicon while it stays among the
    :data:`CACHED_LISTS` most recently used and was asked for in the last :data:`LISTS_IDLE_SECONDS`."""
    with _LOCK:
        lists = _LISTS.setdefault(lex, OrderedDict())
        if what in lists:
            lists.move_to_end(what)
            found: T = lists[what][0]
            lists[what] = found, time.monotonic()
            return found
    result = compute()
    with _LOCK:
        lists[what] = result, time.monotonic()
        while len(lists) > CACHED_LISTS:
            lists.popitem(last=False)
    _SWEEPER.wake()
    return result


class Job:
    """A quiz being made for a budgeted request, or made and not taken yet."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex  # kept alive (and its id unique) while its job is
        self.done = threading.Event()
        self.value: dict[str, Any] = {}
        self.error: BaseException | None = None
        self.finished = 0.0

    def stale(self, now: float) -> bool:
        return self.done.is_set() and now - self.finished > LISTS_IDLE_SECONDS

    def run(self, make: Callable[[Lexicon, QuizRequest], dict[str, Any]], req: QuizRequest) -> None:
        try:
            self.value = make(self.lex, req)
        except BaseException as e:  # the request waiting on it raises it (without the frames of the making)
            self.error = background.without_frames(e)
        finally:
            self.finished = time.monotonic()
            _QUEUE.release()
            self.done.set()


_JOBS: dict[tuple[int, QuizRequest], Job] = {}


def job_for(
    lex: Lexicon, req: QuizRequest, budget: Budget, make: Callable[[Lexicon, QuizRequest], dict[str, Any]]
) -> Job:
    """The job making this quiz (``make(lex, req)``), started unless one is; :data:`QUIZZES_QUEUED`
    at most unfinished (a new one waits for its turn at most the budget, then is a :class:`BusyError`)."""
    key = (id(lex), req)
    with _LOCK:
        job = _JOBS.get(key)
    if job is None:
        if not _QUEUE.acquire(timeout=budget.remaining()):
            raise BusyError(message("busy_quiz"))
        with _LOCK:
            job = _JOBS.get(key)
            if job is not None:  # started by another request meanwhile
                _QUEUE.release()
            else:
                job = _JOBS[key] = Job(lex)
                background.start(f"quiz {req.type}", job.run, make, req)
    _SWEEPER.wake()
    return job


def take(lex: Lexicon, req: QuizRequest) -> None:
    """A quiz made for a request is taken: the next ask makes it again."""
    with _LOCK:
        _JOBS.pop((id(lex), req), None)


def _swept() -> bool:
    """Drop the idle lists and the quizzes not taken; True when nothing is left to drop (the sweeper
    ends). Memory freed goes back to the system, and a lexicon none of whose lists is
    kept lets go of the pages of its files the quizzes read."""
    with _LOCK:
        now = time.monotonic()
        dropped, emptied = 0, []
        for lex, lists in list(_LISTS.items()):
            idle = [w for w, (_, used) in lists.items() if now - used > LISTS_IDLE_SECONDS]
            for what in idle:
                del lists[what]
            dropped += len(idle)
            if idle and not lists:
                emptied.append(lex)
        for job_key in [k for k, job in _JOBS.items() if job.stale(now)]:
            del _JOBS[job_key]
            dropped += 1
        done = not any(_LISTS.values()) and not _JOBS
    if dropped:
        background.give_back_memory()
    for lex in emptied:
        lex.release_pages()
    return done


#: The thread (a greenlet under gevent) that drops idle lists, while there are lists to drop.
_SWEEPER = background.Sweeper("quiz lists", _swept, LISTS_IDLE_SECONDS / 4)
