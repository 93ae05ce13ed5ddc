"""The study page's cardbox kept on the server, so the same cardbox works on a phone and a laptop.

Optional, and with no account and no e-mail: ``POST /v1/cardbox`` stores a cardbox (the study page's
export, ``static/cardbox.js``; the format, version 2 or 1: lextools/features/cardbox_format.py) under a
new sync code — 20 characters of Crockford's base32 drawn by :mod:`secrets`, 100 bits, shown to the
player as ``XXXX-XXXX-XXXX-XXXX-XXXX`` — and whoever has the code reads it (``GET /v1/cardbox/{code}``)
and replaces it (``PUT``). Knowing the code is the only key, so it is long enough that nobody finds one
by trying. Every answer with a cardbox's version carries its ``ETag``; a ``PUT`` must send the one it
read in ``If-Match`` (428 without, 412 when the cardbox has changed since: read, merge, send again),
so a device that did not sync first never overwrites another's newer progress.

The cardboxes are one SQLite file beside the challenge record (``cardboxes.sqlite3`` in the lexicon
directory; app config ``CARDBOXES``), or with a shared database (``DATABASE``) kept there, so every
replica reads the same ones (lextools/features/cardboxes.py). Each request counts against its client's
rate (``CARDBOX_RATE`` a minute, 429 beyond; the client behind a trusted proxy, service/http/clients.py,
an IPv6 client by its /64; counted in the database when there is one). A cardbox is at most
``CARDBOX_MAX_BYTES`` (413) and is checked against the format (400); one client makes at most
``CARDBOX_CLIENT_COUNT`` cardboxes of ``CARDBOX_CLIENT_BYTES`` in all (429 ``sync_quota``); the store
holds at most ``CARDBOX_MAX_COUNT`` of ``CARDBOX_MAX_TOTAL_BYTES`` in all, and deletes a cardbox
neither read nor written for 180 days (``EXPIRY_DAYS``), so only a store full of cardboxes in use refuses a
new one (503 ``sync_full`` with ``Retry-After``). None of it is reachable in kiosk mode.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, request
from marshmallow import fields

from lextools.core.messages import message
from lextools.features.cardbox_format import CardboxRefused, checked_cardbox
from lextools.features.cardboxes import (
    ALPHABET,
    CODE_LENGTH,
    Bounds,
    CardboxStore,
    ClientQuota,
    Saved,
    StaleCardbox,
    TooManySyncs,
    UnknownSyncCode,
    client_group,
    etag,
)
from lextools.features.stores import CARDBOXES_NAME, open_cardboxes
from service.contract.bodies import Body, load_body
from service.contract.operations import operation
from service.contract.params import refused
from service.contract.schemas import Answer, dict_field, str_field
from service.http.clients import client_address
from service.http.errors import ServiceError, bad_request
from service.http.guards import require_json, require_own_origin

bp = Blueprint("cardboxes", __name__)

#: Where :func:`init_app` keeps the store.
EXTENSION = "lextools.cardboxes"


def shown(code: str) -> str:
    """A code as the player reads it: groups of four."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def read_code(text: str) -> str:
    """A code as typed (any case, with or without dashes or spaces), or 404: no such cardbox."""
    code = re.sub(r"[\s-]", "", text).upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise ServiceError(404, "unknown_sync_code", message("sync_unknown"))
    return code


def store() -> CardboxStore:
    boxes: CardboxStore = current_app.extensions[EXTENSION]
    return boxes


@contextmanager
def _refusals() -> Iterator[None]:
    """The store's refusals as the API's answers: 429 ``too_many_syncs`` and ``sync_quota``, 404
    ``unknown_sync_code``, 412 ``sync_stale`` (a full store is the library's 503 ``sync_full`` with
    ``Retry-After``, one that cannot answer now its 503 ``busy``)."""
    try:
        yield
    except (TooManySyncs, ClientQuota, UnknownSyncCode, StaleCardbox) as e:
        status = {TooManySyncs: 429, ClientQuota: 429, UnknownSyncCode: 404, StaleCardbox: 412}[type(e)]
        raise ServiceError(status, e.code, e.message or str(e)) from None


def _client() -> str:
    """Who the store counts this request against: the client's address, an IPv6 one by its /64."""
    return client_group(client_address())


def _counted() -> None:
    with _refusals():
        store().hit(_client(), current_app.config["CARDBOX_RATE"])


def _bounds() -> Bounds:
    config = current_app.config
    return Bounds(
        most=config["CARDBOX_MAX_COUNT"],
        total_bytes=config["CARDBOX_MAX_TOTAL_BYTES"],
        client_count=config["CARDBOX_CLIENT_COUNT"],
        client_bytes=config["CARDBOX_CLIENT_BYTES"],
    )


