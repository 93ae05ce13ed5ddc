"""Searches that walk the DAWGs: words of N tiles, patterns, anagrams and subanagrams.

The walks use DAWG-Python's ``Dictionary.follow_bytes`` and ``has_value`` (the dawgdic transition
table), one tile per step: every tile is one character of the key (see :mod:`lextools.core.lexicon`).

Anagrams of a rack with at most two blanks, and subanagrams of a rack of at most eight tiles and
at most two blanks, look their multisets up in the lexicon's table of each alphagram's words
(:mod:`lextools.core.anagram_table`, a file the build writes; a perfect hash looked up by ``map``
over C functions): the rack's alphagram (without blanks: one look-up, and its record is in the
edition's alphabet already), the rack's alphagram with each tile of the order put in (one blank),
the index's fills of the blanks (two, below), the parts of the rack the index knows, or — with
blanks — each part with the blanks put in at each choice of places, filled by dawg2's similar-keys
walk in one ``map`` (DAWG-Python's reader walks the index instead, :func:`_spend_alphagrams`). The
answers come out as bytes that sort in the edition's alphabet
(:meth:`~lextools.core.edition.Edition.rank_bytes`): two C sorts put them in anagram order.
Otherwise — and in a lexicon built before the table — the words are spelled from the DAWGs.

Anagrams (every tile of the rack) find the multisets of tiles that spell words in the alphagram
index: an alphagram holding the rack and two blanks more is the rack's alphagram with two tiles put
in, so each choice of the blanks' places is one pattern (``CD?EO?S``) that dawg2 fills in with its
C++ similar-keys walk — 36 patterns for 7 tiles and 2 blanks. Without the table, the words are then
found from those multisets: their first two tiles placed while some key starts with them, the rest
one similar-keys walk of the words DAWG over the tiles left. Other subanagrams with blanks (any of the
tiles) walk the words DAWG with the rack alone, reading dawgdic's units and guide directly: every
node reached spending rack tiles, or blanks for tiles the rack lacks, is a prefix of an answer.

Every walk goes in the order of its answer and takes a :class:`~lextools.core.budget.Budget`; a walk
that runs out of budget records where it stopped (``budget.resume``), and ``after=`` that position
continues it — a position is a string only this module reads:

- ``find`` in ``alpha`` order: the last key settled. The walk visits each node's children in the
  edition's alphabet (es-fise: C, CH, D), so keys come out in that order and resuming skips every
  subtree before the position without entering it.
- ``find`` in ``probability`` order: a global index into the lexicon's probability ranking (every
  key, shorter first in tiles, then likeliest draw first; :mod:`lextools.core.ranking`, a file the
  build writes): every key up to it is settled. A pattern whose first tile is given is walked length
  by length in the words DAWG and sorted by rank; any other scans the ranking's keys of each length.
- ``anagrams``: the key of the last answer settled. Anagrams come longest first counted in tiles
  (CHATO is 4 tiles: CH·A·T·O), then in the edition's alphabet (es-fise: … C CH D … N Ñ O …), the
  order of :func:`anagram_order`. The walks above find them in the DAWGs' order, not this one, so a
  query's answers are walked and sorted once, in the background (:mod:`lextools.core.background`),
  and kept: a page waits for them at most its budget (until then it answers nothing yet, and a
  position to ask again from) and a later page reads the kept answers from its position, never
  walking the rack again.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator
from functools import cache
from typing import Any, NamedTuple, TypeVar

from lextools.core import background
from lextools.core.anagram_table import table_of
from lextools.core.budget import Budget, Exhausted, pause
from lextools.core.conditions import Conditions, matcher
from lextools.core.edition import Edition
from lextools.core.errors import PositionError, QueryError, SpellingError
from lextools.core.lexicon import Lexicon, _continuations, children, utf8_length
from lextools.core.messages import message
from lextools.core.ranking import Ranks, ranks_of
from lextools.core.spelling import MAX_INPUT_CHARS, spell, too_long

T = TypeVar("T")
U = TypeVar("U")

#: Longest rack or pattern we search with.
MAX_QUERY_TILES = 15
BLANK = "?"
#: The orders a search answers in.
ORDERS = ("alpha", "probability")


class Match(NamedTuple):
    """A search answer. A named tuple, not a dataclass: an anagram query makes thousands of them."""

    key: str  # lexicon key
    blanks: tuple[str, ...] = ()  # tiles a blank stands for (anagrams)


def words_of_length(lex: Lexicon, n: int) -> list[str]:
    """Keys of exactly ``n`` tiles, in the edition's alphabet order."""
    if not 1 <= n <= MAX_QUERY_TILES:
        raise QueryError(message("length_range", max=MAX_QUERY_TILES))
    return [m.key for m in match_pattern(lex, [None] * n)]


