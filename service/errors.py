"""Every failure the service reports, in one JSON shape: ``{"error": {"code": ..., "message": ...}}``.

The mapping from library errors to HTTP statuses lives here and nowhere else (``STATUS``). User input
can only ever produce a 4xx: a malformed request is 400, an unknown edition 404, a body or batch
that is too large 413, a word that the edition cannot spell 422. A missing or corrupt lexicon is
the server's problem, not the client's, and says so with 503; anything else that escapes a view is a
bug, logged with its traceback and answered with a bare 500 that leaks nothing.

An answer of 500 or more never carries the library's message, which names files of the server
(``no en lexicon in /srv/...``): the log gets it, the client gets the code's public message from
:data:`ERRORS`, the one table of error codes (the README's table and the OpenAPI document's enum of
codes are checked against it by the tests).
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from lextools.errors import (
    CorruptLexiconError,
    EditionDataError,
    LexiconError,
    LexiconNotFoundError,
    QueryError,
    SpellingError,
    UnknownEditionError,
)

log = logging.getLogger("lextools.service")

#: Every error code the service answers with: HTTP status and what it means.
ERRORS: dict[str, tuple[int, str]] = {
    "bad_request": (400, "malformed body, parameter value or cursor; a path that is not UTF-8"),
    "unknown_parameter": (400, "a query parameter the route does not take (a blank in a URL path is %3F)"),
    "stale_cursor": (400, "the cursor belongs to a lexicon since rebuilt: start the search again"),
    "bad_query": (400, "a pattern, rack or tile constraint that cannot be searched"),
    "not_found": (404, "no such route"),
    "unknown_edition": (404, "no such edition"),
    "method_not_allowed": (405, "the route does not take this method"),
    "body_too_large": (413, "the body is over the size limit"),
    "too_many_words": (413, "more words than one request may check"),
    "unspellable": (422, "the word cannot be spelled with the edition's tiles; the message says why"),
    "internal_error": (500, "a bug; the service log has the details"),
    "edition_data": (500, "a shipped edition file is inconsistent; the service log has the details"),
    "lexicon_not_found": (503, "this server has no lexicon for the edition"),
    "corrupt_lexicon": (503, "this server's lexicon for the edition cannot be read; the service log says why"),
}

#: Werkzeug's own errors under our codes (any other takes a code made from its name).
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}

#: HTTP status of each library error; a subclass not listed takes its nearest listed base class.
STATUS: dict[type[LexiconError], int] = {
    LexiconError: 400,  # "every error a user can cause" (lextools.errors)
    QueryError: 400,
    UnknownEditionError: 404,
    SpellingError: 422,
    LexiconNotFoundError: 503,  # the edition exists but nobody built its lexicon here (yet)
    CorruptLexiconError: 503,
    EditionDataError: 500,  # a shipped edition file is inconsistent: our bug
}


class ServiceError(Exception):
    """A request the service refuses for a reason of its own (not the library's): bad body, too many words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def bad_request(message: str) -> ServiceError:
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
    log.error("%s: %s", e.code, e)
    return ERRORS.get(e.code, ERRORS["internal_error"])[1]


def _on_lexicon_error(e: LexiconError) -> tuple[Response, int]:
    return error_response(status_of(e), e.code, public_message(e))


def _on_service_error(e: ServiceError) -> tuple[Response, int]:
    return error_response(e.status, e.code, e.message)


def _on_http_error(e: HTTPException) -> Response | HTTPException:
    """Werkzeug's own errors (404 no such route, 405, 413 body too large) in our shape.

    The response werkzeug built is kept for its headers (``Allow`` on a 405); only the body changes.
    """
    if e.code is None:
        return e
    response = e.get_response()
    code = _HTTP_CODES.get(e.code) or (e.name or "error").lower().replace(" ", "_")
    body, _ = error_response(e.code, code, e.description or e.name)
    response.set_data(body.get_data())
    response.content_type = "application/json"
    return response


def _on_unexpected(e: Exception) -> tuple[Response, int]:
    log.exception("unexpected error")
    return error_response(500, "internal_error", ERRORS["internal_error"][1])


def register(app: Flask) -> None:
    app.register_error_handler(LexiconError, _on_lexicon_error)
    app.register_error_handler(ServiceError, _on_service_error)
    app.register_error_handler(HTTPException, _on_http_error)
    app.register_error_handler(Exception, _on_unexpected)
