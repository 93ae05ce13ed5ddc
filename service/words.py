"""Validity: one word, a batch, hooks and score (challenges are in service/challenge.py)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from lextools.edition import load_edition
from lextools.errors import QueryError, SpellingError
from lextools.lexicon import Lexicon, WordResult
from lextools.messages import message
from lextools.tokenize import spell
from service.inputs import json_body, words_of
from service.language import localized, request_language
from service.lexicons import lexicon

bp = Blueprint("words", __name__, url_prefix="/v1/<edition>")


def _spelled(lex: Lexicon, word: str) -> WordResult:
    """Look a word up; a word the edition cannot spell at all is a 422, with the reason."""
    result = lex.lookup(word)
    if result.word is None:
        lex.spell(word)  # raises the SpellingError itself, which the service words in the client's language
        raise SpellingError(word, result.reason or "cannot be spelled")
    return result


def _hooks(lex: Lexicon, result: WordResult) -> dict[str, Any]:
    h = lex.hooks(lex.edition.encode(result.tiles))
    return {"front": list(h.front), "back": list(h.back), "front_inner": h.front_inner, "back_inner": h.back_inner}


@bp.get("/words/<path:word>")
def word(edition: str, word: str) -> dict[str, Any]:
    lex = lexicon(edition)
    result = _spelled(lex, word)
    return {**result.as_dict(), "hooks": _hooks(lex, result)}


@bp.post("/check")
def check(edition: str) -> dict[str, Any]:
    lex = lexicon(edition)
    words = words_of(json_body(), allow_empty=True)
    lang = request_language()
    return {"edition": edition, "results": [localized(lex.lookup(w), edition, lang) for w in words]}


@bp.get("/hooks/<path:word>")
def hooks(edition: str, word: str) -> dict[str, Any]:
    lex = lexicon(edition)
    result = _spelled(lex, word)
    summary = {"input": result.input, "word": result.word, "tiles": list(result.tiles), "valid": result.valid}
    return {**summary, **_hooks(lex, result)}


@bp.get("/score/<path:word>")
def score(edition: str, word: str) -> dict[str, Any]:
    """Tile by tile, no board premiums; ``?blank=2`` (1-based, repeatable) marks a tile played by a blank.

    Needs only the edition's tile table, not a built lexicon.
    """
    ed = load_edition(edition)
    s = spell(word, ed)
    blanks: set[int] = set()
    for text in request.args.getlist("blank"):
        if not (text.isdecimal() and len(text) <= 2 and 1 <= int(text) <= len(s.tiles)):
            raise QueryError(message("blank_positions", max=len(s.tiles), text=repr(text)))
        blanks.add(int(text) - 1)
    total = ed.score(s.tiles, blanks)
    return {
        "input": word,
        "word": s.word,
        "tiles": [
            {"tile": t, "blank": i in blanks, "value": 0 if i in blanks else ed.by_label[t].value}
            for i, t in enumerate(s.tiles)
        ],
        "score": total,
        "verified": total is not None,
    }
