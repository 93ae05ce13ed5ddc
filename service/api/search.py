"""Study queries: two-tile words, anagrams, pattern search — thin wrappers over lextools.core.search."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from flask import Blueprint, current_app, request
from marshmallow.fields import Field

from lextools.core import search
from lextools.core.budget import Budget
from lextools.core.conditions import (
    ANAGRAM,
    MAX_LIST_WORDS,
    PATTERN,
    Condition,
    Conditions,
    Negation,
    conditions,
    parameters,
)
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.core.search.anagrams_by_probability import ranked_anagrams
from lextools.core.spelling import MAX_INPUT_CHARS
from lextools.features import answers
from service.api.walks import walking
from service.contract.operations import EditionQuery, operation
from service.contract.params import Choice, ConfigValue, Flag, Query, Text, WholeNumber, load
from service.contract.schemas import (
    Answer,
    Entry,
    Limit,
    Limited,
    Page,
    bool_field,
    int_field,
    nested_list,
    str_field,
    str_list,
)
from service.http.errors import ServiceError, bad_request
from service.http.lexicons import lexicon

bp = Blueprint("study", __name__, url_prefix="/v1/<edition>")


def _limit() -> WholeNumber:
    """How many words a page of a budgeted walk (search, anagrams) holds."""
    return WholeNumber(
        1, "SEARCH_MAX_LIMIT", load_default=ConfigValue("SEARCH_LIMIT"),
        metadata={
            "description": Limited(
                "words per page; a page also stops after {SEARCH_BUDGET_MS} ms of work (the search page"
                " gathers a whole result through next_cursor up to {SEARCH_WHOLE_LIMIT} words)"
            )
        },
    )  # fmt: skip


def _cursor() -> Text:
    """Where a page of a budgeted walk resumes."""
    return Text(metadata={"description": "next_cursor of the previous page: resumes where its work stopped"})


def condition_field(condition: Condition | Negation, query: str | None = None) -> Field:
    """A search condition's query parameter (a row of :data:`lextools.core.conditions.CONDITIONS`, or
    a test's negation): its kind's field, its bounds, its default on ``query`` and, as its
    description, the row's help."""
    about: dict[str, Any] = {"metadata": {"description": condition.help.en}}
    if isinstance(condition, Negation):
        return Flag(**about)
    if condition.kind == "words":
        about["metadata"]["x-maxWords"] = MAX_LIST_WORDS
    default = condition.default_for(query)
    if default is not None:
        about["load_default"] = default
    if condition.kind == "number":
        return WholeNumber(*condition.bounds, **about)
    return Flag(**about) if condition.kind == "flag" else Text(**about)


def condition_fields(query: str | None = None) -> dict[str, Field]:
    """Every search condition's query parameter on ``query`` (None: no query's own defaults), in the
    table's order with each test's negation after it: a query schema's ``Meta.include``."""
    return {c.name: condition_field(c, query) for c in parameters()}


class ConditionsQuery(EditionQuery):
    """The search conditions a player combines (:mod:`lextools.core.conditions`), the same on a search
    and an anagram query, each a field made from its row of the table; each query takes them with
    its own defaults (an anagram query's ``min_length`` is 2)."""

    class Meta(EditionQuery.Meta):
        include = condition_fields()


class AnagramsQuery(ConditionsQuery):
    class Meta(EditionQuery.Meta):
        include = condition_fields(ANAGRAM)

    sub = Flag(load_default=False, metadata={"description": "subanagrams too"})
    order = Choice(
        search.ORDERS,
        load_default=search.ORDERS[0],
        metadata={
            "description": "alpha: longest first in tiles, then the edition's alphabet; probability: "
            "shorter first in tiles, then the likeliest draw first (Zyzzyva's order)"
        },
    )
    limit = _limit()
    cursor = _cursor()


class SearchQuery(ConditionsQuery):
    """In the order the service has always checked them (the first refused one is answered): the
    page's parameters, then, once the cursor is read, the filters."""

    class Meta(EditionQuery.Meta):
        include = condition_fields(PATTERN)

    order = Choice(search.ORDERS, load_default=search.ORDERS[0], metadata={"description": "result order"})
    limit = _limit()
    cursor = _cursor()
    pattern = Text(
        metadata={
            "maxLength": MAX_INPUT_CHARS,
            "description": "? is one tile, * any run of tiles; tiles in any notation",
        }
    )
    length = WholeNumber(1, search.MAX_QUERY_TILES, metadata={"description": "length in tiles"})
    contains = Text(metadata={"description": "tiles the word contains"})


#: The names of the conditions' query parameters (those :func:`lextools.core.conditions.conditions`
#: takes; a search's start and end are the walk's own, unless negated).
CONDITION_PARAMETERS = tuple(c.name for c in parameters() if c.name not in ("starts", "ends"))


def _conditions(lex: Lexicon, query: type[Query], **also: Any) -> Conditions:
    """The conditions of a request (the query's condition parameters, and ``also`` those the view read)."""
    given = load(query, *CONDITION_PARAMETERS)
    return conditions(lex, **{name: given.get(name) for name in CONDITION_PARAMETERS}, **also)


def _negated_ends(params: dict[str, Any]) -> dict[str, Any]:
    """A search's start and end that are negated, as conditions (the walk takes only those kept)."""
    negated = load(SearchQuery, "not_starts", "not_ends")
    return {name: params.pop(name, None) for name in ("starts", "ends") if negated.get(f"not_{name}")}


class TwoTileWords(Answer):
    """Words."""

    edition = str_field(required=True)
    count = int_field(required=True)
    words = nested_list(Entry, required=True)


