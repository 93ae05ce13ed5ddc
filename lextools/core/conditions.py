"""The conditions a player combines on a search (Zyzzyva's search conditions), declared once in
:data:`CONDITIONS`: the library's :class:`Conditions`, the CLI options of ``pattern`` and ``anagram``
(:mod:`lextools.cli.conditions`), the API's query parameters and the search page's form are all made
from that table, so a new condition is one row, its predicate (:func:`predicates`) and its test.

The table's rows are data, ``conditions.json`` beside this module (as the message catalogue is):
a row is a :class:`Condition`'s fields, its ``label`` and ``help`` in each of the three languages,
and ``defaults`` by query.

A :class:`Conditions` holds every condition that was given (None or ``""``: not asked); each has one
predicate on a lexicon key (one character per tile), and :func:`matcher` joins the predicates of the
conditions given into one test, which :func:`lextools.core.search.find` and
:func:`lextools.core.search.anagrams` apply to their matches (their ``conditions=`` parameter).
Lengths are in tiles (es-fise: CHICO is 4 tiles, CH·I·C·O); tiles are compared as tiles
(``starts=C`` is not CHICO; ``includes=RR`` asks for two R tiles, in es-fise the RR tile is
``[RR]``); a rank is :func:`lextools.core.ranking.rank_of`'s (1 is the likeliest draw among the
words of the same length); a word's anagram count includes itself (1: no other anagram); its score
is the sum of its tile values, no blanks, no board premiums.

Tiles are given in any notation and spelled when the conditions are made (:func:`conditions`), so a
bad one is refused at the call with :class:`~lextools.core.errors.QueryError`, as a bad pattern is.

>>> [c.name for c in CONDITIONS if c.kind == "flag"]
['front_hook', 'back_hook']
>>> RANGES[0], BY_NAME["min_length"].default_for(ANAGRAM), BY_NAME["min_length"].default_for(PATTERN)
(('min_length', 'max_length'), 2, None)
>>> print(BY_NAME["max_score"].help["es"])
Puntuación máxima (valor de las fichas, sin casillas de premio).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from lextools.core.anagram_table import table_of
from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import LANGUAGES, message
from lextools.core.ranking import rank_of
from lextools.core.spelling import spell

#: The queries that take conditions, each with its defaults (:meth:`Condition.default_for`): the
#: anagrams of a rack (CLI ``anagram``, API ``/anagrams``) and the pattern search (CLI ``pattern``,
#: API ``/search``).
ANAGRAM, PATTERN = "anagram", "pattern"
QUERIES = (ANAGRAM, PATTERN)

#: What a condition is given as: a whole number, tiles (any notation), or true/false.
Kind = Literal["number", "tiles", "flag"]
_TYPES: dict[str, type] = {"number": int, "tiles": str, "flag": bool}
#: The input the search page's form shows for each kind (a flag: a select of either / yes / no).
_INPUTS = {"number": "number", "tiles": "text", "flag": "select"}


@dataclass(frozen=True)
class Texts:
    """One text in the interface's three languages (:data:`lextools.core.messages.LANGUAGES`)."""

    en: str
    es: str
    fr: str

    def __getitem__(self, lang: str) -> str:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        text: str = getattr(self, lang)
        return text


@dataclass(frozen=True)
class Condition:
    """One search condition: how it is given, its bounds and defaults, and what people read of it.

    ``label`` is the search form's short label; ``help`` one sentence saying what it keeps: the CLI's
    ``--help`` and the API's description (English), the form's hint (the page's language). A number
    is a whole number in ``[low, high]``; ``pair`` names the range a ``min_``/``max_`` pair bounds
    (listed low then high: :data:`RANGES`, checked low ≤ high, and shown side by side on the form).
    ``default`` is its value when not given (None: not asked); ``query_defaults`` a query's own
    (an anagram query's ``min_length`` is 2).
    """

    name: str
    kind: Kind
    label: Texts
    help: Texts
    low: int | None = None
    high: int | None = None
    pair: str | None = None
    default: Any = None
    query_defaults: tuple[tuple[str, Any], ...] = ()

    @property
    def type(self) -> type:
        """The Python type of its value: int, str (tiles as typed) or bool."""
        return _TYPES[self.kind]

    @property
    def input(self) -> str:
        """The HTML input of the search form: ``number``, ``text`` or ``select``."""
        return _INPUTS[self.kind]

    @property
    def bounds(self) -> tuple[int, int]:
        """A number's ``(low, high)``; a ValueError for a condition that is not a number."""
        if self.low is None or self.high is None:
            raise ValueError(f"{self.name} is not a number")
        return self.low, self.high

    @property
    def unset(self) -> Any:
        """The value of :class:`Conditions` when it was not asked: None, or ``""`` for tiles."""
        return "" if self.kind == "tiles" else None

    def default_for(self, query: str | None) -> Any:
        """Its default on ``query`` (one of :data:`QUERIES`; None: no query's own)."""
        return dict(self.query_defaults).get(query, self.default) if query else self.default


