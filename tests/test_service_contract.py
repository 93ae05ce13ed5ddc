"""The API contract: strict parameters, budgeted pages with cursors, hygiene, one source for limits."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.http.errors import ERRORS
from tests.conftest import build_small

SERVICE_MANUAL = Path(__file__).resolve().parents[1] / "docs" / "service.md"


def error_code(r) -> str:  # type: ignore[no-untyped-def]
    return str(r.json["error"]["code"])


# -- strict parameters ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["²", "５0", "5_0", "+5", " 5", "5 ", "0x5", "1e2", "٣", "9" * 40])
def test_integers_are_ascii_digits_only(client: FlaskClient, value: str) -> None:
    for url in (f"/v1/es-fise/search?pattern=*&limit={value}", f"/v1/es-fise/anagrams/saco?min_length={value}"):
        r = client.get(url)
        assert r.status_code == 400 and error_code(r) == "bad_request", (url, r.json)


def test_a_cursor_with_a_superscript_digit_is_a_400(client: FlaskClient) -> None:
    checksum = client.get("/v1/editions/es-fise").json["lexicon"]["checksum"]
    r = client.get(f"/v1/es-fise/search?pattern=CAS%3F&cursor=%C2%B2.{checksum[:16]}")
    assert r.status_code == 400 and error_code(r) == "bad_request"


@pytest.mark.parametrize("url", ["/v1/es-fise/search?pattern=*&colour=red", "/v1/es-fise/words/casa?verbose=1",
                                 "/healthz?x=1", "/v1/editions?lang=es"])  # fmt: skip
def test_unknown_parameters_are_named(client: FlaskClient, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 400 and error_code(r) == "unknown_parameter"
    assert url.rsplit("?", 1)[1].split("=")[0] in r.json["error"]["message"]


def test_an_unencoded_blank_is_refused_with_the_way_to_send_it(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/anagrams/CASA??")
    assert r.status_code == 400 and error_code(r) == "unknown_parameter"
    assert "%3F" in r.json["error"]["message"]
    # One bare "?" leaves an empty query string: the raw request line still shows it.
    r = client.get("/v1/es-fise/anagrams/ARBOL", environ_overrides={"RAW_URI": "/v1/es-fise/anagrams/ARBOL?"})
    assert r.status_code == 400 and "%3F" in r.json["error"]["message"]
    assert client.get("/v1/es-fise/anagrams/CASA%3F%3F").status_code == 200


def test_a_parameter_given_twice_is_refused_unless_it_repeats(client: FlaskClient) -> None:
    assert client.get("/v1/es-fise/search?limit=5&limit=6").status_code == 400
    assert client.get("/v1/es-fise/score/casa?blank=1&blank=2").status_code == 200


# -- budgeted pages and cursors --------------------------------------------------------------------


def follow(client: FlaskClient, url: str) -> tuple[list[str], int]:
    words: list[str] = []
    pages = 0
    page = client.get(url).json
    while True:
        pages += 1
        assert page["count"] == len(page["words"]) and page["truncated"] == (page["next_cursor"] is not None)
        words += [w["word"] for w in page["words"]]
        if not page["truncated"]:
            return words, pages
        page = client.get(f"{url}&cursor={page['next_cursor']}").json


@pytest.mark.parametrize("order", ["alpha", "probability"])
def test_search_pages_resume_in_order(client: FlaskClient, order: str) -> None:
    whole, _ = follow(client, f"/v1/es-fise/search?pattern=*&order={order}&limit=1000")
    paged, pages = follow(client, f"/v1/es-fise/search?pattern=*&order={order}&limit=4")
    assert paged == whole and pages >= len(whole) // 4


def test_anagram_pages_resume_in_order(client: FlaskClient) -> None:
    whole, _ = follow(client, "/v1/es-fise/anagrams/CALLES%3F?sub=true&limit=1000")
    paged, pages = follow(client, "/v1/es-fise/anagrams/CALLES%3F?sub=true&limit=2")
    assert paged == whole and pages > 2


def test_a_page_stops_at_its_work_budget(lexicon_home: Path) -> None:
    """With no time at all, a page answers what it found so far: truncated, with a cursor."""
    client = create_app({"LEXICONS": lexicon_home, "SEARCH_BUDGET_MS": 0}).test_client()
    r = client.get("/v1/es-fise/search?pattern=*&limit=1000")
    assert r.status_code == 200 and r.json["truncated"] and r.json["next_cursor"]
    assert r.json["count"] < 1000


def test_a_cursor_of_a_rebuilt_lexicon_is_stale(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise")
    client = create_app({"LEXICONS": tmp_path, "RELOAD_CHECK_SECONDS": 0}).test_client()
    cursor = client.get("/v1/es-fise/search?pattern=*&limit=2").json["next_cursor"]
    build_small(tmp_path, "es-fise", ["casa", "cosa", "calle", "chico"], force=True)  # fewer words: --force
    r = client.get(f"/v1/es-fise/search?pattern=*&limit=2&cursor={cursor}")
    assert r.status_code == 400 and error_code(r) == "stale_cursor"


@pytest.mark.parametrize("route", ["/v1/es-fise/anagrams/saco?", "/v1/es-fise/search?order=probability&"])
def test_a_cursor_of_another_route_or_order_is_refused(client: FlaskClient, route: str) -> None:
    cursor = client.get("/v1/es-fise/search?pattern=*&limit=1").json["next_cursor"]
    r = client.get(f"{route}cursor={cursor}")
    assert r.status_code == 400 and error_code(r) == "bad_request"


# -- hygiene -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/healthz", "/v1/editions", "/v1/es-fise/words/casa", "/v1/es-fise/words/kilo",
                                 "/nowhere", "/v1/es-fise/export", "/v1/openapi.json"])  # fmt: skip
def test_every_answer_says_nosniff(client: FlaskClient, url: str) -> None:
    assert client.get(url).headers["X-Content-Type-Options"] == "nosniff"


def test_errors_and_editions_name_no_server_path_nor_tool_version(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise")
    client = create_app({"LEXICONS": tmp_path}).test_client()
    missing = client.get("/v1/en/words/cat")
    assert missing.status_code == 503 and error_code(missing) == "lexicon_not_found"
    editions = client.get("/v1/editions").get_data(as_text=True)
    for text in (missing.get_data(as_text=True), editions):
        assert str(tmp_path) not in text and "/tmp" not in text
    assert all(e["lexicon"] is None or "tools" not in e["lexicon"] for e in json.loads(editions)["editions"])


def test_a_dawg_altered_on_disk_is_not_exported(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise")
    client = create_app({"LEXICONS": tmp_path}).test_client()
    good = client.get("/v1/es-fise/export?format=dawg")
    assert good.status_code == 200
    meta = json.loads((tmp_path / "es-fise.json").read_text())
    dawg = tmp_path / meta["files"]["words"]["name"]
    dawg.write_bytes(good.data[:-1] + bytes([good.data[-1] ^ 1]))
    r = client.get("/v1/es-fise/export?format=dawg")
    assert r.status_code == 503 and error_code(r) == "corrupt_lexicon"
    assert str(tmp_path) not in r.get_data(as_text=True)


# -- one source ----------------------------------------------------------------------------------------


def test_the_document_publishes_the_app_config(lexicon_home: Path) -> None:
    config = {"LEXICONS": lexicon_home, "MAX_BATCH": 7, "SEARCH_MAX_LIMIT": 33, "SEARCH_LIMIT": 11}
    app = create_app(config)
    doc = app.test_client().get("/v1/openapi.json").json
    check = doc["paths"]["/v1/{edition}/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert check["properties"]["words"]["maxItems"] == 7
    limit = next(p for p in doc["paths"]["/v1/{edition}/search"]["get"]["parameters"] if p.get("name") == "limit")
    assert limit["schema"]["maximum"] == 33 and limit["schema"]["default"] == 11
    assert app.test_client().get("/v1/es-fise/search?limit=34").status_code == 400


def test_error_codes_are_one_table(app: Flask) -> None:
    """docs/service.md's table, the document's enum and ERRORS list the same codes with the same statuses."""
    doc = app.test_client().get("/v1/openapi.json").json
    assert doc["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"] == list(ERRORS)
    section = SERVICE_MANUAL.read_text("utf-8").split("## Error codes", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \|", section, re.M)
    assert {code: int(status) for code, status in rows} == {code: status for code, (status, _) in ERRORS.items()}


def test_a_blank_position_is_ascii_digits_too(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/score/casa?blank=%D9%A3")  # ٣, ARABIC-INDIC DIGIT THREE
    assert r.status_code == 400 and error_code(r) == "bad_query"


def test_the_largest_allowed_number_is_accepted(client: FlaskClient) -> None:
    """As many digits as the maximum has: a quiz seed of ten digits is a number, not a refusal."""
    r = client.get("/v1/es-fise/quiz?type=anagram&length=4&seed=2147483647")
    assert r.status_code == 200, r.json
    assert client.get("/v1/es-fise/quiz?type=anagram&length=4&seed=2147483648").status_code == 400
