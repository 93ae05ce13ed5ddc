"""The conditions a player combines on a search (Zyzzyva's search conditions), one contract for the
library, the CLI options of ``pattern`` and ``anagram`` and the API's query parameters.

A :class:`Conditions` holds every condition that was given (None or ``""``: not asked); each has one
predicate on a lexicon key (one character per tile), and :func:`matcher` joins the predicates of the
conditions given into one test, which :func:`lextools.core.search.find` and
:func:`lextools.core.search.anagrams` apply to their matches (their ``conditions=`` parameter):

- ``min_length`` / ``max_length``: length in tiles (es-fise: CHICO is 4 tiles, CH·I·C·O);
- ``min_rank`` / ``max_rank``: the probability rank among the words of the same length in tiles
  (:func:`lextools.core.ranking.rank_of`: 1 is the likeliest draw);
- ``includes``: tiles the word holds anywhere, each at least as many times as given (``includes=RR``
  asks for two R tiles; in es-fise the RR tile is another tile, ``[RR]``);
- ``starts`` / ``ends``: the word's first / last tiles (tile-level: ``starts=C`` is not CHICO);
- ``front_hook`` / ``back_hook``: True, the word takes a front (back) hook tile; False, it takes none;
- ``min_anagrams`` / ``max_anagrams``: how many words are spelled with exactly its tiles, itself
  included (1: it has no other anagram);
- ``min_score`` / ``max_score``: the sum of its tile values, no blanks, no board premiums.

Tiles are given in any notation and spelled when the conditions are made (:func:`conditions`), so a
bad one is refused at the call with :class:`~lextools.core.errors.QueryError`, as a bad pattern is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.core.ranking import rank_of
from lextools.core.spelling import spell

#: The conditions given as numbers, as (low, high) pairs; each pair is checked low ≤ high.
RANGES = (("min_length", "max_length"), ("min_rank", "max_rank"), ("min_anagrams", "max_anagrams"),
          ("min_score", "max_score"))  # fmt: skip
#: The conditions given as tiles (any notation).
TILES = ("includes", "starts", "ends")
#: The conditions given as true/false.
FLAGS = ("front_hook", "back_hook")


@dataclass(frozen=True)
class Conditions:
    """Every condition of a search; None (tiles: ``""``) where it was not asked. Tiles are keys."""

    min_length: int | None = None
    max_length: int | None = None
    min_rank: int | None = None
    max_rank: int | None = None
    includes: str = ""
    starts: str = ""
    ends: str = ""
    front_hook: bool | None = None
    back_hook: bool | None = None
    min_anagrams: int | None = None
    max_anagrams: int | None = None
    min_score: int | None = None
    max_score: int | None = None

    def given(self) -> dict[str, Any]:
        """The conditions that were asked, by name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) not in (None, "")}

    def __bool__(self) -> bool:
        return bool(self.given())


#: Every condition's name, in the order the API and the CLI list them.
NAMES = tuple(f.name for f in fields(Conditions))


def conditions(lex: Lexicon, **given: Any) -> Conditions:
    """Conditions from what a player gave (tiles as text in any notation, numbers, flags; None or an
    empty text: not asked); refuses unknown names, bad tiles and a range whose low end is above its high end."""
    unknown = set(given) - set(NAMES)
    if unknown:
        raise TypeError(f"unknown conditions: {', '.join(sorted(unknown))}")
    values = {name: value for name, value in given.items() if value is not None and value != ""}
    for name in TILES:
        if name in values:
            values[name] = _tiles(lex, name, str(values[name]))
    for low, high in RANGES:
        if low in values and high in values and values[low] > values[high]:
            raise QueryError(message("condition_range", low=low, high=high))
    if ("min_score" in values or "max_score" in values) and not lex.edition.has_values:
        raise QueryError(message("unverified_values", edition=lex.edition.name))
    return Conditions(**values)


