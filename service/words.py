"""Validity: one word, a batch, hooks and score (challenges are in service/challenge.py).

Each route is a thin layer over :mod:`lextools.features.answers`, which the CLI's ``--json`` prints too. The
answers of the two hot routes, one word and a batch, are built by :func:`word_answer` and
:func:`lextools.features.answers.check`, which service/hot.py calls too when it answers them without Flask.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, request

from lextools.core.edition import load_edition
from lextools.core.errors import QueryError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.features import answers
from lextools.features.explain import Sidecar, explain_result
from service.inputs import json_body, words_of
from service.language import request_language
from service.lexicons import lexicon, lexicons

bp = Blueprint("words", __name__, url_prefix="/v1/<edition>")


@bp.get("/words/<path:word>")
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


@bp.post("/check")
def check(edition: str) -> dict[str, Any]:
    lex = lexicon(edition)
    return answers.check(
        lex, words_of(json_body(), allow_empty=True), request_language(), current_app.config["LEXICONS"]
    )


@bp.get("/hooks/<path:word>")
def hooks(edition: str, word: str) -> dict[str, Any]:
    return answers.hooks(lexicon(edition), word)


@bp.get("/score/<path:word>")
def score(edition: str, word: str) -> dict[str, Any]:
    """Tile by tile, no board premiums; ``?blank=2`` (1-based, repeatable) marks a tile played by a blank.

    Needs only the edition's tile table, not a built lexicon.
    """
    blanks = []
    for text in request.args.getlist("blank"):
        if not (text.isascii() and text.isdigit() and len(text) <= 2):
            raise QueryError(message("blank_position_number", text=repr(text)))
        blanks.append(int(text))
    return answers.score(load_edition(edition), word, blanks)
