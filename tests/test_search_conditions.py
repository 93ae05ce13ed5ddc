"""Issue 25: the search conditions (lextools.core.conditions) in the library, the CLI and the API; the
word card (lextools.features.card); the cardbox kept by sync code (service/api/cardboxes.py); and none of
it in kiosk mode."""

from __future__ import annotations

import copy
import json
import pickle
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.core import conditions as table
from lextools.core import search
from lextools.core.conditions import CONDITIONS, NAMES, Conditions, anagram_count, conditions, predicates
from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.ranking import rank_of
from lextools.core.spelling import MAX_TILES
from lextools.features.card import word_card
from service import create_app
from tests.condition_surfaces import surfaces

ROOT = Path(__file__).resolve().parents[1]

CARDBOX = {"format": "lextools-cardbox", "version": 1, "exported": "2026-12-01T00:00:00Z", "cards": []}


def every_key(es: Lexicon) -> list[str]:
    return es.edition.sort_keys(es)


def words(es: Lexicon, keys: list[str]) -> list[str]:
    return [es.edition.spelling(k) for k in keys]


# -- the conditions, each against its definition over every word ---------------------------------------

CASES: list[tuple[dict[str, object], Callable[[Lexicon, str], bool]]] = [
    ({"min_length": 4, "max_length": 5}, lambda es, k: 4 <= len(k) <= 5),
    ({"includes": "aa"}, lambda es, k: k.count("A") >= 2),
    ({"includes": "ll"}, lambda es, k: "2" in k),  # the LL tile (code 2), never L·L
    ({"starts": "c", "ends": "s"}, lambda es, k: k[0] == "C" and k[-1] == "S"),
    ({"front_hook": True}, lambda es, k: any(t + k in es for t in es.alphagram_order)),
    ({"back_hook": False}, lambda es, k: not any(k + t in es for t in es.alphagram_order)),
    ({"min_anagrams": 2}, lambda es, k: sum(sorted(o) == sorted(k) for o in es) >= 2),
    ({"min_score": 8}, lambda es, k: (es.edition.score(es.edition.decode(k)) or 0) >= 8),
    ({"max_rank": 3}, lambda es, k: (rank_of(es, k) or (99, 0))[0] <= 3),
    # Zyzzyva's others, each with its "not": vowels are the tiles A E I O U; tiles are counted as
    # tiles (CH one, Ñ its own); a list is any words, those the lexicon lacks kept out by the search.
    ({"min_vowels": 3}, lambda es, k: sum(t in "AEIOU" for t in es.edition.decode(k)) >= 3),
    ({"max_vowels": 1, "not_vowels": True}, lambda es, k: sum(t in "AEIOU" for t in es.edition.decode(k)) > 1),
    ({"max_distinct": 3}, lambda es, k: len(set(k)) <= 3),
    ({"min_distinct": 4, "not_distinct": True}, lambda es, k: len(set(es.edition.decode(k))) < 4),
    ({"consists_of": "casch"}, lambda es, k: set(es.edition.decode(k)) <= {"C", "A", "S", "CH"}),
    ({"consists_of": "amo", "not_consists_of": True}, lambda es, k: not set(k) <= set("AMO")),
    ({"takes_back": "s"}, lambda es, k: k + "S" in es),
    ({"takes_front": "c", "not_takes_front": True}, lambda es, k: "C" + k not in es),
    ({"in_list": "casa, cosa\nchal"}, lambda es, k: es.edition.spelling(k) in {"CASA", "COSA", "CHAL"}),
    ({"in_list": ["casa", "COSA"], "not_in_list": True}, lambda es, k: es.edition.spelling(k) not in {"CASA", "COSA"}),
    ({"starts": "c", "not_starts": True}, lambda es, k: k[0] != "C"),
    ({"includes": "ñ", "not_includes": True}, lambda es, k: "Ñ" not in es.edition.decode(k)),
    ({"min_length": 3, "max_length": 4, "not_length": True}, lambda es, k: not 3 <= len(k) <= 4),
    ({"min_score": 8, "not_score": True}, lambda es, k: (es.edition.score(es.edition.decode(k)) or 0) < 8),
]