def _tiles(lex: Lexicon, name: str, text: str) -> str:
    try:
        return spell(text, lex.edition).key
    except SpellingError as e:
        raise QueryError(message("bad_param", name=name, text=repr(text), reason=e.message or e.reason)) from None


# -- one predicate per condition ---------------------------------------------------------------------

Predicate = Callable[[str], bool]


def _length(low: int | None, high: int | None) -> Predicate:
    return lambda key: (low is None or len(key) >= low) and (high is None or len(key) <= high)


def _rank(lex: Lexicon, low: int | None, high: int | None) -> Predicate:
    for key in lex:  # the ranks are ready before the test runs (it may run in a background job)
        rank_of(lex, key)
        break

    def test(key: str) -> bool:
        place = rank_of(lex, key)
        return place is not None and (low is None or place[0] >= low) and (high is None or place[0] <= high)

    return test


def _includes(tiles: str) -> Predicate:
    needed = {tile: tiles.count(tile) for tile in set(tiles)}
    return lambda key: all(key.count(tile) >= n for tile, n in needed.items())


def _starts(tiles: str) -> Predicate:
    return lambda key: key.startswith(tiles)


def _ends(tiles: str) -> Predicate:
    return lambda key: key.endswith(tiles)


def _hook(lex: Lexicon, front: bool, wanted: bool) -> Predicate:
    alphabet = lex.alphagram_order  # every tile a word of the lexicon holds

    def test(key: str) -> bool:
        pattern = "?" + key if front else key + "?"
        return bool(lex.blank_fills(pattern, alphabet)) == wanted

    return test


def anagram_count(lex: Lexicon, key: str) -> int:
    """How many keys spell exactly the tiles of ``key`` (itself included when it is a word)."""
    target = sorted(key)
    return sum(1 for k in lex.blank_fills("?" * len(key), "".join(set(key))) if sorted(k) == target)


def _anagrams(lex: Lexicon, low: int | None, high: int | None) -> Predicate:
    counted: dict[str, int] = {}  # by alphagram: the words of one search share many

    def test(key: str) -> bool:
        alpha = lex.alphagram(key)
        n = counted.get(alpha)
        if n is None:
            n = counted[alpha] = anagram_count(lex, key)
        return (low is None or n >= low) and (high is None or n <= high)

    return test


def _score(lex: Lexicon, low: int | None, high: int | None) -> Predicate:
    ed = lex.edition

    def test(key: str) -> bool:
        points = ed.score(ed.decode(key))
        return points is not None and (low is None or points >= low) and (high is None or points <= high)

    return test


def predicates(lex: Lexicon, cond: Conditions) -> list[Predicate]:
    """One predicate per condition given, cheapest first (the rank, anagrams and hooks walk the DAWGs)."""
    tests: list[Predicate] = []
    if cond.min_length is not None or cond.max_length is not None:
        tests.append(_length(cond.min_length, cond.max_length))
    for tiles, make in ((cond.starts, _starts), (cond.ends, _ends), (cond.includes, _includes)):
        if tiles:
            tests.append(make(tiles))
    if cond.min_score is not None or cond.max_score is not None:
        tests.append(_score(lex, cond.min_score, cond.max_score))
    if cond.min_rank is not None or cond.max_rank is not None:
        tests.append(_rank(lex, cond.min_rank, cond.max_rank))
    for wanted, front in ((cond.front_hook, True), (cond.back_hook, False)):
        if wanted is not None:
            tests.append(_hook(lex, front, wanted))
    if cond.min_anagrams is not None or cond.max_anagrams is not None:
        tests.append(_anagrams(lex, cond.min_anagrams, cond.max_anagrams))
    return tests


def matcher(lex: Lexicon, cond: Conditions | None) -> Predicate | None:
    """Every condition given as one test of a key; None when no condition was given."""
    tests = predicates(lex, cond) if cond else []
    if not tests:
        return None
    return lambda key: all(test(key) for test in tests)
