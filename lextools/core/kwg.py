"""KWG and KAD: the word graphs wolges, MAGPIE, Macondo and Woogles (liwords) load.

The format, as the wolges documentation describes it: an array of little-endian u32 nodes, with no
header and no alphabet in the file. For a node ``v``::

    tile    = v >> 24          the tile number (blank = 0; see the alphabets below)
    accepts = v & 0x800000     a word ends on this tile
    is_end  = v & 0x400000     last node of its sibling list
    arc     = v & 0x3FFFFF     index of the first node of the children's sibling list; 0 = none

``node[0].arc`` is the DAWG's root list and ``node[1].arc`` the GADDAG's root list. A DAWG-only KWG
is written as wolges writes its own for a move generator: node 1 is still a root node (tile 0, end
of its list) whose arc is 0, an empty GADDAG, so a move generator that reads node 1 as the GADDAG
root finds no plays (rather than reading the DAWG's first list backwards). A KAD reserves node 0
only: nothing reads a GADDAG from it. Sibling lists are contiguous and sorted by ascending
tile; equal lists are stored once, and a list that is the tail of a longer one points into it.
The GADDAG stores each word once per split point: the reversed prefix, the separator (tile 0),
then the rest — CARE is ERAC, RAC·E, AC·RE, C·ARE. As in wolges, the separator's arc is the DAWG's
list after the prefix (the rest of CAR… is exactly what the DAWG holds after CAR), so the two halves
share their nodes. A KAD is the DAWG of the lexicon's alphagrams (tiles sorted by number), node 0 its only root node.

How the graph is made minimal: a dawgdic automaton (what dawg2 builds, in C++, and what a lexicon's
words DAWG file already is) is minimal; we read its transition table back (the layout DAWG-Python
documents: a double array of u32 units and a guide of child/sibling labels) and intern every
sibling list by its content — ``tile | accepts | child list`` ints, tail first — so equal lists and
equal tails get one id whatever dawgdic's layout did. A lexicon's KWG is read straight from its
words DAWG, with the key characters mapped to tile numbers; nothing lists the words. The
GADDAG is made from the DAWG's lists, in numpy (:mod:`lextools.core.kwg_bulk`): the trie of its
keys, each reversed prefix and then the separator, whose node points at the DAWG's list after that
prefix (so two separator nodes are equal exactly when they lead to the same DAWG list), interned
list by list from the deepest up, its states numbered as a depth-first walk of its minimal
automaton numbers them. The layout then writes each list that is not the tail of another in full, in breadth-first
order from the roots, and points every tail into the list that holds it: the node count is the sum
of the lengths of those maximal lists, which is what wolges' buildlex writes for the same states.

Tile numbers are the edition's *KWG alphabet*, kept in ``kwg_alphabets.json`` (one list per
edition, position = tile number, ``null`` for a number the edition does not use): es-fise, en and
fr use wolges' Spanish, English and French alphabets as they are; es-na103 and es-mattel2021 have
no wolges alphabet, so lextools defines one each by extending the Spanish numbering (K = 29,
W = 30, and the numbers of the digraph tiles they lack left unused) — no existing tile renumbered.
"""

from __future__ import annotations

import array
import json
import struct
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import dawg

from lextools.core.edition import Edition
from lextools.core.errors import ExportFormatError, SourceError
from lextools.core.messages import message

ACCEPTS = 0x800000
IS_END = 0x400000
ARC_MASK = 0x3FFFFF
#: The arc field has 22 bits, so a file holds at most this many nodes.
MAX_NODES = 0x400000
#: The GADDAG separator's tile number.
SEPARATOR = 0
#: No word is longer than this in any file we read (the board has 15 squares); deeper is refused.
MAX_DEPTH = 64
#: The most words a KWG or KAD may hold (accepted paths from its DAWG root; from a GADDAG root, 16
#: times as many): the largest lexicons have about 3 million (Polish), ours under a million.
MAX_KWG_WORDS = 5_000_000
#: Accepted-path counts saturate here (a DAG of a few nodes can hold 2**64 paths).
_COUNT_CAP = 2**62

# dawgdic's unit layout (DAWG-Python's ``units`` module): a label in the low byte, a has-leaf flag
# (the key may end here), and the offset of the children's block.
_HAS_LEAF = 1 << 8
#: The highest tile number a word of tile numbers may hold (dawgdic keys cannot hold a NUL byte).
_TOP_TILE = "\x7e"
#: Steps of the encoder's loops between two calls of ``pause`` (about a millisecond of work).
_STEPS_PER_PAUSE = 1024

