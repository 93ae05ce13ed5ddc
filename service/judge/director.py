"""The director's view of the challenge record: ``/director`` and ``/director/record.csv``.

A page listing today's challenges — time, edition, words, verdict, receipt id — and the same rows as
CSV (the columns of ``GET /v1/record?format=csv`` and ``lextools record --csv``). Both answer only
with the director token (service/judge/director_auth.py: 404 when the server has none, 401 without it,
which makes a browser ask for it), in kiosk mode too (service/judge/kiosk.py).

"Today" is the server's local calendar day; the times are shown in the server's local time, the
CSV keeps the record's UTC times. The page is rendered on the server from
``templates/director.html`` (the words come from the tables' clients: their control and bidi
characters are shown as escapes, lextools/features/inert.py, and Jinja autoescapes the rest), its
texts from ``static/strings.json``, in the kiosk edition's language (else the browser's, Spanish
by default as the other pages), with no script and nothing from another origin.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Blueprint, Response, render_template

from lextools.features.inert import inert, inert_words
from lextools.features.record import as_csv_text, parse_since
from service.http.html import page_headers, page_language, strings
from service.judge.director_auth import require_director
from service.judge.record_access import record_entries

bp = Blueprint("director", __name__, template_folder="templates")


def _today() -> datetime:
    """The start of the server's local day, with its offset."""
    return datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)


def todays_challenges() -> tuple[datetime, list[dict[str, Any]]]:
    start = _today()
    return start, record_entries(parse_since(start.isoformat()))


def _row(entry: dict[str, Any]) -> dict[str, Any]:
    when = datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).astimezone()
    return {
        "time": when.strftime("%H:%M:%S"),
        "edition": inert(entry["edition"]),
        "words": inert_words(entry["words"]),  # no control or bidi character reaches the page (then autoescaped)
        "acceptable": entry["acceptable"],
        "id": inert(entry["id"]),
    }


@bp.get("/director")
def page() -> str:
    require_director()
    start, entries = todays_challenges()
    lang = page_language()
    t = strings()[lang]
    return render_template(
        "director.html",
        lang=lang,
        t=t,
        intro=t["director_intro"].format(date=start.date().isoformat(), zone=start.strftime("UTC%z")),
        rows=[_row(e) for e in entries],
    )


@bp.get("/director/record.csv")
def csv() -> Response:
    require_director()
    start, entries = todays_challenges()
    name = f"challenges-{start.date().isoformat()}.csv"
    return Response(
        as_csv_text(entries),
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.after_request
def _headers(response: Response) -> Response:
    page_headers(response)
    response.headers["Cache-Control"] = "no-store"  # the record is the director's: no copy in a cache
    return response
