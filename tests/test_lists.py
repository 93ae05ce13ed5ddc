"""Lists that teach (lextools.features.lists) on the small lexicons: stems, high-value tiles, new
words and a player's list checked against brute force over every key; the API, its document and
the CLI giving the same JSON."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app
from lextools.core.errors import QueryError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.features import lists, quiz


@pytest.fixture(scope="module")
def fise(lexicon_home: Path) -> Lexicon:
    return load_lexicon("es-fise", lexicon_home)


def test_stems_take_exactly_the_tiles_that_make_a_word(fise: Lexicon) -> None:
    ed = fise.edition
    keys = list(fise)
    answer = lists.stems(fise, 6, count=lists.MAX_PAGE)
    assert answer["total"] == answer["count"] > 0
    ranked = []
    for item in answer["stems"]:
        stem = Counter(ed.encode(item["tiles"]))
        made = [k for k in keys if len(k) == 7 and not stem - Counter(k)]  # 7-tile words holding the stem
        takes = {ed.by_code[next(iter((Counter(k) - stem).elements()))].label for k in made}
        assert item["takes"] == ed.sort_labels(takes), item["stem"]
        assert sorted(w["word"] for w in item["words"]) == sorted(ed.spelling(k) for k in made)
        assert item["rack"] == item["stem"] + "?"
        ranked.append((-len(item["takes"]), -len(item["words"])))
    assert ranked == sorted(ranked)
    assert lists.stems(fise, 6, start=2, count=1)["stems"] == answer["stems"][1:2]
    with pytest.raises(QueryError):
        lists.stems(fise, 5)


def test_words_with_a_high_value_tile_and_new_words(lexicon_home: Path, fise: Lexicon) -> None:
    ed = fise.edition
    assert lists.high_value_tiles(ed) == ["CH", "J", "LL", "Ñ", "Q", "RR", "X", "Z"]
    answer = lists.with_tile(fise, "ñ", count=lists.MAX_PAGE)
    expected = [k for k in fise if "Ñ" in ed.decode(k)]
    assert sorted(w["word"] for w in answer["words"]) == sorted(map(ed.spelling, expected))
    assert [len(w["tiles"]) for w in answer["words"]] == sorted(len(w["tiles"]) for w in answer["words"])
    with pytest.raises(QueryError):
        lists.with_tile(fise, "A")
    na = load_lexicon("es-na103", lexicon_home)
    new = lists.new_words(fise, na, count=lists.MAX_PAGE)
    spelled = {na.edition.spelling(k) for k in na}
    assert sorted(w["word"] for w in new["words"]) == sorted(
        ed.spelling(k) for k in fise if ed.spelling(k) not in spelled
    )


def test_a_players_list_zyzzyva_columns_and_refusals(fise: Lexicon) -> None:
    text = "\ufeffcasa\tdefinition here\n# comment\n\n[CH]IQUI[LL]O n. a kid\nkilo\nzzzz\ncasa\n"
    assert lists.list_lines(text) == ["casa", "[CH]IQUI[LL]O", "kilo", "zzzz", "casa"]
    answer = lists.list_quiz(fise, lists.list_lines(text), ["CANCIO?", "AB??"], lang="es")
    chiquillo = quiz.rack_text(fise.edition.decode(quiz.alphagram(fise.edition, fise.spell("chiquillo").key)))
    # CANCIO? asks the alphagram of the one word it makes, CANCION: a rack with a blank is no question.
    assert [q["id"] for q in answer["questions"]] == ["AACS", chiquillo, "ACCINNO"]
    assert {a["word"] for a in answer["questions"][0]["answers"]} == {"CASA"}
    assert {a["word"] for a in answer["questions"][2]["answers"]} == {"CANCION"}
    refused = {r["text"]: r["reason"] for r in answer["refused"]}
    assert set(refused) == {"kilo", "zzzz", "AB??"}
    assert "K" in refused["kilo"] and "ZZZZ" in refused["zzzz"] and "comodines" in refused["AB??"]


def test_the_api_its_document_and_the_cli_agree(client: FlaskClient, lexicon_home: Path) -> None:
    from openapi_schema_validator import OAS30Validator

    doc = client.get("/v1/openapi.json").json
    runner = CliRunner()
    for path, args in (
        ("stems?length=6&count=3", ["stems", "es-fise", "--length", "6", "--count", "3"]),
        ("high-value?tile=CH&length=4", ["high-value", "es-fise", "CH", "--length", "4"]),
        ("new?against=es-na103", ["new-words", "es-fise", "es-na103"]),
    ):
        r = client.get(f"/v1/es-fise/lists/{path}")
        assert r.status_code == 200, r.json
        op = doc["paths"][f"/v1/{{edition}}/lists/{path.split('?')[0]}"]["get"]
        schema = op["responses"]["200"]["content"]["application/json"]["schema"]
        OAS30Validator({**schema, "components": doc["components"]}).validate(r.json)
        cli = runner.invoke(app, [*args, "--json", "-L", str(lexicon_home)], catch_exceptions=False)
        assert cli.exit_code == 0, cli.output
        assert json.loads(cli.stdout) == r.json
    r = client.post("/v1/es-fise/lists/quiz", json={"words": ["casa", "kilo"], "racks": ["CANCIO?"]})
    assert r.status_code == 200 and r.json["count"] == 2 and len(r.json["refused"]) == 1
    schema = doc["paths"]["/v1/{edition}/lists/quiz"]["post"]["responses"]["200"]["content"]["application/json"]
    OAS30Validator({**schema["schema"], "components": doc["components"]}).validate(r.json)
    for bad in ("stems?length=8", "high-value?tile=A", "new", "new?against=nope"):
        assert client.get(f"/v1/es-fise/lists/{bad}").status_code == 400, bad
    too_many = client.post("/v1/es-fise/lists/quiz", json={"words": ["casa"] * (lists.MAX_QUIZ_ITEMS + 1)})
    assert too_many.status_code == 413
