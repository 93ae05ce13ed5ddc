"""Challenges: judge a play, write it to the challenge record, answer with a signed receipt.

A challenge is the one route that writes (to the record, lextools/features/record.py), so it is the one a
web page elsewhere must not be able to call: it takes ``Content-Type: application/json`` only —
which a cross-site form or a "simple" fetch cannot send without a CORS preflight that this service
never grants — and refuses any ``Origin`` other than its own (403, nothing recorded). A program that
is not a browser (curl, an app) sends no Origin and is served.

Every play of at most ``MAX_WORDS`` words of at most ``MAX_WORD_CHARS`` characters gets a verdict
(service/http/limits.py says where that boundary is and why): a word longer than the board, one the
edition cannot spell, one with a letter it has no tile for is NOT ACCEPTABLE, recorded and signed
like any other verdict. Only input no board could hold is refused (4xx, not recorded), and a client
sends at most ``CHALLENGE_RATE`` challenges a second (429 beyond, not recorded). Those bound how
fast the record can grow.

Blind is the rule: the answer holds the verdict for the whole play, the edition's ruling and the
receipt, nothing that says which word failed or why. Per-word results come only with ``reveal:
true``, and never from a kiosk (service/judge/kiosk.py), whose answer is blind whatever the request asks.
The record keeps the words either way.

The director reads the record with ``lextools record`` or ``GET /v1/record``, which needs
``Authorization: Bearer $LEXTOOLS_DIRECTOR_TOKEN``, or on the page ``/director``
(service/judge/director.py); without a token on the server those routes are off (404), see
service/judge/director_auth.py. The answers' receipts are explained in lextools/features/receipts.py.
"""

from __future__ import annotations

import os
import re
from functools import partial
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request
from marshmallow import fields

from lextools.core.edition import load_edition
from lextools.core.messages import LANGUAGES, message
from lextools.features.answers import localized
from lextools.features.inert import inert_json
from lextools.features.record import as_csv_text, default_record, parse_since
from lextools.features.stores import open_record, shared_hits
from service.contract.bodies import Body, BodyFlag, Words, load_body
from service.contract.operations import operation
from service.contract.params import Choice, Query, Text, load
from service.contract.schemas import (
    Answer,
    WordResult,
    bool_field,
    errors,
    int_field,
    nested_field,
    nested_list,
    str_field,
    str_list,
)
from service.http.clients import client_address
from service.http.errors import ServiceError, bad_request
from service.http.guards import kiosk_edition, require_json, require_own_origin
from service.http.language import request_language
from service.http.lexicons import lexicon
from service.http.limits import CHALLENGE_RATE, MAX_BODY, MAX_WORD_CHARS, MAX_WORDS
from service.judge import director_auth, kiosk, record_access
from service.judge.director_auth import require_director
from service.judge.record_access import record, record_entries, secret
from service.judge.rulings import ruling
from service.worker_renewal import keep_while

bp = Blueprint("challenge", __name__)

#: The environment variable holding the director's token; unset, GET /v1/record is off.
DIRECTOR_TOKEN_ENV = "LEXTOOLS_DIRECTOR_TOKEN"


def _on_a_board(words: list[str]) -> None:
    """Refuse only what no board could hold in any notation (service/http/limits.py). A word of more
    than 15 tiles, or one the edition cannot spell, is judged: NOT ACCEPTABLE."""
    if len(words) > MAX_WORDS:
        raise ServiceError(413, "too_many_words", message("too_many_words", count=len(words), max=MAX_WORDS))
    if any(len(word) > MAX_WORD_CHARS for word in words):
        raise ServiceError(400, "word_too_long", message("word_too_long", max=MAX_WORD_CHARS))


class Play(Body):
    """A challenged play: of one word at least (check takes an empty list)."""

    words = Words(
        limit="MAX_BATCH",
        allow_empty=False,
        check=_on_a_board,
        item=fields.String(metadata={"minLength": 1, "maxLength": MAX_WORD_CHARS}),
        required=True,
        metadata={"maxItems": MAX_WORDS},
    )
    reveal = BodyFlag(
        load_default=False,
        metadata={"description": "include per-word results (a kiosk ignores it: its answers are always blind)"},
    )


