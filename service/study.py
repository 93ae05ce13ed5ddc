"""Study queries: two-tile words, anagrams, pattern search — thin wrappers over lextools.core.search."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, current_app

from lextools.core import search
from lextools.core.budget import Budget
from lextools.core.errors import PositionError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.features import answers
from service.errors import ServiceError, bad_request
from service.inputs import bool_arg, choice_arg, int_arg, text_arg
from service.lexicons import lexicon

bp = Blueprint("study", __name__, url_prefix="/v1/<edition>")


@bp.get("/two-tile-words")
def two_tile_words(edition: str) -> dict[str, Any]:
    return answers.two_tile(lexicon(edition))


@bp.get("/anagrams/<path:rack>")
def anagrams(edition: str, rack: str) -> dict[str, Any]:
    """``?`` in the rack is a blank — send it as ``%3F``, or the URL's query string starts there."""
    lex = lexicon(edition)
    sub = bool_arg("sub")
    min_length = int_arg("min_length", 1, search.MAX_QUERY_TILES) or 2
    limit, after = _page(lex, "r")
    key, blanks = search.parse_rack(rack, lex)
    most = current_app.config["MAX_RACK_BLANKS"]
    if blanks > most:  # each blank multiplies the walk: 15 of them enumerate the whole lexicon
        raise bad_request(message("rack_blanks", max=most))
    with walking(limit) as budget:
        matches = search.anagrams(lex, key, blanks, sub=sub, min_length=min_length, budget=budget, after=after)
    return answers.anagrams(lex, rack, blanks, sub, min_length, matches, _page_answer(lex, "r", budget, len(matches)))


@bp.get("/search")
def search_words(edition: str) -> dict[str, Any]:
    """Words meeting every constraint given, a page at a time; ``next_cursor`` fetches the next page."""
    lex = lexicon(edition)
    order = choice_arg("order", search.ORDERS, search.ORDERS[0])
    limit, after = _page(lex, order[0])
    with walking(limit) as budget:
        keys = list(
            search.find(
                lex,
                pattern=text_arg("pattern"),
                length=int_arg("length", 1, search.MAX_QUERY_TILES),
                contains=text_arg("contains"),
                starts=text_arg("starts"),
                ends=text_arg("ends"),
                order=order,
                budget=budget,
                after=after,
            )
        )
    return answers.search_page(lex, order, keys, _page_answer(lex, order[0], budget, len(keys)))


# -- pages and cursors --------------------------------------------------------------------------------
#
# A cursor is "<kind><position>.<generation>": the kind of walk (a: search in alpha order,
# p: in probability order, r: anagrams of a rack), the library's resume position in base64url, and
# the first 16 hex digits of the checksum of the lexicon that walked. A position means nothing in
# another lexicon, so a cursor from an older one is refused (stale_cursor) rather than resumed.

_CURSOR = re.compile(r"([apr])([A-Za-z0-9_-]{0,400})\.([0-9a-f]{16})")


def _page(lex: Lexicon, kind: str) -> tuple[int, str | None]:
    """The words this page may hold, and the position it resumes from."""
    config = current_app.config
    limit = int_arg("limit", 1, config["SEARCH_MAX_LIMIT"]) or config["SEARCH_LIMIT"]
    cursor = text_arg("cursor")
    if cursor is None:
        return limit, None
    match = _CURSOR.fullmatch(cursor)
    if match is None or match[1] != kind:
        raise bad_request(message("bad_cursor"))
    if match[3] != lex.checksum[:16]:
        raise ServiceError(400, "stale_cursor", message("stale_cursor"))
    try:
        position = base64.urlsafe_b64decode(match[2] + "=" * (-len(match[2]) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise bad_request(message("bad_cursor")) from None
    return limit, position


#: Where :func:`service.create_app` keeps the semaphore of budgeted walks.
WALKS = "lextools.walks"


@contextmanager
def walking(limit: int) -> Iterator[Budget]:
    """The budget of one page: ``limit`` words, ``SEARCH_BUDGET_MS`` of work from when its turn comes.

    A worker runs at most ``SEARCH_CONCURRENCY`` walks at once; the others wait for their turn
    without using the CPU. A walk pauses every few milliseconds for the look-ups waiting behind it,
    and each walk running at once adds a pause's worth of wait to every look-up: a few clients
    looping the costliest queries then slow down each other, not the look-ups. A position the library
    cannot resume from came from a cursor a client made up: a bad cursor.
    """
    with current_app.extensions[WALKS]:
        try:
            yield Budget(seconds=current_app.config["SEARCH_BUDGET_MS"] / 1000, results=limit)
        except PositionError:
            raise bad_request(message("bad_cursor")) from None


def _page_answer(lex: Lexicon, kind: str, budget: Budget, count: int) -> dict[str, Any]:
    cursor = None
    if budget.resume is not None:
        position = base64.urlsafe_b64encode(budget.resume.encode()).decode().rstrip("=")
        cursor = f"{kind}{position}.{lex.checksum[:16]}"
    return answers.page(count, budget.truncated, cursor)
