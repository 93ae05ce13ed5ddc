"""service/api/hot_routes.py answers GET /words and POST /check in front of Flask: byte for byte what Flask answers.

Every request is sent to two apps over the same lexicons, one with the hot routes (the default) and
one without (``HOT_ROUTES=False``, Flask's views alone), and status, headers (names, values, order)
and body must be the same. The lexicons are built through the CLI, so their provenance sidecars are
the build's: explanations (rules, sources, enclitics) are part of what is compared. Each case also
says whether the hot routes answer it themselves or hand it to Flask, so a change that quietly sends
everything to Flask (still correct, but slow again) fails too.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from service import create_app
from service.api.hot_routes import CHECK_ENDPOINT, WORD_ENDPOINT, HotRoutes
from service.contract.unknown_parameters import refuse_unknown_language, refuse_unknown_parameters
from service.http.client_input import canonical_edition, require_utf8_path
from service.http.hosts import require_allowed_host
from service.http.output import _cors, _nosniff
from service.judge.kiosk import gate
from tests.conftest import DATA, build_small

SPANISH = DATA / "es-small.txt"
EXTRA = ["dame", "dámelo", "amarle", "casa", "Bilbao", "ñu", "x"]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """es-fise with its sidecar (proper nouns and one-tile words removed, two sources), en and fr."""
    folder = tmp_path_factory.mktemp("hot")
    (folder / "extra.txt").write_text("\n".join(EXTRA) + "\n", "utf-8")
    builds = [
        ["es-fise", "-s", str(SPANISH), "-s", str(folder / "extra.txt"), "--rules", "one-tile,proper-noun,enclitic"],
        ["en", "-s", str(DATA / "en-small.txt")],
        ["fr", "-s", str(DATA / "fr-small.txt")],
    ]
    for args in builds:
        result = CliRunner().invoke(cli, ["build", *args, "--out", str(folder / "L")])
        assert result.exit_code == 0, result.output
    return folder / "L"


class Pair:
    """The two apps, and how many requests the hot one handed to Flask."""

    def __init__(self, home: Path, tmp: Path, **config: Any) -> None:
        base = {"LEXICONS": home, "TESTING": True, **config}
        self.hot_app = create_app({**base, "RECORD": tmp / "hot.sqlite3"})
        self.flask_app = create_app({**base, "RECORD": tmp / "flask.sqlite3", "HOT_ROUTES": False})
        assert isinstance(self.hot_app.wsgi_app, HotRoutes)
        assert not isinstance(self.flask_app.wsgi_app, HotRoutes)
        self.handed_on = 0
        hot = self.hot_app.wsgi_app
        fallback = hot.fallback

        def counted(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            self.handed_on += 1
            return fallback(environ, start_response)

        hot.fallback = counted

    def same(self, method: str, path: str, *, answered_hot: bool | None, **kwargs: Any) -> tuple[int, bytes]:
        """Send one request to both apps; assert the answers are the same bytes, and that the hot routes
        answered it themselves or not (None: exactly when the answer is a 200); return status and body."""
        before = self.handed_on
        hot = self.hot_app.test_client().open(path, method=method, **kwargs)
        plain = self.flask_app.test_client().open(path, method=method, **kwargs)
        assert hot.status == plain.status, (path, hot.data, plain.data)
        assert hot.headers.to_wsgi_list() == plain.headers.to_wsgi_list(), path
        assert hot.data == plain.data, path
        if answered_hot is None:
            answered_hot = hot.status_code == 200
        assert (self.handed_on == before) == answered_hot, f"{method} {path}: answered_hot={answered_hot}"
        return hot.status_code, hot.data


def answer(response: Any) -> tuple[str, list[tuple[str, str]], bytes]:
    return response.status, response.headers.to_wsgi_list(), response.data


@pytest.fixture()
def pair(home: Path, tmp_path: Path) -> Pair:
    return Pair(home, tmp_path)


WORDS = [
    # valid, in every notation, case and accent
    "casa", "CASA", "Casa", "canción", "CANCIÓN", "chiquillo", "1IQUI2O", "[CH]IQUI[LL]O", "ñandú", "ñu",
    "calle", "CA2E", "pingüino", "carro", "ca3o", "cha",
    # not valid, each with another explanation: proper noun, one tile, in no source (maybe an enclitic)
    "dame", "dámelo", "amarle", "amame", "llamalo", "madrid", "bilbao", "x", "a", "zzz", "camaz", "chaz", "cañón",
    "123",  # CH·LL·RR
]  # fmt: skip
#: Answered by Flask: the edition cannot spell them (422), or the path is no word (404, 400).
REFUSED = ["kilo", "c[H]ico", "cama ", " casa", "ca sa", "kiwi", "wifi", "[XX]", "ca-sa", "😀", "[", "1" * 20, "a" * 16,
           "a" * 61]  # fmt: skip


@pytest.mark.parametrize("edition", ["es-fise", "en", "fr"])
def test_words_in_every_notation_are_answered_hot_and_alike(pair: Pair, edition: str) -> None:
    for word in WORDS:
        status, _ = pair.same("GET", f"/v1/{edition}/words/{quote(word)}", answered_hot=None)
        assert status in (200, 422)


def test_words_answered_hot_are_the_usual_look_ups(pair: Pair) -> None:
    for word in WORDS:
        status, body = pair.same("GET", f"/v1/es-fise/words/{quote(word)}", answered_hot=True)
        assert status == 200 and json.loads(body)["input"] == word
    _, madrid = pair.same("GET", "/v1/es-fise/words/madrid", answered_hot=True)
    assert json.loads(madrid)["rule"] == "proper-noun"  # the sidecar's explanation, hot too
    _, casa = pair.same("GET", "/v1/es-fise/words/casa", answered_hot=True)
    assert json.loads(casa)["sources"] == ["es-small.txt", "extra.txt"]


def test_refused_words_are_answered_by_flask(pair: Pair) -> None:
    for word in REFUSED:
        status, body = pair.same("GET", f"/v1/es-fise/words/{quote(word)}", answered_hot=False)
        assert status in (400, 422) and b'"error"' in body


@pytest.mark.parametrize(
    "path",
    [
        "/v1/es-fise/words/%FF",  # not UTF-8: 400
        "/v1/es-fise/words/%C3%28",
        "/v1/es-fise/words/ca%00sa",  # a control character
        "/v1/es-fise/words/ca%0Asa",
        "/v1/es-fise/words/a/b",  # a slash inside the word
        "/v1/es-fise/words/%2Fcasa",
        "/v1/es-fise/words/casa/",
        "/v1/es-fise/words/",  # no word: 404
        "/v1/es-fise//words/casa",
        "/v1/nope/words/casa",  # unknown edition: 404
        "/v1/..%2Fetc/words/casa",
        "/v1/es-na103/words/casa",  # no lexicon built here: 503
        "/v1/es-fise/words/casa?lang=fr",  # any query string
        "/v1/es-fise/words/casa?lang=xx",
        "/v1/es-fise/words/casa?lang=fr&lang=es",
        "/v1/es-fise/words/casa?foo=1",
        "/v1/es-fise/words/ARBOL??",  # blanks in a path: a bare ?
        "/v1/es-fise/words/dame?lang=en",
    ],
)
def test_other_paths_and_query_strings_go_to_flask(pair: Pair, path: str) -> None:
    pair.same("GET", path, answered_hot=False)


@pytest.mark.parametrize("accept", ["es", "fr", "en", "fr-CH;q=0.9, en;q=0.8", "de", "en;q=0, fr;q=0.1", "*"])
def test_accept_language_chooses_the_reasons_language_alike(pair: Pair, accept: str) -> None:
    for word in ("dame", "madrid", "zzz", "x", "casa"):
        pair.same("GET", f"/v1/es-fise/words/{word}", answered_hot=True, headers={"Accept-Language": accept})
    pair.same("GET", "/v1/es-fise/words/kilo", answered_hot=False, headers={"Accept-Language": accept})
    body = {"words": ["dame", "kilo", "zzz", "casa"]}
    pair.same("POST", "/v1/es-fise/check", answered_hot=True, json=body, headers={"Accept-Language": accept})


def test_head_and_other_methods(pair: Pair) -> None:
    status, body = pair.same("HEAD", "/v1/es-fise/words/casa", answered_hot=True)
    assert status == 200 and body == b""
    pair.same("HEAD", "/v1/es-fise/words/kilo", answered_hot=False)
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "PATCH"):
        pair.same(method, "/v1/es-fise/words/casa", answered_hot=False)
    for method in ("GET", "HEAD", "PUT", "OPTIONS"):
        pair.same(method, "/v1/es-fise/check", answered_hot=False)
    pair.same("GET", "/v1/es-fise/words/casa", answered_hot=False, data=b"a body on a GET")


def test_check_batches_are_answered_hot_and_alike(pair: Pair) -> None:
    words = [*WORDS, *REFUSED, "", "   ", "casa"]
    status, body = pair.same("POST", "/v1/es-fise/check", answered_hot=True, json={"words": words})
    assert status == 200 and len(json.loads(body)["results"]) == len(words)
    pair.same("POST", "/v1/es-fise/check", answered_hot=True, json={"words": []})
    pair.same("POST", "/v1/es-fise/check", answered_hot=True, json={"words": ["casa"], "other": 1})
    pair.same("POST", "/v1/en/check", answered_hot=True, json={"words": ["house", "zzz"]})
    # read as JSON whatever the Content-Type, as Flask does
    data = json.dumps({"words": ["casa", "dame"]})
    pair.same("POST", "/v1/es-fise/check", answered_hot=True, data=data, content_type="text/plain")
    pair.same("POST", "/v1/es-fise/check", answered_hot=True, data=data.encode("utf-16"))
    pair.same("POST", "/v1/es-fise/check", answered_hot=True, data='{"words": ["can\\u00e7ion", "a\\u0301"]}')


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not json",
        b"[1, 2]",
        b'"casa"',
        b'{"words": "casa"}',
        b'{"words": [1, "casa"]}',
        b'{"words": [null]}',
        b'{"words": ["\\ud800"]}',  # a lone surrogate
        b'{"words": {"casa": 1}}',
        b'{"word": ["casa"]}',
        b'{"words": ["casa"]',  # cut short
        b"[" * 5000 + b"]" * 5000,  # too deep for the parser
        b"\xff\xfe\xfd",
        json.dumps({"words": ["casa"] * 1001}).encode(),  # over MAX_BATCH: 413
    ],
)
def test_bad_check_bodies_are_answered_by_flask(pair: Pair, data: bytes) -> None:
    status, body = pair.same("POST", "/v1/es-fise/check", answered_hot=False, data=data)
    assert status in (400, 413) and b'"error"' in body


def test_check_refusals_that_are_not_the_body(pair: Pair) -> None:
    body = {"words": ["casa"]}
    pair.same("POST", "/v1/nope/check", answered_hot=False, json=body)
    pair.same("POST", "/v1/es-na103/check", answered_hot=False, json=body)
    pair.same("POST", "/v1/es-fise/check?lang=fr", answered_hot=False, json=body)
    pair.same("POST", "/v1/es-fise/check?x=1", answered_hot=False, json=body)
    pair.same("POST", "/v1/es-fise/check/", answered_hot=False, json=body)


def test_body_size_limit_and_batch_size_from_the_config(home: Path, tmp_path: Path) -> None:
    pair = Pair(home, tmp_path, MAX_CONTENT_LENGTH=64, MAX_BATCH=3)
    small = json.dumps({"words": ["casa", "dame"]})
    pair.same("POST", "/v1/es-fise/check", answered_hot=True, data=small)
    exact = small + " " * (64 - len(small))  # exactly the limit: still read
    pair.same("POST", "/v1/es-fise/check", answered_hot=True, data=exact)
    status, _ = pair.same("POST", "/v1/es-fise/check", answered_hot=False, data=exact + " ")
    assert status == 413
    status, _ = pair.same("POST", "/v1/es-fise/check", answered_hot=False, json={"words": ["a", "b", "c", "d"]})
    assert status == 413


def test_kiosk_mode_is_left_to_flask(home: Path, tmp_path: Path) -> None:
    pair = Pair(home, tmp_path, KIOSK="es-fise")
    status, _ = pair.same("GET", "/v1/es-fise/words/casa", answered_hot=False)
    assert status == 404
    pair.same("POST", "/v1/es-fise/check", answered_hot=False, json={"words": ["casa"]})


_LETTERS = "abcñchllrrCÑÁÉÍÓÚÜáéíóúü123[]? -/%#&+.'\u0301\u00a0xyzKW"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(word=st.text(alphabet=_LETTERS, min_size=1, max_size=20), accept=st.sampled_from([None, "fr", "en", "es"]))
def test_any_word_path_is_answered_alike(pair: Pair, word: str, accept: str | None) -> None:
    path = f"/v1/es-fise/words/{quote(word, safe='/?&')}"
    before = pair.handed_on
    hot = pair.hot_app.test_client().get(path, headers={"Accept-Language": accept} if accept else {})
    plain = pair.flask_app.test_client().get(path, headers={"Accept-Language": accept} if accept else {})
    assert answer(hot) == answer(plain)
    # Every 200 of a path without a query string is answered hot, nothing else: a query string, even one
    # that names no parameter (1?& reads as the word 1 and the query "&"), goes to Flask.
    assert (pair.handed_on == before) == (hot.status_code == 200 and not path.partition("?")[2])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    words=st.lists(
        st.one_of(st.text(alphabet=_LETTERS, max_size=20), st.integers(), st.none(), st.booleans()), max_size=12
    )
)
def test_any_check_body_is_answered_alike(pair: Pair, words: list[Any]) -> None:
    hot = pair.hot_app.test_client().post("/v1/es-fise/check", json={"words": words})
    plain = pair.flask_app.test_client().post("/v1/es-fise/check", json={"words": words})
    assert answer(hot) == answer(plain)


def test_the_hooks_the_hot_routes_stand_in_for(pair: Pair) -> None:
    """hot.py does by hand what these hooks and routes do: a new one must be taught to it (or it must
    send the routes it changes to Flask)."""
    app: Flask = pair.flask_app
    # require_allowed_host: hot.py asks the same AllowedHosts; refuse_unknown_language: a query string
    # always goes to Flask.
    hooks = [require_allowed_host, require_utf8_path, refuse_unknown_parameters, refuse_unknown_language, gate]
    assert app.before_request_funcs == {None: hooks}
    page_hooks = {name: app.after_request_funcs[name] for name in ("pages", "director")}  # their pages' own
    assert app.after_request_funcs == {None: [_cors, _nosniff], **page_hooks}
    assert app.url_value_preprocessors == {None: [canonical_edition]}  # hot.py: canonical_edition_name
    assert not app.url_default_functions and not app.teardown_request_funcs
    rules = {r.endpoint: (r.rule, r.methods) for r in app.url_map.iter_rules()}
    assert rules[WORD_ENDPOINT] == ("/v1/<edition>/words/<path:word>", {"GET", "HEAD", "OPTIONS"})
    assert rules[CHECK_ENDPOINT] == ("/v1/<edition>/check", {"POST", "OPTIONS"})


def test_a_rebuilt_lexicon_is_served_hot_at_once(lexicon_home: Path, tmp_path: Path) -> None:
    """Hot reload goes through the same lexicon cache: the checksum header and the answer change."""
    home = tmp_path / "L"
    shutil.copytree(lexicon_home, home)
    pair = Pair(home, tmp_path, RELOAD_CHECK_SECONDS=0)
    _, before = pair.same("GET", "/v1/es-fise/words/zorros", answered_hot=True)
    old = pair.hot_app.test_client().get("/v1/es-fise/words/zorros").headers["X-Lexicon-Checksum"]
    build_small(home, "es-fise", ["zorro", "zorros", "casa", "casas"], force=True)  # fewer words: --force
    _, after = pair.same("GET", "/v1/es-fise/words/zorros", answered_hot=True)
    new = pair.hot_app.test_client().get("/v1/es-fise/words/zorros").headers["X-Lexicon-Checksum"]
    assert (json.loads(before)["valid"], json.loads(after)["valid"]) == (False, True) and old != new
