"""The bodies of answers that do not change for one lexicon generation, kept a short while per worker.

A page of a list that teaches (service/api/study_lists.py) is the same bytes for as long as its
lexicon (and the other one, for new words) is: the key names their checksums, so a rebuilt lexicon's
pages are never answered from an older one's. Dumping a stems page through its schema is most of its
cost (20 stems, about 2,700 words, 200 kB: 80–100 ms of a worker's event loop, issue 33 row 1);
kept, the next ask of the same page costs a look-up. A body not kept is made (:meth:`AnswerBodies.answer`)
in a thread (a greenlet) of its own, at most :data:`MAKING` at once in a worker, and the request waits
for it at most its ``wait``: on a busy worker, where making a stems page takes seconds of paced work,
the request answers that the page is not ready (ask again) instead of holding its client longer,
and the page goes on being made for the next ask. Bounded in bytes (:data:`MAX_BYTES`, the least
recently asked going first) and in time: a body nobody asked for in :data:`IDLE` seconds is dropped
by a :class:`~lextools.core.background.Sweeper` and the memory given back, so a worker's memory
returns near its idle size after a burst of lists (issue 33, row 2).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from lextools.core import background
from lextools.core.memory import give_back_memory

#: Bytes of bodies kept in a worker: about 40 default stems pages.
MAX_BYTES = 8 * 2**20
#: Bodies made at once in a worker (the others wait their turn without using the CPU).
MAKING = 2
#: Seconds a body nobody asked for is kept (the background results' and kept lists' idle time).
IDLE = background.KEPT_IDLE


#: What :meth:`AnswerBodies.answer` makes: the answer, and its body when it is one to keep (None: an
#: answer that is not, e.g. a list not ready yet).
Made = tuple[dict[str, Any], bytes | None]


class _Making:
    """One body being made: its answer or error once done."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.answer: bytes | dict[str, Any] | None = None
        self.error: BaseException | None = None


class AnswerBodies:
    """Bodies by key, at most ``max_bytes`` in all, none kept ``idle`` seconds unasked."""

    def __init__(self, max_bytes: int = MAX_BYTES, idle: float = IDLE, making: int = MAKING) -> None:
        self.max_bytes, self.idle = max_bytes, idle
        self._bodies: OrderedDict[Hashable, tuple[bytes, float]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._making: dict[Hashable, _Making] = {}
        self._turns = threading.BoundedSemaphore(making)
        self._sweeper = background.Sweeper("answer bodies", self.sweep, idle / 4)

    def answer(self, key: Hashable, make: Callable[[], Made], wait: float) -> bytes | dict[str, Any] | None:
        """The body kept for ``key``; else ``make()``'s, made in a thread of its own (one for all who
        ask meanwhile) and kept: its body, or the answer when it has none to keep; None when it is not
        made within ``wait`` seconds (it goes on, for the next ask). An error of ``make`` is raised."""
        body = self.get(key)
        if body is not None:
            return body
        with self._lock:
            making = self._making.get(key)
            if making is None:
                making = self._making[key] = _Making()
                background.start(f"answer body {key!r}"[:60], self._make, key, making, make)
        if not making.done.wait(wait):
            return None
        if making.error is not None:
            raise making.error
        return making.answer

    def _make(self, key: Hashable, making: _Making, make: Callable[[], Made]) -> None:
        try:
            with self._turns:
                answer, body = make()
            if body is not None:
                self.put(key, body)
            making.answer = body if body is not None else answer
        except BaseException as e:  # raised to the requests waiting (none may be left: then dropped)
            making.error = background.without_frames(e)
        finally:
            with self._lock:
                self._making.pop(key, None)
            making.done.set()

    def get(self, key: Hashable) -> bytes | None:
        """The body kept for ``key`` (now the most recently asked), or None."""
        with self._lock:
            kept = self._bodies.get(key)
            if kept is None:
                return None
            self._bodies[key] = (kept[0], time.monotonic())
            self._bodies.move_to_end(key)
            return kept[0]

    def put(self, key: Hashable, body: bytes) -> None:
        """Keep ``body`` for ``key``, dropping the least recently asked past ``max_bytes`` (a body
        larger than that is not kept)."""
        if len(body) > self.max_bytes:
            return
        with self._lock:
            old = self._bodies.pop(key, None)
            self._bytes += len(body) - (len(old[0]) if old else 0)
            self._bodies[key] = (body, time.monotonic())
            while self._bytes > self.max_bytes:
                _, (dropped, _) = self._bodies.popitem(last=False)
                self._bytes -= len(dropped)
        self._sweeper.wake()

    def kept_bytes(self) -> int:
        """Bytes of the bodies kept (for tests and probes)."""
        with self._lock:
            return self._bytes

    def sweep(self) -> bool:
        """Drop the bodies nobody asked for in ``idle`` seconds and give the memory back; True when
        none is left (the sweeper ends)."""
        now = time.monotonic()
        with self._lock:
            idle = [key for key, (_, asked) in self._bodies.items() if now - asked > self.idle]
            for key in idle:
                self._bytes -= len(self._bodies.pop(key)[0])
            done = not self._bodies
        if idle:
            give_back_memory()
        return done