@pytest.mark.parametrize(("given", "definition"), CASES, ids=[",".join(map(str, c[0])) for c in CASES])
def test_each_condition_keeps_exactly_the_words_its_definition_keeps(
    es: Lexicon, given: dict[str, object], definition: Callable[[Lexicon, str], bool]
) -> None:
    cond = conditions(es, **given)
    expected = [k for k in every_key(es) if definition(es, k)]
    assert expected and len(expected) < len(es)  # each case keeps some words and drops others
    assert list(search.find(es, conditions=cond)) == expected
    ranked = set(search.find(es, order="probability", conditions=cond))
    assert ranked == set(expected)


def test_conditions_combine_and_apply_to_anagrams(es: Lexicon) -> None:
    key, blanks = search.parse_rack("osac?", es)
    every = [m.key for m in search.anagrams(es, key, blanks, sub=True)]
    cond = conditions(es, max_length=4, min_anagrams=3, starts="c")
    kept = [m.key for m in search.anagrams(es, key, blanks, sub=True, conditions=cond)]
    assert words(es, kept) == ["CASO", "COSA"]  # SACO: not starting with C; CASA: one anagram
    assert kept == [k for k in every if len(k) <= 4 and k[0] == "C" and anagram_count(es, k) >= 3]
    assert anagram_count(es, es.spell("cosa").key) == 3  # CASO, COSA, SACO


def test_a_negation_keeps_what_its_test_drops(es: Lexicon) -> None:
    """Each test and its negation split the lexicon in two: nothing in both, nothing in neither."""
    tests: dict[str, dict[str, object]] = {
        "not_length": {"min_length": 3},
        "not_rank": {"max_rank": 3},
        "not_includes": {"includes": "ch"},
        "not_starts": {"starts": "ca"},
        "not_ends": {"ends": "s"},
        "not_anagrams": {"min_anagrams": 2},
        "not_score": {"max_score": 4},
        "not_vowels": {"min_vowels": 3},
        "not_distinct": {"max_distinct": 3},
        "not_consists_of": {"consists_of": "lamo"},
        "not_takes_front": {"takes_front": "ll"},
        "not_takes_back": {"takes_back": "s"},
        "not_in_list": {"in_list": "casa chal perro"},
    }
    assert list(tests) == [n.name for n in table.negations()]
    everything = set(search.find(es))
    for negation in table.negations():
        given = tests[negation.name]
        kept = set(search.find(es, conditions=conditions(es, **given)))
        dropped = set(search.find(es, conditions=conditions(es, **given, **{negation.name: True})))
        assert kept and dropped and not kept & dropped and kept | dropped == everything, negation.name
        assert Conditions(**{negation.name: False}) == Conditions()  # a negation not asked is no condition


def test_a_word_list_is_read_from_text_words_or_a_file(es: Lexicon, tmp_path: Path) -> None:
    listed = tmp_path / "mine.txt"
    listed.write_text("casa\nChal\n\nperro\n", encoding="utf-8")
    from_file = conditions(es, in_list=listed)
    assert from_file == conditions(es, in_list="CASA, chal;perro") == conditions(es, in_list=["casa", "chal", "perro"])
    assert words(es, list(search.find(es, conditions=from_file))) == ["CASA", "PERRO"]  # CHAL: no word here
    assert from_file.in_list == frozenset({"CASA", "1AL", "PE3O"})  # keys: CH, RR one tile each
    assert not conditions(es, in_list=" , ")  # an empty list: not asked
    with pytest.raises(QueryError, match="in_list"):
        conditions(es, in_list="casa kilo")  # es-fise has no K tile
    with pytest.raises(QueryError, match="in_list"):
        conditions(es, in_list=["a"] * (table.MAX_LIST_WORDS + 1))
    assert f"{table.MAX_LIST_WORDS:,}" in table.BY_NAME["in_list"].help.en  # the bound its help says


