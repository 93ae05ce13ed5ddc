"""Validity: one word, a batch, a challenge, hooks and score — the routes an arbiter calls."""

from __future__ import annotations

import json
import logging
from typing import Any

from flask import Blueprint, current_app, request

from lextools.edition import load_edition
from lextools.errors import QueryError, SpellingError
from lextools.explain import explain, explained
from lextools.lexicon import Lexicon, WordResult
from lextools.tokenize import spell
from service.inputs import flag, json_body, words_of
from service.lexicons import lexicon

bp = Blueprint("words", __name__, url_prefix="/v1/<edition>")

#: The arbiter's record: every challenge with its per-word results, one line each.
challenge_log = logging.getLogger("lextools.service.challenge")


def _spelled(lex: Lexicon, word: str) -> WordResult:
    """Look a word up; a word the edition cannot spell at all is a 422, with the reason."""
    result = lex.lookup(word)
    if result.word is None:
        raise SpellingError(word, result.reason or "cannot be spelled")
    return result


def _hooks(lex: Lexicon, result: WordResult) -> dict[str, Any]:
    h = lex.hooks(lex.edition.encode(result.tiles))
    return {"front": list(h.front), "back": list(h.back), "front_inner": h.front_inner, "back_inner": h.back_inner}


@bp.get("/words/<path:word>")
def word(edition: str, word: str) -> dict[str, Any]:
    lex = lexicon(edition)
    result = _spelled(lex, word)
    why = explain(lex, word, current_app.config["LEXICONS"])
    return {
        **result.as_dict(),
        "reason": why.reason,
        "rule": why.rule,
        "sources": list(why.sources),
        "hooks": _hooks(lex, result),
    }


@bp.post("/check")
def check(edition: str) -> dict[str, Any]:
    lex = lexicon(edition)
    words = words_of(json_body(), allow_empty=True)
    return {
        "edition": edition,
        "results": [explained(lex, lex.lookup(w), current_app.config["LEXICONS"]) for w in words],
    }


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
            raise QueryError(f"blank positions go from 1 to {len(s.tiles)}, not {text!r}")
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
