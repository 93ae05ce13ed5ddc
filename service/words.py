"""Validity: one word, a batch, a challenge, hooks and score — the routes an arbiter calls."""

from __future__ import annotations

import json
import logging
from typing import Any

from flask import Blueprint, current_app, request

from lextools import answers
from lextools.edition import load_edition
from lextools.errors import QueryError
from lextools.explain import explain
from service.inputs import flag, json_body, words_of
from service.lexicons import lexicon

bp = Blueprint("words", __name__, url_prefix="/v1/<edition>")

#: The arbiter's record: every challenge with its per-word results, one line each.
challenge_log = logging.getLogger("lextools.service.challenge")


@bp.get("/words/<path:word>")
def word(edition: str, word: str) -> dict[str, Any]:
    lex = lexicon(edition)
    result = answers.spelled(lex, word)
    why = explain(lex, word, current_app.config["LEXICONS"])  # an invalid word's reason names its rule
    return {
        **result.as_dict(),
        "reason": why.reason,
        "rule": why.rule,
        "sources": list(why.sources),
        "hooks": answers.hook_tiles(lex, result),
    }


@bp.post("/check")
def check(edition: str) -> dict[str, Any]:
    lex = lexicon(edition)
    return answers.check(lex, words_of(json_body(), allow_empty=True), current_app.config["LEXICONS"])


@bp.post("/challenge")
def challenge(edition: str) -> dict[str, Any]:
    """Judge a play. Blind by default: a word judge must not tell which word failed, only the log does."""
    lex = lexicon(edition)
    body = json_body()
    words = words_of(body, allow_empty=False)
    reveal = flag(body, "reveal", default=False)
    results = [lex.lookup(w) for w in words]
    acceptable = all(r.valid for r in results)
    challenge_log.info(
        "challenge edition=%s acceptable=%s reveal=%s results=%s",
        edition,
        str(acceptable).lower(),
        str(reveal).lower(),
        json.dumps(
            [{"input": r.input, "word": r.word, "valid": r.valid, "reason": r.reason} for r in results],
            ensure_ascii=False,
        ),
    )
    reply: dict[str, Any] = {
        "edition": edition,
        "words": len(words),
        "acceptable": acceptable,
        "ruling": ruling(lex.edition.challenge, acceptable),
    }
    if reveal:
        reply["results"] = [r.as_dict() for r in results]
    return reply


def ruling(rules: dict[str, Any], acceptable: bool) -> dict[str, Any]:
    """The edition's ruling for this outcome, from its ``challenge`` data (never written here).

    es editions (FILE): an unacceptable play is withdrawn and the turn lost; the challenger of an
    acceptable one is not penalised. en: the challenger loses the next turn. fr: 5 points per word.
    """
    case = "valid" if acceptable else "invalid"
    out: dict[str, Any] = {
        "rules": rules.get("rules"),
        "play_stands": acceptable,
        "outcome": rules.get(case),
        "challenger_penalty": rules.get("challenger_penalty") if acceptable else None,
    }
    for key, text in rules.items():  # translations, e.g. invalid_es → outcome_es
        if key.startswith(case + "_"):
            out["outcome_" + key.removeprefix(case + "_")] = text
    out["source"] = rules.get("source")
    return out


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
        if not (text.isdecimal() and len(text) <= 2):
            raise QueryError(f"blank positions are numbers from 1, not {text!r}")
        blanks.append(int(text))
    return answers.score(load_edition(edition), word, blanks)
