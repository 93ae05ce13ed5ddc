"""What every HTML page of the service shares — the pages (service/pages) and the director's record
page (service/judge/director.py): the security headers, the interface strings and the language a
page speaks.

The interface strings live in one table, ``static/strings.json`` of the pages' package
(``service.pages``, read as package data): the server renders a page in the edition's language, and
the scripts read the same table (embedded in the page) to relabel it when the player picks another
edition.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from flask import Response, request

from lextools.core.conditions import parameters
from lextools.core.edition import load_edition
from lextools.core.messages import choose_language
from service.http.guards import kiosk_edition

#: Everything a page loads comes from this server; the API is same-origin too.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@cache
def strings() -> dict[str, dict[str, str]]:
    """The interface strings, by language: ``{"es": {"judge_title": ...}, "en": ..., "fr": ...}``; the
    search form's label and hint of each condition come from the conditions' table."""
    text = files("service.pages").joinpath("static", "strings.json").read_text(encoding="utf-8")
    table: dict[str, dict[str, str]] = json.loads(text)
    for lang, texts in table.items():
        texts.update(condition_strings(lang))
    return table


def condition_strings(lang: str) -> dict[str, str]:
    """Each search condition's label (``search_<name>``) and hint (``search_<name>_help``) in ``lang``,
    from its row of :data:`lextools.core.conditions.CONDITIONS` (and each test's negation, ``not_<test>``)."""
    return {
        key: text
        for c in parameters()
        for key, text in ((f"search_{c.name}", c.label[lang]), (f"search_{c.name}_help", c.help[lang]))
    }


def language_of(edition: str) -> str:
    """The interface language of an edition: its own when the table has it, else English."""
    language = load_edition(edition).language
    return language if language in strings() else "en"


def page_language() -> str:
    """The language of a page that names no edition (an error page, the director's): a kiosk's edition's,
    whatever the browser's settings; else ``?lang=``, else the browser's, else Spanish (the pages open
    on es-fise)."""
    kiosk = kiosk_edition()
    if kiosk is not None:
        return choose_language(request.args.get("lang"), None, language_of(kiosk))
    return choose_language(request.args.get("lang"), request.headers.get("Accept-Language"), "es")


def page_headers(response: Response) -> Response:
    """``after_request`` of a blueprint of pages: nothing from another origin, no sniffing, no referrer."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
