"""Every failure the service reports, in one JSON shape: ``{"error": {"code": ..., "message": ...}}``.

The mapping from library errors to HTTP statuses lives here and nowhere else (``STATUS``). User input
can only ever produce a 4xx: a malformed request is 400, a challenge from another site's page 403,
an unknown edition 404, a body or batch that is too large 413, a challenge not sent as JSON 415, a
word that the edition cannot spell 422, too many challenges a second 429. Messages people read come
from the catalogue (lextools/core/messages.py) in the language the request asks for (service/http/language.py).
A 404 at a page's address (a kiosk's /study) is a page, not JSON. A missing or corrupt lexicon is
the server's problem, not the client's, and says so with 503; anything else that escapes a view is a
bug, logged with its traceback and answered with a bare 500 that leaks nothing.

An answer of 500 or more never carries the library's message, which names files of the server
(``no en lexicon in /srv/...``): the log gets it, the client gets the code's public message from
:data:`ERRORS`, the one table of error codes (docs/service.md's table and the OpenAPI document's enum of
codes are checked against it by the tests).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from flask import Flask, Response, current_app, jsonify, request
from gunicorn.http.errors import NoMoreData, ParseException
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as WerkzeugResponse

from lextools.core.errors import (
    BusyError,
    CorruptLexiconError,
    EditionDataError,
    LexiconError,
    LexiconNotFoundError,
    QueryError,
    RateLimitError,
    RecordError,
    SpellingError,
    UnknownEditionError,
)
from lextools.core.messages import Message, message
from service.http.language import language, request_language
from service.http.wire import client_fault_log, refusal_log

log = logging.getLogger("lextools.service")

#: The app.extensions key of the pages' 404: a function of the path giving a page, or None for the
#: one JSON shape (service/pages/views.py sets it; no import of the pages here).
PAGE_ERROR = "lextools.page_error"

#: Every error code the service answers with: HTTP status and what it means.
ERRORS: dict[str, tuple[int, str]] = {
    "bad_request": (400, "malformed request, body, parameter value or cursor; a path that is not UTF-8"),
    "host_not_allowed": (400, "a Host name the server is not configured for (see --allowed-host)"),
    "unknown_parameter": (400, "a query parameter the route does not take (a blank in a URL path is %3F)"),
    "stale_cursor": (400, "the cursor belongs to a lexicon since rebuilt: start the search again"),
    "bad_query": (400, "a pattern, rack or tile constraint that cannot be searched"),
    "quiz_too_large": (
        400,
        "a quiz over its size limit (questions × tiles × blanks, or answers); the message says which",
    ),
    "word_too_long": (400, "a challenged word of over 60 characters: no board holds it (a shorter one is judged)"),
    "unauthorized": (401, "the record route without the director token, or with a wrong one"),
    "foreign_origin": (403, "a challenge sent from another site's page (its Origin is not this server)"),
    "not_found": (404, "no such route"),
    "unknown_edition": (404, "no such edition"),
    "method_not_allowed": (405, "the route does not take this method"),
    "body_too_large": (413, "the body is over the size limit"),
    "too_many_words": (413, "more words than one request may check or challenge"),
    "uri_too_long": (414, "a request line over the server's limit"),
    "unsupported_media_type": (415, "a challenge not sent as Content-Type: application/json"),
    "expectation_failed": (417, "an Expect header the server does not meet"),
    "unspellable": (422, "the word cannot be spelled with the edition's tiles; the message says why"),
    "too_many_challenges": (429, "more challenges a second from one client than a judge needs; not recorded"),
    "too_many_attempts": (429, "too many wrong director tokens from one client: wait the Retry-After seconds"),
    "headers_too_large": (431, "request headers over the server's limits"),
    "unknown_sync_code": (404, "no cardbox is kept under this sync code"),
    "sync_stale": (412, "the cardbox changed since the ETag sent in If-Match: read it again, merge, send again"),
    "if_match_required": (428, "a cardbox replaced without If-Match (the ETag it was read with)"),
    "too_many_syncs": (429, "more cardbox sync requests a minute from one client than a player needs"),
    "sync_quota": (429, "the client (an IPv4 address, an IPv6 /64) keeps as many cardboxes or bytes as one may"),
    "sync_full": (
        503,
        "the server keeps as many cardboxes or bytes as it may, none expired: no new sync code; ask after Retry-After",
    ),
    "internal_error": (500, "a bug; the service log has the details"),
    "edition_data": (500, "a shipped edition file is inconsistent; the service log has the details"),
    "unsupported_transfer_coding": (501, "a Transfer-Encoding the server does not take"),
    "lexicon_not_found": (503, "this server has no lexicon for the edition"),
    "corrupt_lexicon": (503, "this server's lexicon for the edition cannot be read; the service log says why"),
    "record_error": (503, "the challenge record cannot be written: nothing is judged unrecorded"),
    "busy": (503, "a quiz or export that cannot be made within its wait now; ask again after Retry-After seconds"),
}

#: Werkzeug's own errors under our codes (any other takes a code made from its name).
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large", 429: "too_many_attempts"}

#: HTTP status of each library error; a subclass not listed takes its nearest listed base class.
STATUS: dict[type[LexiconError], int] = {
    LexiconError: 400,  # "every error a user can cause" (lextools.core.errors)
    QueryError: 400,
    UnknownEditionError: 404,
    SpellingError: 422,
    LexiconNotFoundError: 503,  # the edition exists but nobody built its lexicon here (yet)
    CorruptLexiconError: 503,
    EditionDataError: 500,  # a shipped edition file is inconsistent: our bug
    RateLimitError: 429,  # more challenges per second than a judge needs
    RecordError: 503,  # the challenge record cannot be written: nothing is judged unrecorded
    BusyError: 503,  # a quiz's lists still being ranked, another export being made: ask again shortly
}


class ServiceError(Exception):
    """A request the service refuses for a reason of its own (not the library's): bad body, too many words."""

    def __init__(self, status: int, code: str, message: str | Message) -> None:
        super().__init__(str(message))
        self.status = status
        self.code = code
        self.message = message


def bad_request(message: str | Message) -> ServiceError:
    return ServiceError(400, "bad_request", message)


def error_response(status: int, code: str, message: str) -> tuple[Response, int]:
    """The one error shape."""
    return jsonify(error={"code": code, "message": message}), status


def status_of(error: LexiconError) -> int:
    return next(STATUS[cls] for cls in type(error).__mro__ if cls in STATUS)


def public_message(e: LexiconError) -> str:
    """What a client may read of a library error: its own message, unless it is the server's fault
    (then it may name the server's files, which only the log gets)."""
    if status_of(e) < 500:
        return str(e)
    refusal_log(e.code).error("%s: %s", e.code, e)  # every request meeting it is refused: throttled
    return ERRORS.get(e.code, ERRORS["internal_error"])[1]


def _on_lexicon_error(e: LexiconError) -> tuple[Response, int]:
    status = status_of(e)
    lang = request_language()
    edition = (request.view_args or {}).get("edition")
    if isinstance(e, LexiconNotFoundError) and edition:  # said for people; the log has where it looked
        refusal_log(e.code).error("%s: %s", e.code, e)
        return error_response(status, e.code, message("no_lexicon", edition=edition).text(lang))
    if status >= 500:
        return error_response(status, e.code, public_message(e))
    return error_response(status, e.code, e.text(lang))


def _on_busy(e: BusyError) -> tuple[Response, int]:
    """503 with the catalogue's message (it names nothing of the server) and ``Retry-After``."""
    response, status = error_response(status_of(e), e.code, e.text(request_language()))
    response.headers["Retry-After"] = str(e.retry_after)
    return response, status


def _on_service_error(e: ServiceError) -> tuple[Response, int]:
    text = e.message.text(request_language()) if isinstance(e.message, Message) else e.message
    return error_response(e.status, e.code, text)


def _on_http_error(e: HTTPException) -> WerkzeugResponse | HTTPException:
    """Werkzeug's own errors (404 no such route, 405, 413 body too large) in our shape.

    The response werkzeug built is kept for its headers (``Allow`` on a 405); only the body changes.
    """
    if e.code is None:
        return e
    page: Callable[[str], Response | None] | None = current_app.extensions.get(PAGE_ERROR)
    if e.code == 404 and page is not None and (answer := page(request.path)) is not None:
        return answer  # a page's address (kiosk mode) answers with a page
    response = e.get_response()
    code = _HTTP_CODES.get(e.code) or (e.name or "error").lower().replace(" ", "_")
    body, _ = error_response(e.code, code, _http_text(e, response))
    response.set_data(body.get_data())
    response.content_type = "application/json"
    return response


def _http_text(e: HTTPException, response: WerkzeugResponse) -> str:
    """A werkzeug error's message from the catalogue, in the request's language (English for the others)."""
    lang = _error_language()
    if e.code == 404:
        return message("not_found").text(lang)
    if e.code == 405:
        allowed = ", ".join(sorted(m.strip() for m in response.headers.get("Allow", "").split(",") if m.strip()))
        return message("method_not_allowed", method=request.method, allowed=allowed).text(lang)
    if e.code == 413:
        return message("body_too_large").text(lang)
    return e.description or e.name


def _error_language() -> str:
    """The request's language; when no route matched, the edition named in a ``/v1/<edition>/…`` path
    still gives its default (an unknown route of ``/v1/es-fise/`` answers in Spanish)."""
    if (request.view_args or {}).get("edition"):
        return request_language()
    parts = request.path.split("/")
    edition = parts[2] if len(parts) > 2 and parts[1] == "v1" else None
    return language(edition, request.args.get("lang"), request.headers.get("Accept-Language"))


def _on_malformed_body(e: Exception) -> tuple[Response, int]:
    """A body that breaks its chunked coding, or ends before it should: the client's fault, a 400 and
    one throttled log line (service/http/wire.py), never a traceback."""
    client_fault_log().warning("malformed request body from %s: %s", request.remote_addr, ascii(str(e)[:120]))
    return error_response(400, "bad_request", message("body_malformed").text(request_language()))


def _on_unexpected(e: Exception) -> tuple[Response, int]:
    log.exception("unexpected error")
    return error_response(500, "internal_error", ERRORS["internal_error"][1])


def register(app: Flask) -> None:
    app.register_error_handler(LexiconError, _on_lexicon_error)
    app.register_error_handler(BusyError, _on_busy)
    app.register_error_handler(ServiceError, _on_service_error)
    app.register_error_handler(HTTPException, _on_http_error)
    app.register_error_handler(ParseException, _on_malformed_body)  # gunicorn's, met reading the body
    app.register_error_handler(NoMoreData, _on_malformed_body)
    app.register_error_handler(Exception, _on_unexpected)
