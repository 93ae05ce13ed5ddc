"""``lextools verify``'s walks of a KWG made on arrays (numpy): the DAWG half against the lexicon's
words DAWG (:func:`holds_exactly`), and the GADDAG half
against the DAWG half (:func:`split_points`, as :func:`lextools.features.verify._identical_gaddag`),
a row per path, a length at a time.

Only ``verify`` imports this module (lazily), so a look-up never loads numpy.

A path of the GADDAG half, and a prefix of the DAWG half, is a string of tiles written as two int64
words of ``63 // bits`` tiles each, its first tile lowest: the GADDAG half's path ``rev(p)`` grows
by a tile at its high end, the DAWG half's prefix by shifting its tiles up one place, so the two
spell one string alike and are matched by value. A length past what two words hold is not walked
here (:data:`TOO_LONG`): the caller walks it with Python's integers.

The answer is the same as the Python walk's on every file: the split points when the half is exactly
the DAWG half's, else None — the caller then reads the file in full and lists it to say what differs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from lextools.core import kwg
from lextools.core.kwg_bulk import groups

Ints = NDArray[np.int64]

_CODE_MASK = kwg.ACCEPTS | kwg.ARC_MASK
#: The walk needs lengths longer than two words of tiles hold: the caller walks it in Python.
TOO_LONG = -1


@dataclass
class _Rows:
    """Paths (or prefixes) of one length: what each reaches (``accepts | arc``), and its tiles."""

    key: Ints
    low: Ints
    high: Ints

    def take(self, which: Ints) -> _Rows:
        return _Rows(self.key[which], self.low[which], self.high[which])


@dataclass
class _Prefixes:
    """The DAWG half's prefixes of one length: those with a list after them (``inner``, with what the
    DAWG half says of them: ``accepts | arc``) and those without (``leaves``), and how many are words."""

    inner: _Rows
    leaves: _Rows
    words: int


def _empty() -> _Rows:
    none = np.zeros(0, np.int64)
    return _Rows(none, none, none)


class _Walk:
    def __init__(self, graph: kwg.Kwg, bits: int, equal: Callable[[int, int], bool]) -> None:
        self.nodes = np.frombuffer(graph.nodes, dtype=np.uint32).astype(np.int64)
        self.counts = np.frombuffer(graph.counts, dtype=np.uint64).astype(np.int64)
        self.bits, self.per = bits, 63 // bits
        self.top = 1 << bits
        self.equal = equal

    def lists(self, arcs: Ints, check: bool) -> tuple[Ints, Ints]:
        """The nodes of the lists at ``arcs`` (none for 0): (index in ``arcs``, node value). With
        ``check``, a list whose tiles are not ascending from 1 and under ``top`` raises :class:`_Off`;
        a list that runs past the last node raises IndexError (the caller reads the file in full)."""
        owners, values = [], []
        idx = np.flatnonzero(arcs)
        cur = arcs[idx]
        previous = np.zeros(idx.size, np.int64)
        while cur.size:
            v = self.nodes[cur]
            tile = v >> 24
            if check and ((tile <= previous).any() or (tile >= self.top).any()):
                raise _Off
            owners.append(idx)
            values.append(v)
            more = (v & kwg.IS_END) == 0
            idx, cur, previous = idx[more], cur[more] + 1, tile[more]
        if not owners:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(owners), np.concatenate(values)


class _Off(Exception):
    """The walk found the half is not what it should be."""


def _expand(counts: Ints) -> tuple[Ints, Ints]:
    """For rows that each own ``counts[row]`` items stored contiguously per owner: (row, item index)."""
    rows = np.repeat(np.arange(counts.size), counts)
    starts = np.cumsum(counts) - counts
    return rows, np.arange(rows.size) - np.repeat(starts, counts)


def _distinct(values: Ints, size: int) -> tuple[Ints, Ints]:
    """``np.unique(values, return_inverse=True)`` for values under ``size``, without a sort."""
    seen = np.zeros(size, np.bool_)
    seen[values] = True
    distinct = np.flatnonzero(seen)
    number = np.empty(size, np.int64)
    number[distinct] = np.arange(distinct.size)
    return distinct, number[values]


def _by_owner(owner: Ints, values: Ints, size: int) -> tuple[Ints, Ints, Ints]:
    """Items grouped by owner (stable): the values in that order, each owner's first item and count."""
    order = np.argsort(owner, kind="stable")
    counts = np.bincount(owner, minlength=size)
    return values[order], np.cumsum(counts) - counts, counts


