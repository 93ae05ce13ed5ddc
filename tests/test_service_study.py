"""Study and export routes, and lextools.core.search.find which the search route is built on."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from lextools import load_edition, spell
from lextools.core.errors import QueryError
from lextools.core.lexicon import Lexicon
from lextools.core.search import find, match_pattern, parse_pattern


def words(body: dict) -> list[str]:
    return [w["word"] for w in body["words"]]


def in_fise_order(spellings: list[str]) -> list[str]:
    """The es-fise alphabet: … CU, CHA, D …, LU, LLA, M, N, Ñ, O … R, RR, S …"""
    fise = load_edition("es-fise")
    return [fise.spelling(k) for k in fise.sort_keys(spell(w, fise).key for w in spellings)]


def test_two_tile_words_include_the_digraph_plays(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/two-tile-words")
    assert r.status_code == 200
    found = words(r.json)
    assert {"CHA", "CHE", "CHO", "LLE", "AS", "DA"} <= set(found)
    assert found == in_fise_order(found) and r.json["count"] == len(found)
    assert found.index("AS") < found.index("CHA") < found.index("DA")  # CH is a letter of its own, after C
    assert {"word": "LLE", "tiles": ["LL", "E"]} in r.json["words"]
    assert "CHA" not in words(client.get("/v1/es-na103/two-tile-words").json)  # C+H there: three tiles


def test_anagrams(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/anagrams/saco")
    assert r.status_code == 200
    assert words(r.json) == ["CASO", "COSA", "SACO"]
    assert r.json["blanks"] == 0 and r.json["sub"] is False


def test_anagrams_with_a_blank_and_subanagrams(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/anagrams/cas%3F")  # ? is a blank, sent encoded
    assert "CASA" in words(r.json) and r.json["blanks"] == 1
    casa = next(w for w in r.json["words"] if w["word"] == "CASA")
    assert casa["blanks"] == ["A"]
    sub = client.get("/v1/es-fise/anagrams/saco?sub=true&min_length=3").json
    assert {"CASO", "COSA", "SACO"} <= set(words(sub)) and "AS" not in words(sub)
    assert "AS" in words(client.get("/v1/es-fise/anagrams/saco?sub=1").json)
    assert all(len(w["tiles"]) >= 3 for w in sub["words"])
    lengths = [len(w["tiles"]) for w in sub["words"]]
    assert lengths == sorted(lengths, reverse=True)


def test_anagram_blank_may_be_a_digraph_tile(client: FlaskClient) -> None:
    assert "CHA" in words(client.get("/v1/es-fise/anagrams/a%3F").json)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("starts=cas&ends=sa", ["CASA"]),  # the prefix and the suffix overlap
        ("length=2&starts=ch", ["CHA", "CHE", "CHO"]),
        ("pattern=CH%3F*", ["CHA", "CHAPA", "CHAPAS", "CHE", "CHIQUILLO", "CHO"]),
        ("contains=rr&length=4", ["CARRO", "CORRO", "PERRO", "TORRE", "ZORRO"]),  # RR is one tile
        ("pattern=%3FA%3FA%3F&ends=s", ["CAMAS", "CASAS", "CHAPAS", "LLAMAS"]),
        ("starts=c&contains=ll", ["CALLE", "CALLES"]),  # C·A·LL·E; CHIQUILLO starts with CH, not C
        ("starts=ll&length=1", []),
    ],
)
def test_search(client: FlaskClient, query: str, expected: list[str]) -> None:
    r = client.get(f"/v1/es-fise/search?{query}")
    assert r.status_code == 200, r.json
    assert words(r.json) == expected
    assert r.json["count"] == len(expected) and r.json["next_cursor"] is None and not r.json["truncated"]


def test_search_in_probability_order(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/search?length=2&order=probability")
    assert r.status_code == 200
    assert words(r.json)[-1] in {"CHA", "CHE", "CHO", "LLE"}  # one tile of each in the bag: least likely
    r = client.get("/v1/es-mattel2021/search?length=2&order=probability&lang=en")
    assert r.status_code == 400 and "unverified" in r.json["error"]["message"]


def test_search_pages_with_a_cursor(client: FlaskClient) -> None:
    everything = words(client.get("/v1/es-fise/search?pattern=*&limit=1000").json)
    seen: list[str] = []
    url = "/v1/es-fise/search?pattern=*&limit=7"
    while True:
        page = client.get(url).json
        assert page["count"] == len(words(page)) <= 7 and page["truncated"] == (page["next_cursor"] is not None)
        seen += words(page)
        if page["next_cursor"] is None:
            break
        url = f"/v1/es-fise/search?pattern=*&limit=7&cursor={page['next_cursor']}"
    assert seen == everything and len(everything) > 7


@pytest.mark.parametrize("cursor", ["abc", "5", "-1.x", "99999999999.x", "5.0000000000000000"])
def test_search_refuses_a_cursor_it_did_not_issue(client: FlaskClient, cursor: str) -> None:
    r = client.get(f"/v1/es-fise/search?pattern=*&cursor={cursor}")
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_request"


@pytest.mark.parametrize(
    "query",
    [
        "length=0",
        "length=16",
        "length=two",
        "limit=0",
        "limit=1001",
        "order=random",
        "pattern=" + "?" * 16,
        "pattern=k*",
        "starts=w",
        "contains=%5BXX%5D",
        "pattern=" + "a" * 65,
    ],
)
def test_search_refuses_bad_queries(client: FlaskClient, query: str) -> None:
    r = client.get(f"/v1/es-fise/search?{query}")
    assert r.status_code == 400, r.json
    assert set(r.json["error"]) == {"code", "message"}


def test_find_combines_constraints(es: Lexicon) -> None:
    spell = es.edition.spelling
    assert sorted(spell(k) for k in find(es, starts="cas", ends="sa")) == ["CASA"]
    assert sorted(spell(k) for k in find(es, length=3, contains="a", ends="o")) == ["AMO", "ANO", "AÑO"]
    assert list(find(es, starts="chiquillo", length=3)) == []
    assert set(find(es, pattern="*o", starts="ch")) == {"1O", "1IQUI2O"}
    assert list(find(es)) == es.edition.sort_keys(es.keys())  # no constraint: every word, in the alphabet


@pytest.mark.parametrize(
    "pattern",
    ["*", "?", "??", "???*", "*A", "A*", "*A*", "C*S", "CH?*O", "*Ñ*", "?Ñ*", "A?O*", "*LL*", "1*", "*3?", "?A?A?",
     "*A*A*", "*S*S", "[RR]*", "??????????????"],
)  # fmt: skip
def test_find_agrees_with_match_pattern(es: Lexicon, pattern: str) -> None:
    assert list(find(es, pattern=pattern)) == [m.key for m in match_pattern(es, parse_pattern(pattern, es))]


@pytest.mark.parametrize(
    ("starts", "contains", "ends", "length"),
    [("c", None, None, None), (None, "a", "s", None), ("ca", "ll", "es", 6), (None, None, "o", 3), ("ñ", None, None, 5),
     ("ll", "a", "s", None), (None, "rr", None, 4), ("x", None, None, None)],
)  # fmt: skip
def test_find_agrees_with_brute_force(
    es: Lexicon, starts: str | None, contains: str | None, ends: str | None, length: int | None
) -> None:
    def key(text: str | None) -> str:
        return es.spell(text).key if text else ""

    expected = es.edition.sort_keys(
        k
        for k in es
        if k.startswith(key(starts)) and key(contains) in k and k.endswith(key(ends)) and length in (None, len(k))
    )
    assert list(find(es, starts=starts, contains=contains, ends=ends, length=length)) == expected


def test_find_checks_its_arguments_when_called(es: Lexicon) -> None:
    with pytest.raises(QueryError):
        find(es, length=0)
    with pytest.raises(QueryError):
        find(es, contains="kilo")


def test_export_streams_the_list_with_the_checksum_as_etag(client: FlaskClient, lexicon_home: Path) -> None:
    checksum = json.loads((lexicon_home / "es-fise.json").read_text())["checksum"]
    r = client.get("/v1/es-fise/export")
    assert r.status_code == 200
    assert r.is_streamed
    assert r.headers["ETag"] == f'"{checksum}"'
    assert r.mimetype == "text/plain"
    lines = r.get_data(as_text=True).splitlines()
    assert "CHIQUILLO" in lines and "AÑO" in lines and lines == in_fise_order(lines)
    assert lines.index("ANO") < lines.index("AÑO") < lines.index("APA")
    assert len(lines) == client.get("/v1/editions/es-fise").json["lexicon"]["words"]


@pytest.mark.parametrize(
    ("notation", "line"), [("plain", "CHIQUILLO"), ("digits", "1IQUI2O"), ("brackets", "[CH]IQUI[LL]O")]
)
def test_export_notations(client: FlaskClient, notation: str, line: str) -> None:
    r = client.get(f"/v1/es-fise/export?format=txt&notation={notation}")
    assert line in r.get_data(as_text=True).splitlines()


def test_export_is_not_sent_again_while_the_etag_matches(client: FlaskClient) -> None:
    etag = client.get("/v1/es-fise/export").headers["ETag"]
    r = client.get("/v1/es-fise/export", headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.data == b"" and r.headers["ETag"] == etag
    r = client.get("/v1/es-fise/export", headers={"If-None-Match": '"something-else"'})
    assert r.status_code == 200 and r.data


def test_export_dawg_is_the_built_file(client: FlaskClient, lexicon_home: Path) -> None:
    meta = json.loads((lexicon_home / "es-fise.json").read_text())
    r = client.get("/v1/es-fise/export?format=dawg")
    assert r.status_code == 200
    assert r.mimetype == "application/octet-stream"
    assert r.data == (lexicon_home / meta["files"]["words"]["name"]).read_bytes()
    assert hashlib.sha256(r.data).hexdigest() == meta["checksum"]
    assert r.headers["ETag"] == f'"{meta["checksum"]}"'


@pytest.mark.parametrize("query", ["format=zip", "notation=latin", "format=" + "x" * 100])
def test_export_refuses_unknown_formats_and_notations(client: FlaskClient, query: str) -> None:
    r = client.get(f"/v1/es-fise/export?{query}")
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_request"
