"""The director's token: who may read the challenge record.

The director's routes — ``GET /v1/record``, the record page ``/director`` and its CSV
``/director/record.csv``, and in kiosk mode ``/healthz`` too (service/judge/kiosk.py) — answer only a
request that carries the token the server was started with (``$LEXTOOLS_DIRECTOR_TOKEN``, config
``DIRECTOR_TOKEN``):

- the server has no token: the routes are off, 404 as for a path that is no route;
- a request without the token, or with a wrong one: 401 with ``WWW-Authenticate: Basic``, so that a
  browser asks for it (any user name, the token as password);
- the token as ``Authorization: Bearer <token>`` (curl, a program), as the password of
  ``Authorization: Basic`` (a browser), or bare: served.

The comparison is constant-time. A token must be strong enough that guessing it is hopeless (at
least 16 characters, 8 of them different: ``openssl rand -hex 16`` gives 32): the app refuses to
start with a weaker one. Wrong tokens are limited too: after 10 from one client address within a
minute (a request without any token, a browser's first, is not a guess), every attempt from it is a
429 with ``Retry-After`` until that minute is over (right tokens included, so that the answer tells a
guesser nothing). The client is the one :mod:`service.http.clients` names: behind a trusted proxy the
address it forwards, so a guesser locks out only itself. With a shared database the wrong tokens are
counted there (:class:`SharedWrongTokens`), so the lock-out holds across workers and replicas; without
one, or while the database is down, each worker counts its own (:class:`WrongTokens`).
Only werkzeug's exceptions are raised at requests, so that this module imports nothing of the
service's error handling (service/http/errors.py renders them in the one JSON shape).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import time
from collections import deque

from flask import Flask, current_app, request
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import NotFound, TooManyRequests, Unauthorized

from lextools.core.errors import LexiconError, RecordError
from lextools.core.messages import message
from lextools.features.postgres import SharedHits
from service.http.clients import client_address
from service.http.language import request_language

#: The protection space a browser remembers the director's token for.
REALM = "lextools director"
#: The weakest token the app starts with.
MIN_TOKEN_LENGTH, MIN_TOKEN_DISTINCT = 16, 8
#: Wrong tokens a client address may send within WRONG_WINDOW seconds before it must wait.
MAX_WRONG, WRONG_WINDOW = 10, 60.0
#: The app.extensions key of the worker's :class:`WrongTokens`.
ATTEMPTS = "lextools.director_attempts"


class WeakTokenError(LexiconError, code="weak_director_token"):
    """The director token is too short or too repetitive to stand guessing: the app does not start."""


def check_token_strength(token: str | None) -> None:
    if token is not None and (len(token) < MIN_TOKEN_LENGTH or len(set(token)) < MIN_TOKEN_DISTINCT):
        raise WeakTokenError(message("director_token_weak", length=MIN_TOKEN_LENGTH, distinct=MIN_TOKEN_DISTINCT))


class WrongTokens:
    """The times of each client address's recent wrong tokens (at most ``MAX_WRONG`` each), for as
    many addresses as ``capacity``: beyond it the oldest address is forgotten."""

    def __init__(self, capacity: int = 10_000) -> None:
        self.capacity = capacity
        self.times: dict[str, deque[float]] = {}

    def wait(self, address: str) -> int:
        """Seconds ``address`` must still wait (0: it may try)."""
        times = self.times.get(address)
        if times is None or len(times) < MAX_WRONG:
            return 0
        left = times[0] + WRONG_WINDOW - time.monotonic()
        return max(0, int(left) + 1) if left > 0 else 0

    def held(self) -> bool:
        """Whether a wrong token is still counted (in the last WRONG_WINDOW seconds)."""
        since = time.monotonic() - WRONG_WINDOW
        return any(times[-1] > since for times in self.times.values())

    def failed(self, address: str) -> None:
        times = self.times.pop(address, None) or deque(maxlen=MAX_WRONG)
        times.append(time.monotonic())
        self.times[address] = times  # last in order: the most recently failed
        if len(self.times) > self.capacity:
            del self.times[next(iter(self.times))]


class SharedWrongTokens:
    """The wrong tokens counted in the shared database (``hits`` of kind ``director``), as
    :class:`WrongTokens` counts them in a worker; while the database cannot answer, the worker's own
    count stands in (a guesser is still slowed, the director is not locked out by an outage)."""

    def __init__(self, hits: SharedHits) -> None:
        self.hits = hits
        self.local = WrongTokens()

    def wait(self, address: str) -> int:
        now = time.time()
        try:
            times = self.hits.latest("director", address, MAX_WRONG, now - WRONG_WINDOW)
        except RecordError:
            return self.local.wait(address)
        if len(times) < MAX_WRONG:
            return 0
        left = times[-1] + WRONG_WINDOW - now
        return max(0, int(left) + 1) if left > 0 else 0

    def failed(self, address: str) -> None:
        try:
            self.hits.add("director", address, time.time(), WRONG_WINDOW)
        except RecordError:
            self.local.failed(address)


def counted_in_worker(app: Flask) -> bool:
    """Whether this worker counts wrong tokens no other process knows of (no database, or while it was
    down): it is not replaced meanwhile (service/worker_renewal.py), or a guesser would start afresh."""
    attempts: WrongTokens | SharedWrongTokens = app.extensions[ATTEMPTS]
    return (attempts.local if isinstance(attempts, SharedWrongTokens) else attempts).held()


def wrong_tokens(hits: SharedHits | None) -> WrongTokens | SharedWrongTokens:
    """Where an app counts wrong tokens: in the shared database when there is one, else per worker."""
    return WrongTokens() if hits is None else SharedWrongTokens(hits)


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
    """404 when the server has no director token (the routes are off), 429 for an address that sent
    too many wrong ones lately, 401 without the right one."""
    token = director_token()
    if token is None:
        raise NotFound()
    attempts: WrongTokens | SharedWrongTokens = current_app.extensions[ATTEMPTS]
    address = client_address()
    if seconds := attempts.wait(address):
        raise TooManyRequests(
            message("too_many_attempts", seconds=seconds).text(request_language()), retry_after=seconds
        )
    given = given_token()
    if not hmac.compare_digest(given.encode(), token.encode()):
        if given:
            attempts.failed(address)
        raise Unauthorized(
            description=message("director_token").text(request_language()),
            www_authenticate=WWWAuthenticate("basic", {"realm": REALM, "charset": "UTF-8"}),
        )
