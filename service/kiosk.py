"""Kiosk mode (``lextools serve --kiosk EDITION``): a judge that can be left on the tournament table.

The server then serves the Word Judge page for one edition, the files that page loads and that
edition's challenge route — nothing else. Every other page and route answers 404, so nobody at the
table can reach the study page, look a word up, or judge with another list. The page itself has no
navigation and no edition choice (service/pages.py).
"""

from __future__ import annotations

from flask import abort, current_app, request

#: What a kiosk serves: the judge page and its static files, and the kiosk edition's challenge route.
KIOSK_ENDPOINTS = {"pages.judge", "pages.static"}
KIOSK_EDITION_ENDPOINTS = {"challenge.challenge"}


def kiosk_edition() -> str | None:
    edition: str | None = current_app.config.get("KIOSK")
    return edition


def gate() -> None:
    """``before_request``: 404 for anything a kiosk does not serve."""
    edition = kiosk_edition()
    if edition is None or request.endpoint in KIOSK_ENDPOINTS:
        return
    if request.endpoint in KIOSK_EDITION_ENDPOINTS and (request.view_args or {}).get("edition") == edition:
        return
    abort(404)