def _if_match() -> set[str] | None:
    """The versions (ETags) a replacement may replace (None for ``*``: whatever is kept; a weak tag
    matches none, RFC 9110 §13.1.1); 428 without the header."""
    if "If-Match" not in request.headers:
        raise ServiceError(428, "if_match_required", message("sync_needs_if_match"))
    if request.if_match.star_tag:
        return None
    return {f'"{tag}"' for tag in request.if_match.as_set(include_weak=False)}


def _cardbox_of_body() -> str:
    """The cardbox a request sends (``{"cardbox": <the study page's export>}``), as stored text."""
    require_own_origin()
    require_json()
    request.max_content_length = current_app.config["CARDBOX_MAX_BYTES"]
    text: str = load_body(CardboxBody)["cardbox"]
    return text


class Stored(Answer):
    """Stored."""

    code = str_field("the sync code: 20 characters of Crockford's base32 (100 bits)", required=True)
    shown = str_field("the code in groups of four, as the page shows it", required=True)
    updated = str_field(required=True, metadata={"format": "date-time"})


class Kept(Stored):
    """The cardbox."""

    cardbox = dict_field("the study page's cardbox export", required=True)


class CardboxExport(fields.Dict):
    """The study page's cardbox export (static/cardbox.js), read as the compact JSON text kept."""

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        try:
            return checked_cardbox(value)
        except CardboxRefused as e:
            raise refused(bad_request(e.message or str(e))) from None


class CardboxBody(Body):
    """What ``POST`` and ``PUT`` send: ``{"cardbox": <the study page's export>}``."""

    cardbox = CardboxExport(required=True, metadata={"description": "the study page's cardbox export"})


#: The sync code in an operation's path.
_CODE = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}
#: The version of the cardbox an answer gives.
_ETAG = {
    "ETag": {"description": "the cardbox's version: send it in If-Match to replace it", "schema": {"type": "string"}}
}
_IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": True,
    "description": "the ETag of the version this one replaces (from the GET, POST or PUT it was made from)",
    "schema": {"type": "string"},
}


def _answer(saved: Saved) -> tuple[dict[str, Any], dict[str, str]]:
    return _stored(saved.code, saved.updated), {"ETag": saved.etag}


def _stored(code: str, updated: float) -> dict[str, Any]:
    return {"code": code, "shown": shown(code), "updated": _iso(updated)}


def _iso(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


@operation(
    bp,
    "/v1/cardbox",
    "POST",
    operationId="createCardbox",
    body=CardboxBody,
    body_description="Content-Type: application/json only.",
    answer=Stored,
    status=201,
    headers=_ETAG,
    errors=(400, 403, 413, 415, 429, 503),
)
def create() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Keep a cardbox on the server under a new sync code (no account: the code is the key)."""
    _counted()
    body = _cardbox_of_body()
    with _refusals():
        stored, headers = _answer(store().create(body, _client(), _bounds()))
    return stored, 201, headers


@operation(
    bp,
    "/v1/cardbox/<code>",
    "PUT",
    operationId="putCardbox",
    parameters=(_CODE, _IF_MATCH),
    body=CardboxBody,
    body_description="Content-Type: application/json only.",
    answer=Stored,
    headers=_ETAG,
    errors=(400, 403, 404, 412, 413, 415, 428, 429, 503),
)
def replace(code: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Replace the cardbox kept under a sync code, if it is still the version named in If-Match."""
    _counted()
    found = read_code(code)
    expected = _if_match()
    body = _cardbox_of_body()
    with _refusals():
        stored, headers = _answer(store().replace(found, body, expected, _bounds()))
    return stored, 200, headers


@operation(
    bp,
    "/v1/cardbox/<code>",
    "GET",
    operationId="getCardbox",
    parameters=(_CODE,),
    answer=Kept,
    headers=_ETAG,
    errors=(404, 429, 503),
)
def read(code: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The cardbox kept under a sync code."""
    _counted()
    found = read_code(code)
    kept = store().get(found)
    if kept is None:
        raise ServiceError(404, "unknown_sync_code", message("sync_unknown"))
    return {**_stored(found, kept[1]), "cardbox": json.loads(kept[0])}, 200, {"ETag": etag(kept[0])}


def init_app(app: Flask) -> None:
    """Config (defaults here and in service/http/limits.py): ``CARDBOXES`` (the SQLite file, default
    ``cardboxes.sqlite3`` beside the challenge record; with a ``DATABASE``, the database's instead),
    ``CARDBOX_RATE``, ``CARDBOX_MAX_BYTES``, ``CARDBOX_MAX_COUNT``, ``CARDBOX_MAX_TOTAL_BYTES``,
    ``CARDBOX_CLIENT_COUNT``, ``CARDBOX_CLIENT_BYTES``."""
    app.config.setdefault("CARDBOXES", None)
    record = app.config.get("RECORD")
    beside = Path(record).parent if record else Path(app.config["LEXICONS"])
    path = Path(app.config["CARDBOXES"] or beside / CARDBOXES_NAME)
    app.extensions[EXTENSION] = open_cardboxes(app.config.get("DATABASE"), path)
    app.register_blueprint(bp)
