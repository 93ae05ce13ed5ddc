"""KWG, GADDAG and KAD files: hand-computed graphs, minimality against a brute force, the alphabets."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lextools.core import kwg
from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import ExportFormatError, SourceError

ACC, END = kwg.ACCEPTS, kwg.IS_END


def node(tile: int, arc: int = 0, accepts: bool = False, end: bool = False) -> int:
    return tile << 24 | arc | (ACC if accepts else 0) | (END if end else 0)


def nodes_of(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def tiles(*words: tuple[int, ...]) -> list[str]:
    return ["".join(map(chr, w)) for w in words]


A, B, C = 1, 2, 3  # the English alphabet's numbers

# -- hand-computed files ----------------------------------------------------------------------------


def test_dawg_of_ab_ac_b() -> None:
    data = kwg.encode_tiles(tiles((A, B), (A, C), (B,)))
    assert nodes_of(data) == [
        node(0, arc=2, end=True),  # node 0: the DAWG root is the list at 2
        node(0, end=True),  # node 1: an empty GADDAG, as wolges writes a DAWG-only file
        node(A, arc=4),  # A → {B, C}
        node(B, accepts=True, end=True),  # B is a word
        node(B, accepts=True),  # AB
        node(C, accepts=True, end=True),  # AC
    ]


def test_gaddag_of_ab_ac_b() -> None:
    # Paths: BA and A·B (AB), CA and A·C (AC), B. After the separator the GADDAG points at the
    # DAWG's own list for what follows A: {B, C} is stored once.
    data = kwg.encode_tiles(tiles((A, B), (A, C), (B,)), gaddag=True)
    assert nodes_of(data) == [
        node(0, arc=2, end=True),  # DAWG root
        node(0, arc=4, end=True),  # GADDAG root
        node(A, arc=7),  # DAWG: A → {B, C}
        node(B, accepts=True, end=True),
        node(A, arc=9),  # GADDAG: A → {·}
        node(B, arc=10, accepts=True),  # B (the word), B → {A}: BA
        node(C, arc=10, end=True),  # C → {A}: CA
        node(B, accepts=True),  # {B, C}: AB, AC (shared by the DAWG and by A·)
        node(C, accepts=True, end=True),
        node(0, arc=7, end=True),  # A· → {B, C}
        node(A, accepts=True, end=True),  # BA, CA
    ]


def test_kad_of_ba_ab_c() -> None:
    # BA and AB share the alphagram AB.
    data = kwg.encode_kad("".join(sorted(w)) for w in tiles((B, A), (A, B), (C,)))
    assert nodes_of(data) == [  # a KAD has node 0 only: nothing reads a GADDAG from it
        node(0, arc=1, end=True),
        node(A, arc=3),
        node(C, accepts=True, end=True),
        node(B, accepts=True, end=True),
    ]


def test_tail_of_a_list_is_pointed_into() -> None:
    # Roots {A, B, C*}; after A: {B*, C*}; after B: {C*} — the tail of both other lists: B points
    # at the root list's last node (the first list written), not at a copy.
    data = kwg.encode_kad(tiles((A, B), (A, C), (B, C), (C,)))
    assert nodes_of(data) == [
        node(0, arc=1, end=True),
        node(A, arc=4),
        node(B, arc=3),
        node(C, accepts=True, end=True),
        node(B, accepts=True),
        node(C, accepts=True, end=True),
    ]


def test_spanish_digraph_tiles_are_single_tiles() -> None:
    es = load_edition("es-fise")
    keys = [es.encode(t) for t in (("CH", "E"), ("Ñ", "U"), ("LL", "E", "N", "O"), ("P", "E", "RR", "O"))]
    graph = kwg.read_kwg(kwg.encode(keys, es))
    words = {tuple(map(ord, w)) for w in graph.words(graph.dawg_root)}
    # CH = 4, E = 6, Ñ = 16, U = 24, LL = 13, N = 15, O = 17, P = 18, RR = 21
    assert words == {(4, 6), (16, 24), (13, 6, 15, 17), (18, 6, 21, 17)}
    assert nodes_of(kwg.encode(keys[:2], es)) == [
        node(0, arc=2, end=True),
        node(0, end=True),
        node(4, arc=4),
        node(16, arc=5, end=True),
        node(6, accepts=True, end=True),
        node(24, accepts=True, end=True),
    ]


def test_empty_lexicon() -> None:
    assert nodes_of(kwg.encode_tiles([])) == [node(0, end=True), node(0, end=True)]
    assert nodes_of(kwg.encode_tiles([], gaddag=True)) == [node(0, end=True), node(0, end=True)]
    assert nodes_of(kwg.encode_kad([])) == [node(0, end=True)]


# -- minimality: against a brute force that shares nothing it has not compared in full -------------


def brute_force_nodes(words: list[str], gaddag: bool) -> int:
    """Nodes of the smallest KWG: every path of a plain trie (DAWG, and the GADDAG spelled out in full),
    each sibling list written out as text, equal texts one list; a list that is the tail of another
    lives inside it, every other list is written in full."""
    strings = [words]
    if gaddag:
        spelled = [w[::-1] for w in words]
        spelled += [w[:k][::-1] + "\0" + w[k:] for w in words for k in range(1, len(w))]
        strings.append(spelled)
    lists: set[tuple[str, ...]] = set()

    def trie(entries: list[str]) -> dict:
        root: dict = {}
        for e in entries:
            at = root
            for i, t in enumerate(e):
                at = at.setdefault(t, [False, {}])
                at[0] = at[0] or i == len(e) - 1
                at = at[1]
        return root

    def text(children: dict) -> tuple[str, ...]:
        nodes = tuple(
            f"{ord(t)}{'*' if acc else ''}({','.join(text(sub))})" for t, (acc, sub) in sorted(children.items())
        )
        if nodes:
            lists.add(nodes)
        return nodes

    for entries in strings:
        text(trie(entries))
    tails = {lst[k:] for lst in lists for k in range(1, len(lst))}
    return 2 + sum(len(lst) for lst in lists if lst not in tails)  # node 1 is reserved in both


words_strategy = st.lists(st.text(alphabet="\x01\x02\x03\x04", min_size=1, max_size=6), max_size=40)


@settings(max_examples=150, deadline=None)
@given(words_strategy, st.booleans())
def test_node_count_is_the_brute_force_minimum(words: list[str], gaddag: bool) -> None:
    data = kwg.encode_tiles(words, gaddag=gaddag)
    assert len(data) // 4 == brute_force_nodes(sorted(set(words)), gaddag)
    graph = kwg.read_kwg(data)
    assert set(graph.words(graph.dawg_root)) == set(words)
    if gaddag:
        spelled = {w[::-1] for w in words} | {w[:k][::-1] + "\0" + w[k:] for w in words for k in range(1, len(w))}
        found = list(graph.words(graph.gaddag_root, separator=True))
        assert sorted(found) == sorted(spelled)  # one path per split point, none else


def test_node_count_on_a_larger_spanish_like_list() -> None:
    rng = random.Random(13)
    syllables = ["\x01", "\x04\x01", "\x0d\x06", "\x14\x15\x11", "\x10\x18", "\x03\x11", "\x16"]
    words = {"".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(400)}
    for gaddag in (False, True):
        assert len(kwg.encode_tiles(words, gaddag)) // 4 == brute_force_nodes(sorted(words), gaddag)


# -- reading ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [b"", b"\x00\x00", struct.pack("<I", node(1, end=True)), struct.pack("<2I", node(0, arc=5, end=True), 0)],
)
def test_what_is_not_a_kwg_is_refused(data: bytes) -> None:
    with pytest.raises(ExportFormatError):
        graph = kwg.read_kwg(data)
        list(graph.words(graph.dawg_root))


def test_siblings_out_of_order_are_refused() -> None:
    data = struct.pack("<3I", node(0, arc=1, end=True), node(B, accepts=True), node(A, accepts=True, end=True))
    with pytest.raises(ExportFormatError, match="ascending"):  # on reading, before a word is listed
        kwg.read_kwg(data)


def test_a_cycle_is_refused() -> None:
    data = struct.pack("<2I", node(0, arc=1, end=True), node(A, arc=1, accepts=True, end=True))
    with pytest.raises(ExportFormatError, match="cycle"):  # on reading, before a word is listed
        kwg.read_kwg(data)


def test_a_tile_number_the_alphabet_lacks_is_named() -> None:
    data = struct.pack("<2I", node(0, arc=1, end=True), node(29, accepts=True, end=True))
    with pytest.raises(SourceError, match="tile number 29 is not in the es-fise KWG alphabet"):
        list(kwg.kwg_spellings(data, load_edition("es-fise")))
    # es-na103 numbers K as 29
    assert list(kwg.kwg_spellings(data, load_edition("es-na103"))) == ["K"]
    data = struct.pack("<2I", node(0, arc=1, end=True), node(4, accepts=True, end=True))
    with pytest.raises(SourceError, match="tile number 4 is not in the es-na103"):  # no CH tile there
        list(kwg.kwg_spellings(data, load_edition("es-na103")))


# -- the alphabets ------------------------------------------------------------------------------------

#: wolges' Spanish alphabet, as its documentation numbers it.
WOLGES_SPANISH = [
    "A",
    "B",
    "C",
    "CH",
    "D",
    "E",
    "F",
    "G",
    "H",
    "I",
    "J",
    "L",
    "LL",
    "M",
    "N",
    "Ñ",
    "O",
    "P",
    "Q",
    "R",
    "RR",
    "S",
    "T",
    "U",
    "V",
    "X",
    "Y",
    "Z",
]


def test_es_fise_uses_the_wolges_spanish_numbers() -> None:
    alphabet = kwg.kwg_alphabet(load_edition("es-fise"))
    assert dict(alphabet.numbered()) == dict(enumerate(WOLGES_SPANISH, 1))
    assert alphabet.wolges == "spanish"


def test_other_spanish_editions_extend_the_spanish_numbers() -> None:
    for name, extra in (("es-na103", {"K": 29, "W": 30}), ("es-mattel2021", {"K": 29})):
        alphabet = kwg.kwg_alphabet(load_edition(name))
        numbers = {label: n for n, label in alphabet.numbered()}
        for n, label in enumerate(WOLGES_SPANISH, 1):
            assert numbers.get(label, n) == n  # never renumbered
        assert {k: numbers[k] for k in extra} == extra
        assert alphabet.wolges is None


@pytest.mark.parametrize("name", edition_names())
def test_every_edition_numbers_each_tile_once(name: str) -> None:
    ed = load_edition(name)
    alphabet = kwg.kwg_alphabet(ed)
    assert sorted(label for _, label in alphabet.numbered()) == sorted(ed.by_label)
    assert alphabet.labels[0] == "?"


def test_the_manual_s_table_is_the_alphabets() -> None:
    """docs/formats.md's table of tile numbers is the alphabets the KWG files are written in."""
    from pathlib import Path

    manual = (Path(__file__).parent.parent / "docs" / "formats.md").read_text("utf-8")
    rows = [line.split("|")[1:-1] for line in manual.splitlines() if line.startswith("| ") and "|---" not in line]
    table = {int(r[0]): [c.strip() for c in r[1:]] for r in rows if r[0].strip().isdigit() and len(r) == 4}
    for column, name in enumerate(("es-fise", "es-na103", "es-mattel2021")):
        numbered = dict(kwg.kwg_alphabet(load_edition(name)).numbered())
        documented = {n: cells[column] for n, cells in table.items() if cells[column] not in ("", "—")}
        assert documented == numbered, name