#: Called every millisecond or so of encoding: the service passes ``lextools.core.budget.pause`` so that
#: other requests of the worker run meanwhile; the command line passes nothing.
Pause = Callable[[], None] | None


def _no_pause() -> None:
    pass


@dataclass(frozen=True)
class KwgAlphabet:
    """Tile numbers of an edition in KWG files: ``labels[n]`` is the label of tile ``n``."""

    edition: str
    name: str
    wolges: str | None  # the wolges alphabet it equals, or None where lextools defines it
    labels: tuple[str | None, ...]  # index 0 is the blank

    def number(self, label: str) -> int:
        return self.labels.index(label)

    def numbered(self) -> Iterator[tuple[int, str]]:
        """(tile number, label) for every tile the edition has, blank excluded."""
        return ((n, label) for n, label in enumerate(self.labels) if n and label is not None)


@cache
def kwg_alphabet(edition: Edition) -> KwgAlphabet:
    """The edition's KWG alphabet, checked against its tiles (each tile numbered exactly once)."""
    text = (resources.files("lextools.core") / "kwg_alphabets.json").read_text(encoding="utf-8")
    entry = json.loads(text).get(edition.name)
    if entry is None:
        raise ExportFormatError(f"{edition.name} has no KWG alphabet")
    labels = ("?", *entry["tiles"])
    named = [label for label in labels[1:] if label is not None]
    if sorted(named) != sorted(edition.by_label) or len(labels) > 256:
        raise ExportFormatError(f"the KWG alphabet of {edition.name} does not number each of its tiles once")
    return KwgAlphabet(edition.name, entry["name"], entry["wolges"], labels)


def _key_to_tiles(edition: Edition) -> dict[int, str]:
    """str.translate table: lexicon key character → the character whose code point is its tile number."""
    alphabet = kwg_alphabet(edition)
    return {ord(edition.by_label[label].code): chr(n) for n, label in alphabet.numbered()}


def _tiles_to_key(edition: Edition) -> dict[int, str]:
    """The inverse table, sending every number the alphabet lacks to NUL (which no key holds)."""
    table = dict.fromkeys(range(256), "\0")
    table.update({ord(v): chr(k) for k, v in _key_to_tiles(edition).items()})
    return table


# -- encoding -------------------------------------------------------------------------------------


class _Lists:
    """Sibling lists as chains of interned states, as wolges keeps them: a state is a node (``tile |
    accepts | child list``) and the list after it, so equal lists — and equal tails — get one id.
    State 0 is the empty list (a node without children)."""

    def __init__(self) -> None:
        self.node = array.array("I", [0])
        self.next = array.array("I", [0])
        self.ids: dict[int, int] = {}

    def intern(self, nodes: Sequence[int]) -> int:
        """Id of the list of ``nodes`` (sorted by tile), interning each of its tails."""
        ids = self.ids
        state = 0
        for node in reversed(nodes):
            key = (node << 23) | state
            found = ids.get(key)
            if found is None:
                found = ids[key] = len(ids) + 1
                if found > ARC_MASK:  # ids live in the arc field until the layout
                    raise ExportFormatError(f"the graph has more nodes than a KWG can hold ({MAX_NODES:,})")
                self.node.append(node)
                self.next.append(state)
            state = found
        return state


