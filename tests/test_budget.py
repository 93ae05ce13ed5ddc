"""Work budgets: every walk stops at its budget and resumes where it stopped, never redoing a page."""

from __future__ import annotations

import itertools
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lextools.core import budget
from lextools.core.budget import Budget
from lextools.core.conditions import conditions
from lextools.core.errors import PositionError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.ranking import ranks_of
from lextools.core.search import anagrams, find, parse_rack
from lextools.core.search.patterns_by_probability import probability_pages
from tests.conftest import build_small


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """Some 7,000 es-fise words of two to four syllables: enough for a walk to span many budgets."""
    syllables = ["ca", "cha", "lla", "rro", "ma", "ñu", "so", "te", "pi", "zu", "le", "do", "ba", "ne", "ri"]
    words = ["".join(p) for n in (2, 3) for p in itertools.product(syllables, repeat=n)]
    words += ["".join(p) for p in itertools.product(syllables[:8], repeat=4)]
    home = tmp_path_factory.mktemp("big")
    build_small(home, "es-fise", words)
    return load_lexicon("es-fise", home)


class Ticks:
    """A clock that advances one unit per look, so a time budget ends after a known number of looks."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def pages(walk, budget_of) -> tuple[list, int]:  # type: ignore[no-untyped-def]
    """Everything a walk yields page by page (each page a fresh budget), and how many pages it took."""
    out, after, count = [], None, 0
    while True:
        budget = budget_of()
        out += walk(budget, after)
        count += 1
        if not budget.truncated:
            return out, count
        assert budget.resume is not None
        after = budget.resume
        assert count < 10_000, "the walk makes no progress"


@pytest.mark.parametrize("pattern", ["*", "C*", "*A*S", "??*", "CH?*O"])
@pytest.mark.parametrize("limit", [1, 3, 7])
def test_search_pages_by_result_limit_add_up_to_the_whole(es: Lexicon, pattern: str, limit: int) -> None:
    whole = list(find(es, pattern=pattern))
    paged, count = pages(lambda b, a: list(find(es, pattern=pattern, budget=b, after=a)), lambda: Budget(results=limit))
    assert paged == whole
    assert count >= len(whole) // limit


@pytest.mark.parametrize("order", ["alpha", "probability"])
@pytest.mark.parametrize("ticks", [1, 2, 5])
def test_search_pages_by_time_budget_add_up_to_the_whole(big: Lexicon, order: str, ticks: int) -> None:
    """A tiny time budget stops the walk every few dozen steps; pages still add up, in order."""
    ranks_of(big)  # checked, so probability pages are not waiting for it
    whole = list(find(big, pattern="*A*", order=order))

    def budget() -> Budget:
        return Budget(seconds=ticks, clock=Ticks())

    paged, count = pages(lambda b, a: list(find(big, pattern="*A*", order=order, budget=b, after=a)), budget)
    assert paged == whole and count > 10


@pytest.mark.parametrize("pattern", ["*A*", "CH*", "?*LLA", "*ÑU*"])
def test_probability_pages_by_time_add_up_and_stop_on_time(big: Lexicon, pattern: str) -> None:
    """A page stops when its time is up wherever it is (a bound on work, not only on answers): a page
    may be empty, with a position to go on from, and the pages still add up to the whole, in order."""
    ranks_of(big)
    whole = list(find(big, pattern=pattern, order="probability"))
    assert whole and [len(k) for k in whole] == sorted(len(k) for k in whole)

    def walk(b: Budget, a: str | None) -> list[str]:
        return list(find(big, pattern=pattern, order="probability", budget=b, after=a))

    paged, count = pages(walk, lambda: Budget(seconds=2, clock=Ticks()))  # two looks at the clock: CH* takes pages
    assert paged == whole and count > 1


def test_a_probability_scan_that_matches_nothing_reads_a_bounded_part_a_page(big: Lexicon) -> None:
    """Issue 33, row 4 (``pattern=*&order=probability&min_anagrams=1000``): a page that finds nothing
    stops at its budget after a few chunks of the ranking, empty, with a position; its pages read
    every key once between them, none twice."""
    ranks = ranks_of(big)
    read: list[str] = []

    def nothing(key: str) -> bool:
        read.append(key)
        return False

    after, sizes = None, []
    while True:
        budget = Budget(seconds=3, clock=Ticks())
        before = len(read)
        assert probability_pages(big, ["*"], "", None, nothing, budget, after) == []
        sizes.append(len(read) - before)
        if budget.resume is None:
            break
        after = budget.resume
    assert max(sizes) <= 3 * 64 and len(sizes) > 10  # three looks at the clock a page: three chunks at most
    assert sorted(read) == sorted(k for n in range(1, 16) for k in ranks.keys(n))


@pytest.mark.parametrize("pattern", ["*", "CH*"])
@pytest.mark.parametrize("given", [{"min_anagrams": 1000}, {"max_score": 1}])
def test_conditions_nothing_meets_end_a_page_at_its_budget(big: Lexicon, pattern: str, given: dict) -> None:  # type: ignore[type-arg]
    """The scanned (``*``) and the walked (``CH*``) probability search alike: an empty page, truncated."""
    ranks_of(big)
    budget = Budget(seconds=3, clock=Ticks())
    cond = conditions(big, **given)
    assert list(find(big, pattern=pattern, order="probability", budget=budget, conditions=cond)) == []
    assert budget.truncated


@pytest.mark.parametrize(("rack", "sub", "min_length"), [("ACOS", False, 2), ("ACOS?", True, 2), ("CALLE??", True, 1)])
@pytest.mark.parametrize("limit", [1, 4])
def test_anagram_pages_add_up_to_the_whole(es: Lexicon, rack: str, sub: bool, min_length: int, limit: int) -> None:
    key, blanks = parse_rack(rack, es)
    whole = anagrams(es, key, blanks, sub=sub, min_length=min_length)
    assert [len(m.key) for m in whole] == sorted((len(m.key) for m in whole), reverse=True)  # longest first

    def walk(b: Budget, a: str | None) -> list:  # type: ignore[type-arg]
        return anagrams(es, key, blanks, sub=sub, min_length=min_length, budget=b, after=a)

    assert pages(walk, lambda: Budget(results=limit))[0] == whole
    assert pages(walk, lambda: Budget(seconds=1, clock=Ticks()))[0] == whole


def test_big_anagram_walks_page_by_time(big: Lexicon) -> None:
    key, blanks = parse_rack("CALLEMASO??", big)
    whole = anagrams(big, key, blanks, sub=True, min_length=1)

    def walk(b: Budget, a: str | None) -> list:  # type: ignore[type-arg]
        return anagrams(big, key, blanks, sub=True, min_length=1, budget=b, after=a)

    paged, count = pages(walk, lambda: Budget(seconds=1, clock=Ticks()))
    assert paged == whole and count > 10


def test_a_resumed_walk_does_not_redo_earlier_pages(big: Lexicon) -> None:
    """Resuming from the last key of the list costs a path down the DAWG, not a walk of all before it."""
    everything = list(find(big))
    full = Budget()
    list(find(big, budget=full))
    resumed = Budget()
    assert list(find(big, budget=resumed, after=everything[-2])) == everything[-1:]
    assert resumed._steps < full._steps / 100


@pytest.mark.parametrize("after", ["x", "-1", "99999999", "²"])
def test_a_probability_position_that_was_never_given_out_is_refused(es: Lexicon, after: str) -> None:
    with pytest.raises(PositionError):
        find(es, order="probability", after=after)


@pytest.mark.parametrize("after", ["", "x", "2 AB", "99 A ", "3 CBA ", "2 A\u00e9 "])
def test_an_anagram_position_that_was_never_given_out_is_refused(es: Lexicon, after: str) -> None:
    with pytest.raises(PositionError):
        anagrams(es, "ACOS", after=after or " ")


def test_probability_ranking_is_shorter_first_then_likeliest(es: Lexicon) -> None:
    """Zyzzyva's order: by length in tiles, then most ways to draw the tiles, ties in the alphabet."""
    ed = es.edition
    ranks = ranks_of(es)
    assert ranks is not None
    ranking = [k for n in range(16) for k in ranks.keys(n)]
    assert sorted(ranking) == sorted(es)
    assert [len(k) for k in ranking] == sorted(len(k) for k in ranking)
    for n, words in itertools.groupby(ranking, key=len):
        keys = list(words)
        ways = [ed.probability(ed.decode(k)) for k in keys]
        assert ways == sorted(ways, reverse=True), n
        for w, group in itertools.groupby(keys, key=lambda k: ed.probability(ed.decode(k))):
            tied = list(group)
            assert tied == ed.sort_keys(tied), w  # ties in the edition's alphabet