def _grow(walk: _Walk, rows: _Rows, length: int, most: int) -> _Rows:
    """The paths one tile longer (the tile at the high end), through each list reached (the separator
    passed); :class:`_Off` past ``most`` paths or at a list out of order."""
    nodes = walk.nodes
    arc = rows.key & kwg.ARC_MASK
    head = np.where(arc != 0, nodes[arc], 0)
    sep = (arc != 0) & (head >> 24 == 0)
    arc = np.where(sep, np.where(head & kwg.IS_END, 0, arc + 1), arc)
    lists, which = _distinct(arc, nodes.size + 1)
    owner, values = walk.lists(lists, check=True)
    keep = (values & _CODE_MASK) != 0  # a node that neither accepts nor leads anywhere ends nothing
    owner, values = owner[keep], values[keep]
    ordered, first, count = _by_owner(owner, values, lists.size)
    per_row = count[which]
    if int(per_row.sum()) > most:
        raise _Off
    row, item = _expand(per_row)
    v = ordered[first[which[row]] + item]
    tile = v >> 24
    low, high = rows.low[row], rows.high[row]
    if length < walk.per:
        low = low | tile << (walk.bits * length)
    else:
        high = high | tile << (walk.bits * (length - walk.per))
    # in the order of the strings: the new tile is the first of the string, then the order before
    order = np.argsort(tile.astype(np.uint8), kind="stable")
    return _Rows(v & _CODE_MASK, low, high).take(order)


def _dawg_level(walk: _Walk, rows: _Rows) -> tuple[_Prefixes, _Rows]:
    """The DAWG half's prefixes one tile longer than ``rows`` (each with the list after it), and the
    rows of those with a list after them. The DAWG half was checked: its lists are not."""
    lists, which = _distinct(rows.key, walk.nodes.size)
    owner, values = walk.lists(lists, check=False)
    ordered, first, count = _by_owner(owner, values, lists.size)
    row, item = _expand(count[which])
    v = ordered[first[which[row]] + item]
    shift = walk.bits * (walk.per - 1)
    low = (rows.low[row] << walk.bits) & ((1 << (walk.bits * walk.per)) - 1) | v >> 24
    high = rows.high[row] << walk.bits | rows.low[row] >> shift
    longer = _Rows(v & _CODE_MASK, low, high)
    inner = (v & kwg.ARC_MASK) != 0
    found = _Prefixes(longer.take(np.flatnonzero(inner)), longer.take(np.flatnonzero(~inner)), 0)
    found.words = int(np.count_nonzero(v & kwg.ACCEPTS))
    deeper = found.inner
    return found, _Rows(deeper.key & kwg.ARC_MASK, deeper.low, deeper.high)


def _find(table: _Rows, rows: _Rows) -> Ints:
    """Where each of ``rows``' strings is in ``table`` (of distinct strings), -1 where it is not;
    both in the strings' order (the DAWG half's prefixes are made in it, the paths kept in it)."""
    if not table.key.size or not rows.key.size:
        return np.full(rows.key.size, -1, np.int64)
    if not table.high.any() and not rows.high.any():
        keys, wanted = table.low, rows.low
    else:  # two words: each replaced by its rank among both sides' values
        _, low = np.unique(np.concatenate((table.low, rows.low)), return_inverse=True)
        _, high = np.unique(np.concatenate((table.high, rows.high)), return_inverse=True)
        both = high * (int(low.max()) + 1) + low  # ranks: in the same order
        keys, wanted = both[: table.key.size], both[table.key.size :]
    at = np.searchsorted(keys, wanted).clip(max=keys.size - 1)
    return np.where(keys[at] == wanted, at, -1)