def parse_pattern(text: str, lex: Lexicon) -> list[str | None]:
    """``?`` is any one tile, ``*`` any run of tiles, the rest is spelled like a word (any notation).

    Returns a list of keys characters, ``None`` for ``?`` and ``"*"`` for ``*``.
    """
    if not text.strip():  # an empty pattern is a mistake, never "every word"
        raise QueryError(message("empty_pattern"))
    if too_long(text):  # counted in NFC, as words are
        raise QueryError(message("pattern_chars", max=MAX_INPUT_CHARS))
    parts: list[str | None] = []
    for piece in re.split(r"([?*])", text):
        if piece == "?":
            parts.append(None)
        elif piece == "*":
            if parts and parts[-1] == "*":
                continue
            parts.append("*")
        elif piece:
            try:
                parts += list(spell(piece, lex.edition).key)
            except SpellingError as e:
                raise QueryError(message("bad_pattern", text=repr(text), reason=e.message or e.reason)) from None
    if sum(1 for p in parts if p != "*") > MAX_QUERY_TILES:
        raise QueryError(message("pattern_tiles", max=MAX_QUERY_TILES))
    return parts


def match_pattern(
    lex: Lexicon, pattern: list[str | None], *, budget: Budget | None = None, after: str | None = None
) -> Iterator[Match]:
    """Every key matching a parsed pattern, in the edition's alphabet order (one guided walk of the
    word DAWG); ``budget`` and ``after`` as for :func:`find` in ``alpha`` order."""
    return (Match(key) for key in _walk_guided(lex, pattern, "", None, budget=budget, after=after))


def parse_rack(text: str, lex: Lexicon) -> tuple[str, int]:
    """A rack → (known tile keys, number of blanks); ``?`` is a blank, tiles in any notation."""
    blanks = text.count(BLANK)
    key = ""
    # Spell the pieces between blanks apart: C?H is C, H and a blank, never the CH tile.
    for piece in text.split(BLANK):
        if piece.strip():
            try:
                key += spell(piece, lex.edition, obligatory=False).key
            except SpellingError as e:
                raise QueryError(message("bad_rack", text=repr(text), reason=e.message or e.reason)) from None
    if not key and not blanks:
        raise QueryError(message("empty_rack"))
    if len(key) + blanks > MAX_QUERY_TILES:
        raise QueryError(message("rack_tiles", max=MAX_QUERY_TILES))
    return key, blanks


def anagrams(
    lex: Lexicon,
    rack: str,
    blanks: int = 0,
    sub: bool = False,
    min_length: int = 2,
    *,
    budget: Budget | None = None,
    after: str | None = None,
    conditions: Conditions | None = None,
) -> list[Match]:
    """Words using every tile of the rack (or, with ``sub``, any of them, at least ``min_length``)
    that meet the ``conditions`` (:mod:`lextools.core.conditions`).

    ``rack`` is a lexicon key; a blank may be any tile of the edition — a digraph tile too, never a
    letter the edition has no tile for (K and W in es-fise), since those are not in the alphabet.
    A match's ``blanks`` are the tiles its word needs beyond the rack, in the edition's alphabet.
    Longest first in tiles, then in the edition's alphabet (:func:`anagram_order`); see the module
    docstring for ``after``.
    """
    budget = budget if budget is not None else Budget()
    ed = lex.edition
    start = _anagram_position(after, ed) if after else None

    query = ("anagrams", rack, blanks, sub, min_length)
    every = background.result(
        lex, query, lambda: sorted_anagrams(lex, rack, blanks, sub, min_length), wait=budget.remaining()
    )
    if every is None:  # still being walked: nothing yet, ask again from the same position
        budget.resume = after or ""
        return []
    first = 0 if start is None else bisect_right(every.order, _longest_first(_place(ed, start)), key=_longest_first)
    label, have, rank = ed.by_code, Counter(rack), ed.collation_key
    keep = matcher(lex, conditions)
    found: list[Match] = []
    with contextlib.suppress(Exhausted):  # budget.resume says where
        for i in range(first, len(every.keys)):
            key = every.keys[i]
            if keep is not None and not keep(key):
                budget.step(key)
                continue
            # A rack tile is always spent before a blank: the blanks stand for the tiles the rack lacks.
            lacking = sorted((Counter(key) - have).elements(), key=rank)
            found.append(Match(key, tuple(label[c].label for c in lacking)))
            budget.count(key)
            budget.step(key)
    return found


class Anagrams(NamedTuple):
    """Every answer of an anagram query, sorted: what :func:`anagrams` keeps and reads pages from."""

    order: list[bytes]  # each answer's place in the order (see _place)
    keys: list[str]


def _place(edition: Edition, key: str) -> bytes:
    """A key's place in :func:`anagram_order`: its :meth:`~lextools.core.edition.Edition.rank_bytes`,
    one byte per tile, so that its length is its length in tiles (see :func:`_longest_first`)."""
    return next(edition.rank_bytes((key,)))


def _longest_first(place: bytes) -> tuple[int, bytes]:
    """What :func:`anagram_order` compares: longer first, then the alphabet."""
    return -len(place), place


