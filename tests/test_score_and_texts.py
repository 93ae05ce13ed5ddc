"""``score`` in words (no None), with its warnings in the JSON the CLI and the API share; the texts
a Spanish or French reader gets from the review of short words and from the service's HTTP errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.core.edition import load_edition
from lextools.core.lexicon import load_lexicon
from lextools.features import answers
from lextools.features.explain import explain
from service import create_app


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout


def test_score_of_unverified_values_says_so_once_in_words(tmp_path: Path) -> None:
    told = {
        "en": "no score: the tile values of es-mattel2021 are unverified",
        "es": "sin puntuación: los valores de las fichas de es-mattel2021 no están verificados",
    }
    for lang, said in told.items():
        code, out = run("score", "es-mattel2021", "chiquillo", "--lang", lang, "-L", str(tmp_path))
        assert code == 0
        assert "None" not in out and out.count(said) == 1, out
        assert out.startswith("CHIQUILLO: C·H·I·Q·U·I·L·L·O"), out


def test_score_warns_of_a_word_not_valid_and_tiles_over_the_bag(lexicon_home: Path) -> None:
    code, out = run("score", "es-fise", "zzzz", "--lang", "en", "-L", str(lexicon_home))
    assert code == 0
    assert out.splitlines() == [
        "ZZZZ: Z 10 + Z 10 + Z 10 + Z 10 = 40",
        "warning: ZZZZ is not valid in es-fise",
        "warning: ZZZZ needs 4 Z tiles, and the es-fise bag has 1",
    ]
    _, out = run("score", "es-fise", "zzzz", "-L", str(lexicon_home))  # the edition's language
    assert "aviso: ZZZZ necesita 4 fichas Z, y la bolsa de es-fise tiene 1" in out
    _, out = run("score", "es-fise", "chiquillo", "-b", "1", "--lang", "en", "-L", str(lexicon_home))
    assert out.splitlines() == ["CHIQUILLO: CH(blank) 0 + I 1 + Q 5 + U 1 + I 1 + LL 8 + O 1 = 17"]  # valid, no warning


def test_score_json_is_the_apis_with_validity_and_the_bag(lexicon_home: Path, client: FlaskClient) -> None:
    for url, args, valid, over in [
        ("/v1/es-fise/score/zzzz", ["es-fise", "zzzz"], False, [{"tile": "Z", "needs": 4, "bag": 1}]),
        ("/v1/es-fise/score/chiquillo", ["es-fise", "chiquillo"], True, []),
        ("/v1/en/score/quiz?blank=2&blank=3&blank=4", ["en", "quiz", "-b", "2", "-b", "3", "-b", "4"], None, None),
        ("/v1/es-mattel2021/score/casa", ["es-mattel2021", "casa"], None, None),  # counts unverified
    ]:
        answer = client.get(url).get_json()
        assert json.loads(run("score", *args, "--json", "-L", str(lexicon_home))[1]) == answer
        if valid is not None:
            assert answer["valid"] is valid, url
        if over is not None:
            assert answer["over_bag"] == over, url
    three_blanks = client.get("/v1/en/score/quiz?blank=2&blank=3&blank=4").get_json()
    assert three_blanks["over_bag"] == [{"tile": "?", "needs": 3, "bag": 2}]
    assert client.get("/v1/es-mattel2021/score/casa").get_json()["over_bag"] is None


def test_score_needs_no_lexicon_and_then_says_nothing_of_validity(tmp_path: Path) -> None:
    client = create_app({"LEXICONS": tmp_path, "TESTING": True, "RECORD": tmp_path / "r.sqlite3"}).test_client()
    r = client.get("/v1/es-fise/score/zzzz")
    assert r.status_code == 200 and r.json["valid"] is None and r.json["score"] == 40
    code, out = run("score", "es-fise", "zzzz", "--lang", "en", "-L", str(tmp_path))
    assert code == 0 and "not valid" not in out and "needs 4 Z tiles" in out
    assert answers.score(load_edition("es-fise"), "casa")["valid"] is None


def test_over_bag_counts_tiles_not_letters_and_not_the_blanks() -> None:
    fise = load_edition("es-fise")
    assert answers.over_bag(fise, ["LL", "LL"]) == [{"tile": "LL", "needs": 2, "bag": 1}]
    assert answers.over_bag(fise, ["LL", "LL"], [0]) == []  # one LL is a blank
    assert answers.over_bag(fise, ["L", "L", "L", "L", "L"]) == [{"tile": "L", "needs": 5, "bag": 4}]


def test_the_review_of_short_words_is_quoted_as_the_reviews_own_words(default_home: Path) -> None:
    fise = load_lexicon("es-fise", default_home)
    told = explain(fise, "qu", default_home).message
    assert told is not None
    assert told.text("es") == (
        "QU: excluida por la revisión de palabras cortas; su motivo, citado de la revisión (en inglés): "
        "“a letter pair, not a word: the letter name is CU”"
    )
    assert told.text("fr").startswith("QU : écarté par la revue des mots courts ; son motif, cité de la revue")
    _, out = run("explain", "es-fise", "qu", "-L", str(default_home))
    assert out.startswith("QU: excluida por la revisión de palabras cortas; su motivo, citado de la revisión")


@pytest.mark.parametrize(
    ("method", "url", "headers", "status", "text"),
    [
        ("get", "/v1/es-fise/nothing", {}, 404, "no hay nada en esta dirección"),
        ("get", "/v1/fr/nothing", {}, 404, "il n'y a rien à cette adresse"),
        ("get", "/v1/nothing", {"Accept-Language": "es"}, 404, "no hay nada en esta dirección"),
        ("get", "/v1/es-fise/nothing?lang=en", {}, 404, "there is nothing at this address"),
        ("put", "/v1/es-fise/check", {}, 405, "esta dirección no admite peticiones PUT (admite "),
        ("put", "/v1/fr/check", {}, 405, "cette adresse n'accepte pas les requêtes PUT"),
        ("put", "/v1/en/check", {}, 405, "this address does not take PUT requests"),
    ],
)
def test_http_errors_speak_the_requests_language(
    client: FlaskClient, method: str, url: str, headers: dict[str, str], status: int, text: str
) -> None:
    r = getattr(client, method)(url, headers=headers)
    assert r.status_code == status
    assert r.json["error"]["message"].startswith(text), r.json
