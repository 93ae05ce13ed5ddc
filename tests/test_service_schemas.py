"""The answer schemas (service/contract/schemas.py) serialise what the views return and are the
document's shapes; the hot routes match the paths of the operations' own declarations."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from lextools.core import budget
from lextools.core.lexicon import Lexicon
from lextools.features import answers
from service.api.hot_routes import CHECK_ENDPOINT, WORD_ENDPOINT, hot_operations
from service.api.words import WordAnswer, word_answer
from service.contract.operations import OPERATIONS, operation_of
from service.contract.schemas import Answer, UndeclaredFieldError, WordResult, nested_list, str_field, str_list


def test_a_dump_keeps_the_library_order_and_leaves_out_what_it_leaves_out(es: Lexicon) -> None:
    for word in ("casa", "kilo", "chiquillo", "zzz"):
        built = answers.localized(es.lookup(word), es.edition, "es")
        dumped = WordResult().dump(built)
        assert list(dumped.items()) == list(built.items())
        if built["word"] is not None:  # a word the edition cannot spell is a 422 on the word route
            answer = word_answer(es, word, "en", None)
            assert list(WordAnswer().dump(answer)) == list(answer)
    assert "hooks" not in WordResult().dump({"input": "casa", "valid": True})


def test_a_field_the_schema_does_not_declare_is_refused_not_sent(es: Lexicon) -> None:
    built: dict[str, Any] = {**answers.localized(es.lookup("casa"), es.edition), "secret": "server path"}
    with pytest.raises(UndeclaredFieldError, match="secret"):
        WordResult().dump(built)


def test_every_json_answer_is_serialised_by_its_declared_schema(app: Flask, client: FlaskClient) -> None:
    """The export and the record send files and CSV too: their 200 is declared by hand; every other
    operation's success is its answer schema, which the document names."""
    by_hand = {"export.export", "challenge.read_record"}
    assert {op.endpoint for op in OPERATIONS if op.answer is None} == by_hand
    paths = client.get("/v1/openapi.json").json["paths"]
    for op in OPERATIONS:
        if op.answer is None:
            continue
        content = paths[op.path][op.method]["responses"][str(op.status)]["content"]["application/json"]
        assert content["schema"] == {"$ref": f"#/components/schemas/{op.answer.__name__}"}, op.endpoint


def test_the_hot_routes_match_the_paths_their_operations_declare() -> None:
    routes = hot_operations()
    word, word_methods = routes[WORD_ENDPOINT]
    check, check_methods = routes[CHECK_ENDPOINT]
    assert operation_of(WORD_ENDPOINT).path == "/v1/{edition}/words/{word}"
    assert word.fullmatch("/v1/es-fise/words/casa") and not word.fullmatch("/v1/es-fise/words/ca/sa")
    assert check.fullmatch("/v1/en/check") and not check.fullmatch("/v1/en/check/x")
    assert (word_methods, check_methods) == (("GET", "HEAD"), ("POST",))


class _Entry(Answer):
    """An entry of a long list."""

    word = str_field(required=True)


class _Page(Answer):
    """A page of many entries."""

    words = nested_list(_Entry, required=True)


def test_a_long_list_is_dumped_with_pauses_for_other_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows 1-2 of issue 33: a page of stems (a thousand nested entries) was dumped in one go, the
    worker's look-ups waiting; a list of entries now lets them run between two (every item here,
    the pause interval set to 0), and dumps the same."""
    monkeypatch.setattr(budget, "PAUSE_SECONDS", 0.0)
    looks: list[int] = []
    page = {"words": [{"word": w} for w in ("CASA", "COSA", "MESA") * 20]}
    with budget.cancellable(lambda: looks.append(1) is not None):
        dumped = _Page().dump(page)
    assert dumped == page
    assert len(looks) >= len(page["words"]) - 1


def test_a_list_of_strings_is_dumped_as_fields_string_dumps_each() -> None:
    """Tiles already strings go out as they are; anything else as ``fields.String`` makes it."""

    class Tiles(Answer):
        tiles = str_list("tiles")

    assert Tiles().dump({"tiles": ["CH", "A", "Ñ"]}) == {"tiles": ["CH", "A", "Ñ"]}
    assert Tiles().dump({"tiles": ["A", b"LL", 3]}) == {"tiles": ["A", "LL", "3"]}
    assert Tiles().dump({"tiles": None}) == {"tiles": None}
