"""Work done once in the background and kept with its lexicon: the probability ranking and the
sorted answers of an anagram query, which a page waits for at most its budget."""

from __future__ import annotations

import threading
from collections import OrderedDict

import pytest

from lextools.core import background, search
from lextools.core.budget import Budget
from lextools.core.lexicon import Lexicon
from lextools.core.search import anagram_pages as anagram_search


def test_a_result_is_computed_once_and_not_waited_for_past_the_deadline(es: Lexicon) -> None:
    release, calls = threading.Event(), []

    def compute() -> str:
        calls.append(1)
        release.wait(10)
        return "done"

    key = ("test", "slow")
    assert background.result(es, key, compute, wait=0) is None  # not ready: the caller answers "nothing yet"
    assert background.result(es, key, compute, wait=0) is None
    release.set()
    assert background.result(es, key, compute, wait=None) == "done"
    assert background.result(es, key, compute, wait=0) == "done"
    assert calls == [1]


def test_an_error_reaches_every_caller(es: Lexicon) -> None:
    def compute() -> None:
        raise ValueError("broken")

    for _ in range(2):
        with pytest.raises(ValueError, match="broken"):
            background.result(es, ("test", "error"), compute, wait=None)


def test_in_caller_a_result_waited_for_is_computed_in_the_calling_thread(es: Lexicon) -> None:
    """The command line's way (lextools.cli.study): no thread started, the result kept all the same;
    a caller with a deadline, or outside ``in_caller``, still has it computed in a thread."""
    threads: list[threading.Thread] = []

    def compute() -> str:
        threads.append(threading.current_thread())
        return "done"

    with background.in_caller():
        assert background.result(es, ("test", "here"), compute, wait=None) == "done"
        assert background.result(es, ("test", "here"), compute, wait=None) == "done"  # kept
        assert background.result(es, ("test", "deadline"), compute, wait=5) == "done"
    assert background.result(es, ("test", "outside"), compute, wait=None) == "done"
    assert threads[0] is threading.current_thread() and len(threads) == 3
    assert all(t is not threading.current_thread() for t in threads[1:])


def pages_of(es: Lexicon, rack: str, blanks: int) -> list[search.Match]:
    """Every page of three subanagrams of the rack, each page from where the last one stopped."""
    pages: list[search.Match] = []
    after = None
    while True:
        budget = Budget(results=3)
        pages += search.anagrams(es, rack, blanks, sub=True, min_length=2, budget=budget, after=after)
        if budget.resume is None:
            return pages
        after = budget.resume


def test_anagram_pages_walk_the_rack_once(es: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    walks = []
    real = anagram_search._matches

    def counted(*args: object) -> list[search.Match]:
        walks.append(args[1])
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(anagram_search, "_matches", counted)
    monkeypatch.setitem(background._jobs, es, OrderedDict())  # nothing kept yet
    rack, blanks = search.parse_rack("CALLESO??", es)  # past a rack players have: walked in the background
    whole = search.anagrams(es, rack, blanks, sub=True, min_length=2)
    pages = pages_of(es, rack, blanks)
    assert pages == whole and len(whole) > 6
    assert len(walks) == 1  # the first call walked; every page after it read the kept answers


def test_a_rack_players_have_is_answered_in_the_caller(es: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven tiles with a blank (two: with dawg2's reader): walked where it is asked, every page, no
    job kept or thread started."""
    monkeypatch.setitem(background._jobs, es, OrderedDict())  # nothing kept yet
    threads = threading.active_count()
    rack, blanks = search.parse_rack("CALLES??" if es.reader == "dawg2" else "CALLES?", es)
    whole = search.anagrams(es, rack, blanks, sub=True, min_length=2)
    pages = pages_of(es, rack, blanks)
    assert pages == whole and len(whole) > 6
    assert [m.key for m in whole] == search.sorted_anagrams(es, rack, blanks, True, 2).keys
    assert not background._jobs[es] and threading.active_count() == threads


def test_a_page_not_ready_within_its_budget_answers_nothing_yet(es: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    real = anagram_search._matches

    def slow(*args: object) -> list[search.Match]:
        release.wait(10)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(anagram_search, "_matches", slow)
    monkeypatch.setitem(background._jobs, es, OrderedDict())  # nothing kept yet
    rack, blanks = search.parse_rack("AMORESA?", es)  # past a rack players have: walked in the background
    budget = Budget(seconds=0.01, results=100)
    assert search.anagrams(es, rack, blanks, sub=True, budget=budget) == []
    assert budget.truncated and budget.resume == ""  # ask again from the start
    release.set()
    budget = Budget(seconds=5, results=100)
    assert search.anagrams(es, rack, blanks, sub=True, budget=budget, after="") == search.anagrams(
        es, rack, blanks, sub=True
    )


def test_a_sweeper_runs_while_there_is_something_to_sweep_and_again_when_woken() -> None:
    kept, threads, swept = [1, 2], [], threading.Event()

    def sweep() -> bool:
        threads.append(threading.current_thread())
        if kept:
            kept.pop()
        if not kept:
            swept.set()
        return not kept

    sweeper = background.Sweeper("test sweeper", sweep, 0)
    sweeper.wake()
    sweeper.wake()  # already running: no second thread
    assert swept.wait(10)
    threads[-1].join(10)  # nothing left: the thread ends
    assert not threads[-1].is_alive() and len(threads) >= 2 and len(set(threads)) == 1
    kept.append(3)
    swept.clear()
    sweeper.wake()  # something kept again: a new thread sweeps it
    assert swept.wait(10)
    threads[-1].join(10)
    assert not threads[-1].is_alive() and threads[-1] is not threads[0] and kept == []
