"""The language a command prints its prose in: ``--lang``, else its edition's.

One language per edition's output: a command's headers, markers and notes come from the message
catalogue (:mod:`lextools.core.messages`), like the reasons beside them, so ``check es-fise`` is
Spanish throughout and ``check en`` English. Every command that takes an edition and prints prose
takes ``--lang`` (:data:`LangOpt`, one help text); ``--json`` keeps its keys whatever the language.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from lextools.cli.common import OUTPUT_OPTIONS, option
from lextools.core.edition import Edition
from lextools.core.errors import LexiconError
from lextools.core.messages import LANGUAGES, choose_language, message

LangOpt = Annotated[str | None, typer.Option("--lang", help="Language: es, fr or en [default: the edition's]")]
#: The options of a command that prints prose about a lexicon: ``--lang``, ``--json``, ``--lexicons``
#: (:func:`lextools.cli.common.with_options`; the command names them keyword-only, in this order).
PROSE_OPTIONS = (option("lang", LangOpt, None), *OUTPUT_OPTIONS)


def language_of(lang: str | None, edition: Edition) -> str:
    """``--lang`` when given (one of :data:`LANGUAGES`, else refused), else the edition's language."""
    if lang is not None and lang not in LANGUAGES:
        raise LexiconError(f"--lang {lang!r}: use one of {', '.join(LANGUAGES)}")
    return choose_language(lang, None, edition.language)


def say(lang: str, code: str, **values: Any) -> str:
    """The catalogue's message ``code`` in ``lang``."""
    return message(code, **values).text(lang)


def number(n: int, lang: str) -> str:
    """``n`` with its thousands grouped as ``lang`` writes them: 580,798 in English, 580 798 in French,
    and in Spanish from five digits on (RAE: 9999, 14 054)."""
    if lang == "en":
        return f"{n:,}"
    if lang == "es" and abs(n) < 10_000:
        return str(n)
    return f"{n:,}".replace(",", "\u00a0")
