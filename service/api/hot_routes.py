"""The two hot routes — ``GET /v1/{edition}/words/{word}`` and ``POST /v1/{edition}/check`` — answered
in front of Flask, by a WSGI middleware that :func:`service.app.create_app` installs as ``app.wsgi_app``.

Why: through Flask a word look-up costs several times the CPU of a bare WSGI app doing the same
look-up, and a minimal Flask route alone costs more than the whole answer (look-up, explanation,
hooks, JSON); bench/perf.py measures both (figures in bench/README.md). Request and response
objects, context locals, routing and the hooks are the price of every other route's features (query
parameters, errors, pages); these two routes do not need them for their usual answer. With this
module the look-up costs little more than the bare app's (the difference: its explanation, and the
headers more that gunicorn writes).

What :class:`HotRoutes` answers itself: exactly those two routes in their plain form — GET or HEAD
of a word whose path is UTF-8 and holds no ``/`` or control character, and POST of a batch with a
``Content-Length`` within ``MAX_CONTENT_LENGTH`` — with no query string, outside kiosk mode, when
the answer is a 200. Everything else goes to the Flask app untouched, which answers as it always
has: other routes and methods, any query string (``?lang=``, an unknown parameter), a bare ``?``,
a path that is not UTF-8, a chunked body, a body that is not a JSON object with a ``words`` list of
at most ``MAX_BATCH`` strings, an unknown edition, a missing or corrupt lexicon, a word the edition
cannot spell, and any error at all (the answer is built first; a failure hands the request on, and
a body already read is handed on as it came, so Flask reads the same bytes).

No fact is written twice: the paths and methods answered here are those of the two operations'
own declarations (:func:`service.contract.operations.operation_of`: one router, not two kept in
step by a test); the answers are built by the views' own functions
(:func:`service.api.words.word_answer`, :func:`lextools.features.answers.check`), which the views
serialise through their answer schemas, the language by
:func:`service.http.language.language`, the lexicon — and so hot reload — comes from the app's
:class:`~service.http.lexicons.LexiconCache`, the body checks are :func:`service.http.client_input.words_of`, the
body text is the app's JSON provider's (:class:`service.http.output.AnswerJSON`) and the added headers are
:func:`service.http.output.answer_headers`. tests/test_hot_routes.py compares status, headers and body, byte for
byte, with the Flask app's (``HOT_ROUTES=False``, the schemas' dump) over many requests, and checks that the app's
hooks are still the ones this module stands in for.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from lextools.core.edition import canonical_edition_name
from lextools.features import answers
from service.api.words import word_answer
from service.contract.operations import Operation, operation_of
from service.http.client_input import words_of
from service.http.hosts import EXTENSION as HOSTS
from service.http.language import language
from service.http.lexicons import CHECKSUM_HEADER, EXTENSION, LexiconCache
from service.http.output import answer_headers

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

#: The Flask endpoints of the two routes: their operations (service/api/words.py) give the paths
#: and methods answered here, and the endpoints the headers the app adds to them.
WORD_ENDPOINT, CHECK_ENDPOINT = "words.word", "words.check"


def path_matcher(op: Operation) -> re.Pattern[str]:
    """The plain form of an operation's path (PATH_INFO as decoded text), from its declaration: each
    path parameter is one segment without ``/`` (a word with a ``/`` is left to Flask). The edition
    is checked by the lexicon cache."""
    parts = re.split(r"\{[^{}]+\}", op.path)
    return re.compile("([^/]+)".join(map(re.escape, parts)))


def hot_operations() -> dict[str, tuple[re.Pattern[str], tuple[str, ...]]]:
    """The two hot operations, by endpoint: their path matcher and the methods answered here (HEAD with GET)."""
    out: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {}
    for endpoint in (WORD_ENDPOINT, CHECK_ENDPOINT):
        op = operation_of(endpoint)
        methods = ("GET", "HEAD") if op.method == "get" else (op.method.upper(),)
        out[endpoint] = (path_matcher(op), methods)
    return out


class HotRoutes:
    """WSGI middleware: the usual answers of the two hot routes, everything else to ``fallback``."""

    def __init__(self, app: Flask, fallback: WSGIApp) -> None:
        self.app = app
        self.fallback = fallback
        routes = hot_operations()
        self._word_path, self._word_methods = routes[WORD_ENDPOINT]
        self._check_path, self._check_methods = routes[CHECK_ENDPOINT]
        #: What the app's hooks add to each answer, by (endpoint, method): it depends on nothing else.
        self._added = {
            (endpoint, method): answer_headers(endpoint, method)
            for endpoint, (_, methods) in routes.items()
            for method in methods
        }

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        method: str = environ.get("REQUEST_METHOD", "")
        answer = None
        if (method in self._word_methods or method in self._check_methods) and self._plain(environ):
            try:
                answer = self._word(environ, method) if method in self._word_methods else self._check(environ)
            except Exception:  # Flask answers it, error and all, as it always has
                answer = None
        if answer is None:
            return self.fallback(environ, start_response)
        endpoint, checksum, body = answer
        headers = [
            ("Content-Type", self.app.json.mimetype),  # type: ignore[attr-defined]
            ("Content-Length", str(len(body))),
            (CHECKSUM_HEADER, checksum),
            *self._added[endpoint, method],
        ]
        start_response("200 OK", headers)
        return [] if method == "HEAD" else [body]

    def _plain(self, environ: dict[str, Any]) -> bool:
        """No query string (not even a bare ``?``, which Flask refuses on a path route), not a kiosk,
        a Host name the server answers for (else Flask refuses it: service/http/hosts.py)."""
        if environ.get("QUERY_STRING") or self.app.config.get("KIOSK"):
            return False
        if not self.app.extensions[HOSTS](environ.get("HTTP_HOST")):
            return False
        return "?" not in (environ.get("RAW_URI") or environ.get("REQUEST_URI") or "")

    def _word(self, environ: dict[str, Any], method: str) -> tuple[str, str, bytes] | None:
        if environ.get("CONTENT_LENGTH", "0") not in ("", "0") or "HTTP_TRANSFER_ENCODING" in environ:
            return None  # a GET with a body: rare enough to leave to Flask
        match = self._word_path.fullmatch(_path(environ))
        if match is None or not match[2].isprintable():
            return None
        edition, word = canonical_edition_name(match[1]), match[2]  # as service.http.client_input.canonical_edition
        cache = self._lexicons()
        lex = cache.get(edition)
        lang = language(edition, None, environ.get("HTTP_ACCEPT_LANGUAGE"))
        body = word_answer(lex, word, lang, cache.sidecar(lex))
        return WORD_ENDPOINT, lex.checksum, self._json(body)

    def _check(self, environ: dict[str, Any]) -> tuple[str, str, bytes] | None:
        match = self._check_path.fullmatch(_path(environ))
        length = environ.get("CONTENT_LENGTH", "")
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        if match is None or not (length.isascii() and length.isdigit()) or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        if limit is not None and int(length) > limit:
            return None
        data = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(data)  # read again from the start if Flask answers after all
        body = self.app.json.loads(data)
        if not isinstance(body, dict):
            return None
        edition = canonical_edition_name(match[1])  # as service.http.client_input.canonical_edition
        lex = self._lexicons().get(edition)
        words = words_of(body, allow_empty=True, limit=self.app.config["MAX_BATCH"])
        lang = language(edition, None, environ.get("HTTP_ACCEPT_LANGUAGE"))
        answer = answers.check(lex, words, lang, self.app.config["LEXICONS"])
        return CHECK_ENDPOINT, lex.checksum, self._json(answer)

    def _lexicons(self) -> LexiconCache:
        cache: LexiconCache = self.app.extensions[EXTENSION]
        return cache

    def _json(self, obj: Any) -> bytes:
        text: str = self.app.json.text(obj)  # type: ignore[attr-defined]
        return text.encode()


def _path(environ: dict[str, Any]) -> str:
    """PATH_INFO as text: WSGI hands over the path's bytes as latin-1 (PEP 3333); UnicodeError when
    they are not UTF-8 (Flask answers 400)."""
    raw: str = environ.get("PATH_INFO", "")
    return raw if raw.isascii() else raw.encode("latin-1").decode("utf-8")
