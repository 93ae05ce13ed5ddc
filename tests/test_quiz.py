"""The quiz generator on the small es-fise lexicon: answers against brute force over every key,
probability ranks against a count of every draw from the physical bag, and the CLI and the
service giving the same JSON for the same seed."""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app, main
from lextools.core.edition import Edition, load_edition
from lextools.core.errors import QueryError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.probability import draw_count
from lextools.core.spelling import spell
from lextools.features.quiz import (
    PHONY_MIN_TRIGRAM,
    QuizRequest,
    build_min_length,
    keys_of_length,
    list_names,
    quiz,
    ranked_alphagrams,
)
from lextools.features.quiz import make as quiz_module
from service.app import create_app


def all_keys(lex: Lexicon) -> list[str]:
    return list(lex.keys())


# -- probability ------------------------------------------------------------------------------------


@cache
def draws_by_multiset(edition: Edition, size: int) -> Counter[tuple[str, ...]]:
    """Every draw of ``size`` physical tiles from the full bag, tallied by the multiset drawn (? = blank)."""
    bag = [t.label for t in edition.tiles for _ in range(t.count or 0)] + ["?"] * (edition.blanks or 0)
    assert len(bag) == edition.total_tiles
    tally: Counter[tuple[str, ...]] = Counter()
    for draw in combinations(range(len(bag)), size):
        tally[tuple(sorted(bag[i] for i in draw))] += 1
    return tally


def brute_ways(tally: Counter[tuple[str, ...]], tiles: tuple[str, ...], blanks: int) -> int:
    """Draws that give these tiles, each blank standing for a missing tile, at most ``blanks`` blanks."""
    wanted = Counter(tiles)
    total = 0
    for drawn, ways in tally.items():
        real = Counter(t for t in drawn if t != "?")
        used = len(drawn) - sum(real.values())
        if used <= blanks and not real - wanted:
            total += ways
    return total


def test_quiz_lists_come_from_the_ranking_file_and_let_go_of_its_pages(es: Lexicon) -> None:
    """The keys of a length, read from the ranking file, are the lexicon's in the order quizzes have
    always drawn phonies' neighbours from (the alphabet up to 5 tiles, the keys' own order beyond), so a
    seed gives the same quiz; a quiz is the same after the lexicon lets go of its files' pages."""
    ed = es.edition
    for size in range(2, 9):
        keys = [k for k in all_keys(es) if len(k) == size]
        assert list(keys_of_length(es, size)) == (sorted(keys, key=ed.collation_key) if size <= 5 else keys)
    asked = QuizRequest("word-or-phony", 5, seed=3)
    before = quiz(es, asked)
    es.release_pages()
    assert quiz(es, asked) == before


@pytest.mark.parametrize("size", [2, 3])
def test_probability_ranks_match_a_count_of_every_draw(es: Lexicon, size: int) -> None:
    ed = es.edition
    tally = draws_by_multiset(ed, size)
    for blanks in (0, 1, 2):
        ranked = ranked_alphagrams(es, size, blanks)
        assert ranked, "the small lexicon has words of this length"
        expected = sorted(
            ({"".join(sorted(k, key=ed.collation_key)) for k in all_keys(es) if len(k) == size}),
            key=lambda a: (-brute_ways(tally, ed.decode(a), blanks), ed.collation_key(a)),
        )
        assert list(ranked) == expected
        for key in ranked:
            assert draw_count(ed, ed.decode(key), blanks) == brute_ways(tally, ed.decode(key), blanks)
        if blanks < size:  # the quiz reports these ranks and counts (a rack keeps at least one tile)
            for q in quiz(es, QuizRequest("anagram", size, blanks, count=100))["questions"]:
                key = ranked[q["rank"] - 1]
                assert q["ways"] == brute_ways(tally, ed.decode(key), blanks)
                assert Counter(t for t in q["rack"] if t != "?") <= Counter(ed.decode(key))


