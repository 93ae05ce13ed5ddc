"""The guided walk of the words DAWG behind every pattern search: keys matching a parsed pattern
(:func:`lextools.core.search.patterns.parse_pattern`), in the edition's alphabet, resumable after a
key (see :mod:`lextools.core.search`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from lextools.core.budget import Budget, Exhausted
from lextools.core.lexicon import Lexicon, children
from lextools.core.search.parts import MAX_QUERY_TILES


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


def walk_guided(
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