def blind(play: dict[str, Any]) -> bool:
    """Is this answer blind? Always on a kiosk (``reveal`` is read, so a bad value is still a 400,
    and ignored); elsewhere unless the request asks ``reveal: true``."""
    return kiosk_edition() is not None or not play["reveal"]


#: The edition's ruling (service/judge/rulings.py): ``outcome`` in the answer's language, and each
#: language's text as ``outcome_<lang>``.
Ruling = Answer.from_dict(
    {
        "rules": str_field(required=True, allow_none=True),
        "play_stands": bool_field(required=True),
        "outcome": str_field(required=True, allow_none=True),
        "challenger_penalty": str_field("null when the challenger is not penalised", required=True, allow_none=True),
        **{f"outcome_{code}": str_field(f"the outcome in {code}, where the edition has it") for code in LANGUAGES},
        "source": str_field(allow_none=True),
    },
    name="Ruling",
)


class Receipt(Answer):
    """Proof of the ruling; the words are signed but not repeated (the record has them)."""

    id = str_field(required=True)
    time = str_field(required=True, metadata={"format": "date-time"})
    edition = str_field(required=True)
    checksum = str_field("the lexicon that judged", required=True)
    acceptable = bool_field(required=True)
    signature = str_field(
        "HMAC-SHA256 (hex) over id, time, edition, checksum, words, acceptable; "
        "check it with `lextools receipt verify`",
        required=True,
    )


class Judgement(Answer):
    """The judgement."""

    edition = str_field(required=True)
    words = int_field(required=True)
    acceptable = bool_field(required=True)
    ruling = nested_field(Ruling, required=True)
    receipt = nested_field(Receipt)
    results = nested_list(WordResult)


@operation(
    bp,
    "/v1/<edition>/challenge",
    "POST",
    summary="Judge a challenged play, record it, answer with a signed receipt. Every play of at most "
    f"{MAX_WORDS} words of at most {MAX_WORD_CHARS} characters gets a verdict: a word of more than 15 tiles, "
    "one the edition cannot spell or with a letter it has no tile for is not acceptable; only longer input "
    "is refused (400/413, not recorded). Blind: per-word results only with reveal, never from a kiosk. "
    "Only from this server's own pages (Origin) or from non-browsers.",
    operationId="challenge",
    body=Play,
    body_description="Content-Type: application/json only.",
    answer=Judgement,
    parameters=(
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            "description": "A key the client draws for this play (8 to 64 letters, digits, - or _): the same request "
            "sent again under it is answered with the receipt it got, not judged and recorded twice (a proxy "
            "retrying after a replica died mid-answer); another play under it is a 400.",
            "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"},
        },
    ),
    errors=(400, 403, 404, 413, 415, 429, 503),
)
def challenge(edition: str) -> dict[str, Any]:
    """Judge a play. Blind by default, always on a kiosk: a word judge must not tell which word failed
    (the record keeps the words)."""
    require_own_origin()
    require_json()
    request.max_content_length = min(MAX_BODY, current_app.config["MAX_CONTENT_LENGTH"])
    lex = lexicon(edition)
    play = load_body(Play)
    words, hidden = play["words"], blind(play)
    results = [lex.lookup(w) for w in words]
    acceptable = all(r.valid for r in results)
    lang = request_language()
    receipt = record().add(
        edition,
        lex.checksum,
        words,
        acceptable,
        client=client_address(),
        rate=current_app.config["CHALLENGE_RATE"],
        secret=secret(),
        key=request_key(),
    )
    reply: dict[str, Any] = {
        "edition": edition,
        "words": len(words),
        "acceptable": acceptable,
        "ruling": ruling(lex.edition, acceptable, lang),
        "receipt": receipt.as_dict(),
    }
    if not hidden:
        reply["results"] = [localized(r, lex.edition, lang) for r in results]
    return reply