def anagram_order(edition: Edition, keys: Iterable[str]) -> list[str]:
    """Keys longest first, counted in tiles, then in the edition's alphabetical order
    (:meth:`~lextools.core.edition.Edition.collation_key`): every list of anagrams a person reads.
    es-fise: CHATO (CH·A·T·O, 4 tiles) after BATO and before DATO; OLLA (O·LL·A, 3 tiles) with
    the 3-tile words, after BAO."""
    return _in_order(edition, list(edition.rank_bytes(keys))).keys


def sorted_anagrams(lex: Lexicon, rack: str, blanks: int, sub: bool, min_length: int) -> Anagrams:
    """Every answer of an anagram query in the answer's order (:func:`anagram_order`): the walk that
    :func:`anagrams` does once per query (in the background) and then reads pages from."""
    table = table_of(lex)
    if table is not None and not sub and not blanks:  # one alphagram, whose record is in order already
        places = table.exact(rack, lex.alphagram_test())
        if places is None:
            alphagram = lex.alphagram(rack)
            places = table.ranked_words_of(alphagram.encode()) if lex.has_alphagram(alphagram) else []
        if not places or len(rack) < min_length:
            return Anagrams([], [])
        return Anagrams(places, lex.edition.keys_of_ranks(places))
    return _matches(lex, rack, blanks, sub, min_length, Budget().pace)


def _in_order(edition: Edition, places: list[bytes]) -> Anagrams:
    """Answers (their places, :func:`_place`) in :func:`anagram_order`, and their keys: places sort as
    bytes in the alphabet, then a stable sort by length puts the longest first (both C sorts with no
    Python key function), and one translate turns them all back into keys."""
    places.sort()
    places.sort(key=len, reverse=True)
    return Anagrams(places, edition.keys_of_ranks(places))


def _matches(lex: Lexicon, rack: str, blanks: int, sub: bool, min_length: int, pace: Callable[[], None]) -> Anagrams:
    """Every anagram (or subanagram) of the rack, in order; the walks call ``pace`` at every node
    (under gevent, a long walk must let the other requests run)."""
    if not len(lex):  # an empty lexicon has no words to walk
        return Anagrams([], [])
    shortest = max(min_length, 1)
    table = table_of(lex)
    if table is not None:
        alphagrams = _table_alphagrams(lex, rack, blanks, sub, shortest, pace)
        if alphagrams is not None:
            return _in_order(lex.edition, _in_chunks(table.ranked_words, alphagrams, _LOOKUPS_AT_ONCE))
    return _in_order(lex.edition, list(lex.edition.rank_bytes(_walked(lex, rack, blanks, sub, shortest, pace))))


def _table_alphagrams(
    lex: Lexicon, rack: str, blanks: int, sub: bool, shortest: int, pace: Callable[[], None]
) -> list[bytes] | None:
    """The alphagrams (keys of the index) answering a rack that the table answers: anagrams with one
    or two blanks (the rack's alphagram with each tile put in; the index's fills of the blanks),
    subanagrams of at most ``_TABLE_SUBSETS`` tiles and no blank (the parts of the rack the index
    knows) or one or two (:func:`_blank_parts`); None for any other rack."""
    known = lex.alphagram_test()
    if not sub:
        if blanks > _TABLE_BLANKS or len(rack) + blanks < shortest:
            return None if blanks > _TABLE_BLANKS else []
        found = filter(known, _one_more(lex, rack)) if blanks == 1 else _alphagrams(lex, rack, blanks, pace)
        return list(map(str.encode, found))
    if blanks > _TABLE_BLANKS or len(rack) > _TABLE_SUBSETS:
        return None
    if blanks:
        if lex.reader == "dawg2":
            return _blank_parts(lex, rack, blanks, shortest, pace)
        return _spend_alphagrams(lex, rack, blanks, shortest, pace) if blanks == 1 else None
    return list(map(str.encode, filter(known, _parts(lex, rack, shortest))))


def _parts(lex: Lexicon, rack: str, shortest: int) -> set[str]:
    """The parts of the rack's alphagram of at least ``shortest`` tiles ("" too from 0). Taken in
    order, they are alphagrams themselves: made and deduplicated by C functions, no Python call per
    part. A tile no word has is in no part that spells one, so it is left out."""
    order = lex.alphagram_order
    alphagram = lex.alphagram("".join(c for c in rack if c in order))
    parts: set[str] = set()
    for n in range(shortest, len(alphagram) + 1):
        parts.update(map("".join, itertools.combinations(alphagram, n)))
    return parts


def _walked(lex: Lexicon, rack: str, blanks: int, sub: bool, shortest: int, pace: Callable[[], None]) -> list[str]:
    """Every anagram (or subanagram) of the rack as the walks of the DAWGs find them (a rack the table
    does not answer, or a lexicon built without it)."""
    if sub:
        return _spend_rack(lex, rack, blanks, shortest, pace)
    if len(rack) + blanks < shortest:
        return []
    alphagrams = _alphagrams(lex, rack, blanks, pace)
    if len(alphagrams) > _SPELLED_APART:
        # Many multisets (a rack of common tiles): one walk of the words DAWG with the rack, its
        # blanks standing only for tiles some multiset needs, costs less than spelling each apart
        # (with few multisets, spelling each apart costs less).
        have = Counter(rack)
        needs = {"".join(sorted((Counter(a) - have).elements())) for a in alphagrams}
        fills = {"".join(part) for need in needs for n in range(len(need) + 1)
                 for part in itertools.combinations(need, n)}  # fmt: skip
        return _spend_rack(lex, rack, blanks, len(rack) + blanks, pace, fills)
    return _spend_exactly(lex, alphagrams, pace)


