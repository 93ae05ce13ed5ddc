"""The language of what a person reads in an answer: ``lang`` parameter, else ``Accept-Language``,
else the edition's language (English when there is no edition in the path).

Reasons and errors come from the one message catalogue (lextools/messages.py); the pages send
``Accept-Language`` in their own interface language, so a Spanish page gets Spanish reasons whatever
the browser's settings.
"""

from __future__ import annotations

from typing import Any

from flask import request

from lextools.edition import edition_names, load_edition
from lextools.errors import SpellingError
from lextools.lexicon import WordResult
from lextools.messages import choose_language, message
from lextools.tokenize import spell


def request_language() -> str:
    """The language to answer this request in."""
    edition = (request.view_args or {}).get("edition")
    default = load_edition(edition).language if edition in edition_names() else "en"
    return choose_language(request.args.get("lang"), request.headers.get("Accept-Language"), default)


def localized(result: WordResult, edition_name: str, lang: str) -> dict[str, Any]:
    """A word result as a dict, its ``reason`` in ``lang``."""
    out = result.as_dict()
    if result.valid or lang == "en":
        return out
    if result.word is not None:
        out["reason"] = message("not_in_lexicon", word=result.word, edition=edition_name).text(lang)
        return out
    try:
        spell(result.input, load_edition(edition_name))
    except SpellingError as e:
        out["reason"] = e.message.text(lang) if e.message is not None else e.reason
    return out
