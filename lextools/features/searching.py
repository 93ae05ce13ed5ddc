"""Anagram answers in probability order: shorter words first in tiles, then the likeliest draw first
(the order of the rank among the words of the same length), ties in the edition's alphabet —
Zyzzyva's probability order, the one every probability query of lextools answers in.

:func:`lextools.core.search.anagrams` finds and keeps a query's answers longest first, then in the
edition's alphabet; here the answers meeting the conditions are put in probability order once per
query and conditions, in the background (:mod:`lextools.core.background`), and a page reads them
from its position: the index of the last answer a page gave (``after``), as a string of digits.
"""

from __future__ import annotations

import contextlib
from collections import Counter

from lextools.core import background, search
from lextools.core.budget import Budget, Exhausted
from lextools.core.conditions import Conditions, matcher
from lextools.core.errors import PositionError
from lextools.core.lexicon import Lexicon


def probability_order(lex: Lexicon, keys: list[str]) -> list[str]:
    """Keys shorter first in tiles, then likeliest first within a length (the order of the ranks of
    :func:`lextools.core.ranking.rank_of`: more ways to draw the tiles, then the edition's alphabet),
    then in the edition's alphabet; in the alphabet alone where the tile counts are unverified."""
    ed = lex.edition
    rank = ed.collation_key
    if not ed.has_counts:
        return sorted(keys, key=lambda key: (len(key), rank(key)))
    return sorted(keys, key=lambda key: (len(key), -ed.probability(ed.decode(key)), rank(key)))


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
) -> list[search.Match]:
    """A page of :func:`lextools.core.search.anagrams`' answers, in probability order."""
    budget = budget if budget is not None else Budget()
    if after and not (after.isascii() and after.isdigit() and len(after) <= 9):
        raise PositionError("not a position a ranked anagram search can resume from")

    keep = matcher(lex, conditions)  # made here: a rank condition waits for the ranks here, not in the job

    def every() -> list[search.Match]:
        keys = search.sorted_anagrams(lex, rack, blanks, sub, min_length).keys
        return [_match(lex, rack, key) for key in probability_order(lex, [k for k in keys if keep is None or keep(k)])]

    query = ("ranked anagrams", rack, blanks, sub, min_length, conditions)
    ranked: list[search.Match] | None = background.result(lex, query, every, wait=budget.remaining())
    if ranked is None:  # still being put in order: nothing yet, ask again from the same position
        budget.resume = after or ""
        return []
    start = int(after) + 1 if after else 0
    if start > len(ranked):
        raise PositionError("not a position a ranked anagram search can resume from")
    found: list[search.Match] = []
    with contextlib.suppress(Exhausted):  # budget.resume says where
        for i in range(start, len(ranked)):
            found.append(ranked[i])
            budget.count(str(i))
            budget.step(str(i))
    return found


def _match(lex: Lexicon, rack: str, key: str) -> search.Match:
    """An answer with the tiles its blanks stand for, in the edition's alphabet (as search.anagrams gives them)."""
    ed = lex.edition
    lacking = sorted((Counter(key) - Counter(rack)).elements(), key=ed.collation_key)
    return search.Match(key, tuple(ed.by_code[c].label for c in lacking))