class _Automaton:
    """A dawgdic automaton read back from its bytes (dawg2's ``tobytes``, or a lexicon's words DAWG):
    the double array of units and the guide of first-child and next-sibling labels.

    ``tiles`` maps a label to a tile number: a byte, or ``lead << 8 | continuation`` for a character
    of two UTF-8 bytes (Ñ in lexicon keys), whose tiles are one step further down."""

    def __init__(self, data: bytes, tiles: dict[int, int], pause: Pause = None) -> None:
        try:
            (size,) = struct.unpack_from("<I", data, 0)
            units = array.array("I")
            units.frombytes(data[4 : 4 + 4 * size])
            (guide_size,) = struct.unpack_from("<I", data, 4 + 4 * size)
        except (struct.error, ValueError):
            raise ExportFormatError("not a DAWG file") from None
        if sys.byteorder == "big":
            units.byteswap()
        self._setup(units, data[8 + 4 * size : 8 + 4 * size + 2 * guide_size], tiles, pause)

    def _setup(self, units: Sequence[int], guide: Sequence[int], tiles: dict[int, int], pause: Pause) -> None:
        self.pause = pause or _no_pause
        self.steps = 0
        self.units = units
        self.guide = guide
        #: label → tile number, as a list (the hot loop indexes it); 0 where a label means no tile
        self.tiles = [0] * (1 + max(tiles, default=0))
        for label, tile in tiles.items():
            self.tiles[label] = tile
        #: dawgdic block base → interned list id: units with one base share their children.
        self.memo: dict[int, int] = {}
        #: dawgdic block base → [(tile, child unit)], for walks that pass a state many times.
        self.edges: dict[int, list[tuple[int, int]]] = {}

    @classmethod
    def of(cls, keys: Sequence[str], pause: Pause = None) -> _Automaton:
        """The minimal automaton of sorted keys of tile-number characters."""
        tiles = {n: n for n in range(1, ord(_TOP_TILE) + 1)}
        return cls(dawg.CompletionDAWG(keys).tobytes(), tiles, pause)

    @property
    def multibyte(self) -> bool:
        return len(self.tiles) > 0x100

    def base(self, index: int) -> int:
        unit = self.units[index]
        return index ^ ((unit >> 10) << ((unit & (1 << 9)) >> 6))

    def transitions(self, index: int) -> list[tuple[int, int]]:
        """(tile, child unit) of every tile leaving unit ``index``, in dawgdic's label order."""
        base = self.base(index)
        found = self.edges.get(base)
        if found is not None:
            return found
        guide, tiles = self.guide, self.tiles
        found = []
        label = guide[2 * index]
        while label:
            child = base ^ label
            if label >= 0xC0:  # the first byte of a two-byte character
                below = self.base(child)
                second = guide[2 * child]
                while second:
                    found.append((tiles[label << 8 | second], below ^ second))
                    second = guide[2 * (below ^ second) + 1]
            else:
                found.append((tiles[label], child))
            label = guide[2 * child + 1]
        self.edges[base] = found
        return found

    def intern(self, pool: _Lists, index: int = 0) -> int:
        """Interned id of the list of children of unit ``index`` (the root by default).

        The hot loop of an export (millions of states for a GADDAG): dawgdic's offset arithmetic is
        written out here; only an automaton with two-byte characters goes through :meth:`transitions`.
        """
        if not self.guide:  # no keys: dawgdic writes no guide at all
            return 0
        units, guide, memo = self.units, self.guide, self.memo
        unit = units[index]
        base = index ^ ((unit >> 10) << ((unit & 512) >> 6))
        found = memo.get(base)
        if found is not None:
            return found
        self.steps += 1
        if not self.steps % _STEPS_PER_PAUSE:
            self.pause()
        nodes = []
        for tile, child in self.transitions(index) if self.multibyte else self._children(base, index):
            sub = units[child]
            if not guide[2 * child]:
                below = 0  # no children
            else:  # a state seen before costs no call
                seen = memo.get(child ^ ((sub >> 10) << ((sub & 512) >> 6)))
                below = seen if seen is not None else self.intern(pool, child)
            nodes.append(tile << 24 | (sub & _HAS_LEAF) << 15 | below)
        if len(nodes) > 1:
            nodes.sort()
        found = memo[base] = pool.intern(nodes)
        return found

    def _children(self, base: int, index: int) -> Iterator[tuple[int, int]]:
        """(tile, child unit) of each arc of unit ``index`` (whose base is ``base``) of an automaton of
        one-byte characters: dawgdic's guide, its first child and each one's next sibling."""
        guide, tiles = self.guide, self.tiles
        label = guide[2 * index]
        while label:
            child = base ^ label
            yield tiles[label], child
            label = guide[2 * child + 1]

    def paths(self) -> Iterator[tuple[str, int]]:
        """Every path from the root once (the nodes of the trie), reversed, in tile-number
        characters, with the unit it ends on: what the alphagrams are made from."""
        if not self.guide:
            return
        stack = [(0, "")]
        while stack:
            index, reversed_path = stack.pop()
            self.steps += 1
            if not self.steps % _STEPS_PER_PAUSE:
                self.pause()
            for tile, child in self.transitions(index):
                path = chr(tile) + reversed_path
                yield path, child
                stack.append((child, path))

    def words(self) -> Iterator[str]:
        units = self.units
        return (path[::-1] for path, index in self.paths() if units[index] & _HAS_LEAF)