def _condition(row: dict[str, Any]) -> Condition:
    """A row of ``conditions.json`` as a :class:`Condition` (an unknown field or language is a TypeError)."""
    row = dict(row)
    label, help, defaults = Texts(**row.pop("label")), Texts(**row.pop("help")), row.pop("defaults", {})
    return Condition(label=label, help=help, query_defaults=tuple(defaults.items()), **row)


#: Every condition, in the order the API, the CLI and the form list them: the rows of
#: ``conditions.json`` beside this module (a table of data, as the message catalogue is).
CONDITIONS: tuple[Condition, ...] = tuple(
    _condition(row) for row in json.loads((resources.files("lextools.core") / "conditions.json").read_bytes())
)
#: Each condition by its name.
BY_NAME: Mapping[str, Condition] = {c.name: c for c in CONDITIONS}
#: Every condition's name, in the order the API and the CLI list them.
NAMES = tuple(BY_NAME)
#: The conditions given as numbers that bound a range, as (low, high) pairs; each is checked low ≤ high.
RANGES = tuple(
    (low.name, high.name)
    for pair in dict.fromkeys(c.pair for c in CONDITIONS if c.pair)
    for low, high in [[c for c in CONDITIONS if c.pair == pair]]
)
#: The conditions given as tiles (any notation).
TILES = tuple(c.name for c in CONDITIONS if c.kind == "tiles")
#: The conditions given as true/false.
FLAGS = tuple(c.name for c in CONDITIONS if c.kind == "flag")


#: The longest query, in tiles: the board's 15 squares (``lextools.core.search`` refuses longer racks,
#: patterns and lengths; ``tests/test_search_conditions.py`` checks its ``MAX_QUERY_TILES`` is this).
MAX_QUERY_TILES = BY_NAME["max_length"].bounds[1]
#: The highest probability rank, count of anagrams and point value a condition may name (more than
#: any lexicon's words of one length, anagrams of one rack, points of a 15-tile word).
MAX_RANK, MAX_ANAGRAMS, MAX_SCORE = (BY_NAME[name].bounds[1] for name in ("max_rank", "max_anagrams", "max_score"))


class Conditions:
    """Every condition of a search (:data:`CONDITIONS`), each an attribute: its value, or its
    :attr:`~Condition.unset` value (None, tiles ``""``) where it was not asked. Tiles are keys.
    Immutable, compared and hashed by the conditions given (a query's cache key holds one).

    >>> Conditions(min_length=2, starts="").given(), Conditions().max_rank, Conditions().ends
    ({'min_length': 2}, None, '')
    """

    __slots__ = ("_given",)
    _given: tuple[tuple[str, Any], ...]

    def __init__(self, **given: Any) -> None:
        unknown = set(given) - set(NAMES)
        if unknown:
            raise TypeError(f"unknown conditions: {', '.join(sorted(unknown))}")
        kept = tuple((name, given[name]) for name in NAMES if given.get(name) not in (None, ""))
        object.__setattr__(self, "_given", kept)

    def __getattr__(self, name: str) -> Any:
        condition = BY_NAME.get(name)
        if condition is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return dict(self._given).get(name, condition.unset)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def given(self) -> dict[str, Any]:
        """The conditions that were asked, by name."""
        return dict(self._given)

    def __bool__(self) -> bool:
        return bool(self._given)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Conditions) and self._given == other._given

    def __hash__(self) -> int:
        return hash(self._given)

    def __reduce__(self) -> tuple[Any, ...]:  # copied and pickled as made: Conditions(**given)
        return functools.partial(Conditions, **self.given()), ()

    def __repr__(self) -> str:
        return f"Conditions({', '.join(f'{name}={value!r}' for name, value in self._given)})"


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
    """How many keys spell exactly the tiles of ``key`` (itself included when it is a word): one
    look-up in the table of each alphagram's words (microseconds), where a walk of the DAWG with
    blanks took 3 ms for 8 tiles and 28 ms for 13 — a condition a search tests on every key it reads."""
    alphagram = lex.alphagram(key)
    if not lex.has_alphagram(alphagram):  # the table's hash answers only the alphagrams it holds
        return 0
    return len(table_of(lex).ranked_words_of(alphagram.encode()))


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