def test_long_encodings_pause_for_other_requests() -> None:
    rng = random.Random(7)
    words = {"".join(chr(rng.randint(1, 20)) for _ in range(rng.randint(2, 9))) for _ in range(3000)}
    calls = []
    paused = kwg.encode_tiles(words, gaddag=True, pause=lambda: calls.append(1))
    assert len(calls) > 10
    assert paused == kwg.encode_tiles(words, gaddag=True)  # pausing changes nothing in the file


# -- hostile files: refused on reading, in one pass linear in the nodes ---------------------------------


def point_back(data: bytes) -> tuple[bytes, int]:
    """``data`` with the last leaf on the path of last siblings pointed back at the list above it."""
    nodes = nodes_of(data)
    lists, arc = [nodes[0] & kwg.ARC_MASK], nodes[0] & kwg.ARC_MASK
    while True:
        leaf = arc
        while not nodes[leaf] & END:
            leaf += 1
        if not nodes[leaf] & kwg.ARC_MASK:
            break
        arc = nodes[leaf] & kwg.ARC_MASK
        lists.append(arc)
    nodes[leaf] |= lists[-2]
    return struct.pack(f"<{len(nodes)}I", *nodes), leaf


def test_a_cycle_deep_in_a_real_graph_is_refused_naming_the_node() -> None:
    words = ["".join(map(chr, w)) for w in ((A, B, C), (A, C), (B, A, B, C), (C, A, B))]
    data, leaf = point_back(kwg.encode_tiles(words))
    with pytest.raises(ExportFormatError, match=f"cycle \\(node {leaf} points back"):
        kwg.read_kwg(data)


