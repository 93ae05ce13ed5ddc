"""The study page's cardbox kept on the server, so the same cardbox works on a phone and a laptop.

Optional, and with no account and no e-mail: ``POST /v1/cardbox`` stores a cardbox (the study page's
export, ``static/cardbox.js``) under a new sync code — 20 characters of Crockford's base32 drawn by
:mod:`secrets`, 100 bits, shown to the player as ``XXXX-XXXX-XXXX-XXXX-XXXX`` — and whoever has the
code reads it (``GET /v1/cardbox/{code}``) and replaces it (``PUT``). Knowing the code is the only key,
so it is long enough that nobody finds one by trying.

The cardboxes are one SQLite file beside the challenge record (``cardboxes.sqlite3`` in the lexicon
directory; app config ``CARDBOXES``), or with a shared database (``DATABASE``) kept there, so every
replica reads the same ones (lextools/features/cardboxes.py). Each request counts against its client's
rate (``CARDBOX_RATE`` a minute, 429 beyond; the client behind a trusted proxy, service/http/clients.py;
counted in the database when there is one), a cardbox is at most ``CARDBOX_MAX_BYTES`` (413), and the
file holds at most ``CARDBOX_MAX_COUNT`` of them (a new one beyond is refused, 503): the file grows
by a bounded number of bytes a minute per client. None of it is reachable in kiosk mode.
"""

from __future__ import annotations

import hashlib
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
from lextools.features.cardboxes import (
    ALPHABET,
    CODE_LENGTH,
    CardboxesFull,
    CardboxStore,
    TooManySyncs,
    UnknownSyncCode,
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
#: The format of the study page's export (static/cardbox.js), the only thing stored.
FORMAT = "lextools-cardbox"


def shown(code: str) -> str:
    """A code as the player reads it: groups of four."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def read_code(text: str) -> str:
    """A code as typed (any case, with or without dashes or spaces), or 404: no such cardbox."""
    code = re.sub(r"[\s-]", "", text).upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise ServiceError(404, "unknown_sync_code", message("sync_unknown"))
    return code


def etag(body: str) -> str:
    """The ``ETag`` of a stored cardbox: the quoted sha256 of its text, so a sync can say which copy
    it merged with (``If-Match``) and never overwrite one it has not seen."""
    return '"' + hashlib.sha256(body.encode()).hexdigest() + '"'


def _check_if_match(code: str) -> None:
    """A PUT that names the copy it replaces (``If-Match``) is refused (412) when that copy is gone."""
    wanted = request.headers.get("If-Match")
    if wanted is None or wanted.strip() == "*":
        return
    kept = store().get(code)
    if kept is None:
        raise ServiceError(404, "unknown_sync_code", message("sync_unknown"))
    if etag(kept[0]) not in [tag.strip() for tag in wanted.split(",")]:
        raise ServiceError(412, "stale_cardbox", message("sync_stale"))


def store() -> CardboxStore:
    boxes: CardboxStore = current_app.extensions[EXTENSION]
    return boxes


@contextmanager
def _refusals() -> Iterator[None]:
    """The store's refusals as the API's answers: 429 ``too_many_syncs``, 404 ``unknown_sync_code``,
    503 ``sync_full`` (a store that cannot answer now is the library's 503 ``busy``)."""
    try:
        yield
    except (TooManySyncs, UnknownSyncCode, CardboxesFull) as e:
        status = {TooManySyncs: 429, UnknownSyncCode: 404, CardboxesFull: 503}[type(e)]
        raise ServiceError(status, e.code, e.message or str(e)) from None


def _counted() -> None:
    with _refusals():
        store().hit(client_address(), current_app.config["CARDBOX_RATE"])


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
        if not isinstance(value, dict) or value.get("format") != FORMAT or not isinstance(value.get("cards"), list):
            raise refused(bad_request(message("sync_not_cardbox")))
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class CardboxBody(Body):
    """What ``POST`` and ``PUT`` send: ``{"cardbox": <the study page's export>}``."""

    cardbox = CardboxExport(required=True, metadata={"description": "the study page's cardbox export"})


#: The sync code in an operation's path.
_CODE = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}


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
    errors=(400, 403, 413, 415, 429, 503),
)
def create() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Keep a cardbox on the server under a new sync code (no account: the code is the key)."""
    _counted()
    body = _cardbox_of_body()
    with _refusals():
        code, updated = store().put(None, body, current_app.config["CARDBOX_MAX_COUNT"])
    return _stored(code, updated), 201, {"ETag": etag(body)}


@operation(
    bp,
    "/v1/cardbox/<code>",
    "PUT",
    operationId="putCardbox",
    parameters=(_CODE,),
    body=CardboxBody,
    body_description="Content-Type: application/json only.",
    answer=Stored,
    errors=(400, 403, 404, 412, 413, 415, 429),
)
def replace(code: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Replace the cardbox kept under a sync code (``If-Match``: only the copy with that ETag)."""
    _counted()
    found = read_code(code)
    body = _cardbox_of_body()
    _check_if_match(found)
    with _refusals():
        return _stored(*store().put(found, body, current_app.config["CARDBOX_MAX_COUNT"])), 200, {"ETag": etag(body)}


@operation(
    bp, "/v1/cardbox/<code>", "GET", operationId="getCardbox", parameters=(_CODE,), answer=Kept, errors=(404, 429)
)
def read(code: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The cardbox kept under a sync code (its ``ETag`` names this copy)."""
    _counted()
    found = read_code(code)
    kept = store().get(found)
    if kept is None:
        raise ServiceError(404, "unknown_sync_code", message("sync_unknown"))
    return {**_stored(found, kept[1]), "cardbox": json.loads(kept[0])}, 200, {"ETag": etag(kept[0])}


def init_app(app: Flask) -> None:
    """Config (defaults here and in service/http/limits.py): ``CARDBOXES`` (the SQLite file, default
    ``cardboxes.sqlite3`` beside the challenge record; with a ``DATABASE``, the database's instead),
    ``CARDBOX_RATE``, ``CARDBOX_MAX_BYTES``, ``CARDBOX_MAX_COUNT``."""
    app.config.setdefault("CARDBOXES", None)
    record = app.config.get("RECORD")
    beside = Path(record).parent if record else Path(app.config["LEXICONS"])
    path = Path(app.config["CARDBOXES"] or beside / CARDBOXES_NAME)
    app.extensions[EXTENSION] = open_cardboxes(app.config.get("DATABASE"), path)
    app.register_blueprint(bp)
