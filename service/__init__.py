"""The word-validation service: JSON over HTTP under /v1, a Flask app served by gunicorn.

Layout (Flask tutorial style): :func:`create_app` builds an app from config; the routes live in
blueprints — ``meta`` (health, editions, OpenAPI), ``words`` (validity, check, hooks, score),
``challenge`` (challenges, their record and receipts), ``study`` (two-tile words, anagrams,
search), ``export``; ``errors`` gives every failure one JSON shape; ``lexicons`` keeps the lexicons
a worker has loaded; ``kiosk`` narrows the app to one judge; ``server`` runs it under gunicorn.
The library (``lextools``) never imports this package.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask, Response, request

from lextools.edition import load_edition
from lextools.lexicon import default_home

#: GET routes, and POST check (it only reads), may be called from any web page; the challenge, which
#: writes the record, only from the service's own pages (service/challenge.py).
_CORS_METHODS = ("GET", "HEAD", "OPTIONS")
_OPEN_POSTS = {"words.check"}


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Config: ``LEXICONS`` (lexicon directory, default ``default_home()``),
    ``MAX_BATCH`` (words per check or challenge), ``MAX_CONTENT_LENGTH`` (body bytes),
    ``SEARCH_LIMIT`` / ``SEARCH_MAX_LIMIT`` (words per search page), ``MAX_RACK_BLANKS``,
    ``RELOAD_CHECK_SECONDS`` (how often a worker looks for a rebuilt lexicon: 0 on every request,
    None never; see service/lexicons.py); ``RECORD`` (the challenge record, default beside the
    lexicons), ``CHALLENGE_RATE`` (challenges a second per client), ``DIRECTOR_TOKEN`` (default
    ``$LEXTOOLS_DIRECTOR_TOKEN``; None turns ``GET /v1/record`` off), ``KIOSK`` (an edition: serve
    only its judge, service/kiosk.py), ``JUDGE_CLEAR_SECONDS`` (how long a verdict shows)."""
    from lextools.record import default_record
    from service import challenge, errors, export, kiosk, limits, meta, pages, study, words
    from service.inputs import require_utf8_path
    from service.lexicons import EXTENSION, LexiconCache

    app = Flask(__name__, static_folder=None)
    # /v1/es-fise//words/casa is no route (404 in the JSON shape), not a 308 redirect to a merged
    # path with an HTML body: an API client would follow it, and "..//" would become "../".
    app.url_map.merge_slashes = False
    app.config.from_mapping(
        LEXICONS=None,
        MAX_BATCH=1000,
        # 1000 words of at most 64 characters, each written as \uXXXX at worst, fit with room to spare.
        MAX_CONTENT_LENGTH=512 * 1024,
        SEARCH_LIMIT=100,
        SEARCH_MAX_LIMIT=1000,
        MAX_RACK_BLANKS=2,  # as many as any verified bag holds
        RELOAD_CHECK_SECONDS=1.0,  # one os.stat per edition per second and worker
        RECORD=None,
        CHALLENGE_RATE=limits.CHALLENGE_RATE,
        KIOSK=None,
        JUDGE_CLEAR_SECONDS=10.0,  # Zyzzyva's word judge shows a verdict for 10 s too
    )
    if test_config:
        app.config.update(test_config)
    app.config["LEXICONS"] = Path(app.config["LEXICONS"] or default_home())
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # CANCIÓN, not CANCI\u00d3N
    app.json.sort_keys = False  # type: ignore[attr-defined]  # fields in the documented order
    app.extensions[EXTENSION] = LexiconCache(app.config["LEXICONS"], app.config["RELOAD_CHECK_SECONDS"])
    challenge.setup(app, app.config["RECORD"] or default_record(app.config["LEXICONS"]))
    if app.config["KIOSK"] is not None:
        load_edition(app.config["KIOSK"])  # an unknown edition fails here, at start-up

    service_log = logging.getLogger("lextools.service")
    if service_log.level == logging.NOTSET:
        service_log.setLevel(logging.INFO)  # reloads are INFO

    errors.register(app)
    app.before_request(kiosk.gate)
    app.before_request(require_utf8_path)
    app.after_request(_cors)
    for module in (meta, words, challenge, study, export):
        app.register_blueprint(module.bp)
    app.register_blueprint(pages.bp)  # the HTML pages: /judge, /study, / (service/pages.py)
    return app


#: Sent on every GET, and on preflights (OPTIONS), where they also say only GET is open to other origins.
_CORS = [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", "ETag, X-Lexicon-Checksum")]
_PREFLIGHT = [
    ("Access-Control-Allow-Methods", "GET, HEAD"),
    ("Access-Control-Allow-Headers", "If-None-Match"),
    ("Access-Control-Max-Age", "86400"),
]


#: The preflight of POST check: app developers call it from their own pages with a JSON body.
_PREFLIGHT_POST = [
    ("Access-Control-Allow-Methods", "POST"),
    ("Access-Control-Allow-Headers", "Content-Type, Accept-Language"),
    ("Access-Control-Max-Age", "86400"),
]


def _cors(response: Response) -> Response:
    if request.endpoint in _OPEN_POSTS and request.method in ("POST", "OPTIONS"):
        headers = _CORS if request.method == "POST" else _CORS + _PREFLIGHT_POST
    elif request.method in _CORS_METHODS:
        headers = _CORS if request.method != "OPTIONS" else _CORS + _PREFLIGHT
    else:
        return response
    for name, value in headers:
        response.headers[name] = value
    return response