#: An Idempotency-Key as a challenge takes it.
_REQUEST_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def request_key() -> str | None:
    """The challenge's ``Idempotency-Key`` header, if it sent one (a 400 when it is not one)."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not _REQUEST_KEY.fullmatch(key):
        raise bad_request(message("challenge_key_malformed"))
    return key


class RecordEntry(Answer):
    id = str_field(required=True)
    time = str_field(required=True, metadata={"format": "date-time"})
    edition = str_field(required=True)
    checksum = str_field(required=True)
    words = str_list(required=True)
    acceptable = bool_field(required=True)
    signature = str_field(
        "the receipt's signature, kept by the record: `lextools receipt verify --id` checks the row against it; "
        "null for a challenge recorded before the record kept signatures",
        required=True,
        allow_none=True,
    )


class RecordAnswer(Answer):
    challenges = nested_list(RecordEntry, required=True)


class RecordQuery(Query):
    since = Text(metadata={"description": "only challenges from this time on (ISO 8601; UTC if no zone)"})
    format = Choice(("json", "csv"), load_default="json", metadata={"description": "json or csv"})


@operation(
    bp,
    "/v1/record",
    query=RecordQuery,
    summary="The challenge record, for the tournament director (Authorization: Bearer "
    "$LEXTOOLS_DIRECTOR_TOKEN; 404 when the server has no token)",
    operationId="getRecord",
    security=[{"director": []}],
    responses={
        "200": {
            "description": "The challenges, oldest first",
            "content": {
                "application/json": {"schema": RecordAnswer},
                "text/csv": {"schema": {"type": "string"}},
            },
        },
        **errors(400, 401, 404),
    },
)
def read_record() -> Any:
    """The challenge record, for the director only; ``?since=`` a time, ``?format=csv``."""
    require_director()  # 404 when the server has no token, 401 without the right one
    params = load(RecordQuery)
    fmt, since = params["format"], params.get("since")
    entries = record_entries(parse_since(since) if since else None)
    if fmt == "csv":  # every cell text, no control character, no formula (lextools/features/inert.py)
        return Response(as_csv_text(entries), content_type="text/csv; charset=utf-8")
    # The words exact for a program, their control and format characters as JSON escapes for a person.
    return Response(inert_json(RecordAnswer().dump({"challenges": entries})) + "\n", mimetype="application/json")


def init_app(app: Flask) -> None:
    """The word judge's part of the app. Config (defaults here): ``RECORD`` (the challenge record,
    default ``challenges.sqlite3`` beside the lexicons; with a ``DATABASE``, the database's instead),
    ``CHALLENGE_RATE`` (challenges a second per client), ``DIRECTOR_TOKEN`` (default
    ``$LEXTOOLS_DIRECTOR_TOKEN``; None turns ``GET /v1/record`` off), ``KIOSK`` (an edition: serve only
    its judge, service/judge/kiosk.py), ``JUDGE_CLEAR_SECONDS`` (how long a verdict shows; Zyzzyva's
    judge shows one for 10 s too)."""
    defaults = {
        "RECORD": None,
        "CHALLENGE_RATE": CHALLENGE_RATE,
        "DIRECTOR_TOKEN": os.environ.get(DIRECTOR_TOKEN_ENV) or None,
        "KIOSK": None,
        "JUDGE_CLEAR_SECONDS": 10.0,
    }
    for key, value in defaults.items():
        app.config.setdefault(key, value)
    if app.config["KIOSK"] is not None:
        load_edition(app.config["KIOSK"])  # an unknown edition fails here, at start-up
    director_auth.check_token_strength(app.config["DIRECTOR_TOKEN"])  # so does a weak token
    database = app.config.get("DATABASE")
    app.extensions[director_auth.ATTEMPTS] = director_auth.wrong_tokens(shared_hits(database))
    keep_while(app, partial(director_auth.counted_in_worker, app))  # a fresh worker would forget them
    path = Path(app.config["RECORD"] or default_record(app.config["LEXICONS"]))
    app.extensions[record_access.EXTENSION] = open_record(database, path)
    app.before_request(kiosk.gate)
    app.register_blueprint(bp)
