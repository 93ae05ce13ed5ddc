"""Quizzes a player can pass, on the default es-fise lexicon: a stems list asks one question per
alphagram its stems make (never the stem with a blank, answered by the whole list), and no quiz asks
a question with more answers than the player's bound (20 unless asked) — the library, the API and
the command line alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app
from lextools.core.errors import QueryError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.features import lists, quiz
from service.app import create_app


@pytest.fixture(scope="module")
def fise(default_home: Path) -> Lexicon:
    return load_lexicon("es-fise", default_home)


@pytest.fixture(scope="module")
def fise_client(default_home: Path, tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    record = tmp_path_factory.mktemp("record") / "challenges.sqlite3"
    return create_app({"LEXICONS": default_home, "TESTING": True, "RECORD": record}).test_client()


def _stem_alphagrams(fise: Lexicon, stems: list[dict[str, Any]]) -> list[str]:
    """What a stems list asks, worked out from the stems themselves: each stem with each tile it
    takes, in the list's order and the edition's alphabet, each alphagram once."""
    ed = fise.edition
    out: dict[str, None] = {}
    for stem in stems:
        for tile in stem["takes"]:
            out.setdefault(quiz.rack_text(ed.decode(quiz.alphagram(ed, ed.encode([*stem["tiles"], tile])))))
    return list(out)


def test_the_six_tile_stems_list_asks_seven_tile_alphagrams_within_the_bound(fise: Lexicon) -> None:
    ed = fise.edition
    page = lists.stems(fise, 6, count=20)
    racks = [stem["rack"] for stem in page["stems"]]
    assert racks[0] == "AENORS?" and len(page["stems"][0]["words"]) > 100  # the question nobody could pass
    everything = lists.list_quiz(fise, racks=racks, max_answers=quiz.MAX_QUIZ_ANSWERS)
    asked = [q["id"] for q in everything["questions"]]
    assert asked == _stem_alphagrams(fise, page["stems"])  # the list's order, deduplicated
    assert len(asked) == len(set(asked)) > 400
    # A stem's words with one tile are every word of that alphagram: each question's answers, no more.
    words_of: dict[str, set[str]] = {}
    for stem in page["stems"]:
        for word in stem["words"]:
            words_of.setdefault(quiz.alphagram(ed, ed.encode(word["tiles"])), set()).add(word["word"])
    for q in everything["questions"]:
        assert len(q["rack"]) == 7 and "?" not in q["rack"], q["id"]
        assert {a["word"] for a in q["answers"]} == words_of[quiz.alphagram(ed, ed.encode(q["rack"]))], q["id"]
    assert max(len(q["answers"]) for q in everything["questions"]) > quiz.DEFAULT_MAX_ANSWERS

    bounded = lists.list_quiz(fise, racks=racks, lang="es")  # the default: 20
    assert bounded["max_answers"] == quiz.DEFAULT_MAX_ANSWERS == 20
    assert all(len(q["rack"]) == 7 for q in bounded["questions"])
    assert max(len(q["answers"]) for q in bounded["questions"]) <= 20
    over = [q for q in everything["questions"] if len(q["answers"]) > 20]
    assert bounded["over_max"] == len(over) > 0
    assert [q["id"] for q in bounded["questions"]] == [q["id"] for q in everything["questions"] if q not in over]
    refused = {r["text"]: r["reason"] for r in bounded["refused"]}
    assert set(refused) == {q["id"] for q in over}
    assert "ACENORS" in refused and "25 respuestas, más de 20" in refused["ACENORS"]

    asked_for = lists.list_quiz(fise, racks=racks[:3], max_answers=30)
    assert max(len(q["answers"]) for q in asked_for["questions"]) > 20  # the player asked for more
    assert all(len(q["answers"]) <= 30 for q in asked_for["questions"])
    with pytest.raises(QueryError):
        lists.list_quiz(fise, racks=racks, max_answers=0)


@pytest.mark.parametrize(("length", "blanks"), [(5, 0), (6, 0), (7, 0), (5, 1)])
def test_a_build_quiz_never_asks_over_its_bound(fise: Lexicon, length: int, blanks: int) -> None:
    count = 20 if not blanks else 12
    unbounded = quiz.quiz(
        fise, quiz.QuizRequest("build", length, blanks, count=count, max_answers=quiz.MAX_QUIZ_ANSWERS)
    )
    assert max(len(q["answers"]) for q in unbounded["questions"]) > 20  # the likeliest racks make many words
    for most in (20, 10):
        result = quiz.quiz(fise, quiz.QuizRequest("build", length, blanks, count=count, max_answers=most))
        assert result["max_answers"] == most
        assert result["questions"] or blanks, (length, blanks, most)  # a blank's racks make hundreds of words
        assert all(len(q["answers"]) <= most for q in result["questions"])
        assert result["over_max"] > 0
        # The questions asked are the likeliest of the range within the bound, in probability order.
        ranks = [q["rank"] for q in result["questions"]]
        assert ranks == sorted(ranks)
        looked_at = quiz.looked_at(quiz.QuizRequest("build", length, blanks, count=count))
        assert len(result["questions"]) + result["over_max"] <= looked_at
    seeded = quiz.QuizRequest("build", length, blanks, count=count, seed=7, rank_to=500)
    drawn = quiz.quiz(fise, seeded)
    assert drawn == quiz.quiz(fise, seeded)  # the same seed, the same quiz
    assert all(len(q["answers"]) <= 20 and q["rank"] <= 500 for q in drawn["questions"])


def test_anagram_and_hook_quizzes_keep_the_bound_and_the_others_ignore_it(fise: Lexicon) -> None:
    blanked = quiz.quiz(fise, quiz.QuizRequest("anagram", 7, 1, count=50))
    assert blanked["over_max"] > 0 and len(blanked["questions"]) == 50
    assert all(len(q["answers"]) <= 20 for q in blanked["questions"])
    hooks = quiz.quiz(fise, quiz.QuizRequest("hooks", 3, count=50, max_answers=3))
    assert all(len(q["front"]) + len(q["back"]) <= 3 for q in hooks["questions"])
    listed = quiz.quiz(fise, quiz.QuizRequest("list", list_name="two-tile", count=10))
    assert listed["max_answers"] is None and listed["over_max"] == 0 and listed["count"] == 10


def test_the_api_and_the_cli_take_the_same_bound(fise_client: FlaskClient, default_home: Path) -> None:
    runner = CliRunner()
    url = "/v1/es-fise/quiz?type=build&length=7&count=5&max_answers=12"
    args = ["quiz", "es-fise", "--type", "build", "--length", "7", "--count", "5", "--max-answers", "12"]
    r = fise_client.get(url)
    assert r.status_code == 200, r.json
    assert r.json["max_answers"] == 12 and all(len(q["answers"]) <= 12 for q in r.json["questions"])
    cli = runner.invoke(app, [*args, "--min-length", "5", "--json", "-L", str(default_home)], catch_exceptions=False)
    assert cli.exit_code == 0, cli.output
    assert json.loads(cli.stdout) == r.json
    assert fise_client.get("/v1/es-fise/quiz?type=build&max_answers=0").status_code == 400

    stems = fise_client.get("/v1/es-fise/lists/stems?length=6&count=2").json["stems"]
    racks = [stem["rack"] for stem in stems]
    posted = fise_client.post("/v1/es-fise/lists/quiz", json={"racks": racks})
    assert posted.status_code == 200 and posted.json["max_answers"] == 20
    assert all(len(q["rack"]) == 7 and len(q["answers"]) <= 20 for q in posted.json["questions"])
    more = fise_client.post("/v1/es-fise/lists/quiz?max_answers=40", json={"racks": racks}).json
    assert more["count"] > posted.json["count"] and more["over_max"] < posted.json["over_max"]
