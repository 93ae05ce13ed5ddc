"""The HTML pages: the Word Judge (``/judge``), the study page (``/study``) and the search page
(``/search``), with ``/`` linking them.

The pages are plain Jinja templates plus static ES modules and CSS from this package: no build step,
nothing fetched from another origin (the Content-Security-Policy below makes the browser enforce
that). All they know of words they learn from the JSON API under ``/v1``; the judge calls
``POST /v1/{edition}/challenge`` with ``reveal: false``, so the browser never receives which word
of a play failed.

The interface language follows the edition (es editions in Spanish, ``en`` in English, ``fr`` in
French). Its strings live in one table, ``static/strings.json`` (and the search conditions' labels
in the conditions' table, :data:`lextools.core.conditions.CONDITIONS`): the server renders the page
in the edition's language, and the scripts read the same strings (embedded in the page) to relabel it
when the player picks another edition. The search form has an input per row of the conditions'
table, so a new condition is on the page with no edit of the template or the scripts.

The judge offers only the editions this server has a lexicon for and shows the list it rules with
(edition, sources, word count, short checksum, build date), so players can see it is the agreed
one. In kiosk mode (service/kiosk.py) it has one edition, no navigation and no edition choice. A
page URL naming an edition the page cannot use gets an HTML page saying so, never the API's JSON.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request

from lextools.core.conditions import CONDITIONS
from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import LexiconError
from lextools.core.lexicon import read_metadata
from lextools.core.messages import Message, choose_language, message
from lextools.features import lists, quiz
from service.kiosk import kiosk_edition
from service.lexicons import lexicons
from service.limits import MAX_PLAY_CHARS, MAX_WORD_CHARS, MAX_WORDS, ORDERS

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
    """The interface strings, by language: ``{"es": {"judge_title": ...}, "en": ..., "fr": ...}``; the
    search form's label and hint of each condition come from the conditions' table."""
    table: dict[str, dict[str, str]] = json.loads((STATIC / "strings.json").read_text(encoding="utf-8"))
    for lang, texts in table.items():
        texts.update(condition_strings(lang))
    return table


def condition_strings(lang: str) -> dict[str, str]:
    """Each search condition's label (``search_<name>``) and hint (``search_<name>_help``) in ``lang``,
    from its row of :data:`lextools.core.conditions.CONDITIONS`."""
    return {
        key: text
        for c in CONDITIONS
        for key, text in ((f"search_{c.name}", c.label[lang]), (f"search_{c.name}_help", c.help[lang]))
    }


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


def _page(template: str, choices: list[dict[str, str]] | None = None, **context: Any) -> str | tuple[str, int]:
    """Render a page for ``?edition=`` (the kiosk's edition in kiosk mode); an edition the page cannot
    use gets a page saying so, with the editions it can (404), never the API's JSON."""
    kiosk = kiosk_edition()
    edition = kiosk or request.args.get("edition") or DEFAULT_EDITION
    names = {e["name"].casefold(): e["name"] for e in (editions() if choices is None else choices)}
    edition = names.get(edition.casefold(), edition)  # ?edition=ES-FISE is es-fise
    choices = editions() if choices is None else choices
    if edition not in {e["name"] for e in choices}:
        return error_page(message("page_unknown_edition", name=edition), choices)
    lang = language_of(edition)
    return render_template(
        template,
        edition=edition,
        editions=choices,
        kiosk=kiosk is not None,
        lang=lang,
        t=strings()[lang],
        strings=strings(),
        **context,
    )


#: The paths of the pages: a 404 there is a page, not the API's JSON (service/errors.py asks).
PAGE_PATHS = {"/", "/judge", "/study", "/search"}


def error_page(text: Message, choices: list[dict[str, str]] | None = None, status: int = 404) -> tuple[str, int]:
    """A page saying what is wrong, in the language the browser asks for (Spanish by default, as the
    pages open on es-fise; a kiosk's in its edition's), listing the editions the page can use, if any."""
    kiosk = kiosk_edition()
    if kiosk is not None:  # a kiosk speaks its edition's language, whatever the browser's settings
        lang = choose_language(request.args.get("lang"), None, language_of(kiosk))
    else:
        lang = choose_language(request.args.get("lang"), request.headers.get("Accept-Language"), "es")
    links = [] if kiosk else (choices or [])
    html = render_template(
        "error.html",
        lang=lang,
        heading=message("page_not_found").text(lang),
        text=text.text(lang),
        editions_label=message("page_editions").text(lang),
        editions=links,
        path=request.path,
    )
    return html, status


@bp.get("/")
def home() -> str | tuple[str, int]:
    return _page("home.html")


def servable_editions() -> list[dict[str, str]]:
    """The editions this server has a lexicon for (the judge offers only those)."""
    home = lexicons().home
    out = []
    for e in editions():
        try:
            read_metadata(home, e["name"])
        except LexiconError:
            continue
        out.append(e)
    return out


def word_list(edition: str) -> dict[str, Any]:
    """What the judge page shows of the list it judges with: edition, sources, words, checksum, build date."""
    meta = read_metadata(lexicons().home, edition)
    sources = [str(s.get("name")) for s in meta.get("sources", []) if isinstance(s, dict) and s.get("name")]
    return {
        "edition": edition,
        "sources": ", ".join(sources),
        "words": f"{int(meta.get('words', 0)):,}".replace(",", "\u202f"),
        "checksum": str(meta["checksum"])[:12],
        "built": str(meta.get("built", ""))[:16].replace("T", " ") + " UTC",
    }


@bp.get("/judge")
def judge() -> str | tuple[str, int]:
    choices = servable_editions()
    kiosk = kiosk_edition()
    if kiosk is not None:  # the page knows of no other list than the one it judges with
        choices = [e for e in choices if e["name"] == kiosk]
    lists = {e["name"]: word_list(e["name"]) for e in choices}
    return _page(
        "judge.html",
        choices=choices,
        lists=lists,
        clear_ms=round(1000 * current_app.config["JUDGE_CLEAR_SECONDS"]),
        max_words=MAX_WORDS,
        max_word_chars=MAX_WORD_CHARS,
        max_chars=MAX_PLAY_CHARS,
    )


@bp.get("/study")
def study() -> str | tuple[str, int]:
    return _page("study.html", quiz_settings={**quiz.choices(), "list_settings": lists.choices()})


@bp.get("/search")
def search_page() -> str | tuple[str, int]:
    """Anagram, build and pattern searches with conditions, their results as tiles, and word cards."""
    return _page("search.html", orders=ORDERS, conditions=CONDITIONS)


@bp.after_request
def _headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