def _encode(dawg_part: _Automaton, gaddag: bool, kad: bool = False) -> bytes:
    """The file's bytes: the DAWG root at node 0; at node 1 the GADDAG root, or in a DAWG-only KWG
    an empty GADDAG (state 0, the empty list, so its arc is 0); a KAD has node 0 only."""
    # numpy, for the bulk work of an export: loaded here, never on a look-up's path
    from lextools.core import kwg_bulk  # noqa: PLC0415

    pool = _Lists()
    roots = [dawg_part.intern(pool)]
    node, after = kwg_bulk.states(pool.node), kwg_bulk.states(pool.next)
    if gaddag:
        node, after, root = kwg_bulk.gaddag_states(node, after, roots[0], dawg_part.pause)
        roots.append(root)
    elif not kad:
        roots.append(0)
    dawg_part.pause()
    return kwg_bulk.layout(node, after, roots).astype("<u4").tobytes()


def lexicon_tiles(edition: Edition) -> dict[int, int]:
    """dawgdic label (a byte, or two bytes of UTF-8) of each key character → its KWG tile number."""
    tiles = {}
    for n, label in kwg_alphabet(edition).numbered():
        raw = edition.by_label[label].code.encode("utf-8")
        tiles[raw[0] if len(raw) == 1 else raw[0] << 8 | raw[1]] = n
    return tiles


def _lexicon_automaton(words_dawg: bytes, edition: Edition, pause: Pause = None) -> _Automaton:
    """A lexicon's words DAWG (keys in the edition's key characters, UTF-8) read with KWG tile numbers."""
    return _Automaton(words_dawg, lexicon_tiles(edition), pause)


def encode_lexicon(words_dawg: bytes, edition: Edition, gaddag: bool = False, pause: Pause = None) -> bytes:
    """KWG of a lexicon from its words DAWG file: DAWG only, or with ``gaddag`` the combined file."""
    return _encode(_lexicon_automaton(words_dawg, edition, pause), gaddag)


def encode_lexicon_kad(words_dawg: bytes, edition: Edition, pause: Pause = None) -> bytes:
    """KAD of a lexicon: the DAWG-only KWG of its alphagrams (each word's tiles sorted by number)."""
    words = _lexicon_automaton(words_dawg, edition, pause).words()
    return encode_kad(("".join(sorted(w)) for w in words), pause=pause)


def _tile_automaton(words: Iterable[str], pause: Pause) -> _Automaton:
    ordered = sorted(set(words))
    if any(not w or min(w) < "\x01" or max(w) > _TOP_TILE for w in ordered):
        raise ExportFormatError("a KWG word is one or more tiles numbered 1 to 126")
    return _Automaton.of(ordered, pause)


def encode_tiles(words: Iterable[str], gaddag: bool = False, pause: Pause = None) -> bytes:
    """KWG of words written as tile numbers (one character per tile, its code point the number)."""
    return _encode(_tile_automaton(words, pause), gaddag)


def encode_kad(alphagrams: Iterable[str], pause: Pause = None) -> bytes:
    """KAD of alphagrams written as tile numbers: their DAWG, node 0 the only root node."""
    return _encode(_tile_automaton(alphagrams, pause), gaddag=False, kad=True)


def tile_words(keys: Iterable[str], edition: Edition) -> Iterator[str]:
    """Lexicon keys → words of tile-number characters (CH·A in es-fise is chr(4) + chr(1))."""
    table = _key_to_tiles(edition)
    return (k.translate(table) for k in keys)


def encode(keys: Iterable[str], edition: Edition, gaddag: bool = False) -> bytes:
    """KWG of lexicon keys (in any order): DAWG only, or with ``gaddag`` the combined file."""
    return encode_tiles(tile_words(keys, edition), gaddag)


