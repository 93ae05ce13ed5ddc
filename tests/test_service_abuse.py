"""Hostile input to the service: broken UTF-8, broken JSON, huge bodies and batches, path traversal.

tests/test_service_errors.py covers each error once; here every route with an edition or a word in
its path gets the same abuse, and every answer is held to the OpenAPI document: the status must be
one the operation documents (or 404 for a path that is no route at all), the body the one error
shape of service/http/errors.py. Nothing may be a 500, and no file outside the lexicon directory may be
opened.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import MethodNotAllowed, NotFound

import lextools
from service import create_app
from service.contract.openapi import document

#: Every route with an edition in its path, as (method, URL template); {e} is the edition.
EDITION_ROUTES = [
    ("GET", "/v1/editions/{e}"),
    ("GET", "/v1/{e}/words/casa"),
    ("GET", "/v1/{e}/hooks/casa"),
    ("GET", "/v1/{e}/score/casa"),
    ("GET", "/v1/{e}/two-tile-words"),
    ("GET", "/v1/{e}/anagrams/casa"),
    ("GET", "/v1/{e}/search?pattern=CA*"),
    ("GET", "/v1/{e}/export"),
    ("POST", "/v1/{e}/check"),
    ("POST", "/v1/{e}/challenge"),
]
#: Every route with a word (or rack) in its path, as (method, URL template); {w} is the word.
WORD_ROUTES = [
    ("GET", "/v1/es-fise/words/{w}"),
    ("GET", "/v1/es-fise/hooks/{w}"),
    ("GET", "/v1/es-fise/score/{w}"),
    ("GET", "/v1/es-fise/anagrams/{w}"),
]
#: The batch route, which reads any Content-Type and 1000 words; the challenge takes JSON only and at
#: most 8 words (tests/test_challenge.py), but is as safe against a huge body.
POST_ROUTES = ["/v1/es-fise/check"]
ALL_POSTS = [*POST_ROUTES, "/v1/es-fise/challenge"]


# -- holding answers to the document ----------------------------------------------------------------


def documented(app: Flask, method: str, path: str) -> set[int]:
    """The statuses the document gives for the operation this path routes to; {404} for no route."""
    adapter = app.url_map.bind("localhost")
    try:
        rule, _ = adapter.match(path, method=method, return_rule=True)
    except (NotFound, MethodNotAllowed):
        return {404}
    template = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
    return {int(s) for s in document(app)["paths"][template][method.lower()]["responses"]}


def raw_path(environ_path: str) -> str:
    """PATH_INFO is bytes as latin-1 (PEP 3333); as text, for routing, it is their UTF-8 reading."""
    return environ_path.encode("latin-1").decode("utf-8", "replace")


def assert_documented_error(app: Flask, r: Any, method: str, path: str, status: int | None = None) -> None:
    """A 4xx (or 503) the operation documents, in the one error shape."""
    body = r.get_data(as_text=True)
    assert r.status_code < 500 or r.status_code == 503, (method, path, r.status_code, body[:300])
    assert r.status_code >= 400, (method, path, r.status_code, body[:300])
    if status is not None:
        assert r.status_code == status, (method, path, r.status_code, body[:300])
    assert r.status_code in documented(app, method, path), (method, path, r.status_code, "undocumented")
    assert r.mimetype == "application/json"
    data = json.loads(body)
    assert set(data) == {"error"} and set(data["error"]) == {"code", "message"}, data
    assert all(isinstance(v, str) and v for v in data["error"].values()), data


@pytest.fixture()
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """Every file the app opens by name while the test runs (pathlib and open() both end in io.open;
    the bounded readers of core.inputs use os.open, so as not to block on a FIFO)."""
    paths: list[Path] = []
    real_open, real_os_open = io.open, os.open

    def recording_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | bytes | os.PathLike):
            paths.append(Path(os.fsdecode(file)))
        return real_open(file, *args, **kwargs)

    def recording_os_open(file: Any, *args: Any, **kwargs: Any) -> int:
        paths.append(Path(os.fsdecode(file)))
        return real_os_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", recording_open)
    monkeypatch.setattr(builtins, "open", recording_open)
    monkeypatch.setattr(os, "open", recording_os_open)
    yield paths


def assert_only_lexicon_files(paths: list[Path], home: Path) -> None:
    allowed = (home.resolve(), Path(lextools.__file__).parent.resolve())
    for p in paths:
        assert "passwd" not in str(p), p
        assert any(p.resolve().is_relative_to(a) for a in allowed), f"opened {p} outside the lexicon directory"


def send(client: FlaskClient, method: str, url: str, **kwargs: Any) -> Any:
    if method == "POST":
        kwargs.setdefault("json", {"words": ["casa"]})
    return client.open(url, method=method, **kwargs)


# -- malformed UTF-8 in the path ---------------------------------------------------------------------

#: Byte strings no UTF-8 decoder accepts, as PEP 3333 hands them over (one character per byte).
BAD_UTF8 = {
    "ff-fe": "\xff\xfe",
    "lone-continuation": "\x80",
    "overlong-slash": "\xc0\xaf",
    "truncated-euro": "\xe2\x82",
    "encoded-surrogate": "\xed\xa0\x80",
    "beyond-unicode": "\xf4\x90\x80\x80",
    "latin-1-enye": "a\xf1o",  # AÑO written in Latin-1, not UTF-8
}


@pytest.mark.parametrize("raw", BAD_UTF8.values(), ids=BAD_UTF8.keys())
@pytest.mark.parametrize(("method", "template"), WORD_ROUTES)
def test_invalid_utf8_in_a_word_is_400(app: Flask, client: FlaskClient, method: str, template: str, raw: str) -> None:
    path = template.format(w=raw)
    r = client.open("/", method=method, environ_overrides={"PATH_INFO": path})
    assert_documented_error(app, r, method, raw_path(path), 400)
    assert r.json["error"]["code"] == "bad_request"


@pytest.mark.parametrize("raw", ["\xff\xfe", "es-fise\xc0\xaf", "\xed\xa0\x80"])
@pytest.mark.parametrize(("method", "template"), EDITION_ROUTES)
def test_invalid_utf8_in_an_edition_is_400(
    app: Flask, client: FlaskClient, method: str, template: str, raw: str
) -> None:
    """Also for the routes whose only path parameter is the edition: no text was sent at all."""
    path, _, query = template.format(e=raw).partition("?")
    r = send(client, method, "/", environ_overrides={"PATH_INFO": path, "QUERY_STRING": query})
    assert_documented_error(app, r, method, raw_path(path), 400)


@pytest.mark.parametrize(("method", "template"), WORD_ROUTES)
def test_valid_utf8_bytes_in_the_path_are_read_as_text(client: FlaskClient, method: str, template: str) -> None:
    """The check refuses only what is not UTF-8: ÑANDÚ sent as raw UTF-8 bytes is a word."""
    path = template.format(w="ñandú".encode().decode("latin-1"))
    r = client.open("/", method=method, environ_overrides={"PATH_INFO": path})
    assert r.status_code == 200, r.get_data(as_text=True)
    assert r.json.get("word", r.json.get("rack")) in ("ÑANDU", "ñandú")


# -- malformed JSON bodies ---------------------------------------------------------------------------

BAD_BODIES = {
    "invalid-utf8-in-string": b'{"words": ["casa", "\xff"]}',
    "invalid-utf8-outside-string": b'{"words"\xff: ["casa"]}',
    "overlong-utf8": b'{"words": ["\xc0\xaf"]}',
    "encoded-surrogate": b'{"words": ["\xed\xa0\x80"]}',
    "latin-1": '{"words": ["año"]}'.encode("latin-1"),
    "truncated-object": b'{"words": ["casa", "co',
    "truncated-escape": b'{"words": ["ca\\u00',
    "truncated-after-key": b'{"words":',
    "only-a-brace": b"{",
    "lone-high-surrogate-escape": b'{"words": ["\\ud83d"]}',
    "lone-low-surrogate-escape": b'{"words": ["\\ude00casa"]}',
    "nan": b'{"words": [NaN]}',
    "trailing-garbage": b'{"words": ["casa"]} {"words": []}',
    "nul-bytes": b"\x00" * 64,
    "deeply-nested-array": b'{"words": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
    "deeply-nested-object": b'{"a": ' * 20_000 + b"1" + b"}" * 20_000,
}


@pytest.mark.parametrize("body", BAD_BODIES.values(), ids=BAD_BODIES.keys())
@pytest.mark.parametrize("path", POST_ROUTES)
def test_malformed_json_bodies_are_400(app: Flask, client: FlaskClient, path: str, body: bytes) -> None:
    r = client.post(path, data=body, content_type="application/json")
    assert_documented_error(app, r, "POST", path, 400)
    assert r.json["error"]["code"] == "bad_request"


CONTENT_TYPES = [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "application/xml",
    "application/json; charset=latin-1",
    "application/octet-stream",
    "",
]


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
@pytest.mark.parametrize("path", POST_ROUTES)
def test_any_content_type_is_read_as_json(client: FlaskClient, path: str, content_type: str) -> None:
    """As documented ("read as JSON whatever the Content-Type"): curl -d sends a form type."""
    body = json.dumps({"words": ["casa", "año"], "reveal": True}, ensure_ascii=False).encode()
    r = client.post(path, data=body, headers={"Content-Type": content_type})
    assert r.status_code == 200, r.get_data(as_text=True)
    assert [x["word"] for x in r.json["results"]] == ["CASA", "AÑO"]


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
@pytest.mark.parametrize("path", POST_ROUTES)
def test_a_form_is_not_json_whatever_the_content_type(
    app: Flask, client: FlaskClient, path: str, content_type: str
) -> None:
    r = client.post(path, data=b"words=casa&words=cosa", headers={"Content-Type": content_type})
    assert_documented_error(app, r, "POST", path, 400)


# -- body size and batch size ------------------------------------------------------------------------

ONE_MB = 1024 * 1024


@pytest.mark.parametrize(
    "body",
    [
        json.dumps({"words": ["casa"] * (ONE_MB // 8)}).encode(),  # a valid JSON body, far too many words
        json.dumps({"words": ["a" * ONE_MB]}).encode(),  # one enormous word
        b"\xff" * ONE_MB,  # garbage
    ],
    ids=["many-words", "one-long-word", "garbage"],
)
@pytest.mark.parametrize("path", ALL_POSTS)
def test_a_1mb_body_is_413(app: Flask, client: FlaskClient, path: str, body: bytes) -> None:
    assert len(body) >= ONE_MB
    r = client.post(path, data=body, content_type="application/json")
    assert_documented_error(app, r, "POST", path, 413)


@pytest.mark.parametrize("path", ALL_POSTS)
def test_a_1mb_chunked_body_is_413(app: Flask, client: FlaskClient, path: str) -> None:
    """Without a Content-Length (chunked, as gunicorn hands it over) the limit still holds."""
    body = json.dumps({"words": ["casa"] * (ONE_MB // 8)}).encode()
    r = client.post(
        path,
        environ_overrides={"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True},
        headers={"Transfer-Encoding": "chunked"},
        content_type="application/json",
    )
    assert_documented_error(app, r, "POST", path, 413)


@pytest.mark.parametrize("path", POST_ROUTES)
def test_a_chunked_body_within_the_limit_is_read_whole(app: Flask, client: FlaskClient, path: str) -> None:
    """Exactly MAX_CONTENT_LENGTH bytes, padded with spaces after the JSON: read, not refused."""
    body = json.dumps({"words": ["casa"]}).encode()
    body += b" " * (app.config["MAX_CONTENT_LENGTH"] - len(body))
    r = client.post(
        path,
        environ_overrides={"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True},
        headers={"Transfer-Encoding": "chunked"},
    )
    assert r.status_code == 200, r.get_data(as_text=True)
    # one byte more is over the limit
    r = client.post(
        path,
        environ_overrides={"wsgi.input": io.BytesIO(body + b" "), "wsgi.input_terminated": True},
        headers={"Transfer-Encoding": "chunked"},
    )
    assert_documented_error(app, r, "POST", path, 413)


@pytest.mark.parametrize("path", POST_ROUTES)
def test_a_10000_word_batch_is_413(app: Flask, client: FlaskClient, path: str) -> None:
    r = client.post(path, json={"words": ["casa"] * 10_000})
    assert_documented_error(app, r, "POST", path, 413)
    assert r.json["error"]["code"] == "too_many_words"
    assert "10000 palabras" in r.json["error"]["message"]  # in the edition's language when none is asked


@pytest.mark.parametrize("path", POST_ROUTES)
def test_exactly_max_batch_words_are_accepted(app: Flask, client: FlaskClient, path: str) -> None:
    limit = app.config["MAX_BATCH"]
    words = ["casa", "kilo", "año", "1IQUI2O"] * (limit // 4)
    assert len(words) == limit == 1000
    r = client.post(path, json={"words": words, "reveal": True})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    assert [x["valid"] for x in r.json["results"]] == [True, False, True, True] * (limit // 4)
    assert_documented_error(app, client.post(path, json={"words": [*words, "casa"]}), "POST", path, 413)


@pytest.mark.parametrize("path", POST_ROUTES)
def test_max_batch_of_longest_words_fits_the_body_limit(app: Flask, client: FlaskClient, path: str) -> None:
    """The body limit's promise (service/__init__.py): 1000 words of 64 characters, each written as
    a \\uXXXX escape, is a body the service reads."""
    word = "á" * 64
    body = json.dumps({"words": [word] * app.config["MAX_BATCH"], "reveal": True}).encode()  # ensure_ascii
    assert body.count(b"\\u00e1") == 64 * 1000
    r = client.post(path, data=body)
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    assert len(r.json["results"]) == 1000 and not r.json["results"][0]["valid"]


# -- unknown editions and path traversal -------------------------------------------------------------

EDITION_NAMES = [
    "xx",
    "es_fise",
    "es-fise%20",  # trailing space
    "es-fise.json",
    "es-fise%00",
    "%D0%B5s-fise",  # Cyrillic е
    "es-fise%2F..",
    "..",
    "%2e%2e",
    "%2e%2e%2f",
    "..%2F..%2Fetc%2Fpasswd",
    "%2Fetc%2Fpasswd",
    "%2F",
    "..%5C..%5Cetc%5Cpasswd",
    "%252e%252e%252f",  # double encoded
    "%00",
    "..%00",
    "%2e%2e%2fes-fise",
    "C:%5Cwindows",
    "~",
    "%7E%2F.ssh",
]


@pytest.mark.parametrize("name", EDITION_NAMES)
@pytest.mark.parametrize(("method", "template"), EDITION_ROUTES)
def test_bad_edition_names_are_documented_errors(
    lexicon_home: Path,
    app: Flask,
    client: FlaskClient,
    opened: list[Path],
    method: str,
    template: str,
    name: str,
) -> None:
    """Unknown edition (404 unknown_edition) or, where the name holds a slash, no route (404)."""
    url = template.format(e=name)
    r = send(client, method, url)
    path = r.request.path
    assert_documented_error(app, r, method, path, 404)
    assert r.json["error"]["code"] in ("unknown_edition", "not_found")
    assert_only_lexicon_files(opened, lexicon_home)


@pytest.mark.parametrize("template", ["/v1/{e}/words/casa", "/v1/editions/{e}", "/v1/{e}/export?format=dawg"])
def test_traversal_cannot_reach_a_lexicon_outside_the_directory(tmp_path: Path, template: str) -> None:
    """A complete, valid es-fise lexicon one directory up is never served, however the name is spelled."""
    from tests.conftest import build_small

    build_small(tmp_path, "es-fise")  # outside: tmp_path/es-fise.json
    home = tmp_path / "home"
    home.mkdir()
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    for name in ["..%2Fes-fise", "%2e%2e%2fes-fise", "..", "%2e%2e", f"{tmp_path}%2Fes-fise".replace("/", "%2F")]:
        r = client.get(template.format(e=name))
        assert r.status_code == 404, (name, r.status_code)
    r = client.get(template.format(e="es-fise"))
    assert r.status_code in (200, 503)  # the real name finds no lexicon in home
    if r.status_code == 200:
        assert r.json["lexicon"] is None


def test_the_open_recorder_sees_lexicon_reads(lexicon_home: Path, client: FlaskClient, opened: list[Path]) -> None:
    """The control for the traversal tests: a fresh app loading es-fise is seen opening its files."""
    assert client.get("/v1/es-fise/words/casa").status_code == 200
    assert lexicon_home / "es-fise.json" in opened
    assert_only_lexicon_files(opened, lexicon_home)
