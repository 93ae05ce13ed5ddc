"""The word-validation service: JSON over HTTP under /v1, a Flask app served by gunicorn.

Layout (Flask tutorial style): :func:`service.app.create_app` builds an app from config; the routes
live in blueprints — ``meta`` (health, editions, OpenAPI), ``words`` (validity, check, hooks,
score), ``study`` (two-tile words, anagrams, search), ``quiz`` (word-study quizzes), ``export``;
each view declares its operation once (``api``: route, query schema, answer's shape), from which
its parameters are read (``params``) and the OpenAPI document is built (``openapi``); ``errors``
gives every failure one JSON shape; ``lexicons`` keeps the lexicons a worker has loaded; ``server``
runs it under gunicorn. ``hot`` answers the two hot routes (a word, a batch check) in front of
Flask, with the views' own functions, the headers of :func:`service.answer.answer_headers` and the
text of :class:`service.answer.AnswerJSON`: the same bytes for less CPU (see its docstring).
The library (``lextools``) never imports this package.

The challenge route, its record and receipts, and kiosk mode are the word judge's part of the app
(``challenge``, ``kiosk``), set up by :func:`service.challenge.init_app`.
"""

from __future__ import annotations

from service.app import create_app

__all__ = ["create_app"]
