"""Validity: one word, a batch, hooks and score (challenges are in service/judge/challenge.py).

Each route is a thin layer over :mod:`lextools.features.answers`, which the CLI's ``--json`` prints too. The
answers of the two hot routes, one word and a batch, are built by :func:`word_answer` and
:func:`lextools.features.answers.check`, which service/api/hot_routes.py calls too when it answers them without Flask.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from lextools.core.edition import load_edition
from lextools.core.errors import CorruptLexiconError, LexiconNotFoundError
from lextools.core.lexicon import Lexicon
from lextools.features import answers
from lextools.features.card import word_card
from lextools.features.explain import Sidecar, explain_result
from service.contract.operations import EditionQuery, operation
from service.contract.params import Positions, load
from service.contract.schemas import Limit, Limited, errors, json_response, nullable, obj, ref
from service.http.inputs import json_body, words_of
from service.http.language import request_language
from service.http.lexicons import lexicon, lexicons

bp = Blueprint("words", __name__, url_prefix="/v1/<edition>")


class ScoreQuery(EditionQuery):
    blank = Positions(metadata={"description": "1-based position of a tile played with a blank (repeatable)"})


_SCORE = obj(
    ["input", "word", "tiles", "score", "verified", "valid", "over_bag"],
    input={"type": "string"},
    word={"type": "string"},
    tiles={
        "type": "array",
        "items": obj(
            ["tile", "blank", "value"], tile={"type": "string"}, blank={"type": "boolean"}, value=nullable("integer")
        ),
    },
    score=nullable("integer"),
    verified={"type": "boolean"},
    valid={
        **nullable("boolean"),
        "description": "whether the word is in the edition's lexicon; null where this server has none it can read",
    },
    over_bag={
        **nullable("array"),
        "items": obj(
            ["tile", "needs", "bag"],
            tile={"type": "string", "description": "a tile label, or ? for the blanks"},
            needs={"type": "integer"},
            bag={"type": "integer"},
        ),
        "description": "the tiles the word needs more of than the bag holds ([] when none); "
        "null where the edition's tile counts are unverified",
    },
)


@operation(
    bp,
    "/words/<path:word>",
    query=EditionQuery,
    summary="Validity, tiles, score and hooks of one word",
    operationId="getWord",
    responses={"200": json_response(ref("WordAnswer"), "The word"), **errors(400, 404, 422, 503)},
)
def word(edition: str, word: str) -> dict[str, Any]:
    lex = lexicon(edition)
    return word_answer(lex, word, request_language(), lexicons().sidecar(lex))


def word_answer(lex: Lexicon, word: str, lang: str, sidecar: Sidecar | None) -> dict[str, Any]:
    """``GET /v1/{edition}/words/{word}``: the look-up, its explanation from the lexicon's ``sidecar``
    (an invalid word's reason names the rule that removed it; a valid word's sources) and its hooks.
    A word the edition cannot spell raises its :class:`~lextools.core.errors.SpellingError` (422)."""
    result = answers.spelled(lex, word)
    why = explain_result(lex, result, sidecar)
    out = answers.described(result, lex.edition, lang, why)  # a new dict: the fields are added in place
    out["rule"] = why.rule
    out["sources"] = list(why.sources)
    out["hooks"] = answers.hook_tiles(lex, result)
    return out


@operation(
    bp,
    "/card/<path:word>",
    query=EditionQuery,
    summary="The word card: tiles, score, alphagram, probability rank, anagrams, hooks, sources or reason",
    operationId="getWordCard",
    responses={"200": json_response(ref("WordCard"), "The card"), **errors(400, 404, 422, 503)},
)
def card(edition: str, word: str) -> dict[str, Any]:
    """What ``lextools card EDITION WORD --json`` prints (:func:`lextools.features.card.word_card`)."""
    lex = lexicon(edition)
    return word_card(lex, word, request_language(), lexicons().sidecar(lex))


@operation(
    bp,
    "/check",
    "POST",
    query=EditionQuery,
    summary=Limited("Validity of up to {MAX_BATCH} words, one result per word in order"),
    operationId="check",
    requestBody={
        "required": True,
        "content": {
            "application/json": {
                "schema": obj(
                    ["words"], words={"type": "array", "items": {"type": "string"}, "maxItems": Limit("MAX_BATCH")}
                )
            }
        },
        "description": "Read as JSON whatever the Content-Type.",
    },
    responses={
        "200": json_response(
            obj(
                ["edition", "results"],
                edition={"type": "string"},
                results={"type": "array", "items": ref("WordResult")},
            ),
            "Results",
        ),
        **errors(400, 404, 413, 503),
    },
)
def check(edition: str) -> dict[str, Any]:
    lex = lexicon(edition)
    return answers.check(
        lex, words_of(json_body(), allow_empty=True), request_language(), current_app.config["LEXICONS"]
    )


@operation(
    bp,
    "/hooks/<path:word>",
    query=EditionQuery,
    summary="Front and back hook tiles, and inner-hook flags",
    operationId="getHooks",
    responses={"200": json_response(ref("HooksAnswer"), "Hooks"), **errors(400, 404, 422, 503)},
)
def hooks(edition: str, word: str) -> dict[str, Any]:
    return answers.hooks(lexicon(edition), word)


@operation(
    bp,
    "/score/<path:word>",
    query=ScoreQuery,
    summary="Score tile by tile (no board premiums)",
    operationId="getScore",
    responses={"200": json_response(_SCORE, "The score"), **errors(400, 404, 422)},
)
def score(edition: str, word: str) -> dict[str, Any]:
    """Tile by tile, no board premiums; ``?blank=2`` (1-based, repeatable) marks a tile played by a blank.

    Needs only the edition's tile table, not a built lexicon; with one, the answer says whether the
    word is valid.
    """
    blanks = load(ScoreQuery).get("blank", [])  # refused before an unknown edition, as always
    ed = load_edition(edition)
    try:
        lex: Lexicon | None = lexicon(edition)
    except (LexiconNotFoundError, CorruptLexiconError):  # a score needs only the tile table
        lex = None
    return answers.score(ed, word, blanks, lex)
