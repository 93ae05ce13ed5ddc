"""Every failure the service reports, in one JSON shape: ``{"error": {"code": ..., "message": ...}}``.

The mapping from library errors to HTTP statuses lives here and nowhere else (``STATUS``). User input
can only ever produce a 4xx: a malformed request is 400, a challenge from another site's page 403,
an unknown edition 404, a body or batch that is too large 413, a challenge not sent as JSON 415, a
word that the edition cannot spell 422, too many challenges a second 429. Messages people read come
from the catalogue (lextools/messages.py) in the language the request asks for (service/language.py).
A 404 at a page's address (a kiosk's /study) is a page, not JSON. A missing or corrupt lexicon is
the server's problem, not the client's, and says so with 503; anything else that escapes a view is a
bug, logged with its traceback and answered with a bare 500 that leaks nothing.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from lextools.errors import (
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
from lextools.messages import Message, message
from service import pages
from service.language import request_language

log = logging.getLogger("lextools.service")

#: HTTP status of each library error; a subclass not listed takes its nearest listed base class.
STATUS: dict[type[LexiconError], int] = {
    LexiconError: 400,  # "every error a user can cause" (lextools.errors)
    QueryError: 400,
    UnknownEditionError: 404,
    SpellingError: 422,
    LexiconNotFoundError: 503,  # the edition exists but nobody built its lexicon here (yet)
    CorruptLexiconError: 503,
    EditionDataError: 500,  # a shipped edition file is inconsistent: our bug
    RateLimitError: 429,  # more challenges per second than a judge needs
    RecordError: 503,  # the challenge record cannot be written: nothing is judged unrecorded
}


class ServiceError(Exception):
    """A request the service refuses for a reason of its own (not the library's): bad body, too many words."""

    def __init__(self, status: int, code: str, message: str | Message) -> None:
        super().__init__(str(message))
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


def _on_lexicon_error(e: LexiconError) -> tuple[Response, int]:
    status = status_of(e)
    if status >= 500:
        log.error("%s: %s", e.code, e)
    lang = request_language()
    edition = (request.view_args or {}).get("edition")
    if isinstance(e, LexiconNotFoundError) and edition:  # said for people; the log has where it looked
        return error_response(status, e.code, message("no_lexicon", edition=edition).text(lang))
    return error_response(status, e.code, e.text(lang))


def _on_service_error(e: ServiceError) -> tuple[Response, int]:
    text = e.message.text(request_language()) if isinstance(e.message, Message) else e.message
    return error_response(e.status, e.code, text)


def _on_http_error(e: HTTPException) -> Response | HTTPException:
    """Werkzeug's own errors (404 no such route, 405, 413 body too large) in our shape.

    The response werkzeug built is kept for its headers (``Allow`` on a 405); only the body changes.
    """
    if e.code is None:
        return e
    if e.code == 404 and request.path in pages.PAGE_PATHS:  # a page (kiosk mode) answers with a page
        html, status = pages.error_page(message("not_found"))
        return Response(html, status, content_type="text/html; charset=utf-8")
    response = e.get_response()
    code = (e.name or "error").lower().replace(" ", "_")
    text = message("not_found").text(request_language()) if e.code == 404 else e.description or e.name
    body, _ = error_response(e.code, code, text)
    response.set_data(body.get_data())
    response.content_type = "application/json"
    return response


def _on_unexpected(e: Exception) -> tuple[Response, int]:
    log.exception("unexpected error")
    return error_response(500, "internal_error", "internal error; the service log has the details")


def register(app: Flask) -> None:
    app.register_error_handler(LexiconError, _on_lexicon_error)
    app.register_error_handler(ServiceError, _on_service_error)
    app.register_error_handler(HTTPException, _on_http_error)
    app.register_error_handler(Exception, _on_unexpected)