#: Most multisets whose words :func:`_spend_exactly` finds one by one (see :func:`_walked`).
_SPELLED_APART = 40
#: Racks the table answers (:func:`_table_alphagrams`): at most this many blanks, and for subanagrams
#: at most this many tiles (every part of the rack is looked up, 2^n of them, each with the blanks
#: put in at each choice of places; DAWG-Python's reader: no blank or one). Other racks walk the
#: words DAWG.
_TABLE_BLANKS, _TABLE_SUBSETS = 2, 8


def _one_more(lex: Lexicon, rack: str) -> list[str]:
    """The rack's alphagram with one tile more, once for each tile of the alphagram order: the tile
    goes after the rack's tiles that come before it or are it, and before the others."""
    order, base = lex.alphagram_order, lex.alphagram(rack)
    try:
        ranks = [order.index(c) for c in base]
    except ValueError:  # a tile no word has: no anagram can spend it
        return []
    found: list[str] = []
    lo = 0
    for k, rank in enumerate(ranks):  # before rack tile k: the tiles from rack tile k - 1 to it
        head, tail = base[:k], base[k:]
        found += [head + tile + tail for tile in order[lo:rank]]
        lo = rank
    found += [base + tile for tile in order[lo:]]
    return found


def _alphagrams(lex: Lexicon, rack: str, blanks: int, pace: Callable[[], None]) -> list[str]:
    """The alphagrams in the index spending every tile of the rack and every blank, sorted.

    An alphagram holding the rack's tiles and ``blanks`` more has the rack's alphagram in its other
    places: one pattern per choice of the blanks' places (``C(size, blanks)`` of them), each filled
    in by dawg2's similar-keys walk of the index. With many blanks there are too many patterns, and
    one walk of the index spends rack tiles and blanks in order instead.
    """
    if any(c not in lex.alphagram_order for c in rack):  # a tile no word has: no anagram can spend it
        return []
    size = len(rack) + blanks
    if math.comb(size, blanks) > _BLANK_PATTERNS:
        return sorted(_walk_alphagrams(lex, rack, blanks, pace))
    base, tiles = lex.alphagram(rack), lex.alphagram_order
    patterns = []
    for spots in itertools.combinations(range(size), blanks):
        placed = iter(base)
        patterns.append("".join(BLANK if i in spots else next(placed) for i in range(size)))
    pace()
    return sorted(set(lex.blank_fills_of(patterns, tiles, alphagrams=True)))  # at most _BLANK_PATTERNS


def _spend_alphagrams(lex: Lexicon, rack: str, blanks: int, shortest: int, pace: Callable[[], None]) -> list[bytes]:
    """The alphagrams of the index of at least ``shortest`` tiles spelled with tiles of the rack and
    up to ``blanks`` blanks, as keys of the index (UTF-8).

    One walk of the index in its order, reading dawgdic's units directly (no call per edge): each
    next tile is one of the rack's (a rack tile is always taken before a blank for the same tile, so
    an alphagram is reached once) or, while a blank is left, any tile at or after the last one. Only
    the multisets that start some alphagram are walked on — the naive dict tries every part of the
    rack with every tile for each blank.
    """
    units, order = lex.alphagrams._units, lex.alphagram_order
    labels, spelled = _labels_of(order), [c.encode() for c in order]
    left = [0] * len(order)
    for c in rack:
        at = order.find(c)
        if at >= 0:  # a tile no word has is in no answer
            left[at] += 1
    # The rack's tiles at or after each place: where a walk without blanks goes on.
    own = [tuple(i for i in range(pos, len(order)) if left[i]) for pos in range(len(order) + 1)]
    every = [range(pos, len(order)) for pos in range(len(order) + 1)]
    found: list[bytes] = []

    def walk(index: int, pos: int, blanks_left: int, alpha: bytes, depth: int) -> None:
        if depth < 3:  # a rack of at most _TABLE_SUBSETS tiles: a branch from there is short
            pace()
        unit = units[index]
        offset = (unit >> 10) << ((unit & _EXTENSION_BIT) >> 6)
        for i in every[pos] if blanks_left else own[pos]:
            n = left[i]
            if not n and not blanks_left:
                continue
            label = labels[i]
            if isinstance(label, int):  # a tile of one byte, as nearly every one
                child = index ^ offset ^ label
                if units[child] & _LABEL_MASK != label:
                    continue
            else:
                after = _follow(units, index, label)
                if after is None:
                    continue
                child = after
            word = alpha + spelled[i]
            if depth >= shortest and units[child] & _HAS_LEAF_BIT:
                found.append(word)
            if n:
                left[i] = n - 1
                walk(child, i, blanks_left, word, depth + 1)
                left[i] = n
            else:
                walk(child, i, blanks_left - 1, word, depth + 1)

    walk(lex.alphagrams.ROOT, 0, blanks, b"", 1)
    return found


