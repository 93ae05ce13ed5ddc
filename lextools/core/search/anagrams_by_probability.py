"""Anagram answers in probability order: shorter words first in tiles, then the likeliest draw first
(the order of the rank among the words of the same length), ties in the edition's alphabet —
Zyzzyva's probability order, the one every probability query of lextools answers in.

:func:`lextools.core.search.anagrams` finds and keeps a query's answers longest first, then in the
edition's alphabet; here the answers meeting the conditions are put in probability order once per
query and conditions, in the background (:mod:`lextools.core.background`), and a page reads them
from its position. A large rack (fifteen tiles and two blanks, subanagrams) takes seconds to walk:
while that job is not done, a page is made by reading the lexicon's probability ranking
(:mod:`lextools.core.ranking`, the file a build writes) in its order — the same order — and keeping
each key that answers the query, until the page is full or its budget is spent.

A position is the index of the last answer given in the whole ranked list, as digits, then ``.``
and the global index in the ranking (:mod:`lextools.core.ranking`) up to which every answer is
counted — so a page read from the finished job and one made from the ranking continue each other.
Before the first answer the index is empty (``.G``: G keys of the ranking read, no answer among
them); without ``.G`` a page made from the ranking counts the answers again from the start.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from lextools.core import background
from lextools.core.budget import Budget, Exhausted, paced, paced_sorted
from lextools.core.conditions import Conditions, matcher
from lextools.core.errors import PositionError
from lextools.core.lexicon import Lexicon
from lextools.core.ranking import LONGEST, Ranks, ranks_of
from lextools.core.search.alphagram_walks import at_once
from lextools.core.search.anagram_pages import sorted_anagrams
from lextools.core.search.parts import Match

#: Share of a page's time budget spent waiting for the whole ranked list before the page is made
#: from the ranking instead (a 7-tile rack's list is ready in a few milliseconds).
JOB_SHARE = 0.25
#: Seconds a page with a word limit and no time limit (the CLI's ``--limit``) waits for the list.
JOB_WAIT = 0.05
#: Keys of the ranking read at once (between two looks at the clock).
_CHUNK = 128
_POSITION = re.compile(r"(\d{1,9})?(?:\.(\d{1,9}))?")


def probability_order(lex: Lexicon, keys: list[str]) -> list[str]:
    """Keys shorter first in tiles, then likeliest first within a length (the order of the ranks of
    :func:`lextools.core.ranking.rank_of`: more ways to draw the tiles, then the edition's alphabet),
    then in the edition's alphabet; in the alphabet alone where the tile counts are unverified."""
    ed = lex.edition
    rank = ed.collation_key
    if not ed.has_counts:
        return paced_sorted(keys, key=lambda key: (len(key), rank(key)))
    return paced_sorted(keys, key=lambda key: (len(key), -ed.probability(ed.decode(key)), rank(key)))


class _Query(NamedTuple):
    rack: str
    blanks: int
    sub: bool
    min_length: int


def ranked_anagrams(
    lex: Lexicon,
    rack: str,
    blanks: int,
    sub: bool,
    min_length: int,
    conditions: Conditions | None = None,
    *,
    budget: Budget | None = None,
    after: str | None = None,
) -> list[Match]:
    """A page of :func:`lextools.core.search.anagrams`' answers, in probability order."""
    budget = budget if budget is not None else Budget()
    last, settled = _parse_position(after)
    keep = matcher(lex, conditions)  # made here: a rank condition waits for the ranks here, not in the job
    ranks = ranks_of(lex)
    if settled is not None and settled >= len(ranks):
        raise PositionError("not a position a ranked anagram search can resume from")

    def every() -> list[Match]:  # paced throughout: a job's filter and sort pause (and stop when cancelled)
        keys = sorted_anagrams(lex, rack, blanks, sub, min_length).keys
        kept = keys if keep is None else [k for k in paced(keys) if keep(k)]
        return [_match(lex, rack, key) for key in paced(probability_order(lex, kept))]

    ranked: list[Match] | None
    if at_once(lex, rack, blanks, sub):  # a rack players have: milliseconds, in the caller, no job to wait behind
        ranked = every()
    else:
        query = ("ranked anagrams", rack, blanks, sub, min_length, conditions)
        small = len(rack) + blanks <= background.SMALL_TILES
        ranked = background.result(lex, query, every, wait=_job_wait(budget), small=small)
    if ranked is not None:
        return _read(ranked, ranks, budget, last)
    scan = _Scan(lex, ranks, _Query(rack, blanks, sub, min_length), keep, budget, after or "")
    return scan.page(last, settled)


def _parse_position(after: str | None) -> tuple[int, int | None]:
    """(index of the last answer given, -1 before the first; the ranking's global index up to which
    answers are counted, None when the position does not say) — see the module docstring."""
    if not after:
        return -1, None
    found = _POSITION.fullmatch(after) if after.isascii() else None
    if found is None:
        raise PositionError("not a position a ranked anagram search can resume from")
    last, settled = found.groups()
    return (int(last) if last else -1), (int(settled) if settled else None)


def _position(last: int, settled: int | None) -> str:
    head = str(last) if last >= 0 else ""
    return head if settled is None else f"{head}.{settled}"


def _job_wait(budget: Budget) -> float | None:
    """How long a page waits for the whole ranked list before it is made from the ranking: a share
    of its budget (no limit at all: the whole list is the answer)."""
    remaining = budget.remaining()
    if remaining is not None:
        return remaining * JOB_SHARE
    return JOB_WAIT if budget.results is not None else None


def _read(ranked: list[Match], ranks: Ranks, budget: Budget, last: int) -> list[Match]:
    """A page of the finished list, after answer ``last``; its position names the ranking's index of
    its last answer too, as a page made from the ranking does."""
    start = last + 1
    if start > len(ranked):
        raise PositionError("not a position a ranked anagram search can resume from")
    found: list[Match] = []
    with contextlib.suppress(Exhausted):  # the position is made below, from the last answer given
        for i in range(start, len(ranked)):
            found.append(ranked[i])
            budget.count("")
            budget.step("")
    if budget.resume is not None:
        i = start + len(found) - 1
        budget.resume = _position(i, ranks.index(ranked[i].key))
    return found


class _Scan:
    """A page made by reading the ranking in order, keeping the keys that answer the query."""

    def __init__(
        self, lex: Lexicon, ranks: Ranks, query: _Query, keep: Callable[[str], bool] | None, budget: Budget, after: str
    ) -> None:
        self.lex, self.ranks, self.query, self.budget, self.after = lex, ranks, query, budget, after
        self.answers = _answer_test(query.rack, query.blanks, keep)
        self.last = -1  # the last answer given
        self.seen = 0  # answers counted up to the ranking's index read

    def where(self, settled: int) -> str:
        """The position once every key up to global index ``settled`` is read: the page's own where
        it counted every answer before, else (still counting those of earlier pages) the one it had."""
        if self.seen != self.last + 1 or settled < 0:
            return self.after
        return _position(self.last, settled)

    def page(self, last: int, settled: int | None) -> list[Match]:
        rack, blanks, sub, min_length = self.query
        tiles, shortest = len(rack) + blanks, max(min_length, 1)
        if sub:
            lengths = range(shortest, min(tiles, LONGEST) + 1)
        else:  # every tile: one length
            lengths = range(tiles, tiles + 1) if shortest <= tiles <= LONGEST else range(0)
        self.last = last
        self.seen = last + 1 if settled is not None else 0
        read = settled if settled is not None else -1
        ranks, found = self.ranks, list[Match]()
        with contextlib.suppress(Exhausted):  # budget.resume says where
            for size in lengths:
                base, count = ranks.first[size], ranks.counts[size]
                for chunk in range(max(0, read + 1 - base), count, _CHUNK):
                    for i, key in enumerate(ranks.keys(size, chunk, chunk + _CHUNK), base + chunk):
                        if self.answers(key):
                            self._answer(key, i, found)
                    read = base + min(chunk + _CHUNK, count) - 1
                    self.budget.check(self.where(read))  # after a chunk: every page reads one at least
                read = max(read, base + count - 1)
        return found

    def _answer(self, key: str, index: int, found: list[Match]) -> None:
        number = self.seen
        self.seen += 1
        if number > self.last:
            self.last = number
            found.append(_match(self.lex, self.query.rack, key))
            self.budget.count(_position(number, index))


def _answer_test(rack: str, blanks: int, keep: Callable[[str], bool] | None) -> Callable[[str], bool]:
    """Does a key answer the rack: made of its tiles and at most ``blanks`` others (a key of the
    lengths read), meeting the conditions? Most keys of a long length fail at the first test."""
    have = sorted(Counter(rack).items())
    others = {ord(tile): None for tile, _ in have}  # deleted: what is left are tiles the rack has none of

    def answers(key: str) -> bool:
        lacking = len(key.translate(others))
        if lacking > blanks:
            return False
        for tile, copies in have:
            extra = key.count(tile) - copies
            if extra > 0:
                lacking += extra
                if lacking > blanks:
                    return False
        return keep is None or keep(key)

    return answers


def _match(lex: Lexicon, rack: str, key: str) -> Match:
    """An answer with the tiles its blanks stand for, in the edition's alphabet (as :func:`anagrams` gives them)."""
    ed = lex.edition
    lacking = sorted((Counter(key) - Counter(rack)).elements(), key=ed.collation_key)
    return Match(key, tuple(ed.by_code[c].label for c in lacking))