def test_bad_conditions_are_refused_at_the_call(es: Lexicon) -> None:
    with pytest.raises(QueryError, match="min_length is more than max_length"):
        conditions(es, min_length=5, max_length=4)
    with pytest.raises(QueryError, match="includes"):
        conditions(es, includes="k")  # es-fise has no K tile
    assert not conditions(es, includes="", front_hook=None)
    assert conditions(es, starts="ch") == Conditions(starts="1")
    assert set(NAMES) >= {"min_rank", "front_hook", "min_anagrams", "max_score"}
    with pytest.raises(TypeError, match="unknown conditions: colour"):
        Conditions(colour="red")


def test_the_table_is_the_only_list_of_conditions() -> None:
    """Names, kinds, ranges and the lists derived from the table; its bounds are the searches' own."""
    assert tuple(c.name for c in CONDITIONS) == NAMES and len(set(NAMES)) == len(NAMES)
    assert table.TILES == ("includes", "starts", "ends", "consists_of", "takes_front", "takes_back")
    assert table.FLAGS == ("front_hook", "back_hook") and table.WORD_LISTS == ("in_list",)
    pairs = ("length", "rank", "anagrams", "score", "vowels", "distinct")
    assert tuple((f"min_{p}", f"max_{p}") for p in pairs) == table.RANGES
    # One negation per test but the flags, after the test's last row.
    nots = [n.name for n in table.negations()]
    assert nots == [f"not_{t}" for t in dict.fromkeys(c.test for c in CONDITIONS if c.kind != "flag")]
    shown = [p.name for p in table.parameters()]
    assert [n for n in shown if n in NAMES] == list(NAMES) and set(shown) - set(NAMES) == set(nots)
    assert shown.index("not_length") == shown.index("max_length") + 1 and "not_front_hook" not in shown
    assert search.MAX_QUERY_TILES == table.MAX_QUERY_TILES == MAX_TILES == table.BY_NAME["min_length"].high
    for c in CONDITIONS:
        assert (c.low is not None and c.high is not None and c.low <= c.high) == (c.kind == "number"), c.name
        assert c.kind in ("number", "tiles", "flag", "words"), c.name
        assert all(query in table.QUERIES for query, _ in c.query_defaults), c.name
        assert all(c.help[lang].endswith(".") and c.label[lang] for lang in ("en", "es", "fr")), c.name
    assert Conditions().given() == {} and not Conditions(min_rank=None, includes="")
    assert Conditions(max_rank=3) == Conditions(max_rank=3, ends="") and hash(Conditions(max_rank=3))
    assert Conditions(front_hook=False).front_hook is False and Conditions(front_hook=False)
    assert copy.deepcopy(Conditions(max_rank=3)) == pickle.loads(pickle.dumps(Conditions(max_rank=3)))


def test_every_row_of_the_table_has_its_predicate(es: Lexicon) -> None:
    """A condition added to the table and given is tested: one predicate each (none forgotten)."""
    sample = {"number": 1, "tiles": "A", "flag": True, "words": frozenset("A")}
    for c in CONDITIONS:
        assert predicates(es, Conditions(**{c.name: sample[c.kind]})), c.name


# -- the word card -----------------------------------------------------------------------------------------


def test_word_card_of_a_valid_word(es: Lexicon) -> None:
    card = word_card(es, "amas")
    assert card["valid"] and card["tiles"] == ["A", "M", "A", "S"] and card["values"] == [1, 3, 1, 1]
    assert card["score"] == 6 and card["alphagram"] == "AAMS"
    assert card["hooks"] == {
        "front": ["C", "LL"],
        "back": [],
        "front_inner": False,
        "back_inner": True,
        "hooked": "AMAS·",
    }
    four = len(search.words_of_length(es, 4))
    assert card["rank"]["order"] == "probability" and card["rank"]["of"] == four
    assert 1 <= card["rank"]["rank"] <= four
    assert [a["word"] for a in word_card(es, "cosa")["anagrams"]] == ["CASO", "SACO"]
    llama = word_card(es, "llama")
    assert llama["tiles"] == ["LL", "A", "M", "A"] and llama["hooks"]["back"] == ["R", "S"]


