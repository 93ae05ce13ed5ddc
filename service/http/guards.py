"""The request guards the rooms share: a body sent as JSON only, a request from this server's own
pages (or from no browser) only, and the edition a kiosk serves.

The routes that write — the challenge (service/judge/challenge.py) and the cardboxes kept by sync
code (service/api/cardboxes.py) — must not be callable from a web page elsewhere: they take
``Content-Type: application/json`` only, which a cross-site form or a "simple" fetch cannot send
without a CORS preflight that this service never grants, and refuse any ``Origin`` other than their
own (403, nothing written). A program that is not a browser (curl, an app) sends no Origin and is served.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, request

from lextools.core.messages import message
from service.http.errors import ServiceError


def require_own_origin() -> None:
    """403 for a request a browser sent from another site's page (its ``Origin`` is not ours)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return
    url = urlsplit(origin)
    # A proxy may pass on the host without its port (nginx's $host): then the host name must match.
    ours = url.netloc == request.host or (":" not in request.host and url.hostname == request.host)
    if origin == "null" or not ours:
        raise ServiceError(403, "foreign_origin", message("foreign_origin"))


def require_json() -> None:
    """415 for a body not sent as ``Content-Type: application/json``."""
    if request.mimetype != "application/json":
        raise ServiceError(415, "unsupported_media_type", message("unsupported_media_type"))


def kiosk_edition() -> str | None:
    """The edition a kiosk serves (app config ``KIOSK``, service/judge/kiosk.py), or None outside kiosk mode."""
    edition: str | None = current_app.config.get("KIOSK")
    return edition
