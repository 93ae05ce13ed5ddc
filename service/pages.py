"""The HTML pages: the Word Judge (``/judge``) and the study page (``/study``), with ``/`` linking both.

The pages are plain Jinja templates plus static ES modules and CSS from this package: no build step,
nothing fetched from another origin (the Content-Security-Policy below makes the browser enforce
that). All they know of words they learn from the JSON API under ``/v1``; the judge calls
``POST /v1/{edition}/challenge`` with ``reveal: false``, so the browser never receives which word
of a play failed.

The interface language follows the edition (es editions in Spanish, ``en`` in English, ``fr`` in
French). Its strings live in one table, ``static/strings.json``: the server renders the page in the
edition's language, and the scripts read the same table (embedded in the page) to relabel it when
the player picks another edition.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template, request

from lextools.edition import edition_names, load_edition
from service import quiz

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static", static_url_path="/static")

STATIC = Path(__file__).parent / "static"

#: The edition a page opens with when the URL names none: the FISE lexicon the clubs play.
DEFAULT_EDITION = "es-fise"

#: Everything a page loads comes from this server; the API is same-origin too.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@cache
def strings() -> dict[str, dict[str, str]]:
    """The interface strings, by language: ``{"es": {"judge_title": ...}, "en": ..., "fr": ...}``."""
    table: dict[str, dict[str, str]] = json.loads((STATIC / "strings.json").read_text(encoding="utf-8"))
    return table


def language_of(edition: str) -> str:
    """The interface language of an edition: its own when the table has it, else English."""
    language = load_edition(edition).language
    return language if language in strings() else "en"


@cache
def editions() -> list[dict[str, str]]:
    """The editions the selector offers, with the interface language each one switches to."""
    return [
        {"name": name, "title": load_edition(name).title or name, "lang": language_of(name)} for name in edition_names()
    ]


def _page(template: str, **context: Any) -> str:
    """Render a page for ``?edition=`` (an unknown edition is the API's usual 404)."""
    edition = request.args.get("edition") or DEFAULT_EDITION
    lang = language_of(edition)  # raises UnknownEditionError → 404 for a name that is not an edition
    return render_template(
        template,
        edition=edition,
        editions=editions(),
        lang=lang,
        t=strings()[lang],
        strings=strings(),
        **context,
    )


@bp.get("/")
def home() -> str:
    return _page("home.html")


@bp.get("/judge")
def judge() -> str:
    # How long a verdict stays up, in milliseconds; the page reads it from a data attribute, so a
    # club can leave it longer (?clear_ms=8000) and a test can shorten it.
    clear_ms = request.args.get("clear_ms", "")
    clear = int(clear_ms) if clear_ms.isdecimal() and 200 <= int(clear_ms) <= 60_000 else 4000
    return _page("judge.html", clear_ms=clear, max_words=8, max_letters=20, max_chars=150)


@bp.get("/study")
def study() -> str:
    return _page("study.html", quiz_settings=quiz.page_settings())


@bp.after_request
def _headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
