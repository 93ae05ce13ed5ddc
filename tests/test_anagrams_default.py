"""Anagrams and subanagrams on the default es-fise lexicon, against a naive dict of alphagrams.

tests/test_search.py checks every query against brute force on the small test lists; here the walks
meet what they are built for: half a million words, racks of 7 tiles and 2 blanks drawn from the
bag, blanks that may be digraph tiles, Ñ (a tile of two UTF-8 bytes), and racks with so many
blanks that the anagram index is walked instead of filled in pattern by pattern.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.search import anagrams, parse_rack

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def by_alphagram(default_home: Path) -> dict[str, set[str]]:
    index: dict[str, set[str]] = {}
    for key in load_lexicon("es-fise", default_home):
        index.setdefault("".join(sorted(key)), set()).add(key)
    return index


@pytest.fixture()
def fise(default_home: Path, reader: str) -> Lexicon:
    """The default es-fise lexicon, once per reader."""
    return load_lexicon("es-fise", default_home)


def naive(index: dict[str, set[str]], codes: str, rack: str, blanks: int, sub: bool) -> set[str]:
    """Every blank filled every way and, for subanagrams, every part of the rack looked up."""
    parts = {rack} if not sub else {"".join(c) for n in range(len(rack) + 1) for c in itertools.combinations(rack, n)}
    found: set[str] = set()
    for used in range(blanks + 1) if sub else (blanks,):
        for fill in itertools.combinations_with_replacement(codes, used):
            for part in parts:
                tiles = part + "".join(fill)
                if len(tiles) >= 2:
                    found |= index.get("".join(sorted(tiles)), set())
    return found


def drawn_racks(lex: Lexicon, n: int) -> list[str]:
    bag = "".join(t.code * (t.count or 0) for t in lex.edition.tiles)
    rng = random.Random(11)
    return ["".join(rng.sample(bag, 7)) for _ in range(n)]


@pytest.mark.parametrize("sub", [False, True])
def test_racks_from_the_bag_with_two_blanks(fise: Lexicon, by_alphagram: dict[str, set[str]], sub: bool) -> None:
    codes = fise.alphagram_order
    # Ñ; the CH, RR and LL tiles; common tiles, whose 131 multisets are spelled in one walk.
    racks = [*drawn_racks(fise, 6), "ÑAND", fise.spell("chorrillo").key[:6], "NOAMSRE"]
    for rack in racks:
        got = anagrams(fise, rack, 2, sub=sub)
        assert {m.key for m in got} == naive(by_alphagram, codes, rack, 2, sub), rack
        assert len(got) == len({m.key for m in got})  # each word once


def test_answers_are_longest_first_in_tiles_then_alphabetical(fise: Lexicon) -> None:
    """tests/test_order.py checks the order against an alphabet written in the test; here, the
    library's own collation on a larger answer."""
    got = [m.key for m in anagrams(fise, *parse_rack("CARRO??", fise), sub=True)]
    assert len(got) > 1000
    assert got == sorted(got, key=lambda k: (-len(k), fise.edition.collation_key(k)))


@pytest.mark.parametrize("rack", ["AEIOR????", "SER?????", "??"])
def test_racks_with_many_blanks(fise: Lexicon, by_alphagram: dict[str, set[str]], rack: str) -> None:
    # AEIOR???? has C(9, 4) = 126 places for its blanks: past what is filled in pattern by pattern.
    key, blanks = parse_rack(rack, fise)
    got = {m.key for m in anagrams(fise, key, blanks)}
    assert got == naive(by_alphagram, fise.alphagram_order, key, blanks, sub=False)
    assert got  # these racks have anagrams: the comparison is not of two empty sets


@pytest.mark.parametrize("blanks", [1, 2])
def test_a_blank_stands_for_the_tile_the_rack_lacks(fise: Lexicon, blanks: int) -> None:
    """Each answer's blanks are its tiles beyond the rack's (a rack tile is spent before a blank), in
    the edition's alphabet: one blank is found by its own shortcut, two by splitting the alphagram."""
    racks = [rack[:6] for rack in drawn_racks(fise, 60)]
    seen = 0
    for rack in racks:
        for match in anagrams(fise, rack, blanks):
            beyond = Counter(match.key) - Counter(rack)
            tiles = sorted(beyond.elements(), key=fise.edition.collation_key)
            assert match.blanks == tuple(fise.edition.by_code[c].label for c in tiles), (rack, match)
            seen += 1
    assert seen > 100  # racks with answers, not a comparison of nothing