def _blank_parts(lex: Lexicon, rack: str, blanks: int, shortest: int, pace: Callable[[], None]) -> list[bytes]:
    """:func:`_spend_alphagrams` where dawg2 fills patterns in C++: the parts of the rack the index
    knows, and each part with one blank (or two) put in at each choice of places — one similar-keys
    walk of the index per pattern (about 250 for 6 tiles and a blank, 270 for 5 and two; DAWG-Python's
    reader walks patterns in Python, so it takes the walk instead)."""
    parts = _parts(lex, rack, 0)
    found = set(filter(lex.alphagram_test(), [p for p in parts if len(p) >= shortest]))
    # A blank at each place of each part (sliced in, no Python call per pattern); a second blank at
    # each place at or after the first.
    patterns = [p[:a] + BLANK + p[a:] for p in parts if len(p) + 1 >= shortest for a in range(len(p) + 1)]
    if blanks > 1:
        places = itertools.combinations_with_replacement
        patterns += [p[:a] + BLANK + p[a:b] + BLANK + p[b:]
                     for p in parts if len(p) + 2 >= shortest for a, b in places(range(len(p) + 1), 2)]  # fmt: skip
    pace()
    fill = functools.partial(lex.blank_fills_of, tiles=lex.alphagram_order, alphagrams=True)
    found.update(_in_chunks(fill, patterns, _PATTERNS_AT_ONCE))  # up to 4,096 patterns (8 tiles, 2 blanks)
    return list(map(str.encode, found))


def _in_chunks(work: Callable[[list[T]], Iterable[U]], items: list[T], size: int) -> list[U]:
    """``work`` of the items, ``size`` at a time with a :func:`~lextools.core.budget.pause` between
    two (one call, no pause, for a list of at most ``size``): C work that lets a gevent worker's other
    requests run every millisecond or two."""
    if len(items) <= size:
        return list(work(items))
    done: list[U] = []
    for start in range(0, len(items), size):
        done += work(items[start : start + size])
        pause()
    return done


#: Patterns filled in one ``map`` (a few milliseconds of C++ at most), and alphagrams looked up in
#: the table in one chain of ``map``: the other requests of a gevent worker run in between.
_PATTERNS_AT_ONCE, _LOOKUPS_AT_ONCE = 512, 2048


@cache
def _labels_of(order: str) -> list[int | bytes]:
    """Each tile's label in the index: its byte, or its UTF-8 bytes when it has several."""
    return [c.encode()[0] if len(c.encode()) == 1 else c.encode() for c in order]


def _follow(units: Any, index: int, label: bytes) -> int | None:
    """The node after the bytes of a tile of several bytes, or None."""
    for byte in label:
        unit = units[index]
        child = index ^ ((unit >> 10) << ((unit & _EXTENSION_BIT) >> 6)) ^ byte
        if units[child] & _LABEL_MASK != byte:
            return None
        index = child
    return index


#: Most patterns :func:`_alphagrams` fills in; past this a walk of the index is quicker.
_BLANK_PATTERNS = 120


def _walk_alphagrams(lex: Lexicon, rack: str, blanks: int, pace: Callable[[], None]) -> list[str]:
    """:func:`_alphagrams` by one walk of the index in its alphagram order, taking each next tile
    from the rack or, failing that, from a blank: a rack tile skipped can never be placed later,
    since an alphagram is sorted, which prunes the walk hard."""
    dct = lex.alphagrams
    order = lex.alphagram_order
    encoded = [c.encode() for c in order]
    rank = {c: i for i, c in enumerate(order)}
    left = [0] * len(order)
    for c in rack:
        left[rank[c]] += 1
    size = len(rack) + blanks
    found: list[str] = []

    def walk(index: int, pos: int, blanks_left: int, alpha: str) -> None:
        pace()
        if len(alpha) == size:
            if dct.has_value(index):
                found.append(alpha)
            return
        last = next((j for j in range(pos, len(order)) if left[j]), len(order) - 1)
        for i in range(pos, last + 1):
            if left[i]:
                nxt = dct.follow_bytes(encoded[i], index)
                if nxt is not None:
                    left[i] -= 1
                    walk(nxt, i, blanks_left, alpha + order[i])
                    left[i] += 1
            elif blanks_left:
                nxt = dct.follow_bytes(encoded[i], index)
                if nxt is not None:
                    walk(nxt, i, blanks_left - 1, alpha + order[i])

    walk(dct.ROOT, 0, blanks, "")
    return found


#: How many first tiles of an anagram are placed one by one, each a prefix test; the rest of it is
#: one similar-keys walk of the words DAWG over the tiles left.
_PLACED_FIRST = 2


