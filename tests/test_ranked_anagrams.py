"""Anagrams in probability order: while the whole ranked list of a query is still being made in the
background, a page is made by reading the lexicon's ranking file in order — the same answers at the
same positions, so a page is not empty for want of the list, and pages of either kind continue each
other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.core import background
from lextools.core.budget import Budget
from lextools.core.conditions import conditions
from lextools.core.errors import PositionError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.ranking import ranks_of
from lextools.core.search import Match, parse_rack
from lextools.core.search.anagrams_by_probability import ranked_anagrams
from service import create_app
from tests.test_budget import Ticks

#: The API's largest rack (15 tiles, 2 of them blanks), subanagrams.
LARGE = "AEIOSRNLTCDUM??"


def never_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole ranked list is never ready: every page is made from the ranking."""
    monkeypatch.setattr(background, "result", lambda *args, **kwargs: None)


def paged(lex: Lexicon, query: tuple[Any, ...], budget_of: Any, after: str | None = None) -> list[Match]:
    """Every page of a ranked anagram query from ``after`` on, each with a fresh budget."""
    out: list[Match] = []
    for _ in range(1000):
        budget = budget_of()
        out += ranked_anagrams(*query, budget=budget, after=after)
        if budget.resume is None:
            return out
        after = budget.resume
    raise AssertionError("the pages make no progress")


@pytest.mark.parametrize(
    ("home", "edition", "rack", "sub", "given"),
    [
        ("lexicon_home", "es-fise", "OSAC?", True, {}),
        ("lexicon_home", "es-fise", "CALLES??", True, {"includes": "A", "max_rank": 60}),
        ("default_home", "es-fise", "ARBOL??", False, {"ends": "S"}),
        ("lexicon_home", "es-mattel2021", "AMOR??", True, {"includes": "R"}),  # counts unverified: the alphabet's order
    ],
)
def test_pages_made_from_the_ranking_continue_the_whole_list(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    home: str,
    edition: str,
    rack: str,
    sub: bool,
    given: dict[str, Any],
) -> None:
    lex = load_lexicon(edition, request.getfixturevalue(home))
    key, blanks = parse_rack(rack, lex)
    query = (lex, key, blanks, sub, 2, conditions(lex, **given))
    whole = ranked_anagrams(*query)  # waits for the whole list
    assert len(whole) > 4
    with monkeypatch.context() as mp:
        never_ready(mp)
        budget = Budget(results=3)
        first = ranked_anagrams(*query, budget=budget)
        assert first == whole[:3]
        # made from the ranking to the end: by words, and by a time budget that ends after each chunk
        assert paged(lex, query, lambda: Budget(results=2)) == whole
        assert paged(lex, query, lambda: Budget(seconds=2, clock=Ticks())) == whole
    assert first + ranked_anagrams(*query, after=budget.resume) == whole  # page 2 from the finished list
    from_list = Budget(results=3)
    assert ranked_anagrams(*query, budget=from_list) == whole[:3]
    assert from_list.resume == budget.resume  # the same position, whichever made the page
    with monkeypatch.context() as mp:
        never_ready(mp)
        assert paged(lex, query, lambda: Budget(results=4), after="2") == whole[3:]  # a position without its index


def test_a_position_that_was_never_given_out_is_refused(es: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    never_ready(monkeypatch)
    ranks = ranks_of(es)
    assert ranks is not None
    for after in ("x", "1.", "1.2.3", "-1", f".{len(ranks)}", "١"):
        with pytest.raises(PositionError):
            ranked_anagrams(es, "ACOS", 1, True, 2, after=after)


def test_the_largest_rack_has_a_first_page_in_the_api_and_the_cli(
    default_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifteen tiles with two blanks take seconds to put in order: with the service's page budget
    the first page is made from the ranking, shorter words first, and the CLI prints the same."""
    never_ready(monkeypatch)
    client = create_app({"LEXICONS": default_home, "TESTING": True, "RECORD": tmp_path / "r.sqlite3"}).test_client()
    rack = LARGE.replace("?", "%3F")
    answer = client.get(f"/v1/es-fise/anagrams/{rack}?sub=true&order=probability").get_json()
    words = [w["word"] for w in answer["words"]]
    assert words and answer["next_cursor"] and answer["order"] == "probability"
    lengths = [len(w["tiles"]) for w in answer["words"]]
    assert lengths == sorted(lengths)
    more = client.get(f"/v1/es-fise/anagrams/{rack}?sub=true&order=probability&cursor={answer['next_cursor']}")
    assert not set(words) & {w["word"] for w in more.get_json()["words"]}
    args = ["anagram", "es-fise", LARGE, "--sub", "--order", "probability", "--limit", "100", "--json"]
    printed = CliRunner().invoke(cli, [*args, "--lexicons", str(default_home)], catch_exceptions=False)
    assert [w["word"] for w in json.loads(printed.stdout)["words"]][: len(words)] == words