def test_a_small_graph_of_too_many_words_is_refused_before_listing_them() -> None:
    """Acyclic, 2**40 words in 80 nodes: counted per node, never listed."""
    nodes = [node(0, arc=2, end=True), node(0, end=True)]
    for level in range(40):
        below = 2 + 2 * (level + 1) if level < 39 else 0
        nodes += [node(A, arc=below, accepts=level == 39), node(B, arc=below, accepts=level == 39, end=True)]
    data = struct.pack(f"<{len(nodes)}I", *nodes)
    with pytest.raises(ExportFormatError, match="more than 5,000,000 words"):
        kwg.read_kwg(data)


def test_a_path_longer_than_any_word_is_refused() -> None:
    nodes = [node(0, arc=2, end=True), node(0, end=True)]
    nodes += [node(A, arc=3 + i if i < 69 else 0, accepts=i == 69, end=True) for i in range(70)]
    with pytest.raises(ExportFormatError, match="longer than 64 tiles"):
        kwg.read_kwg(struct.pack(f"<{len(nodes)}I", *nodes))


def test_a_list_that_points_into_its_own_tail_is_no_cycle() -> None:
    """A → {B, C} where {B, C} is the tail of the root list {A, B, C}: AB, AC, B, C."""
    data = struct.pack(
        "<5I",
        node(0, arc=2, end=True),
        node(0, end=True),
        node(A, arc=3),
        node(B, accepts=True),
        node(C, accepts=True, end=True),
    )
    graph = kwg.read_kwg(data)
    assert sorted(graph.words(graph.dawg_root)) == sorted(tiles((A, B), (A, C), (B,), (C,)))
    assert graph.counts[graph.dawg_root] == 4


def test_paths_that_accept_nothing_are_not_walked() -> None:
    """2**40 paths of no word under the root list's first tile, and the word B beside them."""
    nodes = [node(0, arc=2, end=True), node(0, end=True), node(A, arc=4), node(B, accepts=True, end=True)]
    for level in range(40):
        below = 4 + 2 * (level + 1) if level < 39 else 0
        nodes += [node(A, arc=below), node(B, arc=below, end=True)]
    graph = kwg.read_kwg(struct.pack(f"<{len(nodes)}I", *nodes))
    assert list(graph.words(graph.dawg_root)) == tiles((B,))
