"""Study queries: two-tile words, anagrams, pattern search — thin wrappers over lextools.search."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from lextools import answers, search
from lextools.lexicon import Lexicon
from service.errors import bad_request
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
    key, blanks = search.parse_rack(rack, lex)
    most = current_app.config["MAX_RACK_BLANKS"]
    if blanks > most:  # each blank multiplies the walk: 15 of them enumerate the whole lexicon
        raise bad_request(f"a rack has at most {most} blanks")
    return answers.anagrams(lex, rack, key, blanks, sub, min_length)


@bp.get("/search")
def search_words(edition: str) -> dict[str, Any]:
    """Words meeting every constraint given, a page at a time; ``next_cursor`` fetches the next page."""
    lex = lexicon(edition)
    order = choice_arg("order", ("alpha", "probability"), "alpha")
    limit = int_arg("limit", 1, current_app.config["SEARCH_MAX_LIMIT"]) or current_app.config["SEARCH_LIMIT"]
    offset = _offset(text_arg("cursor"), lex)
    keys = search.find(
        lex,
        pattern=text_arg("pattern"),
        length=int_arg("length", 1, search.MAX_QUERY_TILES),
        contains=text_arg("contains"),
        starts=text_arg("starts"),
        ends=text_arg("ends"),
    )
    found = search.ordered(lex, list(keys), order)
    page = found[offset : offset + limit]
    end = offset + len(page)
    return answers.search_page(lex, order, found, page, _cursor(end, lex) if end < len(found) else None)


def _cursor(offset: int, lex: Lexicon) -> str:
    """Opaque to clients: where the next page starts, and which lexicon generation it belongs to."""
    return f"{offset}.{lex.checksum[:16]}"


def _offset(cursor: str | None, lex: Lexicon) -> int:
    if cursor is None:
        return 0
    offset, _, generation = cursor.partition(".")
    if not (offset.isdigit() and len(offset) <= 9 and generation):
        raise bad_request("cursor is not one this service issued")
    if generation != lex.checksum[:16]:
        raise bad_request("the lexicon changed since this cursor was issued: start the search again")
    return int(offset)
