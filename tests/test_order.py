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
from lextools.core import ranking
from lextools.core.lexicon import load_lexicon
from lextools.core.search import ordered
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


def test_probability_pages_of_ch_o_add_up_shorter_first(default_home: Path, default_client: FlaskClient) -> None:
    """Zyzzyva's probability order on the default es-fise lexicon: the pages of CH?*O add up to the
    CLI's whole answer, shorter words first (counted in tiles), likeliest first within a length. A
    page's work is bounded, not only its words (a search that matches nothing must end as fast as
    one that matches), so a page may come back empty with a cursor — but only at the end of the
    walk or now and then, never page after page."""
    whole = cli_json(default_home, "pattern", "es-fise", "CH?*O", "--order", "probability")["words"]
    assert len(whole) > 500  # 582 in the default of 2026-12-01: ten pages of 60
    url = f"/v1/es-fise/search?pattern={quote('CH?*O')}&order=probability&limit=60"
    words: list[dict[str, Any]] = []
    cursor, empty = "", 0
    while True:
        page = default_client.get(url + (f"&cursor={cursor}" if cursor else "")).json
        empty += not page["words"]
        assert empty <= 3, f"{empty} empty pages after {len(words)} words"
        words += page["words"]
        if not page["truncated"]:
            break
        cursor = page["next_cursor"]
    assert words == whole
    lengths = [len(w["tiles"]) for w in whole]
    assert lengths == sorted(lengths) and lengths[0] == 4  # CH·A·N·O … before the longer words
    fise = load_lexicon("es-fise", default_home)
    for n in (4, 5):  # within a length: most ways to draw the tiles first
        keys = [fise.spell(w["word"]).key for w in whole if len(w["tiles"]) == n]
        ways = [fise.edition.probability(fise.edition.decode(k)) for k in keys]
        assert ways == sorted(ways, reverse=True)


def test_rank_of_is_the_place_within_the_length(lexicon_home: Path) -> None:
    """rank_of: (1-based rank among the words of the same length in tiles, how many there are)."""
    fise = load_lexicon("es-fise", lexicon_home)
    for n in range(2, 6):
        keys = [k for k in ordered(fise, list(fise), "probability") if len(k) == n]
        for i, key in enumerate(keys):
            assert ranking.rank_of(fise, fise.edition.spelling(key)) == (i + 1, len(keys))
            assert ranking.rank_of(fise, key) == (i + 1, len(keys))  # a lexicon key answers too
    assert ranking.rank_of(fise, "chiquillo") == ranking.rank_of(fise, "[CH]IQUI[LL]O")  # CH·I·Q·U·I·LL·O: 7 tiles
    assert ranking.rank_of(fise, "chiquillo")[1] == sum(1 for k in fise if len(k) == 7)  # type: ignore[index]
    assert (
        ranking.rank_of(fise, "zzzz") is None
        and ranking.rank_of(fise, "kilo") is None
        and ranking.rank_of(fise, "") is None
    )
    mattel = load_lexicon("es-mattel2021", lexicon_home)  # unverified counts: the alphabet's place
    four = mattel.edition.sort_keys(k for k in mattel if len(k) == 4)
    assert ranking.rank_of(mattel, mattel.edition.spelling(four[0])) == (1, len(four))