def test_draw_count_of_any_three_tiles_matches_a_count_of_every_draw() -> None:
    """Not only words: tiles the bag holds fewer of than asked (Z Z A needs a blank), digraph tiles, repeats."""
    fise = load_edition("es-fise")
    tally = draws_by_multiset(fise, 3)
    labels = sorted(t.label for t in fise.tiles)
    rng = random.Random(16)
    racks = [("Z", "Z", "A"), ("CH", "CH", "LL"), ("E", "E", "E"), ("Ñ", "RR", "X")]
    racks += [tuple(sorted(rng.choices(labels, k=3))) for _ in range(40)]
    for rack in racks:
        for blanks in (0, 1, 2):
            assert draw_count(fise, rack, blanks) == brute_ways(tally, rack, blanks), (rack, blanks)
    assert draw_count(fise, ("Z", "Z", "A"), 0) == 0 < draw_count(fise, ("Z", "Z", "A"), 1)


def test_draw_count_without_blanks_is_the_editions_probability() -> None:
    fise = load_edition("es-fise")
    casa = ("C", "A", "S", "A")
    assert draw_count(fise, casa, 0) == fise.probability(casa) == 4 * 66 * 6
    # one blank: CASA as it is, or with a blank for C, for one A or for S (2 blanks in the bag)
    assert draw_count(fise, casa, 1) == 4 * 66 * 6 + 2 * (66 * 6 + 4 * 12 * 6 + 4 * 66)
    with pytest.raises(QueryError):
        draw_count(load_edition("es-mattel2021"), ("C", "A"), 0)


# -- answers ----------------------------------------------------------------------------------------


def fits(word: str, rack: Counter[str], blanks: int) -> bool:
    """The word's tiles are the rack's, but for at most ``blanks`` of them."""
    return sum((Counter(word) - rack).values()) <= blanks


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_anagram_answers_are_exactly_the_lexicons(es: Lexicon, blanks: int) -> None:
    ed = es.edition
    for length in (3, 4, 5):
        result = quiz(es, QuizRequest("anagram", length, blanks, count=100))
        assert result["count"] > 0
        for q in result["questions"]:
            assert q["rack"].count("?") == blanks and len(q["rack"]) == length
            rack = Counter(ed.encode(t for t in q["rack"] if t != "?"))
            expected = {k for k in all_keys(es) if len(k) == length and fits(k, rack, blanks) and not rack - Counter(k)}
            assert {ed.encode(a["tiles"]) for a in q["answers"]} == expected, q["id"]


def test_build_answers_are_every_word_the_rack_makes(es: Lexicon) -> None:
    ed = es.edition
    result = quiz(es, QuizRequest("build", 5, 1, count=20, min_length=3))
    for q in result["questions"]:
        rack = Counter(ed.encode(t for t in q["rack"] if t != "?"))
        expected = {k for k in all_keys(es) if 3 <= len(k) <= 5 and fits(k, rack, 1)}
        assert {ed.encode(a["tiles"]) for a in q["answers"]} == expected, q["id"]


def test_hook_answers_are_every_tile_that_makes_a_word(es: Lexicon) -> None:
    ed = es.edition
    keys = set(all_keys(es))
    result = quiz(es, QuizRequest("hooks", 3, count=100))
    assert result["count"] == len([k for k in keys if len(k) == 3])
    assert any(q["front"] for q in result["questions"]), "ARRO-like front hooks exist in the small list"
    for q in result["questions"]:
        key = ed.encode(q["tiles"])
        assert q["front"] == ed.sort_labels(t.label for t in ed.tiles if t.code + key in keys)
        assert q["back"] == ed.sort_labels(t.label for t in ed.tiles if key + t.code in keys)


