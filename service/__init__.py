"""The word-validation service: JSON over HTTP under /v1, a Flask app served by gunicorn.

Layout (Flask tutorial style): :func:`create_app` builds an app from config; the routes live in
blueprints — ``meta`` (health, editions, OpenAPI), ``words`` (validity, check, challenge, hooks,
score), ``study`` (two-tile words, anagrams, search), ``quiz`` (word-study quizzes), ``export``;
``errors`` gives every failure one JSON shape; ``lexicons`` keeps the lexicons a worker has loaded;
``server`` runs it under gunicorn. ``hot`` answers the two hot routes (a word, a batch check) in
front of Flask, with the views' own functions, the headers of :func:`answer_headers` and the text
of :class:`AnswerJSON`: the same bytes for less than half the CPU (see its docstring).
The library (``lextools``) never imports this package.

The challenge route, its record and receipts, and kiosk mode are the word judge's part of the app
(``challenge``, ``kiosk``), set up by :func:`service.challenge.init_app`.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

from flask import Flask, Response, request
from flask.json.provider import DefaultJSONProvider

from lextools.core.lexicon import default_home

#: GET routes, and POST check (it only reads), may be called from any web page; the challenge, which
#: writes the record, only from the service's own pages (service/challenge.py).
_CORS_METHODS = ("GET", "HEAD", "OPTIONS")
_OPEN_POSTS = {"words.check"}
#: The preflight of POST check: app developers call it from their own pages with a JSON body.
_PREFLIGHT_POST = [
    ("Access-Control-Allow-Methods", "POST"),
    ("Access-Control-Allow-Headers", "Content-Type, Accept-Language"),
    ("Access-Control-Max-Age", "86400"),
]


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Config: ``LEXICONS`` (lexicon directory, default ``default_home()``), the
    limits of ``service.limits.LIMITS`` (batch size, body size, search pages and budget, blanks),
    ``RELOAD_CHECK_SECONDS`` (how often a worker looks for a rebuilt lexicon: 0 on every request,
    None never; see service/lexicons.py), ``HOT_ROUTES`` (False: Flask answers the word look-ups and
    batch checks too, instead of service/hot.py)."""
    from service import errors, export, meta, pages, quiz, study, words
    from service.inputs import refuse_unknown_parameters, require_utf8_path
    from service.lexicons import EXTENSION, LexiconCache
    from service.limits import limit_defaults
    from service.study import WALKS

    app = Flask(__name__, static_folder=None)
    # /v1/es-fise//words/casa is no route (404 in the JSON shape), not a 308 redirect to a merged
    # path with an HTML body: an API client would follow it, and "..//" would become "../".
    app.url_map.merge_slashes = False
    app.config.from_mapping(
        LEXICONS=None,
        RELOAD_CHECK_SECONDS=1.0,  # one os.stat per edition per second and worker
        HOT_ROUTES=True,
        **limit_defaults(),
    )
    if test_config:
        app.config.update(test_config)
    app.config["LEXICONS"] = Path(app.config["LEXICONS"] or default_home())
    app.json = AnswerJSON(app)
    app.extensions[EXTENSION] = LexiconCache(app.config["LEXICONS"], app.config["RELOAD_CHECK_SECONDS"])
    app.extensions[WALKS] = threading.BoundedSemaphore(app.config["SEARCH_CONCURRENCY"])

    service_log = logging.getLogger("lextools.service")
    if service_log.level == logging.NOTSET:
        service_log.setLevel(logging.INFO)  # reloads are INFO

    errors.register(app)
    app.before_request(require_utf8_path)
    app.before_request(refuse_unknown_parameters)
    app.after_request(_cors)
    app.after_request(_nosniff)
    for module in (meta, words, study, quiz, export):
        app.register_blueprint(module.bp)
    app.register_blueprint(pages.bp)  # the HTML pages: /judge, /study, / (service/pages.py)
    from service.challenge import init_app as init_judge  # (kept apart: the judge's config and routes)
    from service.hot import HotRoutes

    init_judge(app)
    if app.config["HOT_ROUTES"]:
        app.wsgi_app = HotRoutes(app, app.wsgi_app)  # type: ignore[method-assign]
    return app


class AnswerJSON(DefaultJSONProvider):
    """How an answer becomes JSON text: Flask's, written once here for the views (a dict they return,
    ``jsonify``) and service/hot.py alike."""

    ensure_ascii = False  # CANCIÓN, not CANCI\u00d3N
    sort_keys = False  # fields in the documented order
    _encoder: tuple[tuple[Any, ...], json.JSONEncoder] | None = None

    def text(self, obj: Any) -> str:
        """The body of an answer: compact (indented in debug mode, or with ``compact = False``), one line."""
        if (self.compact is None and self._app.debug) or self.compact is False:
            return f"{self.dumps(obj, indent=2)}\n"
        return f"{self._compact().encode(obj)}\n"

    def _compact(self) -> json.JSONEncoder:
        """The encoder ``dumps(obj, separators=(",", ":"))`` would build, built once (a word's answer is
        encoded in 3 µs, and building the encoder took a fifth of that), and without the check for
        cycles (answers are trees the answer functions build; the check cost a tenth of a batch's
        encoding): the same text for every answer."""
        settings = (self.ensure_ascii, self.sort_keys, self.default)
        if self._encoder is None or self._encoder[0] != settings:
            encoder = json.JSONEncoder(
                ensure_ascii=self.ensure_ascii, sort_keys=self.sort_keys, default=self.default,
                separators=(",", ":"), check_circular=False,
            )  # fmt: skip
            self._encoder = (settings, encoder)
        return self._encoder[1]

    def response(self, *args: Any, **kwargs: Any) -> Response:
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
