"""Issue 32, item 5: Zyzzyva's search conditions beyond issue 25's — vowels, distinct tiles, consists
of, takes a front/back hook, in a word list — each with its "not", through the library, the CLI and
the API, on the small es-fise fixture and on the default es-fise lexicon (tiles counted as tiles: CH
one, Ñ its own; the vowels A E I O U)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.core import search
from lextools.core.conditions import conditions, negations
from lextools.core.lexicon import Lexicon, load_lexicon
from service import create_app

VOWELS = {"A", "E", "I", "O", "U"}


def vowels(lex: Lexicon, key: str) -> int:
    return sum(tile in VOWELS for tile in lex.edition.decode(key))


def cli_words(home: Path, pattern: str, options: list[str]) -> list[str]:
    args = ["pattern", "es-fise", pattern, *options, "--json", "--lexicons", str(home)]
    printed = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert printed.exit_code == 0, printed.output
    return [w["word"] for w in json.loads(printed.stdout)["words"]]


def api_words(client: FlaskClient, pattern: str, given: dict[str, str]) -> list[str]:
    """Every page of a search (through next_cursor)."""
    words: list[str] = []
    cursor = None
    while True:
        query = {"pattern": pattern, "limit": "1000", **given, **({"cursor": cursor} if cursor else {})}
        answer = client.get(f"/v1/es-fise/search?{urlencode(query)}").get_json()
        assert "error" not in answer, answer
        words += [w["word"] for w in answer["words"]]
        cursor = answer["next_cursor"]
        if cursor is None:
            return words


def as_options(given: dict[str, str]) -> list[str]:
    """The CLI's options for the API's parameters: --name VALUE, a negation a bare flag."""
    options: list[str] = []
    for name, value in given.items():
        flag = "--" + name.replace("_", "-")
        options += [flag] if name.startswith("not_") else [flag, value]
    return options


#: Each new condition alone and negated, on the fixture: (API parameters, its definition on a key).
FIXTURE_CASES: list[tuple[dict[str, str], Callable[[Lexicon, str], bool]]] = [
    ({"min_vowels": "3"}, lambda lex, k: vowels(lex, k) >= 3),
    ({"min_vowels": "3", "not_vowels": "true"}, lambda lex, k: vowels(lex, k) < 3),
    ({"max_distinct": "3"}, lambda lex, k: len(set(k)) <= 3),
    ({"max_distinct": "3", "not_distinct": "true"}, lambda lex, k: len(set(k)) > 3),
    ({"consists_of": "chaol"}, lambda lex, k: set(lex.edition.decode(k)) <= {"CH", "A", "O", "L"}),
    (
        {"consists_of": "chaol", "not_consists_of": "true"},
        lambda lex, k: not set(lex.edition.decode(k)) <= {"CH", "A", "O", "L"},
    ),
    ({"takes_front": "ll"}, lambda lex, k: "2" + k in lex),
    ({"takes_front": "ll", "not_takes_front": "true"}, lambda lex, k: "2" + k not in lex),
    ({"takes_back": "s"}, lambda lex, k: k + "S" in lex),
    ({"takes_back": "s", "not_takes_back": "true"}, lambda lex, k: k + "S" not in lex),
    ({"ends": "o", "not_ends": "true"}, lambda lex, k: not k.endswith("O")),
]


@pytest.mark.parametrize(("given", "definition"), FIXTURE_CASES, ids=[",".join(c[0]) for c in FIXTURE_CASES])
def test_library_cli_and_api_keep_what_the_definition_keeps(
    client: FlaskClient, lexicon_home: Path, given: dict[str, str], definition: Callable[[Lexicon, str], bool]
) -> None:
    lex = load_lexicon("es-fise", lexicon_home)
    expected = [lex.edition.spelling(k) for k in lex.edition.sort_keys(lex) if definition(lex, k)]
    assert expected and len(expected) < len(lex)
    typed = {n: True if n.startswith("not_") else int(v) if v.isdigit() else v for n, v in given.items()}
    library = [lex.edition.spelling(k) for k in search.find(lex, conditions=conditions(lex, **typed))]
    assert library == expected
    assert api_words(client, "*", given) == expected
    assert cli_words(lexicon_home, "*", as_options(given)) == expected


def test_a_word_list_through_the_cli_file_and_the_api_parameter(
    client: FlaskClient, lexicon_home: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text("chapa\nLLAMA\nperro\ncasita\n", encoding="utf-8")  # CASITA: no word of the fixture
    kept = ["CHAPA", "LLAMA", "PERRO"]
    assert api_words(client, "*", {"in_list": "chapa, LLAMA perro casita"}) == kept
    assert cli_words(lexicon_home, "*", ["--in-list", str(mine)]) == kept
    others = api_words(client, "*", {"in_list": "chapa llama perro", "not_in_list": "true"})
    assert not set(others) & set(kept) and len(others) + 3 == len(load_lexicon("es-fise", lexicon_home))
    assert cli_words(lexicon_home, "*", ["--in-list", str(mine), "--not-in-list"]) == others
    refused = client.get("/v1/es-fise/search?pattern=*&in_list=kilo&lang=en").get_json()["error"]
    assert refused["code"] == "bad_query" and "in_list" in refused["message"]
    anagrams = client.get("/v1/es-fise/anagrams/asac?in_list=casa&not_in_list=true").get_json()
    assert [w["word"] for w in anagrams["words"]] == []  # CASA is the rack's one anagram


def test_every_negation_is_a_parameter_and_an_option(client: FlaskClient) -> None:
    doc = client.get("/v1/openapi.json").get_json()
    for path in ("/v1/{edition}/search", "/v1/{edition}/anagrams/{rack}"):
        named = {p.get("name") for p in doc["paths"][path]["get"]["parameters"]}
        assert {n.name for n in negations()} <= named
    shown = CliRunner().invoke(cli, ["pattern", "--help"], env={"COLUMNS": "200"}).stdout
    assert all(f"--{n.name.replace('_', '-')}" in shown for n in negations())


# -- on the default es-fise lexicon ----------------------------------------------------------------


@pytest.fixture(scope="module")
def fise_client(default_home: Path, tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    record = tmp_path_factory.mktemp("record") / "challenges.sqlite3"
    return create_app({"LEXICONS": default_home, "TESTING": True, "RECORD": record}).test_client()


#: On es-fise, with the patterns that keep each walk short: (pattern, parameters, definition).
FISE_CASES: list[tuple[str, dict[str, str], Callable[[Lexicon, str], bool]]] = [
    ("ch*", {"min_vowels": "4", "max_length": "7"}, lambda lex, k: vowels(lex, k) >= 4 and len(k) <= 7),
    ("ñ*", {"max_vowels": "1", "not_vowels": "true"}, lambda lex, k: vowels(lex, k) > 1),
    ("????", {"max_distinct": "2"}, lambda lex, k: len(set(k)) <= 2),
    ("ch*", {"min_distinct": "3", "not_distinct": "true"}, lambda lex, k: len(set(k)) < 3),
    ("ch*", {"consists_of": "chao"}, lambda lex, k: set(lex.edition.decode(k)) <= {"CH", "A", "O"}),
    ("?ñ??", {"consists_of": "aeiouñ", "not_consists_of": "true"}, lambda lex, k: not set(k) <= set("AEIOUÑ")),
    ("a???", {"takes_front": "ch"}, lambda lex, k: "1" + k in lex),
    ("????", {"takes_back": "s", "not_takes_back": "true"}, lambda lex, k: k + "S" not in lex),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pattern", "given", "definition"), FISE_CASES, ids=[p + ",".join(g) for p, g, _ in FISE_CASES]
)
def test_on_es_fise_tiles_are_counted_as_tiles(
    fise_client: FlaskClient,
    default_home: Path,
    pattern: str,
    given: dict[str, str],
    definition: Callable[[Lexicon, str], bool],
) -> None:
    lex = load_lexicon("es-fise", default_home)
    every = list(search.find(lex, pattern=pattern))
    expected = [lex.edition.spelling(k) for k in every if definition(lex, k)]
    assert expected and len(expected) < len(every)
    assert api_words(fise_client, pattern, given) == expected
    assert cli_words(default_home, pattern, as_options(given)) == expected


@pytest.mark.slow
def test_on_es_fise_a_list_and_the_whole_anagram_result(fise_client: FlaskClient, default_home: Path) -> None:
    lex = load_lexicon("es-fise", default_home)
    listed = "chacho ñandú llave carro perro chaqueta zzz"
    in_lexicon = sorted(
        (k for k in (lex.spell(w).key for w in listed.split()) if k in lex and len(k) <= 6),
        key=lex.edition.collation_key,
    )
    assert len(in_lexicon) >= 4 and "ZZZ" not in lex
    kept = api_words(fise_client, "*", {"in_list": listed, "max_length": "6"})
    assert kept == [lex.edition.spelling(k) for k in in_lexicon]
    # The whole result of AEINRS? is every page the cursor gives: the 142 the search page hands over.
    words, cursor = [], None
    while True:
        query = "?min_length=7&order=probability" + (f"&cursor={cursor}" if cursor else "")
        answer = fise_client.get(f"/v1/es-fise/anagrams/aeinrs%3F{query}").get_json()
        words += answer["words"]
        cursor = answer["next_cursor"]
        if cursor is None:
            break
    assert len(words) == len({w["word"] for w in words}) == 142