# -- decoding -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kwg:
    """A KWG file read into memory and checked: arcs in range, tiles ascending within each list."""

    nodes: array.array
    #: Accepted paths from each node (its later siblings and everything below included), from
    #: :func:`check_graph`: ``counts[arc]`` is the number of words of the list at ``arc``.
    counts: array.array = field(default_factory=lambda: array.array("Q"), compare=False)

    @property
    def reserves_gaddag(self) -> bool:
        """Node 1 is a root node (tile 0, alone in its list, not accepting), as in every KWG wolges
        writes and every KWG lextools writes; an older lextools DAWG-only file has a DAWG node there."""
        if len(self.nodes) < 2:
            return False
        head = self.nodes[1]
        return head >> 24 == SEPARATOR and bool(head & IS_END) and not head & ACCEPTS

    @property
    def has_gaddag(self) -> bool:
        """A combined file: node 1 is the root of a GADDAG that holds something (its arc is not 0).
        A DAWG-only KWG's node 1 is an empty GADDAG, arc 0."""
        return self.reserves_gaddag and bool(self.nodes[1] & ARC_MASK)

    @property
    def dawg_root(self) -> int:
        return self.nodes[0] & ARC_MASK

    @property
    def gaddag_root(self) -> int:
        return self.nodes[1] & ARC_MASK if self.has_gaddag else 0

    def siblings(self, arc: int) -> Iterator[int]:
        """The nodes of the sibling list starting at ``arc`` (none for arc 0)."""
        if not arc:
            return
        nodes = self.nodes
        previous = -1
        while True:
            if arc >= len(nodes):
                raise ExportFormatError(f"a sibling list runs past the last node ({len(nodes):,})")
            node = nodes[arc]
            if node >> 24 <= previous:
                raise ExportFormatError(f"node {arc}: siblings are not in ascending tile order")
            previous = node >> 24
            yield node
            if node & IS_END:
                return
            arc += 1

    def live(self, arc: int) -> bool:
        """Whether any word is below ``arc`` (lists of no word are not walked: a graph of a few nodes
        can hold 2**64 paths that accept nothing)."""
        return bool(arc) and (not self.counts or bool(self.counts[arc]))

    def words(self, arc: int, separator: bool = False) -> Iterator[str]:
        """Every accepted path from ``arc``, as tile-number characters (the separator as chr(0))."""
        stack = [(arc, "")]
        live = self.live
        while stack:
            arc, prefix = stack.pop()
            if len(prefix) >= MAX_DEPTH:
                raise ExportFormatError(f"a path is longer than {MAX_DEPTH} tiles: the graph has a cycle")
            for node in self.siblings(arc):
                tile = node >> 24
                if tile == SEPARATOR and not separator:
                    raise ExportFormatError("tile 0 (the GADDAG separator) in a DAWG")
                word = prefix + chr(tile)
                if node & ACCEPTS:
                    yield word
                if live(node & ARC_MASK):
                    stack.append((node & ARC_MASK, word))


def check_graph(nodes: array.array, roots: Sequence[int]) -> array.array:
    """The number of accepted paths from each node reached from ``roots`` (the node, its later siblings
    and everything below them; saturated at 2**62), in one pass linear in the nodes and in memory.

    Refuses (:class:`ExportFormatError`) an arc (a root's or a child's: checked against the node count
    before it is followed) or a list that runs past the last node, siblings not in
    ascending tile order, a cycle, and a path longer than :data:`MAX_DEPTH` tiles: what would make a
    walk of the words run for ever, or for longer than any lexicon needs. An iterative depth-first
    search on arrays: a node depends on its next sibling and on the list its arc points at; it is
    grey from the moment it is reached until both are counted, so reaching a grey node closes a cycle.
    """
    size = len(nodes)
    count = array.array("Q", bytes(8 * size))
    depth = bytearray(size)
    state = bytearray(size)  # 0 unseen, 1 waiting for its next sibling, 3 waiting for its arc, 2 counted
    for root in roots:
        if root:
            if root >= size:
                raise ExportFormatError(f"a root arc ({root:,}) runs past the last node ({size:,})")
            _count_from(nodes, root, count, depth, state)
    return count


def _count_from(nodes: array.array, root: int, count: array.array, depth: bytearray, state: bytearray) -> None:
    """:func:`check_graph` from one root list.

    The stack holds list segments — a list from a node to the end of its list, or to a tail counted
    before — each counted last node first. While node ``i``'s arc is followed, the nodes of its
    segment up to ``i`` are grey (each reaches ``i`` through its siblings) and those after it are
    counted, so a grey node reached means a cycle, and a list that points into its own tail is fine.
    """
    starts, cursors = [root], [_open_segment(nodes, root, state)]
    arc_mask, is_end, most, cap, size = ARC_MASK, IS_END, MAX_DEPTH, _COUNT_CAP, len(nodes)
    while starts:
        start, i = starts[-1], cursors[-1]
        while i >= start:
            v = nodes[i]
            arc = v & arc_mask
            if arc:
                if arc >= size:  # checked before it indexes anything: a child past the last node
                    raise ExportFormatError(message("kwg_arc_past_end", node=i, arc=f"{arc:,}", size=f"{size:,}"))
                below = state[arc]
                if not below:
                    break
                if below == 1:
                    raise ExportFormatError(message("kwg_cycle", node=i))
                total = count[arc] + ((v >> 23) & 1)
                deepest = depth[arc] + 1
            else:
                total = (v >> 23) & 1
                deepest = 1
            if not v & is_end:
                total += count[i + 1]
                if depth[i + 1] > deepest:
                    deepest = depth[i + 1]
            if deepest > most:
                raise ExportFormatError(message("kwg_too_deep", limit=most, node=i))
            count[i] = total if total < cap else cap
            depth[i] = deepest
            state[i] = 2
            i -= 1
        if i < start:
            starts.pop()
            cursors.pop()
        else:  # node i's arc leads to a list not counted yet: count it first, then come back to i
            cursors[-1] = i
            starts.append(nodes[i] & arc_mask)
            cursors.append(_open_segment(nodes, starts[-1], state))