def _spend_exactly(lex: Lexicon, multisets: list[str], pace: Callable[[], None]) -> list[str]:
    """Keys spelling exactly one of the multisets of tiles (strings of tiles, in any order).

    The first ``_PLACED_FIRST`` tiles are placed one by one while some key starts with them; the
    rest is one :meth:`~lextools.core.lexicon.Lexicon.blank_fills` walk over the tiles left, whose keys
    are kept when they spend exactly those tiles (the walk only knows which tiles, not how many).
    Placing more tiles first costs more prefix tests than it saves, and placing one costs more too.
    """
    is_prefix = lex.is_prefix
    found: list[str] = []
    for multiset in multisets:
        target = sorted(multiset)

        def place(key: str, left: str) -> None:
            pace()
            if len(key) == _PLACED_FIRST or not left:
                fills = lex.blank_fills(key + BLANK * len(left), "".join(sorted(set(left))))
                found.extend(k for k in fills if sorted(k) == target)  # noqa: B023
                return
            for tile in dict.fromkeys(left):  # each tile once, in a repeatable order
                if is_prefix(key + tile):
                    place(key + tile, left.replace(tile, "", 1))

        place("", multiset)
    return found


def _spend_rack(
    lex: Lexicon,
    rack: str,
    blanks: int,
    shortest: int,
    pace: Callable[[], None],
    fills: Container[str] | None = None,
) -> list[str]:
    """Keys of at least ``shortest`` tiles spelled with tiles of the rack and up to ``blanks`` blanks;
    with ``fills``, blanks only stand for tiles whose sorted string (and each one before it) is in it.

    A rack tile is always taken before a blank for the same tile, so a word is found once.
    """
    graph = lex.graph
    found: list[str] = []
    if not len(graph.guide._units):  # an empty lexicon has no guide
        return found
    left: dict[str, int] = {}  # a dict, not a Counter: Counter's lookup of a missing tile is a Python call
    for tile in rack:
        left[tile] = left.get(tile, 0) + 1
    walk = _rack_walk(graph, left, shortest, len(rack) + blanks, pace, fills, found)
    walk(graph.dct.ROOT, "", blanks, "", 1)
    return found


def _rack_walk(
    graph: Any,
    left: dict[str, int],
    shortest: int,
    size: int,
    pace: Callable[[], None],
    fills: Container[str] | None,
    found: list[str],
) -> Callable[[int, str, int, str, int], None]:
    """The walk of :func:`_spend_rack` from a node: ``walk(index, key, blanks_left, used, depth)``
    spends ``left`` (the rack's tiles not yet placed) and blanks on the words DAWG's edges, adding
    to ``found``; ``used`` is the tiles blanks stand for so far, sorted, when ``fills`` is given.

    It reads dawgdic's units itself (see :func:`lextools.core.lexicon.children`): it visits every
    prefix the rack can spell, so an edge of a one-byte tile costs it no function call.
    """
    units, guide = graph.dct._units, graph.guide._units
    count = left.get

    def walk(index: int, key: str, blanks_left: int, used: str, depth: int) -> None:
        pace()
        unit = units[index]
        offset = (unit >> 10) << ((unit & _EXTENSION_BIT) >> 6)
        label = guide[index * 2]
        while label:
            child = index ^ offset ^ label
            if label < 0x80:  # a tile of one byte: no list made, as in nearly every edge
                more, tile, node = None, _ASCII[label], child
            else:
                more = _multibyte(graph, label, child)
                tile, node = more.pop()
            while True:
                n = count(tile, 0)
                if n:
                    left[tile] = n - 1
                    word = key + tile
                    if depth >= shortest and units[node] & _HAS_LEAF_BIT:
                        found.append(word)
                    if depth < size and guide[node * 2]:  # a node with no children is not walked
                        walk(node, word, blanks_left, used, depth + 1)
                    left[tile] = n
                elif blanks_left:
                    now = ("".join(sorted(used + tile)) if used else tile) if fills is not None else ""
                    if fills is None or now in fills:
                        word = key + tile
                        if depth >= shortest and units[node] & _HAS_LEAF_BIT:
                            found.append(word)
                        if depth < size and guide[node * 2]:
                            walk(node, word, blanks_left - 1, now, depth + 1)
                if not more:
                    break
                tile, node = more.pop()
            label = guide[child * 2 + 1]

    return walk


#: dawgdic's unit bits (DAWG-Python's ``units`` module): a word ends at this node; the offset is scaled.
_HAS_LEAF_BIT, _EXTENSION_BIT = 1 << 8, 1 << 9
_ASCII = [chr(i) for i in range(0x80)]
#: A unit's label (dawgdic: its byte and the leaf flag).
_LABEL_MASK = (1 << 31) | 0xFF


def _multibyte(graph: Any, lead: int, child: int) -> list[tuple[str, int]]:
    """The tiles starting with UTF-8 byte ``lead`` (Ñ) and the node after each one's last byte."""
    return [
        (bytes((lead, *rest)).decode(), end)
        for rest, end in _continuations(graph.dct, graph.guide, child, utf8_length(lead) - 1)
    ]


