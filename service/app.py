"""The app factory: :func:`create_app` builds the Flask app from config and wires its parts.

It stands above the rooms (docs/architecture.md): the one module that imports every room, to
register its blueprints, hooks and app extensions, so that no room needs to know another."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from flask import Flask

from lextools.core.lexicon import default_home
from lextools.features.export import default_cache
from lextools.features.stores import database_url
from service.api import cardboxes, export, meta, quiz, search, study_lists, walks, words
from service.api.hot_routes import HotRoutes
from service.contract.unknown_parameters import refuse_unknown_language, refuse_unknown_parameters
from service.http import clients, errors, hosts
from service.http.client_input import canonical_edition, require_utf8_path
from service.http.lexicons import EXTENSION, LexiconCache
from service.http.limits import limit_defaults
from service.http.output import AnswerJSON, _cors, _nosniff
from service.judge import challenge, director
from service.pages import views as pages


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Config: ``LEXICONS`` (lexicon directory, default ``default_home()``), the
    limits of ``service.http.limits.LIMITS`` (batch size, body size, search pages and budget, blanks),
    ``EXPORT_CACHE`` (the directory exports are made into, default
    :func:`lextools.features.export.default_cache`), ``RELOAD_CHECK_SECONDS`` (how often a worker
    looks for a rebuilt lexicon: 0 on every request, None never; see service/http/lexicons.py),
    ``HOT_ROUTES`` (False: Flask answers the word look-ups and batch checks too, instead of
    service/api/hot_routes.py), ``ALLOWED_HOSTS`` (the Host names answered besides localhost and IP addresses;
    service/http/hosts.py), ``TRUSTED_PROXIES`` (the proxies whose ``X-Forwarded-For`` names the client;
service/http/clients.py), ``DATABASE`` (the PostgreSQL database replicas share their record, cardboxes
and counters in; lextools/features/stores.py)."""
    app = Flask("service", static_folder=None)
    # /v1/es-fise//words/casa is no route (404 in the JSON shape), not a 308 redirect to a merged
    # path with an HTML body: an API client would follow it, and "..//" would become "../".
    app.url_map.merge_slashes = False
    app.config.from_mapping(
        LEXICONS=None,
        EXPORT_CACHE=None,  # where exports are made once and sent from (service/api/export.py)
        RELOAD_CHECK_SECONDS=1.0,  # one os.stat per edition per second and worker
        HOT_ROUTES=True,
        ALLOWED_HOSTS=None,  # None: $LEXTOOLS_ALLOWED_HOSTS (service/http/hosts.py); localhost and IPs always
        TRUSTED_PROXIES=None,  # None: $LEXTOOLS_TRUSTED_PROXIES (service/http/clients.py)
        DATABASE=None,  # None: $LEXTOOLS_DATABASE_URL, else SQLite files (lextools/features/stores.py)
        **limit_defaults(),
    )
    if test_config:
        app.config.update(test_config)
    app.config["LEXICONS"] = Path(app.config["LEXICONS"] or default_home())
    app.json = AnswerJSON(app)
    app.extensions[EXTENSION] = LexiconCache(app.config["LEXICONS"], app.config["RELOAD_CHECK_SECONDS"])
    walks.init_app(app)
    app.extensions[quiz.QUIZZES] = threading.BoundedSemaphore(app.config["QUIZ_CONCURRENCY"])
    app.config["EXPORT_CACHE"] = Path(app.config["EXPORT_CACHE"] or default_cache())
    app.extensions[export.MADE] = export.ExportFiles(app.config["EXPORT_CACHE"], app.config["EXPORT_CONCURRENCY"])
    app.extensions[hosts.EXTENSION] = hosts.AllowedHosts(hosts.configured_names(app.config["ALLOWED_HOSTS"]))
    proxies = clients.configured_proxies(app.config["TRUSTED_PROXIES"])
    app.extensions[clients.EXTENSION] = clients.TrustedProxies(proxies)
    app.config["DATABASE"] = database_url(app.config["DATABASE"])

    service_log = logging.getLogger("lextools.service")
    if service_log.level == logging.NOTSET:
        service_log.setLevel(logging.INFO)  # reloads are INFO

    _request_hooks(app)
    for module in (meta, words, search, quiz, export):
        app.register_blueprint(module.bp)
    study_lists.init_app(app)  # the lists that teach, and their pages' bodies kept a short while
    pages.init_app(app)  # the HTML pages: /judge, /study, /search, / (service/pages/views.py)
    challenge.init_app(app)  # the word judge's config and routes, kept apart
    cardboxes.init_app(app)  # the cardboxes kept by sync code, beside the challenge record
    app.register_blueprint(director.bp)  # the director's view of the record (service/judge/director.py)
    if app.config["HOT_ROUTES"]:
        app.wsgi_app = HotRoutes(app, app.wsgi_app)  # type: ignore[method-assign]
    return app


def _request_hooks(app: Flask) -> None:
    """The errors' one JSON shape, and what every request passes before its route and after it."""
    errors.register(app)
    app.url_value_preprocessor(canonical_edition)  # /v1/ES-FISE/… is es-fise's
    app.before_request(hosts.require_allowed_host)  # first: a rebinding page's request is answered nothing else
    app.before_request(require_utf8_path)
    app.before_request(refuse_unknown_parameters)
    app.before_request(refuse_unknown_language)
    app.after_request(_cors)
    app.after_request(_nosniff)