def _open_segment(nodes: array.array, start: int, state: bytearray) -> int:
    """Mark the nodes from ``start`` to the end of its list, or to a tail counted before, grey (they
    reach one another through their siblings); return the last. Checks the siblings' order."""
    size = len(nodes)
    i, previous = start, -1
    while True:
        if i >= size:
            raise ExportFormatError(f"a sibling list runs past the last node ({size:,})")
        if state[i] == 2:
            if nodes[i] >> 24 <= previous:
                raise ExportFormatError(f"node {i}: siblings are not in ascending tile order")
            return i - 1
        if state[i]:
            raise ExportFormatError(message("kwg_cycle", node=i))
        v = nodes[i]
        if v >> 24 <= previous:
            raise ExportFormatError(f"node {i}: siblings are not in ascending tile order")
        previous = v >> 24
        state[i] = 1
        if v & IS_END:
            return i
        i += 1


def read_kwg(data: bytes, gaddag: bool = True) -> Kwg:
    """Check a KWG file and return its nodes; :class:`ExportFormatError` if it is none: the framing, the
    node count, and (:func:`check_graph`) the lists reached from its roots — no cycle, no path over
    :data:`MAX_DEPTH` tiles, no more than :data:`MAX_KWG_WORDS` words — before anything lists a word.

    With ``gaddag`` False only the DAWG half's lists are checked and counted (the GADDAG half's counts
    are 0): for a caller that checks every list it walks of the GADDAG half itself and reads the file
    again in full when anything is off (``lextools verify``)."""
    if not data or len(data) % 4:
        raise ExportFormatError(f"{len(data):,} bytes is not a whole number of 4-byte KWG nodes")
    nodes = array.array("I")
    nodes.frombytes(data)
    if sys.byteorder == "big":
        nodes.byteswap()
    if len(nodes) > MAX_NODES:
        raise ExportFormatError(f"{len(nodes):,} nodes: a KWG holds at most {MAX_NODES:,}")
    if nodes[0] >> 24 != SEPARATOR or not nodes[0] & IS_END:
        raise ExportFormatError("node 0 is not a KWG root node (tile 0, end of its list)")
    kwg = Kwg(nodes)
    roots = (kwg.dawg_root, kwg.gaddag_root if gaddag else 0)
    counts = check_graph(nodes, roots)
    for root, most in zip(roots, (MAX_KWG_WORDS, MAX_KWG_WORDS * 16), strict=True):
        if counts[root] > most:
            raise ExportFormatError(message("kwg_too_many_words", limit=f"{most:,}"))
    object.__setattr__(kwg, "counts", counts)
    return kwg


def decode_keys(words: Iterable[str], edition: Edition) -> Iterator[str]:
    """Tile-number words → lexicon keys; a number the edition's alphabet lacks is refused, named."""
    table = _tiles_to_key(edition)
    for w in words:
        key = w.translate(table)
        if "\0" in key:
            bad = next(ord(t) for t, k in zip(w, key, strict=True) if k == "\0")
            raise SourceError(
                f"tile number {bad} is not in the {edition.name} KWG alphabet "
                f"(it numbers {', '.join(f'{label}={n}' for n, label in kwg_alphabet(edition).numbered())})"
            )
        yield key


def kwg_spellings(data: bytes, edition: Edition) -> Iterator[str]:
    """Words of a KWG's DAWG half in plain spelling, for building a lexicon from a KWG file."""
    kwg = read_kwg(data)
    for key in decode_keys(kwg.words(kwg.dawg_root), edition):
        yield edition.spelling(key)