def test_word_card_of_an_invalid_word_and_of_one_the_edition_cannot_spell(es: Lexicon) -> None:
    card = word_card(es, "saca")
    assert not card["valid"] and card["rank"] is None and card["reason"]
    assert [a["word"] for a in card["anagrams"]] == ["CASA"]
    with pytest.raises(SpellingError):
        word_card(es, "kilo")


# -- the API and the CLI: one contract ---------------------------------------------------------------------


def test_api_search_and_cli_pattern_take_the_same_conditions(
    client: FlaskClient, lexicon_home: Path, tmp_path: Path
) -> None:
    query = "pattern=*&includes=S&max_length=4&back_hook=false&min_score=4&limit=1000"
    answer = client.get(f"/v1/es-fise/search?{query}").get_json()
    assert answer["words"]
    for w in answer["words"]:
        assert "S" in w["tiles"] and len(w["tiles"]) <= 4
    args = ["pattern", "es-fise", "*", "--includes", "S", "--max-length", "4", "--no-back-hook", "--min-score", "4"]
    printed = CliRunner().invoke(cli, [*args, "--json", "--lexicons", str(lexicon_home)], catch_exceptions=False)
    assert json.loads(printed.stdout)["words"] == answer["words"]
    refused = client.get("/v1/es-fise/search?pattern=*&min_rank=9&max_rank=2").get_json()
    assert refused["error"] == {"code": "bad_query", "message": "min_rank es mayor que max_rank"}
    doc = client.get("/v1/openapi.json").get_json()
    for path, method in (("/v1/{edition}/search", "get"), ("/v1/{edition}/anagrams/{rack}", "get")):
        named = {p.get("name") for p in doc["paths"][path][method]["parameters"]}
        assert set(NAMES) <= named, set(NAMES) - named


def test_the_cli_the_api_and_the_page_show_exactly_the_table(lexicon_home: Path, tmp_path: Path) -> None:
    shown = surfaces(lexicon_home, tmp_path / "challenges.sqlite3")
    every = [c.name for c in table.parameters()]  # each row, and each test's "not" after it
    assert shown["cli"] == {"anagram": every, "pattern": every}
    assert all(names == every for names in shown["api"].values()), shown["api"]
    assert shown["page"] == every
    assert shown["labels"]["en"] == {c.name: c.label.en for c in table.parameters()}
    assert shown["labels"]["es-fise"] == {c.name: c.label.es for c in table.parameters()}
    assert shown["labels"]["es-fise"]["not_vowels"] == "no"


#: Adds a row to the table before the CLI and the service are imported, then prints what they show
#: and what they answer with it (argv: the lexicon directory, the challenge record).
NEW_ROW = """
import json, sys
from pathlib import Path
from lextools.core import conditions as table

row = table.Condition(
    "min_consonants", "number", table.Texts("Consonants, at least", "Consonantes, mínimo", "Consonnes, au moins"),
    table.Texts("Fewest consonants.", "Mínimo de consonantes.", "Nombre minimal de consonnes."), low=0, high=15,
)
table.CONDITIONS += (row,)
table.BY_NAME = {**table.BY_NAME, row.name: row}
table.NAMES += (row.name,)

from typer.testing import CliRunner
from lextools.cli.main import app as cli
from service import create_app
from tests.condition_surfaces import surfaces

home, record = Path(sys.argv[1]), Path(sys.argv[2])
shown = surfaces(home, record)
client = create_app({"LEXICONS": home, "TESTING": True, "RECORD": record}).test_client()
shown["refused"] = client.get("/v1/es-fise/search?pattern=*&lang=en&min_consonants=many").get_json()
args = ["pattern", "es-fise", "ca*", "--min-consonants", "1", "--not-min-consonants", "--json", "--lexicons", str(home)]
shown["cli_run"] = CliRunner().invoke(cli, args, catch_exceptions=False).exit_code
print(json.dumps(shown))
"""


