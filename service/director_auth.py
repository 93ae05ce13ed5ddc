"""The director's token: who may read the challenge record.

The director's routes — ``GET /v1/record``, the record page ``/director`` and its CSV
``/director/record.csv``, and in kiosk mode ``/healthz`` too (service/kiosk.py) — answer only a
request that carries the token the server was started with (``$LEXTOOLS_DIRECTOR_TOKEN``, config
``DIRECTOR_TOKEN``):

- the server has no token: the routes are off, 404 as for a path that is no route;
- a request without the token, or with a wrong one: 401 with ``WWW-Authenticate: Basic``, so that a
  browser asks for it (any user name, the token as password);
- the token as ``Authorization: Bearer <token>`` (curl, a program), as the password of
  ``Authorization: Basic`` (a browser), or bare: served.

The comparison is constant-time. Only werkzeug's exceptions are raised here, so that this module
imports nothing of the service's error handling (service/errors.py renders them in the one JSON shape).
"""

from __future__ import annotations

import base64
import binascii
import hmac

from flask import current_app, request
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import NotFound, Unauthorized

from lextools.core.messages import message
from service.language import request_language

#: The protection space a browser remembers the director's token for.
REALM = "lextools director"


def director_token() -> str | None:
    token: str | None = current_app.config.get("DIRECTOR_TOKEN") or None
    return token


def given_token() -> str:
    """The token the request carries: ``Bearer <token>``, the password of ``Basic``, else the whole
    header (a bare token, which ``/v1/record`` has always taken)."""
    header = request.headers.get("Authorization", "").strip()
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer":
        return value.strip()
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return ""
        return decoded.partition(":")[2]
    return header


def require_director() -> None:
    """404 when the server has no director token (the routes are off), 401 without the right one."""
    token = director_token()
    if token is None:
        raise NotFound()
    if not hmac.compare_digest(given_token().encode(), token.encode()):
        raise Unauthorized(
            description=message("director_token").text(request_language()),
            www_authenticate=WWWAuthenticate("basic", {"realm": REALM, "charset": "UTF-8"}),
        )
