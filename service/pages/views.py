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
one. In kiosk mode (service/judge/kiosk.py) it has one edition, no navigation and no edition choice. A
page URL naming an edition the page cannot use gets an HTML page saying so, never the API's JSON.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint, Flask, Response, current_app, render_template, request

from lextools.core.conditions import parameters
from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import LexiconError
from lextools.core.lexicon import read_metadata
from lextools.core.messages import Message, message
from lextools.features import lists, quiz
from service.http.errors import PAGE_ERROR
from service.http.guards import kiosk_edition
from service.http.html import language_of, page_headers, page_language, strings
from service.http.lexicons import lexicons
from service.http.limits import MAX_PLAY_CHARS, MAX_WORD_CHARS, MAX_WORDS, ORDERS

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static", static_url_path="/static")

#: The edition a page opens with when the URL names none: the FISE lexicon the clubs play.
DEFAULT_EDITION = "es-fise"


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


#: The paths of the pages: a 404 there is a page, not the API's JSON (kiosk mode's 404s).
PAGE_PATHS = {"/", "/judge", "/study", "/search"}


def not_found_page(path: str) -> Response | None:
    """A 404 at a page's address as a page (service/http/errors.py asks the app's ``PAGE_ERROR``)."""
    if path not in PAGE_PATHS:
        return None
    html, status = error_page(message("not_found"))
    return Response(html, status, content_type="text/html; charset=utf-8")


def error_page(text: Message, choices: list[dict[str, str]] | None = None, status: int = 404) -> tuple[str, int]:
    """A page saying what is wrong, in the language the browser asks for (Spanish by default, as the
    pages open on es-fise; a kiosk's in its edition's), listing the editions the page can use, if any."""
    kiosk = kiosk_edition()
    lang = page_language()
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
    config = current_app.config
    return _page(
        "search.html", orders=ORDERS, conditions=parameters(),
        whole_limit=config["SEARCH_WHOLE_LIMIT"], page_limit=config["SEARCH_MAX_LIMIT"],
    )  # fmt: skip


bp.after_request(page_headers)


def init_app(app: Flask) -> None:
    """The pages' blueprint, and their 404 as a page rather than the API's JSON."""
    app.register_blueprint(bp)
    app.extensions[PAGE_ERROR] = not_found_page
