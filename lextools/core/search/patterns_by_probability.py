""":func:`lextools.core.search.find` in probability order: pages read from the lexicon's probability
ranking (:mod:`lextools.core.ranking`: shorter first in tiles, then likeliest draw first), their
position a global index into it (see :mod:`lextools.core.search`)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

from lextools.core.budget import Budget, Exhausted
from lextools.core.errors import PositionError
from lextools.core.lexicon import Lexicon
from lextools.core.ranking import Ranks, ranks_of
from lextools.core.search.parts import MAX_QUERY_TILES
from lextools.core.search.pattern_walk import walk_guided


def constraints_test(
    parts: list[str | None], prefix: str, length: int | None, infix: str, suffix: str
) -> Callable[[str], bool]:
    """The constraints of :func:`find` as one test of a key (one character per tile)."""
    regex = re.compile("".join(".*" if p == "*" else "." if p is None else re.escape(p) for p in parts), re.DOTALL)

    def matches(k: str) -> bool:
        return (
            (length is None or len(k) == length)
            and k.startswith(prefix)
            and k.endswith(suffix)
            and infix in k
            and regex.fullmatch(k) is not None
        )

    return matches


def probability_pages(
    lex: Lexicon,
    parts: list[str | None],
    prefix: str,
    length: int | None,
    matches: Callable[[str], bool],
    budget: Budget,
    after: str | None,
    conditions: Callable[[str], bool] | None = None,
) -> list[str]:
    """Keys ``matches`` (the pattern's constraints) and ``conditions`` accept in probability order
    (:mod:`lextools.core.ranking`: shorter first, then likeliest), from the one after global index
    ``after``.

    Length by length, from the one ``after`` is in: a pattern whose first tile is given (or
    ``prefix``) is walked in the words DAWG for that length, where the tile prunes the walk, and its
    keys sorted by rank; any other scans the ranking's keys of that length. The budget bounds the
    work, not only the answers: a page stops when its time is up wherever it is — after a few dozen
    keys read at most — so a query that matches nothing (``min_anagrams=1000``) answers on time with
    an empty page and a position to go on from, rather than reading the whole ranking first.
    """
    if after and not (after.isascii() and after.isdigit() and len(after) <= 9):
        raise PositionError("not a position a probability search can resume from")
    lex.edition.probability(())  # raises where the counts are unverified: no probability order
    ranks = ranks_of(lex)
    position = int(after) if after else -1
    if position >= len(ranks):
        raise PositionError("not a position a probability search can resume from")
    walked = bool(prefix) or (bool(parts) and parts[0] not in (None, "*"))
    shortest = max(1, sum(p != "*" for p in parts), len(prefix), length or 0)
    longest = length or (shortest if "*" not in parts else MAX_QUERY_TILES)
    first = max(shortest, ranks.length_at(position) if position >= 0 else 0)
    found: list[str] = []
    with contextlib.suppress(Exhausted):
        for size in range(first, longest + 1):
            start = position + 1 - ranks.first[size] if position >= ranks.first[size] else 0
            if walked:
                keys = _walked_length(lex, ranks, parts, prefix, size, matches, start)
                _tested(ranks, size, keys, conditions, found, budget)
            else:
                accepts = matches if conditions is None else _both(matches, conditions)
                _scanned_length(ranks, size, accepts, start, found, budget)
            if start < ranks.counts[size]:  # some of the length read, now all of it: time is looked at
                budget.check(str(ranks.first[size] + ranks.counts[size] - 1))
    return found


def _both(first: Callable[[str], bool], then: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda key: first(key) and then(key)


#: Keys of the ranking a scan reads between two looks at the clock (a condition may cost some
#: microseconds a key: the hooks walk the DAWG).
_SCAN_CHUNK = 64


def _scanned_length(
    ranks: Ranks, size: int, matches: Callable[[str], bool], start: int, found: list[str], budget: Budget
) -> None:
    """The keys of ``size`` tiles from rank ``start`` that ``matches`` accepts (see :func:`probability_pages`)."""
    base, count = ranks.first[size], ranks.counts[size]
    for chunk in range(start, count, _SCAN_CHUNK):
        for i, key in enumerate(ranks.keys(size, chunk, chunk + _SCAN_CHUNK), base + chunk):
            if matches(key):
                found.append(key)
                budget.count(str(i))
        budget.check(str(base + min(chunk + _SCAN_CHUNK, count) - 1))  # every key up to there is read


def _tested(
    ranks: Ranks,
    size: int,
    keys: list[str],
    conditions: Callable[[str], bool] | None,
    found: list[str],
    budget: Budget,
) -> None:
    """The walked keys of one length (in rank order) that meet the conditions, each tested in turn
    and the clock looked at every few: a position is the global index of the last key tested."""
    base = ranks.first[size]
    for n, key in enumerate(keys, 1):
        if conditions is None or conditions(key):
            found.append(key)
            budget.count(str(base + (ranks.rank(key) or 0)))
        if n % _TESTS_PER_CHECK == 0:
            budget.check(str(base + (ranks.rank(key) or 0)))


#: Walked keys tested against the conditions between two looks at the clock.
_TESTS_PER_CHECK = 16


def _walked_length(
    lex: Lexicon,
    ranks: Ranks,
    parts: list[str | None],
    prefix: str,
    size: int,
    matches: Callable[[str], bool],
    start: int,
) -> list[str]:
    """The keys of ``size`` tiles from rank ``start`` that ``matches`` accepts, in rank order: walked
    in the words DAWG (pruned by the pattern's first tiles), then sorted."""
    keys = [k for k in walk_guided(lex, parts, prefix, size) if matches(k)]
    records = {k: ranks.record(k) or b"" for k in keys}
    keys.sort(key=lambda k: ranks.sort_key(records[k]))
    if start and keys:
        at = ranks.offset[size] + (start - 1) * size
        last = ranks.sort_key(bytes(ranks.data[at : at + size]))  # the key the position settled
        keys = [k for k in keys if ranks.sort_key(records[k]) > last]
    return keys
