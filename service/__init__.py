"""The word-validation service: JSON over HTTP under /v1, a Flask app served by gunicorn.

Layout (Flask tutorial style): :func:`service.app.create_app` builds an app from config; the routes
live in blueprints — ``meta`` (health, editions, OpenAPI), ``words`` (validity, check, hooks,
score), ``study`` (two-tile words, anagrams, search), ``quiz`` (word-study quizzes), ``export``;
each view declares its operation once (``api``: route, query schema, answer's shape), from which
its parameters are read (``params``) and the OpenAPI document is built (``openapi``); ``errors``
gives every failure one JSON shape; ``lexicons`` keeps the lexicons a worker has loaded; ``server``
runs it under gunicorn. ``hot`` answers the two hot routes (a word, a batch check) in front of
Flask, with the views' own functions, the headers of :func:`service.http.output.answer_headers` and the
text of :class:`service.http.output.AnswerJSON`: the same bytes for less CPU (see its docstring).
The library (``lextools``) never imports this package.

The challenge route, its record and receipts, and kiosk mode are the word judge's part of the app
(``challenge``, ``kiosk``), set up by :func:`service.judge.challenge.init_app`; the director reads the
record on ``/director`` (``director``), behind the director token (``director_auth``).

The package itself imports nothing: ``lextools serve`` (service/server.py) must monkey-patch with
gevent before the app's modules load, since some make a lock or semaphore when imported
(``lextools.core.background``), and a lock made before the patching blocks a whole gevent worker.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``from service import create_app``: the factory of service/app.py, loaded on first use — a
    documented lazy load, for the gevent patching above."""
    if name == "create_app":
        from service.app import create_app  # noqa: PLC0415

        return create_app
    raise AttributeError(f"module 'service' has no attribute {name!r}")
