"""Which multisets of tiles (alphagrams, keys of the lexicon's alphagram index) answer a rack.

Anagrams (every tile of the rack) with one blank put each tile of the alphagram order into the
rack's alphagram; with two, an alphagram holding the rack and two blanks more is the rack's
alphagram with two tiles put in, so each choice of the blanks' places is one pattern (``CD?EO?S``)
that dawg2 fills in with its C++ similar-keys walk — 36 patterns for 7 tiles and 2 blanks.
Subanagrams take the parts of the rack the index knows or — with blanks — each part with the blanks
put in at each choice of places, filled by dawg2's similar-keys walk in one ``map`` (DAWG-Python's
reader walks the index instead, :func:`_spend_alphagrams`).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from functools import cache
from typing import Any

from lextools.core.lexicon import Lexicon
from lextools.core.search.parts import BLANK, EXTENSION_BIT, HAS_LEAF_BIT, LABEL_MASK, in_chunks


def table_alphagrams(
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
        found = filter(known, _one_more(lex, rack)) if blanks == 1 else exact_alphagrams(lex, rack, blanks, pace)
        return list(map(str.encode, found))
    if blanks > _TABLE_BLANKS or len(rack) > _TABLE_SUBSETS:
        return None
    if blanks:
        if lex.reader == "dawg2":
            return _blank_parts(lex, rack, blanks, shortest, pace)
        return _spend_alphagrams(lex, rack, blanks, shortest, pace) if blanks == 1 else None
    return list(map(str.encode, filter(known, _parts(lex, rack, shortest))))


def at_once(lex: Lexicon, rack: str, blanks: int, sub: bool) -> bool:
    """Whether a rack's answers are short work, bounded, to find in the caller rather than in the
    background (:mod:`lextools.core.search.anagram_pages`): exact anagrams with at most two blanks
    (one look-up, or at most :data:`_BLANK_PATTERNS` patterns), subanagrams of at most
    :data:`_AT_ONCE_TILES` tiles the table answers. Microseconds to a few milliseconds, paced for a
    gevent worker by the walk itself, where a job and its thread cost milliseconds."""
    if blanks > _TABLE_BLANKS:
        return False
    return not sub or (len(rack) + blanks <= _AT_ONCE_TILES and (blanks < 2 or lex.reader == "dawg2"))


#: Subanagram racks (tiles and blanks) answered at once (:func:`at_once`): the racks players have.
_AT_ONCE_TILES = 7


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


#: Racks the table answers (:func:`table_alphagrams`): at most this many blanks, and for subanagrams
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


def exact_alphagrams(lex: Lexicon, rack: str, blanks: int, pace: Callable[[], None]) -> list[str]:
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
        offset = (unit >> 10) << ((unit & EXTENSION_BIT) >> 6)
        for i in every[pos] if blanks_left else own[pos]:
            n = left[i]
            if not n and not blanks_left:
                continue
            label = labels[i]
            if isinstance(label, int):  # a tile of one byte, as nearly every one
                child = index ^ offset ^ label
                if units[child] & LABEL_MASK != label:
                    continue
            else:
                after = _follow(units, index, label)
                if after is None:
                    continue
                child = after
            word = alpha + spelled[i]
            if depth >= shortest and units[child] & HAS_LEAF_BIT:
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
    found.update(in_chunks(fill, patterns, _PATTERNS_AT_ONCE))  # up to 4,096 patterns (8 tiles, 2 blanks)
    return list(map(str.encode, found))


#: Patterns filled in one ``map`` (a few milliseconds of C++ at most): the other requests of a
#: gevent worker run in between.
_PATTERNS_AT_ONCE = 512


@cache
def _labels_of(order: str) -> list[int | bytes]:
    """Each tile's label in the index: its byte, or its UTF-8 bytes when it has several."""
    return [c.encode()[0] if len(c.encode()) == 1 else c.encode() for c in order]


def _follow(units: Any, index: int, label: bytes) -> int | None:
    """The node after the bytes of a tile of several bytes, or None."""
    for byte in label:
        unit = units[index]
        child = index ^ ((unit >> 10) << ((unit & EXTENSION_BIT) >> 6)) ^ byte
        if units[child] & LABEL_MASK != byte:
            return None
        index = child
    return index


#: Most patterns :func:`exact_alphagrams` fills in; past this a walk of the index is quicker.
_BLANK_PATTERNS = 120


def _walk_alphagrams(lex: Lexicon, rack: str, blanks: int, pace: Callable[[], None]) -> list[str]:
    """:func:`exact_alphagrams` by one walk of the index in its alphagram order, taking each next tile
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
