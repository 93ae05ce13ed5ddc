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
is the sum of its tile values, no blanks, no board premiums; its vowels are its tiles A E I O U
(:data:`VOWELS`: CH is a consonant tile, Ñ its own tile); its distinct tiles are counted as tiles
(CHICO: 4); ``consists_of`` keeps the words made of the tiles given alone, each any number of times;
``takes_front``/``takes_back`` the words that, with those tiles before/after them, make a word;
``in_list`` the words of a list (a text of words, an iterable of words, or a list file's path).

Each condition but a flag can be negated, once per test (a ``min_``/``max_`` pair is one test):
``not_<test>`` (``not_length``, ``not_includes``, …), made from the table too (:func:`negations`),
keeps the words that fail it. The order the CLI, the API and the page list them in is
:func:`parameters`: each row, and after the last row of a test its negation.

Tiles are given in any notation and spelled when the conditions are made (:func:`conditions`), so a
bad one is refused at the call with :class:`~lextools.core.errors.QueryError`, as a bad pattern is.

>>> [c.name for c in CONDITIONS if c.kind == "flag"]
['front_hook', 'back_hook']
>>> RANGES[0], BY_NAME["min_length"].default_for(ANAGRAM), BY_NAME["min_length"].default_for(PATTERN)
(('min_length', 'max_length'), 2, None)
>>> print(BY_NAME["max_score"].help["es"])
Puntuación máxima (valor de las fichas, sin casillas de premio).
>>> [p.name for p in parameters()][:3], BY_NAME["max_length"].test
(['min_length', 'max_length', 'not_length'], 'length')
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from lextools.core.anagram_table import table_of
from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import LANGUAGES, message
from lextools.core.ranking import rank_of
from lextools.core.spelling import spell
from lextools.core.wordlist import read_list

#: The queries that take conditions, each with its defaults (:meth:`Condition.default_for`): the
#: anagrams of a rack (CLI ``anagram``, API ``/anagrams``) and the pattern search (CLI ``pattern``,
#: API ``/search``).
ANAGRAM, PATTERN = "anagram", "pattern"
QUERIES = (ANAGRAM, PATTERN)

#: What a condition is given as: a whole number, tiles (any notation), true/false, or a list of words.
Kind = Literal["number", "tiles", "flag", "words"]
_TYPES: dict[str, type] = {"number": int, "tiles": str, "flag": bool, "words": str}
#: The input the search page's form shows for each kind (a flag: a select of either / yes / no; a
#: list: a text area, and a file to fill it from).
_INPUTS = {"number": "number", "tiles": "text", "flag": "select", "words": "textarea"}

#: The vowels a vowel count counts, as tile labels: Spanish's, English's and French's five (Zyzzyva
#: counts the same). CH, LL, RR and Ñ are consonant tiles.
VOWELS = frozenset("AEIOU")
#: The most words an ``in_list`` condition takes (a list of more is refused, not cut).
MAX_LIST_WORDS = 10_000
#: What separates the words of a list given as text: spaces, commas, semicolons, line ends.
_LIST_SEPARATORS = re.compile(r"[\s,;]+")


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

    @property
    def test(self) -> str:
        """The test it is part of: its pair's name (``length`` for ``min_length``), else its own."""
        return self.pair or self.name

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
#: The conditions given as a list of words.
WORD_LISTS = tuple(c.name for c in CONDITIONS if c.kind == "words")

#: What people read of a negation: its label beside the test's inputs, and its help, where ``{test}``
#: is the test's labels (or, in the CLI's and the API's English help, its options).
NOT_LABEL = Texts("not", "no", "pas")
NOT_HELP = Texts(
    "Keeps the words that fail {test} instead.",
    "Deja las palabras que no cumplen {test}.",
    "Garde les mots qui ne remplissent pas {test}.",
)


@dataclass(frozen=True)
class Negation:
    """``not_<test>``: the words that fail one test of the table (a pair's two rows are one test)."""

    name: str
    test: str
    rows: tuple[Condition, ...]

    @property
    def label(self) -> Texts:
        return NOT_LABEL

    @property
    def help(self) -> Texts:
        """Its help: the English names the test's parameters, the others its labels."""
        en = NOT_HELP.en.format(test=" / ".join(c.name for c in self.rows))
        es, fr = (NOT_HELP[lang].format(test=" / ".join(c.label[lang] for c in self.rows)) for lang in ("es", "fr"))
        return Texts(en, es, fr)


def negations(rows: Iterable[Condition] | None = None) -> tuple[Negation, ...]:
    """The negation of each test of ``rows`` (the table's by default) that is not a flag, in order."""
    tests: dict[str, list[Condition]] = {}
    for c in CONDITIONS if rows is None else rows:
        tests.setdefault(c.test, []).append(c)
    return tuple(Negation(f"not_{t}", t, tuple(cs)) for t, cs in tests.items() if cs[0].kind != "flag")


def parameters(rows: Iterable[Condition] | None = None) -> list[Condition | Negation]:
    """The rows (the table's by default) with each negation after the last row of its test: the
    order of the CLI's options, the API's parameters and the page's inputs."""
    rows = list(CONDITIONS if rows is None else rows)
    by_test = {n.test: n for n in negations(rows)}
    out: list[Condition | Negation] = []
    for i, c in enumerate(rows):
        out.append(c)
        if c.test in by_test and all(later.test != c.test for later in rows[i + 1 :]):
            out.append(by_test[c.test])
    return out


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
        nots = tuple(n.name for n in negations())
        unknown = set(given) - set(NAMES) - set(nots)
        if unknown:
            raise TypeError(f"unknown conditions: {', '.join(sorted(unknown))}")
        kept = tuple((name, given[name]) for name in NAMES if given.get(name) not in (None, ""))
        kept += tuple((name, True) for name in nots if given.get(name))  # a negation is given or not
        object.__setattr__(self, "_given", kept)

    def __getattr__(self, name: str) -> Any:
        condition = BY_NAME.get(name)
        if condition is None:
            if name.startswith("not_") and name in {n.name for n in negations()}:
                return dict(self._given).get(name, False)
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
    """Conditions from what a player gave (tiles as text in any notation, numbers, flags, lists, the
    negations; None or an empty text: not asked); refuses unknown names, bad tiles, a list too long
    or holding a word the edition cannot spell, and a range whose low end is above its high end."""
    unknown = set(given) - set(NAMES) - {n.name for n in negations()}
    if unknown:
        raise TypeError(f"unknown conditions: {', '.join(sorted(unknown))}")
    values = {name: value for name, value in given.items() if value is not None and value != ""}
    for name in TILES:
        if name in values:
            values[name] = _tiles(lex, name, str(values[name]))
    for name in WORD_LISTS:
        if name in values:
            values[name] = _word_keys(lex, name, values[name]) or None
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


def _word_keys(lex: Lexicon, name: str, given: str | os.PathLike[str] | Iterable[str]) -> frozenset[str]:
    """A list's words as keys: ``given`` a text of words, a list file's path (read as ``lextools
    check --file`` reads one) or words; at most :data:`MAX_LIST_WORDS`, each one the edition spells."""
    if isinstance(given, os.PathLike):
        words: Iterable[str] = read_list(Path(given), edition=lex.edition).words
    elif isinstance(given, str):
        words = _LIST_SEPARATORS.split(given)
    else:
        words = given
    texts = [w for w in (word.strip() for word in words) if w]
    if len(texts) > MAX_LIST_WORDS:
        raise QueryError(message("bad_param", name=name, text=f"{len(texts)}", reason=f"> {MAX_LIST_WORDS}"))
    return frozenset(_tiles(lex, name, w) for w in texts)


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


def _consists_of(tiles: str) -> Predicate:
    allowed = set(tiles)
    return lambda key: set(key) <= allowed


def _takes(lex: Lexicon, tiles: str, front: bool) -> Predicate:
    return lambda key: (tiles + key if front else key + tiles) in lex


def _vowels(lex: Lexicon, low: int | None, high: int | None) -> Predicate:
    ed = lex.edition
    vowels = {code for code in lex.alphagram_order if ed.decode(code)[0] in VOWELS}

    def test(key: str) -> bool:
        n = sum(key.count(code) for code in vowels)
        return (low is None or n >= low) and (high is None or n <= high)

    return test


def _distinct(low: int | None, high: int | None) -> Predicate:
    return lambda key: (low is None or len(set(key)) >= low) and (high is None or len(set(key)) <= high)


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


#: Each test's predicate from the values of its rows (in the table's order), cheapest first: the
#: order :func:`predicates` applies them in (the rank, hooks and anagrams walk the DAWGs).
_MAKERS: dict[str, Callable[..., Predicate]] = {
    "length": lambda lex, low, high: _length(low, high),
    "starts": lambda lex, tiles: lambda key: key.startswith(tiles),
    "ends": lambda lex, tiles: lambda key: key.endswith(tiles),
    "includes": lambda lex, tiles: _includes(tiles),
    "consists_of": lambda lex, tiles: _consists_of(tiles),
    "distinct": lambda lex, low, high: _distinct(low, high),
    "vowels": _vowels,
    "in_list": lambda lex, keys: keys.__contains__,
    "score": _score,
    "rank": _rank,
    "takes_front": lambda lex, tiles: _takes(lex, tiles, front=True),
    "takes_back": lambda lex, tiles: _takes(lex, tiles, front=False),
    "front_hook": lambda lex, wanted: _hook(lex, True, wanted),
    "back_hook": lambda lex, wanted: _hook(lex, False, wanted),
    "anagrams": _anagrams,
}


def _tests() -> dict[str, list[Condition]]:
    """The table's rows by the test they are part of, in the table's order."""
    tests: dict[str, list[Condition]] = {}
    for c in CONDITIONS:
        tests.setdefault(c.test, []).append(c)
    return tests


def predicates(lex: Lexicon, cond: Conditions) -> list[Predicate]:
    """One predicate per test given, cheapest first, each negated where its ``not_`` was given."""
    rows = _tests()
    made: list[Predicate] = []
    for test, make in _MAKERS.items():
        values = [getattr(cond, c.name) for c in rows.get(test, ())]
        if all(value is None or value == "" for value in values):
            continue
        predicate = make(lex, *values)
        made.append(_negated(predicate) if getattr(cond, f"not_{test}", False) else predicate)
    return made


def _negated(predicate: Predicate) -> Predicate:
    return lambda key: not predicate(key)


def matcher(lex: Lexicon, cond: Conditions | None) -> Predicate | None:
    """Every condition given as one test of a key; None when no condition was given."""
    tests = predicates(lex, cond) if cond else []
    if not tests:
        return None
    return lambda key: all(test(key) for test in tests)