def _anagram_position(after: str, edition: Edition) -> str:
    """The key an anagram page stopped at (:func:`anagrams` gives it out), checked: tiles of the
    edition, at most :data:`MAX_QUERY_TILES` of them."""
    if not 1 <= len(after) <= MAX_QUERY_TILES or not set(after) <= edition.by_code.keys():
        raise PositionError("not a position an anagram search can resume from")
    return after


def check_order(order: str) -> None:
    """Refuse an order that is not one of :data:`ORDERS`."""
    if order not in ORDERS:
        raise QueryError(message("unknown_order", order=repr(order), orders=" | ".join(ORDERS)))


def ordered(lex: Lexicon, keys: list[str], order: str) -> list[str]:
    """``alpha`` (the edition's alphabet) or ``probability`` (shorter first in tiles, then likeliest
    draw first, ties in the alphabet: the ranking's order, :mod:`lextools.core.ranking`; where counts
    are known)."""
    ed = lex.edition
    if order == "alpha":
        return ed.sort_keys(keys)
    check_order(order)
    return sorted(keys, key=lambda k: (len(k), -ed.probability(ed.decode(k)), ed.collation_key(k)))


def export_order(lex: Lexicon) -> Iterator[str]:
    """Every key, in the edition's alphabetical order (es-fise: … CU…, CHA…, D…)."""
    return iter(lex.edition.sort_keys(lex.keys()))


def find(
    lex: Lexicon,
    pattern: str | None = None,
    length: int | None = None,
    contains: str | None = None,
    starts: str | None = None,
    ends: str | None = None,
    *,
    order: str = "alpha",
    budget: Budget | None = None,
    after: str | None = None,
    conditions: Conditions | None = None,
) -> Iterator[str]:
    """Keys meeting every given constraint and the ``conditions`` (:mod:`lextools.core.conditions`),
    in ``order``: the service's ``search``.

    ``pattern`` is read by :func:`parse_pattern` (None: any word; an empty or blank one is refused);
    ``contains``, ``starts`` and ``ends`` are tiles in
    any notation; ``length`` counts tiles. Constraints are tile-level, so in es-fise ``starts=C``
    does not match CHICO (its first tile is CH). Bad constraints raise :class:`QueryError` at the
    call. ``budget`` and ``after``: see the module docstring.

    In ``alpha`` order the pattern, ``starts`` and ``length`` prune the walk; ``contains`` and
    ``ends`` are checked on each key found (a prefix and a suffix may overlap: CASA starts with CA
    and ends with AS). The walk follows only the DAWG's existing edges, through its guide, keeping
    the set of pattern positions still alive at each node, so any pattern costs about one visit per
    node it reaches, rather than trying every tile code at every node.
    """
    if length is not None and not 1 <= length <= MAX_QUERY_TILES:
        raise QueryError(message("length_range", max=MAX_QUERY_TILES))
    check_order(order)

    def tiles_of(name: str, text: str | None) -> str:
        if not text:
            return ""
        try:
            return spell(text, lex.edition).key
        except SpellingError as e:
            raise QueryError(message("bad_param", name=name, text=repr(text), reason=e.message or e.reason)) from None

    prefix, infix, suffix = tiles_of("starts", starts), tiles_of("contains", contains), tiles_of("ends", ends)
    parts: list[str | None] = parse_pattern(pattern, lex) if pattern is not None else ["*"]
    budget = budget if budget is not None else Budget()
    test = matcher(lex, conditions)
    if order == "probability":
        matches = _matcher(parts, prefix, length, infix, suffix)
        accepts = matches if test is None else lambda k: matches(k) and test(k)
        return iter(_probability_pages(lex, parts, prefix, length, accepts, budget, after))

    def keep(k: str) -> bool:
        return k.endswith(suffix) and infix in k and (test is None or test(k))

    return iter(_walk_guided(lex, parts, prefix, length, keep=keep, budget=budget, after=after))


