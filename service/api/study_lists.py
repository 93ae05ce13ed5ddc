"""Lists that teach (:mod:`lextools.features.lists`): stems, words with a high-value tile, words new in
a lexicon, and a quiz on any list — the study page's lists, the same answers as ``lextools lists``.

A stems list is computed at its first request in a worker and kept with the loaded lexicon, so the
pages after it are slices (bench/README.md has the figures). The first request of a list is a walk
over the lexicon's keys: it takes its turn among the worker's budgeted walks (``SEARCH_CONCURRENCY``
at once, :mod:`service.api.walks`), so clients asking for many lists at once slow
down each other, not the look-ups.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from lextools.core.edition import edition_names
from lextools.core.messages import message
from lextools.features import lists, quiz
from service.api.walks import in_turn
from service.contract.operations import EditionQuery, operation
from service.contract.params import Choice, Text, WholeNumber, load
from service.contract.schemas import errors, json_response, nullable, obj, ref, strings
from service.http.errors import bad_request
from service.http.inputs import json_body, words_of
from service.http.language import request_language
from service.http.lexicons import lexicon

bp = Blueprint("lists", __name__, url_prefix="/v1/<edition>/lists")


class PageQuery(EditionQuery):
    start = WholeNumber(
        1, quiz.MAX_RANK, data_key="from", load_default=1, metadata={"description": "first item, 1-based"}
    )
    count = WholeNumber(1, lists.MAX_PAGE, load_default=lists.DEFAULT_PAGE, metadata={"description": "items"})


class StemsQuery(PageQuery):
    length = Choice(tuple(map(str, lists.STEM_LENGTHS)), load_default="6", metadata={"description": "tiles in a stem"})


class TileQuery(PageQuery):
    tile = Text(metadata={"description": "a tile worth 5 or more, in any notation (default: the first)"})
    length = WholeNumber(quiz.MIN_LENGTH, quiz.MAX_LENGTH, metadata={"description": "tiles (default: any)"})


class NewQuery(PageQuery):
    against = Choice(tuple(edition_names()), metadata={"description": "the other edition (a lexicon this server has)"})
    length = WholeNumber(quiz.MIN_LENGTH, quiz.MAX_LENGTH, metadata={"description": "tiles (default: any)"})


def _page(**fields: Any) -> dict[str, Any]:
    return obj(
        ["edition", "list", "from", "total", "count"],
        edition={"type": "string"},
        list={"type": "string"},
        total={"type": "integer", "description": "items in the whole list"},
        count={"type": "integer", "description": "items in this page"},
        **{"from": {"type": "integer"}},
        **fields,
    )


_WORDS = {"type": "array", "items": ref("Entry")}
_STEM = obj(
    ["rank", "stem", "tiles", "takes", "rack", "words"],
    rank={"type": "integer"},
    stem={"type": "string"},
    tiles=strings(),
    takes={**strings(), "description": "the tiles that make a word with the stem"},
    rack={"type": "string", "description": "the stem and a blank: a question of its quiz"},
    words={"type": "array", "items": {"allOf": [ref("Entry"), obj(["tile"], tile={"type": "string"})]}},
)


@operation(
    bp,
    "/stems",
    query=StemsQuery,
    summary="Stems of 6 or 7 tiles, ranked by how many tiles make a word with them, each with its words",
    operationId="stems",
    responses={
        "200": json_response(_page(length={"type": "integer"}, stems={"type": "array", "items": _STEM}), "A page"),
        **errors(400, 404, 503),
    },
)
def stems(edition: str) -> dict[str, Any]:
    params = load(StemsQuery)
    lex = lexicon(edition)
    return in_turn(lambda: lists.stems(lex, int(params["length"]), params["start"], params["count"]))


@operation(
    bp,
    "/high-value",
    query=TileQuery,
    summary=f"Words with a tile worth {quiz.HIGH_VALUE} or more, shortest first",
    operationId="highValueWords",
    responses={
        "200": json_response(
            _page(tile={"type": "string"}, tiles=strings(), length=nullable("integer"), words=_WORDS), "A page"
        ),
        **errors(400, 404, 503),
    },
)
def high_value(edition: str) -> dict[str, Any]:
    lex = lexicon(edition)
    params = load(TileQuery)
    tile = params.get("tile") or next(iter(lists.high_value_tiles(lex.edition)), "")
    return in_turn(lambda: lists.with_tile(lex, tile, params.get("length"), params["start"], params["count"]))


@operation(
    bp,
    "/new",
    query=NewQuery,
    summary="Words of this lexicon that another lacks (compared by spelling), shortest first",
    operationId="newWords",
    responses={
        "200": json_response(_page(against={"type": "string"}, length=nullable("integer"), words=_WORDS), "A page"),
        **errors(400, 404, 503),
    },
)
def new_words(edition: str) -> dict[str, Any]:
    params = load(NewQuery)
    lex = lexicon(edition)
    if "against" not in params:
        raise bad_request(message("one_of", name="against", choices=", ".join(edition_names())))
    other = lexicon(params["against"])
    return in_turn(lambda: lists.new_words(lex, other, params.get("length"), params["start"], params["count"]))


@operation(
    bp,
    "/quiz",
    "POST",
    query=EditionQuery,
    summary=f"Anagram questions on a list: up to {lists.MAX_QUIZ_ITEMS} words or racks (a stem and a blank)",
    operationId="listQuiz",
    requestBody={
        "required": True,
        "content": {
            "application/json": {
                "schema": obj(
                    [],
                    words={**strings(), "description": "words in any notation; those not valid are refused"},
                    racks={**strings(), "description": "racks, ? for one blank"},
                )
            }
        },
        "description": "Read as JSON whatever the Content-Type.",
    },
    responses={
        "200": json_response(
            obj(
                ["edition", "type", "count", "questions", "refused"],
                edition={"type": "string"},
                type={"type": "string", "enum": ["anagram"]},
                count={"type": "integer"},
                questions={"type": "array", "items": ref("QuizQuestion")},
                refused={
                    "type": "array",
                    "items": obj(["text", "reason"], text={"type": "string"}, reason={"type": "string"}),
                },
            ),
            "The questions, and what was left out with the reason",
        ),
        **errors(400, 404, 413, 503),
    },
)
def list_quiz(edition: str) -> dict[str, Any]:
    lex = lexicon(edition)
    body = json_body()
    words = words_of({"words": body.get("words", [])}, allow_empty=True, limit=lists.MAX_QUIZ_ITEMS)
    racks = words_of({"words": body.get("racks", [])}, allow_empty=True, limit=lists.MAX_QUIZ_ITEMS)
    lang = request_language()
    return in_turn(lambda: lists.list_quiz(lex, words, racks, lang))
