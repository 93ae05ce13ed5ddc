"""The turns of the budgeted walks over a lexicon's keys: a search or anagram page
(service/api/search.py) and the first request of a list that teaches (service/api/study_lists.py).

A worker runs at most ``SEARCH_CONCURRENCY`` walks at once in each of two lanes; the others wait
for their turn without using the CPU. The small lane is for the queries players ask all the time
(a rack of seven tiles, answered in milliseconds), so they never wait behind a 13-tile rack's page
of 200 ms; every other walk takes the large lane. A walk pauses every few milliseconds for the
look-ups waiting behind it, and each walk running at once adds a pause's worth of wait to every
look-up: a few clients looping the costliest queries then slow down each other, not the look-ups.
The background jobs a walk starts belong to its client (:func:`lextools.core.background.for_client`),
so one client's jobs are bounded and its oldest cancelled, not everyone's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from flask import Flask, current_app

from lextools.core import background
from lextools.core.budget import Budget
from lextools.core.errors import PositionError
from lextools.core.messages import message
from service.http.clients import client_address
from service.http.errors import bad_request

T = TypeVar("T")

#: Where :func:`init_app` keeps the semaphores of budgeted walks: the large lane's, the small lane's.
WALKS = "lextools.walks"
SMALL_WALKS = "lextools.walks.small"


def init_app(app: Flask) -> None:
    app.extensions[WALKS] = threading.BoundedSemaphore(app.config["SEARCH_CONCURRENCY"])
    app.extensions[SMALL_WALKS] = threading.BoundedSemaphore(app.config["SEARCH_CONCURRENCY"])


@contextmanager
def walking(limit: int, small: bool = False) -> Iterator[Budget]:
    """The budget of one page: ``limit`` words, ``SEARCH_BUDGET_MS`` of work from when its turn comes
    in its lane (``small``: a query of milliseconds). A position the library cannot resume from came
    from a cursor a client made up: a bad cursor."""
    with current_app.extensions[SMALL_WALKS if small else WALKS], background.for_client(client_address()):
        try:
            yield Budget(seconds=current_app.config["SEARCH_BUDGET_MS"] / 1000, results=limit)
        except PositionError:
            raise bad_request(message("bad_cursor")) from None


def in_turn(compute: Callable[[], T]) -> T:
    """``compute()``, run in its turn among the worker's large walks (a list's first answer)."""
    with current_app.extensions[WALKS], background.for_client(client_address()):
        return compute()
