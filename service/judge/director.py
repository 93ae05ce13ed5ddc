"""The director's view of the challenge record: ``/director``, its feed and its CSV.

A page listing today's challenges, newest first — time, edition, words, verdict, whether the row
agrees with the signature kept beside it, receipt id — which keeps itself up to date: its script
(``static/director.js``) asks ``/director/challenges.json`` for the same rows every
:data:`POLL_SECONDS` and adds the new ones at the top, with no reload (the director's scroll and
selection stay). The rows as CSV (``/director/record.csv``) are for a spreadsheet: headers and
verdicts in the page's language ("Aceptable", "sí"), the record's UTC times and each receipt's
signature. All of them answer only with the director token (service/judge/director_auth.py: 404
when the server has none, 401 without it, which makes a browser ask for it), in kiosk mode too
(service/judge/kiosk.py).

"Today" is the server's local calendar day; the page shows the server's local times, the CSV keeps
the record's UTC times. The page is rendered on the server from ``templates/director.html`` and the
script builds a new row from the feed's texts, so both show the same: the words come from the
tables' clients (their control and bidi characters are shown as escapes, lextools/features/inert.py;
Jinja autoescapes the rest, the script sets them as text), the texts from the pages' strings
(``static/strings.json``) in the kiosk edition's language (else the browser's, Spanish by default as
the other pages). Nothing comes from another origin.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, render_template, url_for

from lextools.features.inert import inert, inert_words
from lextools.features.record import CsvLabels, as_csv_text, parse_since, signature_status
from service.http.html import page_headers, page_language, strings
from service.judge.director_auth import require_director
from service.judge.record_access import record_entries, secret

bp = Blueprint(
    "director", __name__, template_folder="templates", static_folder="static", static_url_path="/director/static"
)

#: How often the page asks for new challenges: a challenge shows within this (the issue asks 10 s).
POLL_SECONDS = 3


def _today() -> datetime:
    """The start of the server's local day, with its offset."""
    return datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)


def todays_challenges() -> tuple[datetime, list[dict[str, Any]]]:
    """The start of today and today's challenges, oldest first (the record's order)."""
    start = _today()
    return start, record_entries(parse_since(start.isoformat()))


def _row(entry: dict[str, Any], t: dict[str, str]) -> dict[str, Any]:
    """One challenge as the page shows it, in the page's language: the template's row and the feed's."""
    when = datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).astimezone()
    shown_id = inert(entry["id"])
    checked = signature_status(entry, secret)  # the secret is read only for a row with a signature
    return {
        "id": shown_id,
        "short": shown_id[:8],  # what the judge showed the players under the verdict
        "rest": shown_id[8:],
        "time": when.strftime("%H:%M:%S"),
        "edition": inert(entry["edition"]),
        "words": inert_words(entry["words"]),  # no control or bidi character reaches the page (then autoescaped)
        "acceptable": entry["acceptable"],
        "verdict": t["verdict_ok"] if entry["acceptable"] else t["verdict_bad"],
        "signature": checked,
        "signature_text": t[f"director_sig_{checked}"],
    }


def _rows(lang: str) -> tuple[datetime, list[dict[str, Any]]]:
    """Today's challenges as rows, newest first."""
    start, entries = todays_challenges()
    t = strings()[lang]
    return start, [_row(e, t) for e in reversed(entries)]


@bp.get("/director")
def page() -> str:
    require_director()
    lang = page_language()
    t = strings()[lang]
    start, rows = _rows(lang)
    return render_template(
        "director.html",
        lang=lang,
        t=t,
        intro=t["director_intro"].format(date=start.date().isoformat(), zone=start.strftime("UTC%z")),
        live=t["director_live"].format(seconds=POLL_SECONDS),
        rows=rows,
        poll_ms=POLL_SECONDS * 1000,
        feed=url_for("director.feed", lang=lang),
        csv=url_for("director.csv", lang=lang),
    )


@bp.get("/director/challenges.json")
def feed() -> Response:
    """Today's rows as the page shows them, newest first: what its script refreshes the table from."""
    require_director()
    _, rows = _rows(page_language())
    return Response(json.dumps({"challenges": rows}, ensure_ascii=False), mimetype="application/json")


def csv_labels(lang: str) -> CsvLabels:
    """The CSV's headers and verdicts in ``lang``, from the pages' strings."""
    t = strings()[lang]
    keys = ("receipt", "time_utc", "edition", "checksum", "words", "acceptable", "signature")
    return CsvLabels(tuple(t[f"director_{k}"] for k in keys), t["director_yes"], t["director_no"])


@bp.get("/director/record.csv")
def csv() -> Response:
    require_director()
    start, entries = todays_challenges()
    name = f"challenges-{start.date().isoformat()}.csv"
    return Response(
        as_csv_text(entries, csv_labels(page_language())),
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.after_request
def _headers(response: Response) -> Response:
    page_headers(response)
    response.headers["Cache-Control"] = "no-store"  # the record is the director's: no copy in a cache
    return response
