"""Anagrams spelled from the words DAWG, for racks the alphagram table does not answer (more than
two blanks, subanagrams of more than eight tiles): the multisets of :mod:`~lextools.core.search.alphagram_walks` spelled
out — their first two tiles placed while some key starts with them, the rest one similar-keys walk
of the words DAWG over the tiles left — or, for subanagrams and racks of many multisets, one walk
of the words DAWG with the rack alone, reading dawgdic's units and guide directly: every node
reached spending rack tiles, or blanks for tiles the rack lacks, is a prefix of an answer."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Container
from typing import Any

from lextools.core.lexicon import Lexicon, _continuations, utf8_length
from lextools.core.search.alphagram_walks import exact_alphagrams
from lextools.core.search.parts import BLANK, EXTENSION_BIT, HAS_LEAF_BIT

_ASCII = [chr(i) for i in range(0x80)]


def walked(lex: Lexicon, rack: str, blanks: int, sub: bool, shortest: int, pace: Callable[[], None]) -> list[str]:
    """Every anagram (or subanagram) of the rack as the walks of the DAWGs find them (a rack the table
    does not answer)."""
    if sub:
        return _spend_rack(lex, rack, blanks, shortest, pace)
    if len(rack) + blanks < shortest:
        return []
    alphagrams = exact_alphagrams(lex, rack, blanks, pace)
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


#: Most multisets whose words :func:`_spend_exactly` finds one by one (see :func:`walked`).
_SPELLED_APART = 40

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
        offset = (unit >> 10) << ((unit & EXTENSION_BIT) >> 6)
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
                    if depth >= shortest and units[node] & HAS_LEAF_BIT:
                        found.append(word)
                    if depth < size and guide[node * 2]:  # a node with no children is not walked
                        walk(node, word, blanks_left, used, depth + 1)
                    left[tile] = n
                elif blanks_left:
                    now = ("".join(sorted(used + tile)) if used else tile) if fills is not None else ""
                    if fills is None or now in fills:
                        word = key + tile
                        if depth >= shortest and units[node] & HAS_LEAF_BIT:
                            found.append(word)
                        if depth < size and guide[node * 2]:
                            walk(node, word, blanks_left - 1, now, depth + 1)
                if not more:
                    break
                tile, node = more.pop()
            label = guide[child * 2 + 1]

    return walk


def _multibyte(graph: Any, lead: int, child: int) -> list[tuple[str, int]]:
    """The tiles starting with UTF-8 byte ``lead`` (Ñ) and the node after each one's last byte."""
    return [
        (bytes((lead, *rest)).decode(), end)
        for rest, end in _continuations(graph.dct, graph.guide, child, utf8_length(lead) - 1)
    ]
