"""A worker that grew is replaced once it is idle, so the memory a heavy load took comes back.

The workers are forked from the arbiter after it loaded the lexicons, and share its pages. Serving
writes into some of them: CPython 3.11 writes into the bytecode of every function it runs and into
the reference counts of the objects it reads, and the allocator hands out free blocks of the
arbiter's heap. Each page written becomes the worker's own copy, for as long as the worker lives. A
heavy load adds heap of its own besides, and the allocator keeps an arena as long as one object of
it lives. A fresh server's first heavy load (issue 33, row 3) leaves each worker 15-20 MB larger
than before it, whatever the load gave back.

So each worker watches itself (:class:`Renewal`): once its private memory has grown by ``renew_mb``
since it started, and no request has come for :data:`IDLE_S` seconds, it stops the way gunicorn's
``max_requests`` stops a worker. It accepts nothing new, finishes what it holds and exits. The
arbiter forks a fresh copy in its place at once, sharing every page again. uWSGI's
``reload-on-rss`` does the same, but mid-load; here it waits for a quiet moment.

Nothing is lost by it. Every kept answer is a cache: the lists, the pages, the background results.
The signed cursors and the challenge record are shared by the workers. :data:`IDLE_S` is longer
than ``background.ABANDONED``, so every job nobody waits for has been cancelled by then. What a
worker holds that must not be lost keeps it (:func:`keep_while`): the director's lock-out counted
in the worker alone (no database), or a guesser would start afresh with the new worker. A list
child the worker runs is not such a thing: it is killed with the worker (the lists already made
are files), and the new worker's warm-up goes on from the lists still missing. Kept for its child,
the worker that ran the warm-up beside a CPU hog stayed 22 % over its idle PSS.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Megabytes of private memory a worker may gain before it is replaced at its next idle moment.
#: With 2 workers this keeps the arbiter and workers within 10 % of their idle PSS (about 150 MB).
RENEW_MB = 6.0
#: Seconds without a request before a grown worker is replaced.
IDLE_S = 4.0
#: Seconds between two looks.
LOOK_S = 1.0
#: The app.extensions key of the checks that keep a worker (:func:`keep_while`).
KEEPS = "lextools.worker_keeps"
#: The end of the line a renewed worker logs: the benchmarks tell a worker renewed from one killed by it.
RENEWED = "is idle: a fresh one takes its place"

_log = logging.getLogger("gunicorn.error")


def keep_while(app: Any, holds: Callable[[], bool]) -> None:
    """While ``holds()`` is true, a worker of ``app`` is not replaced (its part of the app registers it)."""
    app.extensions.setdefault(KEEPS, []).append(holds)


def kept(app: Any) -> bool:
    """Whether a part of ``app`` holds what its worker must not lose now."""
    return any(holds() for holds in getattr(app, "extensions", {}).get(KEEPS, ()))


def private_kb() -> int | None:
    """This process's private dirty memory in kB (its heap and the shared pages it copied), from
    /proc/self/smaps_rollup; None where there is no such file (not Linux)."""
    try:
        text = Path("/proc/self/smaps_rollup").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("Private_Dirty:"):
            return int(line.split()[1])
    return None


class Renewal:
    """One worker's watch over its own size and idleness (gunicorn's request hooks keep it told)."""

    def __init__(self, renew_mb: float, keeps: Callable[[], bool] = lambda: False, idle_s: float = IDLE_S) -> None:
        self.renew_kb, self.keeps, self.idle_s = renew_mb * 1024, keeps, idle_s
        self.started_kb = private_kb()
        self.in_flight = 0
        self.last = time.monotonic()

    def request_started(self) -> None:
        self.in_flight += 1

    def request_done(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        self.last = time.monotonic()

    def grown_kb(self) -> int | None:
        """What the worker gained since it started (None: cannot be read here)."""
        now = private_kb()
        return None if now is None or self.started_kb is None else now - self.started_kb

    def due(self) -> int | None:
        """The kB grown, when the worker should be replaced now; else None."""
        if self.in_flight or time.monotonic() - self.last < self.idle_s or self.keeps():
            return None
        grown = self.grown_kb()
        return grown if grown is not None and grown >= self.renew_kb else None

    def watch(self, worker: Any) -> None:
        """Look every LOOK_S seconds; when due, stop the worker as ``max_requests`` does."""
        while worker.alive:
            time.sleep(LOOK_S)
            grown = self.due()
            if grown is not None:
                _log.info("worker %s grew %.1f MB and %s", worker.pid, grown / 1024, RENEWED)
                worker.alive = False
                return


def start_watch(worker: Any, renew_mb: float, keeps: Callable[[], bool]) -> Renewal | None:
    """Watch ``worker`` (gunicorn's ``post_worker_init``), unless ``renew_mb`` is 0 or its memory
    cannot be read here; ``keeps()`` true: it holds what must not be lost, keep it. The thread is a
    greenlet in a gevent worker."""
    if renew_mb <= 0:
        return None
    renewal = Renewal(renew_mb, keeps)
    if renewal.started_kb is None:
        return None
    threading.Thread(target=renewal.watch, args=(worker,), name="worker renewal", daemon=True).start()
    return renewal
