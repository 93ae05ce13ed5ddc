"""Anagram lists a person reads: longest first counted in tiles, ties in the edition's alphabet.

The collation is written here by hand, one alphabet per edition from the public rule texts (es-fise:
CH, LL and RR are letters of their own, Ñ after N; es-na103: LL and RR tiles, CH is C+H; en and
fr A–Z), not taken from the library, and checked on the CLI's ``--json`` and the API's pages alike.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app
from service import create_app

AZ = "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z"
ALPHABETS = {
    "es-fise": "A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z",
    "es-na103": "A B C D E F G H I J K L LL M N Ñ O P Q R RR S T U V W X Y Z",
    "es-mattel2021": "A B C D E F G H I J K L M N Ñ O P Q R S T U V X Y Z",
    "en": AZ,
    "fr": AZ,
}

#: A rack of two blanks per edition, for the API (which takes at most two).
RACKS = {"es-fise": "LA??", "es-na103": "LA??", "es-mattel2021": "LA??", "en": "TA??", "fr": "OU??"}


def rank_of(edition: str) -> dict[str, int]:
    return {label: i for i, label in enumerate(ALPHABETS[edition].split())}


def tiles_key(edition: str) -> Any:
    """Longest first in tiles, then tile by tile in the hand-written alphabet."""
    rank = rank_of(edition)
    return lambda entry: (-len(entry["tiles"]), [rank[t] for t in entry["tiles"]])


def assert_in_order(edition: str, words: list[dict[str, Any]]) -> None:
    assert words == sorted(words, key=tiles_key(edition))
    rank = rank_of(edition)
    for entry in words:
        assert "".join(entry["tiles"]) == entry["word"].upper()
        assert entry.get("blanks", []) == sorted(entry.get("blanks", []), key=rank.__getitem__)


def cli_json(home: Path, *args: str) -> Any:
    result = CliRunner().invoke(app, [*args, "--json", "-L", str(home)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def api_pages(client: FlaskClient, url: str) -> tuple[list[dict[str, Any]], int]:
    """Every word of a paged answer, following its cursors; and how many pages it took."""
    words: list[dict[str, Any]] = []
    pages = 0
    cursor = ""
    while True:
        response = client.get(url + (f"&cursor={cursor}" if cursor else ""))
        assert response.status_code == 200, response.json
        page = response.json
        pages += 1
        words += page["words"]
        if not page["truncated"]:
            return words, pages
        cursor = page["next_cursor"]


@pytest.mark.parametrize("edition", sorted(ALPHABETS))
def test_every_word_as_a_subanagram_is_longest_first_then_alphabetical(lexicon_home: Path, edition: str) -> None:
    """Ten blanks spend into every word of the small lexicon: the whole of it in the anagram order."""
    every = cli_json(lexicon_home, "anagram", edition, "?" * 10, "--sub", "--min-length", "1")["words"]
    assert_in_order(edition, every)
    listed = cli_json(lexicon_home, "pattern", edition, "*")["words"]
    assert sorted(w["word"] for w in every) == sorted(w["word"] for w in listed if len(w["tiles"]) <= 10)
    assert len({len(w["tiles"]) for w in every}) > 3


@pytest.mark.parametrize("edition", sorted(ALPHABETS))
def test_api_anagram_pages_are_the_cli_answer_in_order(lexicon_home: Path, client: FlaskClient, edition: str) -> None:
    rack = RACKS[edition]
    cli = cli_json(lexicon_home, "anagram", edition, rack, "--sub")
    assert len(cli["words"]) >= 3 and len({len(w["tiles"]) for w in cli["words"]}) > 1
    assert_in_order(edition, cli["words"])
    url = f"/v1/{edition}/anagrams/{quote(rack)}?sub=true"
    assert client.get(url + "&limit=1000").json == cli
    paged, pages = api_pages(client, url + "&limit=2")
    assert paged == cli["words"] and pages >= len(paged) // 2


def test_digraphs_are_one_tile_and_letters_of_their_own(lexicon_home: Path) -> None:
    """es-fise: CHA is two tiles, among the words of two tiles after AS and before DA; es-na103
    spells it C·H·A, three tiles, among the C words."""
    fise = [w["word"] for w in cli_json(lexicon_home, "anagram", "es-fise", "??", "--sub")["words"]]
    assert fise.index("AS") < fise.index("CHA") < fise.index("CHO") < fise.index("DA") < fise.index("LLE")
    na = cli_json(lexicon_home, "anagram", "es-na103", "???", "--sub")["words"]
    three = [w["word"] for w in na if len(w["tiles"]) == 3]
    assert "CHA" in three and "LLE" not in three


@pytest.fixture()
def default_client(default_home: Path, tmp_path: Path) -> FlaskClient:
    return create_app({"LEXICONS": default_home, "TESTING": True, "RECORD": tmp_path / "c.sqlite3"}).test_client()


def test_ato_blank_in_the_es_fise_alphabet(default_home: Path, default_client: FlaskClient) -> None:
    """The issue's rack on the default es-fise lexicon: … COTA, CHATO, CHOTA, DATO …, NOTA, ÑATO,
    OPTA …; with --sub every word of 4 tiles (TALLO: T·A·LL·O) before those of 3 (BAO before OLLA)."""
    whole = cli_json(default_home, "anagram", "es-fise", "ATO?")
    assert whole == default_client.get(f"/v1/es-fise/anagrams/{quote('ATO?')}?limit=1000").json
    words = [w["word"] for w in whole["words"]]
    assert_in_order("es-fise", whole["words"])
    assert words[words.index("CHATO") - 1 : words.index("CHATO") + 3] == ["COTA", "CHATO", "CHOTA", "DATO"]
    assert words.index("NOTA") < words.index("ÑATO") < words.index("OPTA") and words[-1] == "VOTA"
    assert words.index("TALO") < words.index("TALLO") < words.index("TAMO")

    sub = cli_json(default_home, "anagram", "es-fise", "ATO?", "--sub")
    assert_in_order("es-fise", sub["words"])
    lengths = [len(w["tiles"]) for w in sub["words"]]
    assert lengths == sorted(lengths, reverse=True) and lengths[0] == 4 and lengths[-1] == 2
    short = [w["word"] for w in sub["words"]]
    assert short.index("VOTA") < short.index("BAO") < short.index("CHAT") < short.index("OLLA") < short.index("OPA")
    paged, _ = api_pages(default_client, f"/v1/es-fise/anagrams/{quote('ATO?')}?sub=true&limit=7")
    assert paged == sub["words"]


def test_a_rich_rack_pages_in_order(default_home: Path, default_client: FlaskClient) -> None:
    """Two digraph tiles and two blanks: thousands of subanagrams, their blanks in the alphabet too,
    paged with cursors into the same list the CLI prints whole."""
    rack = "CHALLEO??"
    whole = cli_json(default_home, "anagram", "es-fise", rack, "--sub")["words"]
    assert len(whole) > 1000
    assert_in_order("es-fise", whole)
    assert any(w["blanks"] == ["A", "CH"] for w in whole)  # CH's code sorts before A; the alphabet does not
    paged, pages = api_pages(default_client, f"/v1/es-fise/anagrams/{quote(rack)}?sub=true&limit=1000")
    assert paged == whole and pages > 1
