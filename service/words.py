"""Validity: one word, a batch, hooks and score (challenges are in service/challenge.py).

Each route is a thin layer over :mod:`lextools.answers`, which the CLI's ``--json`` prints too.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, request

from lextools import answers
from lextools.edition import load_edition
from lextools.errors import QueryError
from lextools.explain import explain
from lextools.messages import message
from service.inputs import json_body, words_of
from service.language import request_language
from service.lexicons import lexicon

bp = Blueprint("words", __name__, url_prefix="/v1/<edition>")


@bp.get("/words/<path:word>")
def word(edition: str, word: str) -> dict[str, Any]:
    lex = lexicon(edition)
    result = answers.spelled(lex, word)
    home = current_app.config["LEXICONS"]
    why = explain(lex, word, home)  # an invalid word's reason names the rule that removed it
    return {
        **answers.explained(lex, result, request_language(), home),
        "rule": why.rule,
        "sources": list(why.sources),
        "hooks": answers.hook_tiles(lex, result),
    }


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
