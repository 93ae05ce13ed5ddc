"""Kiosk mode (``lextools serve --kiosk EDITION``): a judge that can be left on the tournament table.

The server then serves the Word Judge page for one edition, the files that page loads and that
edition's challenge route — nothing else. Every other page and route answers 404, so nobody at the
table can reach the study page, look a word up, or judge with another list. The page itself has no
navigation and no edition choice (service/pages/views.py).

The director's routes are the exception: ``/director`` (today's challenges, service/judge/director.py), its
feed, CSV and script, ``/v1/record`` and ``/healthz`` answer with the director token, exactly as ``/v1/record`` does
outside kiosk mode (service/judge/director_auth.py): 404 when the server was started without a token,
401 without the right one.
"""

from __future__ import annotations

from flask import abort, request

from service.http.guards import kiosk_edition
from service.judge.director_auth import require_director

#: What a kiosk serves: the judge page and its static files, and the kiosk edition's challenge route.
KIOSK_ENDPOINTS = {"pages.judge", "pages.static"}
#: The static files the judge page loads: a kiosk serves no other (no search, word card or study script).
KIOSK_STATIC = {"judge.js", "common.js", "style.css"}
KIOSK_EDITION_ENDPOINTS = {"challenge.challenge"}
#: What a kiosk serves to the director only (the token): the record, the director's page, its feed,
#: CSV and script.
KIOSK_DIRECTOR_ENDPOINTS = {
    "meta.healthz",
    "challenge.read_record",
    "director.page",
    "director.feed",
    "director.csv",
    "director.static",
}


def gate() -> None:
    """``before_request``: 404 for anything a kiosk does not serve; the director's routes need the token."""
    edition = kiosk_edition()
    if edition is None:
        return
    if request.endpoint == "pages.static" and (request.view_args or {}).get("filename") not in KIOSK_STATIC:
        abort(404)
    if request.endpoint in KIOSK_ENDPOINTS:
        return
    if request.endpoint in KIOSK_EDITION_ENDPOINTS and (request.view_args or {}).get("edition") == edition:
        return
    if request.endpoint in KIOSK_DIRECTOR_ENDPOINTS:
        require_director()
        return
    abort(404)