@given(
    pattern=st.text(alphabet="ACELOS?*", min_size=1, max_size=6),
    limit=st.integers(min_value=1, max_value=9),
    ticks=st.integers(min_value=1, max_value=4),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_pattern_pages_add_up(big: Lexicon, pattern: str, limit: int, ticks: int) -> None:
    whole = list(find(big, pattern=pattern))
    paged, _ = pages(
        lambda b, a: list(find(big, pattern=pattern, budget=b, after=a)),
        lambda: Budget(seconds=ticks, results=limit, clock=Ticks()),
    )
    assert paged == whole


def test_a_pause_sleeps_only_under_gevent(monkeypatch: pytest.MonkeyPatch) -> None:
    """gevent needs a timer to turn its loop; elsewhere a sleep, even of 0, only slows the walk down
    (on a busy machine, ``sleep(0)`` gives the CPU away to other processes)."""
    slept: list[float] = []
    monkeypatch.setattr(budget.time, "sleep", slept.append)
    monkeypatch.delitem(sys.modules, "gevent.monkey", raising=False)
    budget.pause()

    class PatchedTime:
        @staticmethod
        def is_module_patched(name: str) -> bool:
            return name == "time"

    monkeypatch.setitem(sys.modules, "gevent.monkey", PatchedTime())
    budget.pause()
    assert slept == [budget.PAUSE_SLEEP]
