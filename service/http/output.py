"""How an answer goes out: its JSON text (:class:`AnswerJSON`) and the headers the app adds to every
answer (:func:`answer_headers`), written once for the Flask app and service/api/hot_routes.py alike."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response as BaseResponse

#: GET routes, and POST check (it only reads), may be called from any web page; the challenge, which
#: writes the record, only from the service's own pages (service/judge/challenge.py).
_CORS_METHODS = ("GET", "HEAD", "OPTIONS")
_OPEN_POSTS = {"words.check"}
#: The preflight of POST check: app developers call it from their own pages with a JSON body.
_PREFLIGHT_POST = [
    ("Access-Control-Allow-Methods", "POST"),
    ("Access-Control-Allow-Headers", "Content-Type, Accept-Language"),
    ("Access-Control-Max-Age", "86400"),
]


class AnswerJSON(DefaultJSONProvider):
    """How an answer becomes JSON text: Flask's, written once here for the views (a dict they return,
    ``jsonify``) and service/api/hot_routes.py alike."""

    ensure_ascii = False  # CANCIÓN, not CANCI\u00d3N
    sort_keys = False  # fields in the documented order
    _encoder: tuple[tuple[Any, ...], json.JSONEncoder] | None = None

    def text(self, obj: Any) -> str:
        """The body of an answer: compact (indented in debug mode, or with ``compact = False``), one line."""
        if (self.compact is None and self._app.debug) or self.compact is False:
            return f"{self.dumps(obj, indent=2)}\n"
        return f"{self._compact().encode(obj)}\n"

    def _compact(self) -> json.JSONEncoder:
        """The encoder ``dumps(obj, separators=(",", ":"))`` would build, built once (building it
        weighed on a word's small answer), and without the check for cycles (answers are trees the
        answer functions build; the check weighed on a batch's encoding): the same text for every answer."""
        settings = (self.ensure_ascii, self.sort_keys, self.default)
        if self._encoder is None or self._encoder[0] != settings:
            encoder = json.JSONEncoder(
                ensure_ascii=self.ensure_ascii, sort_keys=self.sort_keys, default=self.default,
                separators=(",", ":"), check_circular=False,
            )  # fmt: skip
            self._encoder = (settings, encoder)
        return self._encoder[1]

    def response(self, *args: Any, **kwargs: Any) -> BaseResponse:
        return self._app.response_class(self.text(self._prepare_response_obj(args, kwargs)), mimetype=self.mimetype)


#: Sent on every GET, and on preflights (OPTIONS), where they also say only GET is open to other origins.
_CORS = [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", "ETag, X-Lexicon-Checksum")]
_PREFLIGHT = [
    ("Access-Control-Allow-Methods", "GET, HEAD"),
    ("Access-Control-Allow-Headers", "If-None-Match"),
    ("Access-Control-Max-Age", "86400"),
]


#: Every answer is JSON, text or a file to save: no browser may guess it is a page or a script.
NOSNIFF = ("X-Content-Type-Options", "nosniff")


def answer_headers(endpoint: str | None, method: str) -> list[tuple[str, str]]:
    """The headers the app adds to every answer of a route (its endpoint) to a method, in the order
    its ``after_request`` hooks add them: ``X-Content-Type-Options`` then the CORS headers."""
    return [NOSNIFF, *cors_headers(endpoint, method)]


def cors_headers(endpoint: str | None, method: str) -> list[tuple[str, str]]:
    if endpoint in _OPEN_POSTS and method in ("POST", "OPTIONS"):
        return _CORS if method == "POST" else _CORS + _PREFLIGHT_POST
    if method in _CORS_METHODS:
        return _CORS if method != "OPTIONS" else _CORS + _PREFLIGHT
    return []


def _nosniff(response: Response) -> Response:
    response.headers[NOSNIFF[0]] = NOSNIFF[1]
    return response


def _cors(response: Response) -> Response:
    for name, value in cors_headers(request.endpoint, request.method):
        response.headers[name] = value
    return response