def _check(walk: _Walk, rows: _Rows, prefixes: _Prefixes) -> int:
    """The split points below the separators the paths reach, each path checked against the DAWG
    half's prefix it spells; :class:`_Off` when they differ."""
    nodes = walk.nodes
    arc = rows.key & kwg.ARC_MASK
    head = np.where(arc != 0, nodes[arc], 0)
    sep = (arc != 0) & (head >> 24 == 0)
    if (head[sep] & kwg.ACCEPTS).any():
        raise _Off
    split = rows.take(np.flatnonzero(sep))
    at = _find(prefixes.inner, split)
    if (at < 0).any():
        raise _Off
    entry = prefixes.inner.key[at]
    if ((entry & kwg.ACCEPTS) != (split.key & kwg.ACCEPTS)).any():
        raise _Off
    below, want = head[sep] & kwg.ARC_MASK, entry & kwg.ARC_MASK
    moved = np.unique(np.stack((below, want))[:, below != want], axis=1)
    if not all(walk.equal(int(a), int(w)) for a, w in moved.T):  # another writer's list of the same shape
        raise _Off
    words = rows.take(np.flatnonzero(~sep & ((rows.key & kwg.ACCEPTS) != 0)))
    if (_find(prefixes.leaves, words) < 0).any():
        raise _Off
    if words.key.size != prefixes.leaves.key.size or split.key.size != prefixes.inner.key.size:
        raise _Off
    return int(walk.counts[want].sum())


def _prefix_count(walk: _Walk, root: int) -> int:
    """How many prefixes the DAWG half has (its paths from the root)."""
    arcs, paths, total = np.array([root] if root else [], np.int64), np.ones(1 if root else 0, np.int64), 0
    while arcs.size:
        owner, values = walk.lists(arcs, check=False)
        total += int(paths[owner].sum())
        child = values & kwg.ARC_MASK
        live = child != 0
        arcs, inverse = _distinct(child[live], walk.nodes.size)
        paths = np.bincount(inverse, weights=paths[owner[live]], minlength=arcs.size).astype(np.int64)
    return total


def split_points(graph: kwg.Kwg, bits: int, equal: Callable[[int, int], bool]) -> int | None:
    """The GADDAG half's split points when it is exactly the DAWG half's, else None; :data:`TOO_LONG`
    when the walk needs longer strings than two words hold (see the module docstring)."""
    walk = _Walk(graph, bits, equal)
    nodes = walk.nodes
    root = graph.dawg_root
    dawg = _Rows(np.array([root], np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64)) if root else _empty()
    level = _Rows(np.array([int(nodes[1]) & _CODE_MASK], np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64))
    prefixes, most = _Prefixes(_empty(), _empty(), 0), _prefix_count(walk, root)
    length = splits = split_paths = 0
    try:
        while True:
            split_paths += _check(walk, level, prefixes)
            level = _grow(walk, level, length, most)
            if length >= kwg.MAX_DEPTH:
                return None
            if not level.key.size and not dawg.key.size:
                break
            if length + 1 >= 2 * walk.per:
                return TOO_LONG
            prefixes, dawg = _dawg_level(walk, dawg)
            length += 1
            splits += prefixes.words * (length - 1)
    except _Off:
        return None
    return splits if split_paths == splits else None


# -- the DAWG half against the lexicon's words DAWG -----------------------------------------------

_HAS_LEAF = 1 << 8