def one_edit_apart(a: str, b: str) -> bool:
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def test_phonies_are_never_valid_and_words_always_are(es: Lexicon) -> None:
    ed = es.edition
    kinds = Counter()
    for seed in range(12):
        result = quiz(es, QuizRequest("word-or-phony", 4, count=20, seed=seed))
        for q in result["questions"]:
            key = ed.encode(q["tiles"])
            assert len(key) == 4 and q["word"] == ed.spelling(key)
            assert spell(q["word"], ed).key == key  # spellable as shown: no C+H standing for CH
            if q["valid"]:
                assert key in es and q["from"] is None
            else:
                assert key not in es
                base = spell(q["from"], ed).key
                assert base in es and one_edit_apart(key, base)
            kinds[q["valid"]] += 1
    assert kinds[True] and kinds[False]


def test_es_fise_phonies_are_made_of_common_runs_of_three_tiles(
    default_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The measure of a plausible phony, on the default es-fise lexicon: every run of three tiles in
    it occurs at least PHONY_MIN_TRIGRAM times among the edition's valid words (the phonies of an
    edit-only generator failed it 27 times in 95: UNOOS, MMISS, HIUYE)."""
    monkeypatch.setenv("LEXTOOLS_READER", "dawg2")  # whichever reader the session's last test chose
    fise = load_lexicon("es-fise", default_home)
    ed = fise.edition
    phonies = []
    for length in (5, 6, 7, 8):
        for seed in (1, 2):
            result = quiz(fise, QuizRequest("word-or-phony", length, count=12, seed=seed))
            phonies += [ed.encode(q["tiles"]) for q in result["questions"] if not q["valid"]]
    assert len(phonies) >= 40
    words = "\n".join(fise)  # one run of three never spans two words
    runs = {key[i : i + 3] for key in phonies for i in range(len(key) - 2)}
    rare = {ed.spelling(run): words.count(run) for run in runs if words.count(run) < PHONY_MIN_TRIGRAM}
    assert not rare, rare
    assert not any(key in fise for key in phonies)


def test_the_build_quiz_asks_for_the_longer_words_by_default(es: Lexicon) -> None:
    assert [build_min_length(n) for n in (2, 3, 4, 5, 6, 7, 8)] == [2, 3, 4, 4, 4, 5, 6]
    result = quiz(es, QuizRequest("build", 6, count=5))
    assert result["min_length"] == 4
    assert all(len(a["tiles"]) >= 4 for q in result["questions"] for a in q["answers"])
    assert quiz(es, QuizRequest("build", 6, count=1, min_length=2))["min_length"] == 2  # asked for: kept


# -- choosing the questions ----------------------------------------------------------------------


def test_same_seed_same_quiz_and_ranges(es: Lexicon) -> None:
    for kind in ("anagram", "build", "hooks", "word-or-phony"):
        one = quiz(es, QuizRequest(kind, 4, 1, count=3, seed=11))
        assert one == quiz(es, QuizRequest(kind, 4, 1, count=3, seed=11))
    first = quiz(es, QuizRequest("anagram", 4, count=3))
    assert [q["rank"] for q in first["questions"]] == [1, 2, 3]
    ranged = quiz(es, QuizRequest("anagram", 4, rank_from=2, rank_to=4, count=100, seed=3))
    assert sorted(q["rank"] for q in ranged["questions"]) == [2, 3, 4]
    assert [q["rank"] for q in ranged["questions"]] == [2, 3, 4]  # probability order
    alpha = quiz(es, QuizRequest("anagram", 4, rank_from=2, rank_to=4, count=100, order="alphabetical"))
    ids = [es.edition.encode(q["rack"]) for q in alpha["questions"]]
    assert ids == es.edition.sort_keys(ids)


def test_lists_follow_the_editions_alphabet_and_show_tiles(es: Lexicon) -> None:
    ed = es.edition
    assert list_names(ed) == ["two-tile", "three-tile", "high-value", "with-CH", "with-LL", "with-Ñ", "with-RR"]
    two = quiz(es, QuizRequest("list", list_name="two-tile", order="alphabetical", count=100))
    words = [q["word"] for q in two["questions"]]
    assert words == [ed.spelling(k) for k in ed.sort_keys(k for k in all_keys(es) if len(k) == 2)]
    assert words.index("AS") < words.index("CHA") < words.index("CHO") < words.index("DA")
    assert words.index("LO") < words.index("LLE")
    assert next(q for q in two["questions"] if q["word"] == "CHA")["tiles"] == ["CH", "A"]
    enye = quiz(es, QuizRequest("list", 3, list_name="with-Ñ", count=100))
    assert {q["word"] for q in enye["questions"]} == {"AÑO"}
    assert quiz(es, QuizRequest("list", 3, list_name="with-n\u0303", count=100)) == enye  # ñ, decomposed
    ch = quiz(es, QuizRequest("list", 4, list_name="with-1", count=100))  # FISE's digit for CH
    assert ch["list"] == "with-CH" and {q["word"] for q in ch["questions"]} == {
        "CHAPA",
        "HECHO",
        "TECHO",
        "LECHO",
        "LECHE",
    }
    with pytest.raises(QueryError):
        quiz(es, QuizRequest("list", 4, list_name="two-tile"))


def test_unverified_counts_rank_alphabetically(lexicon_home: Path) -> None:
    mattel = load_lexicon("es-mattel2021", lexicon_home)
    with pytest.raises(QueryError, match="unverified"):
        quiz(mattel, QuizRequest("anagram", 4))
    result = quiz(mattel, QuizRequest("anagram", 4, order="alphabetical", count=100))
    assert result["ranked_by"] == "alphabetical"
    assert all(q["ways"] is None for q in result["questions"])


# -- the service and the command line give the same quiz --------------------------------------------


def test_api_and_cli_give_the_same_questions(client: FlaskClient, lexicon_home: Path) -> None:
    runner = CliRunner()
    for kind, extra in (("anagram", []), ("hooks", []), ("word-or-phony", []), ("list", ["with-CH"])):
        url = f"/v1/es-fise/quiz?type={kind}&length=4&blanks=1&count=4&seed=5"
        args = ["quiz", "es-fise", "--type", kind, "--length", "4", "--blanks", "1", "--count", "4", "--seed", "5"]
        if extra:
            url += f"&list={extra[0]}"
            args += ["--list", extra[0]]
        r = client.get(url)
        assert r.status_code == 200, r.json
        cli = runner.invoke(app, [*args, "--json", "--lexicons", str(lexicon_home)], catch_exceptions=False)
        assert cli.exit_code == 0, cli.output
        assert json.loads(cli.stdout) == r.json


def test_cli_prints_a_readable_quiz(lexicon_home: Path) -> None:
    runner = CliRunner()
    args = ["quiz", "es-fise", "--length", "3", "--count", "3", "-L", str(lexicon_home)]
    hooks = runner.invoke(app, [*args, "--type", "hooks"], catch_exceptions=False)
    assert hooks.exit_code == 0 and len(hooks.stdout.splitlines()) == 3
    assert "LL [A·M·O]" in hooks.stdout  # LLAMO: the LL tile hooks AMO in front
    anagram = runner.invoke(app, [*args, "--type", "anagram"], catch_exceptions=False).stdout.splitlines()
    assert anagram[0].startswith("#1 ") and len(anagram) == 3


@pytest.mark.parametrize(
    "query",
    [
        "type=riddle",
        "count=0",
        "count=101",
        "blanks=3",
        "length=1",
        "from=0",
        "from=5&to=2",
        "seed=-1",
        "type=list&list=nope",
        "type=anagram&list=two-tile",
        "order=random",
        "type=build&length=4&min_length=5",
        "type=build&length=9",
        "type=build&count=21",
    ],
)
def test_bad_quiz_requests_are_400(client: FlaskClient, query: str) -> None:
    r = client.get(f"/v1/es-fise/quiz?{query}")
    assert r.status_code == 400 and r.json["error"]["message"]


def test_cli_refuses_a_bad_quiz_with_exit_code_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lexicon_home: Path
) -> None:
    argv = ["lextools", "quiz", "es-fise", "--type", "list", "--list", "nope", "-L", str(lexicon_home)]
    monkeypatch.setattr("sys.argv", argv)
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code == 2
    assert "list must be one of two-tile" in capsys.readouterr().err


def test_every_quiz_answer_matches_the_openapi_document(client: FlaskClient) -> None:
    """The documented shape is the one sent, for every quiz type (openapi-spec-validator's schema checker)."""
    from openapi_schema_validator import OAS30Validator

    doc = client.get("/v1/openapi.json").json
    schema = doc["paths"]["/v1/{edition}/quiz"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    validator = OAS30Validator({**schema, "components": doc["components"]})  # so #/components/… resolves
    for query in (
        "type=anagram&length=4&blanks=1",
        "type=build&length=4",
        "type=hooks&length=3",
        "type=word-or-phony&length=4&seed=2",
        "type=list&list=two-tile&order=alphabetical",
    ):
        r = client.get(f"/v1/es-fise/quiz?{query}")
        assert r.status_code == 200 and r.json["count"] > 0, query
        validator.validate(r.json)


def test_quiz_errors_come_in_the_language_asked(client: FlaskClient) -> None:
    spanish = client.get("/v1/es-fise/quiz?type=list&list=nope").json["error"]["message"]
    assert spanish.startswith("list debe ser uno de: two-tile, three-tile")
    french = client.get("/v1/es-fise/quiz?type=build&length=8&count=30&lang=fr").json["error"]["message"]
    assert "chevalets de 8 jetons au plus" in french
    english = client.get("/v1/es-fise/quiz?blanks=2&length=2&lang=en").json["error"]["message"]
    assert english == "blanks must be between 0 and 2, and fewer than the tiles"


def test_a_quiz_over_its_size_is_refused_alike_by_the_api_and_the_cli(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lexicon_home: Path
) -> None:
    """Issue 23: 8 tiles with 2 blanks and 20 questions made 100,000 answers (8 MB); 100 words of 15 tiles, 12 s."""
    for query in ("type=build&length=8&blanks=2&count=20", "type=word-or-phony&length=15&count=100"):
        r = client.get(f"/v1/es-fise/quiz?{query}&lang=en")
        assert r.status_code == 400 and r.json["error"]["code"] == "quiz_too_large", query
        assert r.json["error"]["message"].startswith("a quiz holds at most 800 tiles")
    assert client.get("/v1/es-fise/quiz?type=build&length=8&blanks=1&count=12&seed=1").status_code == 200
    argv = ["lextools", "quiz", "es-fise", "--type", "build", "--length", "8", "--blanks", "2", "--count", "20"]
    monkeypatch.setattr("sys.argv", [*argv, "-L", str(lexicon_home)])
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code == 2 and "at most 800 tiles" in capsys.readouterr().err


def test_a_quiz_not_made_within_its_budget_is_503_busy_and_made_for_the_next_ask(
    lexicon_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The quiz is held until the first answer has gone: on a small lexicon it could otherwise be made
    # within the first wait, however short.
    made, answered = quiz_module._quiz, threading.Event()
    monkeypatch.setattr(quiz_module, "_quiz", lambda lex, req: answered.wait(30) and made(lex, req))
    url = "/v1/en/quiz?type=word-or-phony&length=5&count=20&seed=424242"
    hurried = create_app({"LEXICONS": lexicon_home, "TESTING": True, "QUIZ_BUDGET_MS": 0}).test_client()
    r = hurried.get(url)
    answered.set()
    assert r.status_code == 503 and r.json["error"]["code"] == "busy" and r.headers["Retry-After"] == "2"
    assert "ask again" in r.json["error"]["message"]
    patient = create_app({"LEXICONS": lexicon_home, "TESTING": True}).test_client()
    assert patient.get(url).json["count"] > 0
