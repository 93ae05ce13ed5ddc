"""Work done once in the background and kept with its lexicon: the probability ranking and the
sorted answers of an anagram query, which a page waits for at most its budget."""

from __future__ import annotations

import gc
import threading
import weakref
from collections import OrderedDict

import pytest

from lextools.core import background, budget, search
from lextools.core.budget import Budget, Cancelled
from lextools.core.conditions import conditions
from lextools.core.lexicon import Lexicon
from lextools.core.search import anagram_pages as anagram_search
from lextools.core.search import anagrams_by_probability as ranked_search
from lextools.features.quiz import cache as quiz_cache
from lextools.features.quiz.request import QuizRequest


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


# -- budgets of background work (issue 33, rows 3 and 5) ---------------------------------------------


class Pausing:
    """A job's work that pauses (as every walk, filter and sort of a job does) until released."""

    def __init__(self) -> None:
        self.release, self.started = threading.Event(), threading.Event()

    def __call__(self) -> str:
        self.started.set()
        while not self.release.wait(0.001):
            budget.pause()
        return "done"


def finished(lex: Lexicon, key: tuple[str, ...]) -> background._Job:
    """The job of ``key``, once it has ended (it ends within a pause of being cancelled)."""
    job = background._jobs[lex][key]
    assert job.done.wait(30), "a cancelled job went on working"
    return job


def test_a_clients_jobs_past_its_share_cancel_its_oldest(es: Lexicon) -> None:
    """Row 5: a client has PER_CLIENT unfinished large jobs; a further one cancels its oldest, which
    stops at its next pause, and the next ask of it starts it again."""
    works = [Pausing() for _ in range(background.PER_CLIENT + 1)]
    keys = [("test", "client", str(n)) for n in range(len(works))]
    with background.for_client("203.0.113.7"):
        for key, work in zip(keys, works, strict=True):
            assert background.result(es, key, work, wait=0) is None
    oldest = finished(es, keys[0])
    assert isinstance(oldest.error, Cancelled) and oldest.value is None
    assert not background._jobs[es][keys[-1]].dropped
    for work in works:
        work.release.set()
    again = Pausing()
    again.release.set()
    with background.for_client("203.0.113.7"):
        assert background.result(es, keys[0], again, wait=None) == "done"  # started again, not the cancelled one
    assert again.started.is_set()
    for key in keys[1:]:
        finished(es, key)