class BlankEntry(Entry):
    """A word a rack makes, with the tiles its blanks stand for."""

    blanks = str_list(required=True)


class Anagrams(Page):
    """Anagrams, longest first in tiles, then in the edition's alphabetical order."""

    edition = str_field(required=True)
    rack = str_field(required=True)
    blanks = int_field(required=True, metadata={"maximum": Limit("MAX_RACK_BLANKS")})
    sub = bool_field(required=True)
    min_length = int_field(required=True)
    words = nested_list(BlankEntry, required=True)
    order = str_field("present when asked for: probability", metadata={"enum": list(search.ORDERS)})


class SearchPage(Page):
    """A page."""

    edition = str_field(required=True)
    order = str_field(required=True, metadata={"enum": list(search.ORDERS)})
    words = nested_list(Entry, required=True)


@operation(bp, "/two-tile-words", operationId="twoTileWords", answer=TwoTileWords, errors=(400, 404, 503))
def two_tile_words(edition: str) -> dict[str, Any]:
    """Words of two tiles (es-fise: includes CHA, CHE, CHO, LLE)."""
    return answers.two_tile(lexicon(edition))


@operation(
    bp,
    "/anagrams/<path:rack>",
    query=AnagramsQuery,
    parameters=(
        {
            "name": "rack",
            "in": "path",
            "required": True,
            "schema": {"type": "string"},
            "description": "tiles in any notation, ? for a blank",
        },
    ),
    operationId="anagrams",
    answer=Anagrams,
    errors=(400, 404, 503),
)
def anagrams(edition: str, rack: str) -> dict[str, Any]:
    """Anagrams of a rack; ? (sent as %3F) is a blank.

    ``?`` in the rack is a blank — send it as ``%3F``, or the URL's query string starts there."""
    lex = lexicon(edition)
    params = load(AnagramsQuery, "sub", "min_length", "order", "limit", "cursor", "starts", "ends")
    sub, min_length, order = params["sub"], params["min_length"], params["order"]
    kind = "r" if order == "alpha" else "q"
    limit, after = _page(lex, kind, params)
    key, blanks = search.parse_rack(rack, lex)
    most = current_app.config["MAX_RACK_BLANKS"]
    if blanks > most:  # each blank multiplies the walk: 15 of them enumerate the whole lexicon
        raise bad_request(message("rack_blanks", max=most))
    cond = _conditions(lex, AnagramsQuery, starts=params.get("starts"), ends=params.get("ends"))
    with walking(limit, small=search.at_once(lex, key, blanks, sub)) as budget:
        if order == "alpha":
            matches = search.anagrams(
                lex, key, blanks, sub=sub, min_length=min_length, budget=budget, after=after, conditions=cond
            )
        else:
            matches = ranked_anagrams(lex, key, blanks, sub, min_length, cond, budget=budget, after=after)
    answer = answers.anagrams(
        lex, rack, blanks, sub, min_length, matches, _page_answer(lex, kind, budget, len(matches))
    )
    if order != "alpha":  # the answers of before keep their shape: order is said only when asked for
        answer["order"] = order
    return answer


@operation(bp, "/search", query=SearchQuery, operationId="search", answer=SearchPage, errors=(400, 404, 503))
def search_words(edition: str) -> dict[str, Any]:
    """Words by pattern, length, contained tiles, start and end; paged.

    Words meeting every constraint given, a page at a time; ``next_cursor`` fetches the next page."""
    lex = lexicon(edition)
    page = load(SearchQuery, "order", "limit", "cursor")  # a bad cursor is refused before the filters
    order = page["order"]
    limit, after = _page(lex, order[0], page)
    params = load(SearchQuery, "pattern", "length", "contains", "starts", "ends")
    cond = _conditions(lex, SearchQuery, **_negated_ends(params))
    with walking(limit) as budget:
        keys = list(
            search.find(
                lex,
                pattern=params.get("pattern", request.args.get("pattern")),  # ?pattern= is refused, not "any"
                length=params.get("length"),
                contains=params.get("contains"),
                starts=params.get("starts"),
                ends=params.get("ends"),
                order=order,
                budget=budget,
                after=after,
                conditions=cond,
            )
        )
    return answers.search_page(lex, order, keys, _page_answer(lex, order[0], budget, len(keys)))


# -- pages and cursors --------------------------------------------------------------------------------
#
# A cursor is "<kind><position>.<generation>": the kind of walk (a: search in alpha order,
# p: in probability order, r: anagrams of a rack, q: anagrams in probability order), the library's
# resume position in base64url, and the first 16 hex digits of the checksum of the lexicon that
# walked. A position means nothing in another lexicon, so a cursor from an older one is refused
# (stale_cursor) rather than resumed.

_CURSOR = re.compile(r"([aprq])([A-Za-z0-9_-]{0,400})\.([0-9a-f]{16})")


def _page(lex: Lexicon, kind: str, params: dict[str, Any]) -> tuple[int, str | None]:
    """The words this page may hold, and the position it resumes from (``params``: those of its query)."""
    limit: int = params["limit"]
    cursor = params.get("cursor")
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


def _page_answer(lex: Lexicon, kind: str, budget: Budget, count: int) -> dict[str, Any]:
    cursor = None
    if budget.resume is not None:
        position = base64.urlsafe_b64encode(budget.resume.encode()).decode().rstrip("=")
        cursor = f"{kind}{position}.{lex.checksum[:16]}"
    return answers.page(count, budget.truncated, cursor)