class _Dawgdic:
    """A dawgdic automaton's units and guide as arrays, its labels mapped to tile numbers."""

    def __init__(self, units: memoryview, guide: memoryview, tiles: dict[int, int]) -> None:
        self.units = np.frombuffer(units, dtype=np.uint32).astype(np.int64)
        self.guide = np.frombuffer(guide, dtype=np.uint8).astype(np.int64)
        self.tiles = np.zeros(max(0x10000, 1 + max(tiles, default=0)), np.int64)
        self.tiles[list(tiles)] = list(tiles.values())

    def base(self, index: Ints) -> Ints:
        unit = self.units[index]
        return index ^ ((unit >> 10) << ((unit & 512) >> 6))

    def transitions(self, index: Ints) -> tuple[Ints, Ints, Ints]:
        """(row of ``index``, tile, child unit) of every tile leaving each unit, a character of two
        UTF-8 bytes followed one unit further down (as ``lextools.core.kwg._Automaton.transitions``)."""
        rows, tiles, children = [], [], []
        row = np.arange(index.size)
        base, label = self.base(index), self.guide[2 * index]
        live = label != 0
        row, base, label = row[live], base[live], label[live]
        while row.size:
            child = base ^ label
            two = label >= 0xC0
            one = ~two
            rows.append(row[one])
            tiles.append(self.tiles[label[one]])
            children.append(child[one])
            self._second(row[two], label[two], child[two], (rows, tiles, children))
            label = self.guide[2 * child + 1]
            live = label != 0
            row, base, label = row[live], base[live], label[live]
        if not rows:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(rows), np.concatenate(tiles), np.concatenate(children)

    def _second(self, row: Ints, lead: Ints, child: Ints, out: tuple[list[Ints], list[Ints], list[Ints]]) -> None:
        """The tiles of two-byte characters led by ``lead`` at unit ``child``, appended to ``out``."""
        below, second = self.base(child), self.guide[2 * child]
        live = second != 0
        row, lead, below, second = row[live], lead[live], below[live], second[live]
        while row.size:
            out[0].append(row)
            out[1].append(self.tiles[lead << 8 | second])
            out[2].append(below ^ second)
            second = self.guide[2 * (below ^ second) + 1]
            live = second != 0
            row, lead, below, second = row[live], lead[live], below[live], second[live]


def holds_exactly(graph: kwg.Kwg, arc: int, units: memoryview, guide: memoryview, tiles: dict[int, int]) -> bool:
    """Whether the list at ``arc`` holds exactly the words of a lexicon's words DAWG (its dawgdic
    ``units`` and ``guide``, as a loaded lexicon maps them, ``tiles`` mapping its labels): both graphs
    walked together a depth at a time, every pair of a list and a unit reached together, each list
    node compared with the unit's transition of its rank in tile order — no word listed.

    False also when the two hold the same words in a shape this walk does not match (a list of no
    words where the DAWG has none); a caller that needs to know what differs then lists them.
    """
    if not len(guide):  # dawgdic writes no guide for an empty set
        return graph.counts[arc] == 0 if arc else True
    if not arc:
        return False
    dawgdic = _Dawgdic(units, guide, tiles)
    nodes = np.frombuffer(graph.nodes, dtype=np.uint32).astype(np.int64)
    arcs, index = np.array([arc], np.int64), np.zeros(1, np.int64)
    while arcs.size:
        row, tile, child = dawgdic.transitions(index)
        if np.bincount(row, minlength=arcs.size).min() == 0:  # a unit with no tile where a list is
            return False
        order = np.lexsort((child, tile, row))
        row, tile, child = row[order], tile[order], child[order]
        starts, _, from_end = groups(row)
        rank = np.arange(row.size) - np.repeat(starts, np.diff(np.append(starts, row.size)))
        at = arcs[row] + rank
        if (at >= nodes.size).any():  # a list shorter than the unit's tiles, at the end of the file
            return False
        v = nodes[at]
        below = v & kwg.ARC_MASK
        if (
            ((v >> 24) != tile).any()
            or (((v & kwg.ACCEPTS) != 0) != ((dawgdic.units[child] & _HAS_LEAF) != 0)).any()
            or (((v & kwg.IS_END) != 0) != (from_end == 0)).any()
            or ((below != 0) != (dawgdic.guide[2 * child] != 0)).any()
        ):
            return False
        deeper = np.flatnonzero(below)
        pairs = np.unique(below[deeper] << 32 | child[deeper])
        arcs, index = pairs >> 32, pairs & 0xFFFFFFFF
    return True