def test_a_job_nobody_asks_for_is_cancelled_and_its_memory_given_back(
    es: Lexicon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Row 5: a client that left (disconnected, or stopped asking) leaves its job to be cancelled."""
    monkeypatch.setattr(background, "ABANDONED", 0.0)
    trims: list[int] = []
    monkeypatch.setattr(background, "give_back_memory", lambda: trims.append(1))
    work = Pausing()
    assert background.result(es, ("test", "left"), work, wait=0) is None
    assert isinstance(finished(es, ("test", "left")).error, Cancelled)
    assert trims and not work.release.is_set()


def test_a_small_job_never_waits_behind_a_large_one(es: Lexicon) -> None:
    """Row 5: the lanes: while a large job computes (and more wait their turn), a small one runs."""
    large = [Pausing() for _ in range(2)]
    for n, work in enumerate(large):
        assert background.result(es, ("test", "large", str(n)), work, wait=0) is None
    assert large[0].started.wait(30)
    assert background.result(es, ("test", "small"), lambda: "small", wait=30, small=True) == "small"
    assert not large[1].started.is_set()  # still waiting its turn in the large lane
    for work in large:
        work.release.set()
    for n in range(2):
        assert finished(es, ("test", "large", str(n))).value == "done"


def test_a_ranked_anagram_jobs_condition_filter_pauses(es: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Row 3: a probability subanagram job with a condition (``min_anagrams=1``) filters and sorts
    in paced steps: cancelled (nobody waits for it), it stops there, where it used to run to its end."""
    key, blanks = search.parse_rack("CALLEMASO??", es)
    walked = anagram_search.sorted_anagrams(es, key, blanks, True, 1)
    walked = walked._replace(keys=walked.keys * 3000)  # as many answers as a 13-tile rack's: a long filter
    assert len(walked.keys) > 100_000
    monkeypatch.setattr(ranked_search, "sorted_anagrams", lambda *args: walked)  # the walk done: filter and sort left
    monkeypatch.setattr(background, "ABANDONED", 0.0)
    cond = conditions(es, min_anagrams=1)
    search.ranked_anagrams(es, key, blanks, True, 1, cond, budget=Budget(seconds=0.0))
    job = finished(es, ("ranked anagrams", key, blanks, True, 1, cond))
    assert isinstance(job.error, Cancelled)


def test_a_result_nobody_asks_for_is_dropped_by_the_sweeper(es: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Row 5: kept results do not outlive their use: past KEPT_IDLE seconds unasked they go."""
    assert background.result(es, ("test", "kept"), lambda: [1, 2, 3], wait=30) == [1, 2, 3]
    monkeypatch.setattr(background, "KEPT_IDLE", 0.0)
    background._swept()
    assert ("test", "kept") not in background._jobs.get(es, {})


class Found(list[str]):
    """What a job's work has found so far (a list a weak reference can follow)."""


def test_a_cancelled_or_failed_jobs_work_is_freed_at_once(es: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Row 3: what a job had made goes when it ends, cancelled or failed — not at the collector's
    next full sweep, which a worker under load may not run for minutes (its memory stayed taken)."""
    monkeypatch.setattr(background, "ABANDONED", 0.0)
    made: list[weakref.ref[Found]] = []

    def cancelled_work() -> None:
        found = Found(["CASA"] * 10_000)
        made.append(weakref.ref(found))
        while True:
            budget.pause()

    def failing_work() -> None:
        found = Found(["CASA"] * 10_000)
        made.append(weakref.ref(found))
        raise ValueError("broken")

    was_enabled = gc.isenabled()
    gc.disable()  # only reference counts may free it
    try:
        assert background.result(es, ("test", "freed", "cancelled"), cancelled_work, wait=0) is None
        assert isinstance(finished(es, ("test", "freed", "cancelled")).error, Cancelled)
        with pytest.raises(ValueError, match="broken") as raised:
            background.result(es, ("test", "freed", "failed"), failing_work, wait=None)
        assert len(made) == 2 and [ref() for ref in made] == [None, None]
        assert raised.traceback  # the error still says where it was raised
    finally:
        if was_enabled:
            gc.enable()


def test_a_failed_quiz_keeps_no_frame_of_its_making(es: Lexicon) -> None:
    """The quizzes made for the service's requests are jobs too: a failed one's error goes to its
    request without keeping what the making had built (``quiz.cache.Job``)."""
    made: list[weakref.ref[Found]] = []

    def failing_quiz(lex: Lexicon, req: QuizRequest) -> dict[str, object]:
        found = Found(["CASA"] * 10_000)
        made.append(weakref.ref(found))
        raise ValueError("broken")

    job = quiz_cache.Job(es)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        assert quiz_cache._QUEUE.acquire(timeout=30)  # as job_for does: run() gives the turn back
        job.run(failing_quiz, QuizRequest(type="anagram", length=7))
        assert isinstance(job.error, ValueError) and job.error.__traceback__ is not None
        assert len(made) == 1 and made[0]() is None
    finally:
        if was_enabled:
            gc.enable()


def mapped_kb(path: str) -> int:
    """The kilobytes of ``path``'s pages mapped into this process now (its maps' ``Rss``, /proc/self/smaps)."""
    rss, inside = 0, False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            if line[0] in "0123456789abcdef" and " " in line and "-" in line.split(" ", 1)[0]:
                inside = line.rstrip("\n").endswith(path)
            elif inside and line.startswith("Rss:"):
                rss += int(line.split()[1])
    return rss


def test_the_last_large_job_of_a_lexicon_lets_go_of_its_files_pages(es: Lexicon) -> None:
    """Row 3: the pages of the alphagram table a large job read leave the worker when its lexicon has
    no job left unfinished, not seconds later with the last kept result; a job still running keeps
    them; those a small job read go at the sweeper's next round."""
    table = es.alphawords_map
    path, data = table.file.name, table.data
    assert len(data) > 0
    table.release()
    seen: list[int] = []
    second_may_end = threading.Event()

    def read_every_page() -> int:
        total = sum(data[at] for at in range(0, len(data), 4096))
        seen.append(mapped_kb(path))
        return total

    def read_and_hold() -> int:
        total = read_every_page()
        second_may_end.wait(10)
        return total

    held = ("test", "pages", "held")  # in the small lane: the large one is free for the next
    assert background.result(es, held, read_and_hold, wait=0, small=True) is None
    assert background.result(es, ("test", "pages", "one"), read_every_page, wait=None) is not None
    assert seen[-1] > 0 and mapped_kb(path) > 0  # the held job is unfinished: the pages stay
    second_may_end.set()
    assert background.result(es, held, read_and_hold, wait=None, small=True) is not None
    assert mapped_kb(path) > 0  # a small job does not let go of them (a player's rack reads a few pages)
    background._swept()  # the sweeper's next round does: no job of the lexicon is unfinished
    assert mapped_kb(path) == 0
    assert background.result(es, ("test", "pages", "two"), read_every_page, wait=None) is not None
    assert seen[-1] > 0 and mapped_kb(path) == 0
