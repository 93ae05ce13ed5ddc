"""The edition's ruling on a challenged play, from the ``challenge`` data of its edition file.

es editions (FISE/FILE tournament rules): an unacceptable play is withdrawn and the turn lost; the
challenger of an acceptable one is not penalised. en (Hasbro rules): the challenger loses the next
turn. fr (FISF rules): 5 points per word wrongly challenged.
"""

from __future__ import annotations

from typing import Any

from lextools.core.edition import Edition
from lextools.core.messages import LANGUAGES


def ruling(edition: Edition, acceptable: bool, lang: str) -> dict[str, Any]:
    """``outcome`` in ``lang`` (English when the edition has no such text), and every language's text as
    ``outcome_<lang>``; the edition file holds the English text as ``valid``/``invalid`` and the others
    as ``valid_es``, ``invalid_fr``, …"""
    rules = edition.challenge
    case = "valid" if acceptable else "invalid"
    texts = {code: rules.get(case if code == "en" else f"{case}_{code}") for code in LANGUAGES}
    out: dict[str, Any] = {
        "rules": rules.get("rules"),
        "play_stands": acceptable,
        "outcome": texts.get(lang) or texts["en"],
        "challenger_penalty": rules.get("challenger_penalty") if acceptable else None,
    }
    for code, text in texts.items():
        if text:
            out[f"outcome_{code}"] = text
    out["source"] = rules.get("source")
    return out