def _matcher(
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


def _probability_pages(
    lex: Lexicon,
    parts: list[str | None],
    prefix: str,
    length: int | None,
    matches: Callable[[str], bool],
    budget: Budget,
    after: str | None,
) -> list[str]:
    """Keys ``matches`` accepts in probability order (:mod:`lextools.core.ranking`: shorter first,
    then likeliest), from the one after global index ``after``.

    Length by length, from the one ``after`` is in: a pattern whose first tile is given (or
    ``prefix``) is walked in the words DAWG for that length, where the tile prunes the walk, and its
    keys sorted by rank; any other scans the ranking's keys of that length. A page stops at its time
    budget only once it holds a word, and only just before a further answer, so no page is empty
    while the query has answers left. While a lexicon built without a ranking file computes its
    ranking, the page waits for it at most its budget and then ends with nothing found and its
    position unchanged.
    """
    if after and not (after.isascii() and after.isdigit() and len(after) <= 9):
        raise PositionError("not a position a probability search can resume from")
    lex.edition.probability(())  # raises where the counts are unverified: no probability order
    ranks = ranks_of(lex, wait=budget.remaining())
    if ranks is None:
        budget.resume = after or ""
        return []
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
                if keys and found and budget.remaining() == 0:  # time is up, and answers are left
                    budget.stop(str(ranks.first[size] + (ranks.rank(keys[0]) or 0) - 1))
                base = ranks.first[size]
                for key in keys:
                    found.append(key)
                    last = budget.results is not None and budget.found + 1 >= budget.results
                    budget.count(str(base + (ranks.rank(key) or 0)) if last else "")  # the page's last: its position
            else:
                _scanned_length(ranks, size, matches, start, found, budget)
    return found


#: Keys of the ranking a scan reads at once.
_SCAN_CHUNK = 128


def _scanned_length(
    ranks: Ranks, size: int, matches: Callable[[str], bool], start: int, found: list[str], budget: Budget
) -> None:
    """The keys of ``size`` tiles from rank ``start`` that ``matches`` accepts (see _probability_pages)."""
    base, count = ranks.first[size], ranks.counts[size]
    for chunk in range(start, count, _SCAN_CHUNK):
        for i, key in enumerate(ranks.keys(size, chunk, chunk + _SCAN_CHUNK), base + chunk):
            if matches(key):
                if found and budget.remaining() == 0:  # time is up: stop just before this answer
                    budget.stop(str(i - 1))
                found.append(key)
                budget.count(str(i))
        budget.pace()


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
    keys = [k for k in _walk_guided(lex, parts, prefix, size) if matches(k)]
    records = {k: ranks.record(k) or b"" for k in keys}
    keys.sort(key=lambda k: ranks.sort_key(records[k]))
    if start and keys:
        at = ranks.offset[size] + (start - 1) * size
        last = ranks.sort_key(bytes(ranks.data[at : at + size]))  # the key the position settled
        keys = [k for k in keys if ranks.sort_key(records[k]) > last]
    return keys


class _Positions:
    """The places of a parsed pattern a key's tiles so far may have reached, as a set per key.

    A ``*`` may match no tile at all, so a set holds every place after a run of stars too
    (:meth:`closure`). The set after a tile depends only on the set before it and the tile, and
    the walk meets the same few sets at every node: each move is worked out once and kept.
    """

    def __init__(self, parts: list[str | None]) -> None:
        self.parts = parts
        self.end = len(parts)  # a key matches when this place is in its set
        self.start = self.closure({0})
        self.moves: dict[tuple[frozenset[int], str], frozenset[int]] = {}

    def closure(self, positions: set[int]) -> frozenset[int]:
        parts, end = self.parts, self.end
        out = set(positions)
        for i in positions:
            while i < end and parts[i] == "*":
                i += 1
                out.add(i)
        return frozenset(out)

    def move(self, alive: frozenset[int], tile: str) -> frozenset[int]:
        """The set after ``tile`` (empty: no key through here matches), kept in :attr:`moves`."""
        moved = set()
        for i in alive:
            if i == self.end:
                continue
            if self.parts[i] == "*":
                moved.add(i)
            elif self.parts[i] is None or self.parts[i] == tile:
                moved.add(i + 1)
        nxt = self.moves[(alive, tile)] = self.closure(moved)
        return nxt


def _walk_guided(
    lex: Lexicon,
    parts: list[str | None],
    prefix: str,
    length: int | None,
    *,
    keep: Callable[[str], bool] | None = None,
    budget: Budget | None = None,
    after: str | None = None,
) -> list[str]:
    """Keys matching a parsed pattern whose first tiles are ``prefix``, of ``length`` tiles if given,
    that ``keep`` accepts, in the edition's alphabet order, after the key ``after``."""
    if not len(lex):  # an empty DAWG has no guide units to walk: nothing matches
        return []
    graph, dct = lex.graph, lex.graph.dct
    rank = lex.edition.collation_key
    budget = budget if budget is not None else Budget()
    longest = length if length is not None else MAX_QUERY_TILES
    target = after or ""
    positions = _Positions(parts)
    moves, move, end = positions.moves, positions.move, positions.end
    found: list[str] = []

    def visit(index: int, alive: frozenset[int], key: str, on_path: bool) -> None:
        depth = len(key)
        for tile, child in sorted(children(graph, index), key=lambda tc: rank(tc[0])):
            if depth < len(prefix) and prefix[depth] != tile:
                continue
            settled = False  # the key is `after` or comes before it: done on an earlier page
            if on_path and depth < len(target):
                if rank(tile) < rank(target[depth]):
                    continue
                settled = tile == target[depth]
            nxt = moves.get((alive, tile))
            if nxt is None:
                nxt = move(alive, tile)
            if not nxt:
                continue
            word = key + tile
            if (
                not settled
                and end in nxt
                and dct.has_value(child)
                and (length is None or len(word) == length)
                and (keep is None or keep(word))
            ):
                found.append(word)
                budget.count(word)
            budget.step(target if settled else word)
            if len(word) < longest:
                visit(child, nxt, word, settled)

    with contextlib.suppress(Exhausted):  # budget.resume says where
        visit(dct.ROOT, positions.start, "", bool(target))
    return found
