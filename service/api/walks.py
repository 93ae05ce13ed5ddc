"""The turns of the budgeted walks over a lexicon's keys: a search or anagram page
(service/api/search.py) and the first request of a list that teaches (service/api/study_lists.py).

A worker runs at most ``SEARCH_CONCURRENCY`` walks at once; the others wait for their turn without
using the CPU. A walk pauses every few milliseconds for the look-ups waiting behind it, and each
walk running at once adds a pause's worth of wait to every look-up: a few clients looping the
costliest queries then slow down each other, not the look-ups.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from flask import Flask, current_app

from lextools.core.budget import Budget
from lextools.core.errors import PositionError
from lextools.core.messages import message
from service.http.errors import bad_request

T = TypeVar("T")

#: Where :func:`init_app` keeps the semaphore of budgeted walks.
WALKS = "lextools.walks"


def init_app(app: Flask) -> None:
    app.extensions[WALKS] = threading.BoundedSemaphore(app.config["SEARCH_CONCURRENCY"])


@contextmanager
def walking(limit: int) -> Iterator[Budget]:
    """The budget of one page: ``limit`` words, ``SEARCH_BUDGET_MS`` of work from when its turn comes.
    A position the library cannot resume from came from a cursor a client made up: a bad cursor."""
    with current_app.extensions[WALKS]:
        try:
            yield Budget(seconds=current_app.config["SEARCH_BUDGET_MS"] / 1000, results=limit)
        except PositionError:
            raise bad_request(message("bad_cursor")) from None


def in_turn(compute: Callable[[], T]) -> T:
    """``compute()``, run in its turn among the worker's walks (a list's first answer)."""
    with current_app.extensions[WALKS]:
        return compute()
