"""The service's metadata and validity routes, through Flask's test client (small lexicons)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from lextools.core.edition import edition_names
from service import create_app
from service.http.lexicons import LexiconCache
from tests.conftest import build_small


def test_healthz(client: FlaskClient) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json["status"] == "ok"


def test_editions_lists_every_edition_with_tiles_and_lexicon_metadata(client: FlaskClient) -> None:
    r = client.get("/v1/editions")
    assert r.status_code == 200
    eds = r.json["editions"]
    assert [e["name"] for e in eds] == edition_names()
    fise = next(e for e in eds if e["name"] == "es-fise")
    assert {t["label"] for t in fise["tiles"]} >= {"CH", "LL", "RR", "Ñ"}
    assert fise["lexicon"]["words"] > 0


def test_one_edition_has_metadata_without_local_paths(client: FlaskClient, lexicon_home: Path) -> None:
    r = client.get("/v1/editions/es-fise")
    assert r.status_code == 200
    lex = r.json["lexicon"]
    on_disk = json.loads((lexicon_home / "es-fise.json").read_text())
    assert lex["checksum"] == on_disk["checksum"]
    assert lex["words"] == on_disk["words"]
    assert lex["built"] == on_disk["built"]
    assert [s["name"] for s in lex["sources"]] == ["es-small.txt"]  # the list build_small built it from
    assert lex["sources"][0]["sha256"] == on_disk["sources"][0]["sha256"]
    assert all("path" not in s for s in lex["sources"])
    assert r.json["total_tiles"] == 100


def test_edition_without_a_built_lexicon_is_described_with_the_reason(tmp_path: Path) -> None:
    client = create_app({"LEXICONS": tmp_path}).test_client()
    r = client.get("/v1/editions/fr")
    assert r.status_code == 200
    assert r.json["lexicon"] is None
    assert r.json["lexicon_error"]["code"] == "lexicon_not_found"
    assert r.json["tiles"]


def test_word_answers_valid_with_tiles_score_and_hooks(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/words/chiquillo")
    assert r.status_code == 200
    body = r.json
    assert list(body) == ["input", "word", "tiles", "valid", "score", "reason", "rule", "sources", "hooks"]
    assert body["valid"] is True
    assert body["tiles"] == ["CH", "I", "Q", "U", "I", "LL", "O"]
    assert body["score"] == 22
    assert body["reason"] is None


@pytest.mark.parametrize("notation", ["chiquillo", "CHIQUILLO", "1IQUI2O", "[CH]IQUI[LL]O", "%5BCH%5DIQUI%5BLL%5DO"])
def test_word_accepts_every_notation(client: FlaskClient, notation: str) -> None:
    r = client.get(f"/v1/es-fise/words/{notation}")
    assert r.status_code == 200
    assert r.json["word"] == "CHIQUILLO" and r.json["valid"] is True


def test_word_in_url_encoded_utf8(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/words/%C3%B1and%C3%BA")  # ñandú
    assert r.json["word"] == "ÑANDU" and r.json["valid"] is True
    assert "ÑANDU" in r.get_data(as_text=True)  # not \u00d1: readable JSON


def test_word_not_in_lexicon_is_invalid_with_a_reason(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/words/dame")
    assert r.status_code == 200
    assert r.json["valid"] is False
    assert "DAME" in r.json["reason"]


def test_word_hooks_are_tiles(client: FlaskClient) -> None:
    hooks = client.get("/v1/es-fise/words/apa").json["hooks"]
    assert "CH" in hooks["front"]  # CH·APA is one tile in front
    assert "S" not in hooks["back"]
    ama = client.get("/v1/es-fise/words/ama").json["hooks"]
    assert set(ama["front"]) == {"C", "LL"} and set(ama["back"]) == {"R", "S"}


def test_unspellable_word_is_422_with_the_reason(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/words/kilo")
    assert r.status_code == 422
    assert r.json["error"]["code"] == "unspellable"
    assert "K" in r.json["error"]["message"]
    assert client.get("/v1/es-mattel2021/words/kilo").status_code == 200  # Mattel 2021 has a K tile


def test_check_answers_one_result_per_word_in_order(client: FlaskClient) -> None:
    words = ["casa", "dame", "kilo", "1IQUI2O", "casa"]
    r = client.post("/v1/es-fise/check", json={"words": words})
    assert r.status_code == 200
    results = r.json["results"]
    assert [x["input"] for x in results] == words
    assert [x["valid"] for x in results] == [True, False, False, True, True]
    assert results[2]["word"] is None and "K" in results[2]["reason"]


def test_check_reads_json_whatever_the_content_type(client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/check", data='{"words": ["casa"]}', content_type="application/x-www-form-urlencoded")
    assert r.status_code == 200 and r.json["results"][0]["valid"] is True


def test_check_of_no_words_is_empty(client: FlaskClient) -> None:
    assert client.post("/v1/es-fise/check", json={"words": []}).json["results"] == []


def test_check_takes_1000_words(client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/check", json={"words": ["casa"] * 1000})
    assert r.status_code == 200 and len(r.json["results"]) == 1000


def test_blind_challenge_does_not_name_the_word(app: Flask, client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/challenge", json={"words": ["casa", "dame"], "reveal": False})
    assert r.status_code == 200
    assert r.json["acceptable"] is False
    assert "results" not in r.json
    text = r.get_data(as_text=True).upper()
    assert "DAME" not in text and "CASA" not in text
    ruling = r.json["ruling"]
    assert ruling["rules"] == "FILE" and ruling["play_stands"] is False
    assert "withdrawn" in ruling["outcome_en"] and ruling["challenger_penalty"] is None
    assert ruling["outcome"] == ruling["outcome_es"] == "La jugada se retira y el jugador pierde el turno."
    # The director's record has the words, the verdict and the lexicon that judged.
    [entry] = app.extensions["lextools.record"].entries()
    assert entry["words"] == ["casa", "dame"] and entry["acceptable"] is False
    assert entry["checksum"] == r.headers["X-Lexicon-Checksum"] == r.json["receipt"]["checksum"]


def test_challenge_is_blind_by_default(client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/challenge", json={"words": ["dame"]})
    assert r.json["acceptable"] is False and "results" not in r.json


def test_revealed_challenge_gives_per_word_results(client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/challenge", json={"words": ["casa", "dame"], "reveal": True})
    assert [x["valid"] for x in r.json["results"]] == [True, False]


@pytest.mark.parametrize(
    ("edition", "words", "rules", "penalty"),
    [
        ("es-fise", ["casa"], "FILE", None),
        ("en", ["cat"], "Hasbro", "loses next turn"),
        ("fr", ["wagon"], "FISF", "5 points per word wrongly challenged"),
    ],
)
def test_challenge_of_an_acceptable_play_gives_the_editions_ruling(
    client: FlaskClient, edition: str, words: list[str], rules: str, penalty: str | None
) -> None:
    r = client.post(f"/v1/{edition}/challenge", json={"words": words})
    assert r.status_code == 200
    assert r.json["acceptable"] is True
    ruling = r.json["ruling"]
    assert ruling["rules"] == rules and ruling["play_stands"] is True
    assert ruling["challenger_penalty"] == penalty


def test_challenge_with_an_unspellable_word_is_not_acceptable(client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/challenge", json={"words": ["casa", "kilo"]})
    assert r.status_code == 200 and r.json["acceptable"] is False


def test_hooks_route(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/hooks/apa")
    assert r.status_code == 200
    assert r.json["word"] == "APA" and r.json["valid"] is True
    assert "CH" in r.json["front"]
    assert client.get("/v1/es-fise/hooks/orro").json["valid"] is False  # hooks of a non-word are fine
    assert client.get("/v1/es-fise/hooks/wifi").status_code == 422


def test_score_breakdown_tile_by_tile(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/score/chiquillo")
    assert r.status_code == 200
    assert [t["tile"] for t in r.json["tiles"]] == ["CH", "I", "Q", "U", "I", "LL", "O"]
    assert [t["value"] for t in r.json["tiles"]] == [5, 1, 5, 1, 1, 8, 1]
    assert r.json["score"] == 22 and r.json["verified"] is True


def test_score_with_blanks(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/score/chiquillo?blank=1&blank=6")
    assert r.json["score"] == 22 - 5 - 8
    assert [t["blank"] for t in r.json["tiles"]] == [True, False, False, False, False, True, False]


def test_score_where_values_are_unverified(client: FlaskClient) -> None:
    r = client.get("/v1/es-mattel2021/score/casa")
    assert r.status_code == 200
    assert r.json["score"] is None and r.json["verified"] is False


@pytest.mark.parametrize("blank", ["0", "8", "x", "-1", "9" * 5000])
def test_score_blank_out_of_range_is_400(client: FlaskClient, blank: str) -> None:
    r = client.get(f"/v1/es-fise/score/chiquillo?blank={blank}")
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_query"


def test_lexicons_load_once_per_process_and_hot_swap_on_a_new_checksum(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise", ["casa", "cosa"])
    cache = LexiconCache(tmp_path)
    first = cache.get("es-fise")
    assert cache.get("es-fise") is first
    assert cache.refresh("es-fise") is False  # same checksum: nothing to do
    build_small(tmp_path, "es-fise", ["casa", "cosa", "saco"])
    assert cache.get("es-fise") is first  # no reload on the request path
    assert cache.refresh("es-fise") is True
    assert "SACO" in cache.get("es-fise") and cache.get("es-fise").checksum != first.checksum
