"""Every error the service gives, in its one JSON shape; odd input never reaches a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from lextools.core.errors import LexiconError, QueryError, SpellingError, UnknownEditionError
from service import create_app
from service.http.errors import status_of
from tests.conftest import build_small


def assert_error(r, status: int, code: str | None = None) -> None:  # r: werkzeug test response
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.mimetype == "application/json"
    assert set(r.json) == {"error"} and set(r.json["error"]) == {"code", "message"}
    assert r.json["error"]["message"]
    if code is not None:
        assert r.json["error"]["code"] == code


def test_library_errors_map_to_statuses_in_one_place() -> None:
    assert status_of(UnknownEditionError("x")) == 404
    assert status_of(SpellingError("kilo", "no K")) == 422
    assert status_of(QueryError("bad")) == 400
    assert status_of(LexiconError("anything a user caused")) == 400

    class NewQueryError(QueryError):
        pass

    assert status_of(NewQueryError("x")) == 400  # a subclass takes its base's status


@pytest.mark.parametrize(
    "url",
    [
        "/v1/xx/words/casa",
        "/v1/%2E%2E/words/casa",
        "/v1/..%5Cetc/words/casa",
        "/v1/editions/xx",
        "/v1/es/two-tile-words",  # (ES-FISE is es-fise: tests/test_names_and_empty_queries.py)
    ],
)
def test_unknown_edition_is_404(client: FlaskClient, url: str) -> None:
    assert_error(client.get(url), 404, "unknown_edition")


@pytest.mark.parametrize("url", ["/v1/es-fise/nothing", "/v2/es-fise/words/casa", "/v1", "/v1/es-fise/words/"])
def test_unknown_route_is_404(client: FlaskClient, url: str) -> None:
    assert_error(client.get(url), 404, "not_found")


def test_path_traversal_never_reaches_the_disk(client: FlaskClient) -> None:
    assert client.get("/v1/..%2F..%2Fetc%2Fpasswd/export").status_code == 404
    assert_error(client.get("/v1/%2E%2E/export"), 404, "unknown_edition")


def test_wrong_method_is_405_with_allow(client: FlaskClient) -> None:
    r = client.put("/v1/es-fise/check", json={"words": []})
    assert_error(r, 405, "method_not_allowed")
    assert "POST" in r.headers["Allow"]
    assert_error(client.get("/v1/es-fise/challenge"), 405)
    assert_error(client.post("/v1/es-fise/words/casa"), 405)


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        "",
        "[]",
        "null",
        '"casa"',
        '{"word": "casa"}',
        '{"words": "casa"}',
        '{"words": {"0": "casa"}}',
        '{"words": [1, 2]}',
        '{"words": ["casa", null]}',
        '{"words": [["casa"]]}',
        '{"words": ["\\ud800"]}',  # a lone surrogate cannot be text
        b'{"words": ["\xff\xfe"]}',  # not UTF-8
        '{"words": ["casa"]',
    ],
)
@pytest.mark.parametrize("route", ["check", "challenge"])
def test_malformed_bodies_are_400(client: FlaskClient, route: str, body: str | bytes) -> None:
    r = client.post(f"/v1/es-fise/{route}", data=body, content_type="application/json")
    assert_error(r, 400, "bad_request")


@pytest.mark.parametrize("reveal", ['"yes"', "1", "null", "[]"])
def test_challenge_reveal_must_be_a_boolean(client: FlaskClient, reveal: str) -> None:
    body = f'{{"words": ["casa"], "reveal": {reveal}}}'
    r = client.post("/v1/es-fise/challenge", data=body, content_type="application/json")
    assert_error(r, 400, "bad_request")


def test_challenge_of_no_words_is_400(client: FlaskClient) -> None:
    assert_error(client.post("/v1/es-fise/challenge", json={"words": []}), 400)


def test_more_than_1000_words_is_413(client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/check", json={"words": ["casa"] * 1001})
    assert_error(r, 413, "too_many_words")  # a challenge takes at most 8: tests/test_challenge.py


def test_a_huge_body_is_413(client: FlaskClient) -> None:
    body = json.dumps({"words": ["a" * 1000] * 1000})  # 1 MB
    assert_error(client.post("/v1/es-fise/check", data=body), 413)


def test_long_words_in_a_batch_are_invalid_not_errors(client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/check", json={"words": ["a" * 200, "", " ", "ca sa", "[CH", "9"]})
    assert r.status_code == 200
    assert [x["valid"] for x in r.json["results"]] == [False] * 6
    assert all(x["reason"] for x in r.json["results"])


def test_invalid_utf8_in_the_path_is_400(client: FlaskClient) -> None:
    # WSGI passes the path's raw bytes as latin-1 characters; \xff is not UTF-8.
    r = client.get("/", environ_overrides={"PATH_INFO": "/v1/es-fise/words/\xff"})
    assert_error(r, 400, "bad_request")


@pytest.mark.parametrize(
    "word",
    ["kilo", "wifi", "%25zz", "%zz", "a%2Fb", "%00", "1234", "[XX]", "[CH", "%F0%9F%98%80", "%EF%BF%BD", "a" * 300],
)
def test_unspellable_words_are_422(client: FlaskClient, word: str) -> None:
    for route in ("words", "hooks", "score"):
        assert_error(client.get(f"/v1/es-fise/{route}/{word}"), 422, "unspellable")


@pytest.mark.parametrize("rack", ["", "kk", "%3F" * 3, "%3F" * 16, "[XX]", "a" * 20])
def test_bad_racks_are_400(client: FlaskClient, rack: str) -> None:
    r = client.get(f"/v1/es-fise/anagrams/{rack}")
    assert r.status_code in (400, 404)  # an empty rack is no route at all
    assert set(r.json["error"]) == {"code", "message"}


@pytest.mark.parametrize("query", ["sub=maybe", "min_length=0", "min_length=99", "min_length=x"])
def test_bad_anagram_options_are_400(client: FlaskClient, query: str) -> None:
    assert_error(client.get(f"/v1/es-fise/anagrams/casa?{query}"), 400, "bad_request")


def test_missing_lexicon_is_503(tmp_path: Path) -> None:
    client = create_app({"LEXICONS": tmp_path}).test_client()
    for url in ("/v1/es-fise/words/casa", "/v1/es-fise/two-tile-words", "/v1/es-fise/export"):
        assert_error(client.get(url), 503, "lexicon_not_found")
    assert_error(client.post("/v1/es-fise/check", json={"words": ["casa"]}), 503, "lexicon_not_found")
    assert client.get("/v1/es-fise/score/casa").status_code == 200  # scoring needs only the tile table


def test_corrupt_lexicon_is_503(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise")
    meta = json.loads((tmp_path / "es-fise.json").read_text())
    (tmp_path / meta["files"]["words"]["name"]).write_bytes(b"truncated")
    client = create_app({"LEXICONS": tmp_path}).test_client()
    assert_error(client.get("/v1/es-fise/words/casa"), 503, "corrupt_lexicon")
    assert client.get("/v1/editions/es-fise").json["lexicon_error"]["code"] == "corrupt_lexicon"


def test_dawg_export_after_its_generation_was_removed_is_503(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise")
    client = create_app({"LEXICONS": tmp_path}).test_client()
    assert client.get("/v1/es-fise/words/casa").status_code == 200  # loaded now
    meta = json.loads((tmp_path / "es-fise.json").read_text())
    (tmp_path / meta["files"]["words"]["name"]).unlink()  # as a rebuild's clean-up would
    assert_error(client.get("/v1/es-fise/export?format=dawg"), 503, "corrupt_lexicon")


def test_a_bug_is_a_bare_500_that_leaks_nothing(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    def boom() -> None:
        raise RuntimeError("secret detail")

    app.add_url_rule("/boom", view_func=boom)
    r = app.test_client().get("/boom")
    assert_error(r, 500, "internal_error")
    assert "secret" not in r.get_data(as_text=True)
    assert "secret detail" in caplog.text  # the log has the traceback


def test_get_routes_allow_any_origin(client: FlaskClient) -> None:
    for url in ("/v1/es-fise/words/casa", "/v1/editions", "/v1/xx/words/casa", "/v1/es-fise/export"):
        r = client.get(url, headers={"Origin": "https://example.org"})
        assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert "ETag" in r.headers["Access-Control-Expose-Headers"]
    pre = client.options("/v1/es-fise/words/casa", headers={"Origin": "https://example.org"})
    assert pre.headers["Access-Control-Allow-Methods"] == "GET, HEAD"


def test_check_is_open_to_other_origins_and_the_challenge_is_not(client: FlaskClient) -> None:
    """check only reads: any page may call it, with its preflight. The challenge writes the record."""
    r = client.post("/v1/es-fise/check", json={"words": ["casa"]}, headers={"Origin": "https://example.org"})
    assert r.status_code == 200 and r.headers["Access-Control-Allow-Origin"] == "*"
    pre = client.options("/v1/es-fise/check", headers={"Origin": "https://example.org"})
    assert pre.headers["Access-Control-Allow-Methods"] == "POST"
    assert "Content-Type" in pre.headers["Access-Control-Allow-Headers"]
    pre = client.options("/v1/es-fise/challenge", headers={"Origin": "https://example.org"})
    assert "POST" not in pre.headers.get("Access-Control-Allow-Methods", "")


ODD = ["%00", "%FF", "%C0%AF", "..", "%2E%2E%2F", "%25", "%zz", "%", "%u0041", "x" * 5000, "%E2%80%AE", "%0A%0D"]


@pytest.mark.parametrize("odd", ODD)
def test_no_odd_input_produces_a_500(client: FlaskClient, odd: str) -> None:
    urls = [
        f"/v1/{odd}/words/casa",
        f"/v1/es-fise/words/{odd}",
        f"/v1/es-fise/hooks/{odd}",
        f"/v1/es-fise/score/{odd}?blank={odd}",
        f"/v1/es-fise/anagrams/{odd}?sub={odd}&min_length={odd}",
        f"/v1/es-fise/search?pattern={odd}&length={odd}&contains={odd}&starts={odd}&ends={odd}&order={odd}",
        f"/v1/es-fise/search?limit={odd}&cursor={odd}",
        f"/v1/es-fise/export?format={odd}&notation={odd}",
        f"/v1/editions/{odd}",
    ]
    for url in urls:
        r = client.get(url)
        assert r.status_code < 500, (url, r.status_code, r.get_data(as_text=True)[:200])
        if r.status_code >= 400:
            assert set(r.json["error"]) == {"code", "message"}
    for body in (odd, json.dumps({"words": [odd]}), json.dumps({"words": [odd], "reveal": odd})):
        for route in ("check", "challenge"):
            r = client.post(f"/v1/es-fise/{route}", data=body)
            assert r.status_code < 500, (route, body[:50], r.status_code)