def test_a_row_added_to_the_table_is_in_the_cli_the_api_and_the_page(lexicon_home: Path, tmp_path: Path) -> None:
    record = tmp_path / "challenges.sqlite3"
    run = [sys.executable, "-c", NEW_ROW, str(lexicon_home), str(record)]
    shown = json.loads(subprocess.run(run, capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    names = [c.name for c in table.parameters()] + ["min_consonants", "not_min_consonants"]  # a row and its "not"
    assert shown["cli"] == {"anagram": names, "pattern": names}
    assert all(got == names for got in shown["api"].values()), shown["api"]
    assert shown["page"] == names
    assert shown["labels"]["en"]["min_consonants"] == "Consonants, at least"
    assert shown["labels"]["es-fise"]["min_consonants"] == "Consonantes, mínimo"
    assert shown["labels"]["es-fise"]["not_min_consonants"] == "no"
    assert shown["refused"]["error"]["message"].startswith("min_consonants")  # checked as a whole number 0-15
    assert shown["cli_run"] == 0


def test_api_anagrams_in_probability_order_page_by_cursor(client: FlaskClient, es: Lexicon) -> None:
    got, cursor = [], None
    for _ in range(10):
        url = "/v1/es-fise/anagrams/OSAC%3F?sub=true&order=probability&limit=2&min_length=4"
        answer = client.get(url + (f"&cursor={cursor}" if cursor else "")).get_json()
        got += [w["word"] for w in answer["words"]]
        cursor = answer["next_cursor"]
        if not cursor:
            break
    assert answer["order"] == "probability" and cursor is None
    key, blanks = search.parse_rack("osac?", es)
    alpha = words(es, [m.key for m in search.anagrams(es, key, blanks, sub=True, min_length=4)])
    assert sorted(got) == sorted(alpha) and len(got) == len(alpha)
    lengths = [len(es.spell(w).tiles) for w in got]
    assert lengths == sorted(lengths)  # shorter first, as every probability order
    fives = [w for w in got if len(es.spell(w).tiles) == 4]
    assert fives == sorted(fives, key=lambda w: rank_of(es, w))  # then by rank


def test_api_card_and_cli_card_answer_the_same(client: FlaskClient, lexicon_home: Path) -> None:
    answer = client.get("/v1/es-fise/card/ama?lang=en").get_json()
    assert answer["hooks"]["front"] == ["C", "LL"] and answer["hooks"]["back"] == ["R", "S"]
    printed = CliRunner().invoke(
        cli,
        ["card", "es-fise", "ama", "--lang", "en", "--json", "--lexicons", str(lexicon_home)],
        catch_exceptions=False,
    )
    assert json.loads(printed.stdout) == answer
    assert client.get("/v1/es-fise/card/kilo").status_code == 422
    text = CliRunner().invoke(cli, ["card", "es-fise", "ama", "--lexicons", str(lexicon_home)]).stdout
    assert "ganchos: C LL AMA R S" in text  # in the edition's language unless --lang says otherwise
    text = CliRunner().invoke(cli, ["card", "es-fise", "ama", "--lang", "fr", "--lexicons", str(lexicon_home)]).stdout
    assert "rallonges : C LL AMA R S" in text and "rang de probabilité" in text


# -- the cardbox kept by sync code ----------------------------------------------------------------------------


def test_a_cardbox_kept_by_sync_code(client: FlaskClient) -> None:
    made = client.post("/v1/cardbox", json={"cardbox": CARDBOX})
    assert made.status_code == 201
    code = made.get_json()["code"]
    assert len(code) == 20 and made.get_json()["shown"].count("-") == 4  # 100 bits, in groups of four
    card = {"id": "es-fise|anagram|AEINRS", "deck": "es-fise|anagram", "question": {"id": "AEINRS"}, "box": 1, "due": 0}
    box = {**CARDBOX, "cards": [card]}
    version = {"If-Match": made.headers["ETag"]}
    assert client.put(f"/v1/cardbox/{code.lower()}", json={"cardbox": box}, headers=version).status_code == 200
    read = client.get(f"/v1/cardbox/{made.get_json()['shown']}")
    assert read.get_json()["cardbox"] == box and read.get_json()["code"] == code
    assert read.headers["ETag"] != version["If-Match"]
    assert client.get("/v1/cardbox/" + "0" * 20).get_json()["error"]["code"] == "unknown_sync_code"
    assert client.put("/v1/cardbox/" + "0" * 20, json={"cardbox": box}, headers=version).status_code == 404
    assert client.post("/v1/cardbox", json={"cardbox": {"cards": []}}).status_code == 400
    foreign = client.post("/v1/cardbox", json={"cardbox": CARDBOX}, headers={"Origin": "https://elsewhere.example"})
    assert foreign.status_code == 403
    assert made.get_json()["code"] != client.post("/v1/cardbox", json={"cardbox": CARDBOX}).get_json()["code"]


def test_the_cardbox_store_is_rate_and_size_limited(lexicon_home: Path, tmp_path: Path) -> None:
    config = {"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "CARDBOX_RATE": 3, "CARDBOX_MAX_BYTES": 400}
    client = create_app(config).test_client()
    assert (tmp_path / "cardboxes.sqlite3").exists() is False  # made by the first request, beside the record
    big = {**CARDBOX, "cards": [{"id": "x" * 500}]}  # over the bytes before it is read
    assert client.post("/v1/cardbox", json={"cardbox": big}).status_code == 413
    assert client.post("/v1/cardbox", json={"cardbox": CARDBOX}).status_code == 201
    assert client.get("/v1/cardbox/" + "1" * 20).status_code == 404
    refused = client.post("/v1/cardbox", json={"cardbox": CARDBOX})
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "too_many_syncs"
    assert (tmp_path / "cardboxes.sqlite3").exists()


def test_a_locked_cardbox_file_is_busy_at_once(lexicon_home: Path, tmp_path: Path) -> None:
    """Another program holding the file's write lock costs a request 2 s (slept in Python) and a 503."""
    client = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3"}).test_client()
    code = client.post("/v1/cardbox", json={"cardbox": CARDBOX}).get_json()["code"]
    holder = sqlite3.connect(tmp_path / "cardboxes.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        refused = client.put(f"/v1/cardbox/{code}", json={"cardbox": CARDBOX}, headers={"If-Match": "*"})
        assert refused.status_code == 503 and refused.get_json()["error"]["code"] == "busy"
        assert client.get(f"/v1/cardbox/{code}").status_code == 503  # its rate is counted in the file too
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert client.put(f"/v1/cardbox/{code}", json={"cardbox": CARDBOX}, headers={"If-Match": "*"}).status_code == 200


# -- kiosk mode: nothing of this is reachable ------------------------------------------------------------------


def test_the_kiosk_serves_no_search_card_or_sync(lexicon_home: Path, tmp_path: Path) -> None:
    kiosk = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "KIOSK": "es-fise"}).test_client()
    for path in ("/search", "/search?edition=es-fise", "/v1/es-fise/card/casa", "/v1/cardbox/" + "0" * 20,
                 "/static/search.js", "/static/card.js", "/static/lists.js", "/static/sync.js", "/static/tiles.js",
                 "/v1/es-fise/search?pattern=*&front_hook=true", "/v1/es-fise/anagrams/CASA"):  # fmt: skip
        assert kiosk.get(path).status_code == 404, path
    assert kiosk.post("/v1/cardbox", json={"cardbox": CARDBOX}).status_code == 404
    judge = kiosk.get("/judge").get_data(as_text=True)
    assert "/search" not in judge and "card.js" not in judge
    for name in ("judge.js", "common.js", "style.css"):  # what the judge page loads still loads
        assert kiosk.get(f"/static/{name}").status_code == 200, name
