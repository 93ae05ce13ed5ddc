"""Validity: one word, a batch, hooks and score (challenges are in service/judge/challenge.py).

Each route is a thin layer over :mod:`lextools.features.answers`, which the CLI's ``--json`` prints too. The
answers of the two hot routes, one word and a batch, are built by :func:`word_answer` and
:func:`lextools.features.answers.check`, which service/api/hot_routes.py calls too when it answers them without Flask.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app
from marshmallow import fields

from lextools.core.edition import load_edition
from lextools.core.errors import CorruptLexiconError, LexiconNotFoundError
from lextools.core.lexicon import Lexicon
from lextools.features import answers
from lextools.features.card import word_card
from lextools.features.explain import Sidecar, explain_result
from service.contract.bodies import Body, Words, load_body
from service.contract.operations import EditionQuery, operation
from service.contract.params import Positions, load
from service.contract.schemas import (
    Answer,
    Entry,
    LookedUp,
    WordResult,
    bool_field,
    int_field,
    nested_field,
    nested_list,
    str_field,
    str_list,
)
from service.http.language import request_language
from service.http.lexicons import lexicon, lexicons

bp = Blueprint("words", __name__, url_prefix="/v1/<edition>")


class ScoreQuery(EditionQuery):
    blank = Positions(metadata={"description": "1-based position of a tile played with a blank (repeatable)"})


class Hooks(Answer):
    front = str_list(required=True)
    back = str_list(required=True)
    front_inner = bool_field(required=True)
    back_inner = bool_field(required=True)


class WordAnswer(WordResult):
    """The word.

    ``GET /v1/{edition}/words/{word}``: the look-up, explained, with its hooks."""

    rule = str_field("the build rule that removed an invalid word", allow_none=True)
    sources = str_list("for a valid word: the sources that list it")
    hooks = nested_field(Hooks, required=True)


class Rank(Answer):
    rank = int_field("1-based, among the words of its length in tiles", required=True)
    of = int_field("words of that length", required=True)
    order = str_field(required=True, metadata={"enum": ["probability", "alpha"]})


class CardHooks(Hooks):
    hooked = str_field("the word with inner-hook dots: ·ALA·", required=True)


class WordCard(WordResult):
    """The card.

    What ``lextools card EDITION WORD --json`` prints (:func:`lextools.features.card.word_card`)."""

    edition = str_field(required=True)
    values = fields.List(fields.Integer(allow_none=True), required=True, metadata={"description": "each tile's value"})
    alphagram = str_field("the tiles in the edition's alphabet", required=True)
    alphagram_tiles = str_list(required=True)
    rank = nested_field(
        Rank,
        "null for a word not in the lexicon; alpha where tile counts are unverified",
        required=True,
        allow_none=True,
    )
    anagrams = nested_list(Entry, "the other words of its tiles", required=True)
    hooks = nested_field(CardHooks, required=True)
    rule = str_field("the build rule that removed an invalid word", required=True, allow_none=True)
    sources = str_list("for a valid word: the sources that list it", required=True)


class HooksAnswer(LookedUp, Hooks):
    """Hooks.

    The look-up and its hooks."""


class CheckBody(Body):
    words = Words(limit="MAX_BATCH", allow_empty=True, required=True)


class CheckAnswer(Answer):
    """Results."""

    edition = str_field(required=True)
    results = nested_list(WordResult, required=True)


class ScoredTile(Answer):
    tile = str_field(required=True)
    blank = bool_field(required=True)
    value = int_field(required=True, allow_none=True)


class OverBag(Answer):
    tile = str_field("a tile label, or ? for the blanks", required=True)
    needs = int_field(required=True)
    bag = int_field(required=True)


class Score(Answer):
    """The score."""

    input = str_field(required=True)
    word = str_field(required=True)
    tiles = nested_list(ScoredTile, required=True)
    score = int_field(required=True, allow_none=True)
    verified = bool_field(required=True)
    valid = bool_field(
        "whether the word is in the edition's lexicon; null where this server has none it can read",
        required=True,
        allow_none=True,
    )
    over_bag = nested_list(
        OverBag,
        "the tiles the word needs more of than the bag holds ([] when none); "
        "null where the edition's tile counts are unverified",
        required=True,
        allow_none=True,
    )


@operation(bp, "/words/<path:word>", operationId="getWord", answer=WordAnswer, errors=(400, 404, 422, 503))
def word(edition: str, word: str) -> dict[str, Any]:
    """Validity, tiles, score and hooks of one word."""
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


@operation(bp, "/card/<path:word>", operationId="getWordCard", answer=WordCard, errors=(400, 404, 422, 503))
def card(edition: str, word: str) -> dict[str, Any]:
    """The word card: tiles, score, alphagram, probability rank, anagrams, hooks, sources or reason.

    What ``lextools card EDITION WORD --json`` prints (:func:`lextools.features.card.word_card`)."""
    lex = lexicon(edition)
    return word_card(lex, word, request_language(), lexicons().sidecar(lex))


@operation(bp, "/check", "POST", operationId="check", body=CheckBody, answer=CheckAnswer, errors=(400, 404, 413, 503))
def check(edition: str) -> dict[str, Any]:
    """Validity of up to {MAX_BATCH} words, one result per word in order."""
    lex = lexicon(edition)
    words = load_body(CheckBody)["words"]
    return answers.check(lex, words, request_language(), current_app.config["LEXICONS"])


@operation(bp, "/hooks/<path:word>", operationId="getHooks", answer=HooksAnswer, errors=(400, 404, 422, 503))
def hooks(edition: str, word: str) -> dict[str, Any]:
    """Front and back hook tiles, and inner-hook flags."""
    return answers.hooks(lexicon(edition), word)


@operation(bp, "/score/<path:word>", query=ScoreQuery, operationId="getScore", answer=Score, errors=(400, 404, 422))
def score(edition: str, word: str) -> dict[str, Any]:
    """Score tile by tile (no board premiums).

    Tile by tile, no board premiums; ``?blank=2`` (1-based, repeatable) marks a tile played by a blank.

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
