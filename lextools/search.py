"""Searches that walk the DAWGs: words of N tiles, patterns, anagrams and subanagrams.

The walks use DAWG-Python's ``Dictionary.follow_bytes`` and ``has_value`` (the dawgdic transition
table), one tile per step: every tile is one character of the key (see :mod:`lextools.lexicon`).

Anagrams use the alphagram index instead of the word DAWG: a rack's anagrams are the words whose
alphagram is the rack's, so we walk the index in sorted order, taking each next tile from the rack
or, failing that, from a blank. Because an alphagram is sorted, a rack tile smaller than the tile
being placed can never be placed later, which prunes the walk hard: 7 tiles with 2 blanks over a
million words visits thousands of nodes, not millions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from lextools.errors import QueryError, SpellingError
from lextools.lexicon import ALPHAGRAM_SEPARATOR, Lexicon
from lextools.messages import message
from lextools.normalize import MAX_INPUT_CHARS, too_long
from lextools.tokenize import spell

#: Longest rack or pattern we search with.
MAX_QUERY_TILES = 15
BLANK = "?"
_SEP = ALPHAGRAM_SEPARATOR.encode()


@dataclass(frozen=True)
class Match:
    key: str  # lexicon key
    blanks: tuple[str, ...] = ()  # tiles a blank stands for (anagrams)


def words_of_length(lex: Lexicon, n: int) -> list[str]:
    """Keys of exactly ``n`` tiles, in key order."""
    if not 1 <= n <= MAX_QUERY_TILES:
        raise QueryError(message("length_range", max=MAX_QUERY_TILES))
    return [m.key for m in match_pattern(lex, [None] * n)]


def parse_pattern(text: str, lex: Lexicon) -> list[str | None]:
    """``?`` is any one tile, ``*`` any run of tiles, the rest is spelled like a word (any notation).

    Returns a list of keys characters, ``None`` for ``?`` and ``"*"`` for ``*``.
    """
    if not text or too_long(text):  # counted in NFC, as words are
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


def match_pattern(lex: Lexicon, pattern: list[str | None]) -> Iterator[Match]:
    """Every key matching a parsed pattern, in key order (one guided walk over the word DAWG)."""
    return (Match(key) for key in _walk_guided(lex, pattern, "", None))


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


def anagrams(lex: Lexicon, rack: str, blanks: int = 0, sub: bool = False, min_length: int = 2) -> list[Match]:
    """Words using every tile of the rack (or, with ``sub``, any of them, at least ``min_length``).

    ``rack`` is a lexicon key; a blank may be any tile of the edition — a digraph tile too, never a
    letter the edition has no tile for (K and W in es-fise), since those are not in the alphabet.
    """
    if not len(lex):
        return []
    dct = lex.anagrams.dct
    codes = sorted(t.code for t in lex.edition.tiles)
    code_bytes = {c: c.encode() for c in codes}
    size = len(rack) + blanks
    found: list[tuple[str, tuple[str, ...]]] = []

    def walk(index: int, pos: int, left: Counter[str], blanks_left: int, alpha: str, used: tuple[str, ...]) -> None:
        depth = len(alpha)
        if depth >= max(min_length, 1) and (sub or depth == size):
            end = dct.follow_bytes(_SEP, index)
            if end is not None:
                found.append((alpha, used))
        if depth == size:
            return
        last = len(codes) - 1
        if not sub:  # a rack tile skipped now could never be placed later: stop at the smallest one
            last = next((j for j in range(pos, len(codes)) if left[codes[j]]), last)
        for i in range(pos, last + 1):
            c = codes[i]
            if left[c]:
                nxt = dct.follow_bytes(code_bytes[c], index)
                if nxt is not None:
                    left[c] -= 1
                    walk(nxt, i, left, blanks_left, alpha + c, used)
                    left[c] += 1
            elif blanks_left:
                nxt = dct.follow_bytes(code_bytes[c], index)
                if nxt is not None:
                    walk(nxt, i, left, blanks_left - 1, alpha + c, (*used, c))

    walk(dct.ROOT, 0, Counter(rack), blanks, "", ())
    matches = []
    for alpha, used in found:
        for entry in lex.anagrams.iterkeys(alpha + ALPHAGRAM_SEPARATOR):
            key = entry[len(alpha) + 1 :]
            matches.append(Match(key, tuple(lex.edition.by_code[c].label for c in used)))
    return matches


def ordered(lex: Lexicon, keys: list[str], order: str) -> list[str]:
    """``alpha`` (the edition's alphabet) or ``probability`` (likeliest draw first, where counts are known)."""
    ed = lex.edition
    if order == "alpha":
        return ed.sort_keys(keys)
    if order == "probability":
        return sorted(keys, key=lambda k: (-ed.probability(ed.decode(k)), ed.collation_key(k)))
    raise QueryError(f"unknown order {order!r}: use alpha or probability")


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
) -> Iterator[str]:
    """Keys meeting every given constraint, in key order: the service's ``search`` in one walk.

    ``pattern`` is read by :func:`parse_pattern`; ``contains``, ``starts`` and ``ends`` are tiles in
    any notation; ``length`` counts tiles. Constraints are tile-level, so in es-fise ``starts=C``
    does not match CHICO (its first tile is CH). Bad constraints raise :class:`QueryError` at the
    call, not on the first key read.

    The pattern, ``starts`` and ``length`` prune the walk; ``contains`` and ``ends`` are checked on
    each key found (a prefix and a suffix may overlap: CASA starts with CA and ends with AS). The
    walk follows only the DAWG's existing edges, through its guide, keeping the set of pattern
    positions still alive at each node, so any pattern costs about one visit per node it reaches
    (trying every tile code at every node instead was 5 to 15 times slower for ``????????`` and
    ``CH?*O`` on 150,000 words).
    """
    if length is not None and not 1 <= length <= MAX_QUERY_TILES:
        raise QueryError(message("length_range", max=MAX_QUERY_TILES))

    def tiles_of(name: str, text: str | None) -> str:
        if not text:
            return ""
        try:
            return spell(text, lex.edition).key
        except SpellingError as e:
            raise QueryError(message("bad_param", name=name, text=repr(text), reason=e.message or e.reason)) from None

    prefix, infix, suffix = tiles_of("starts", starts), tiles_of("contains", contains), tiles_of("ends", ends)
    parts = parse_pattern(pattern, lex) if pattern else ["*"]
    found = _walk_guided(lex, parts, prefix, length)
    return (k for k in found if k.endswith(suffix) and infix in k)


def _walk_guided(lex: Lexicon, parts: list[str | None], prefix: str, length: int | None) -> list[str]:
    """Keys matching a parsed pattern whose first tiles are ``prefix``, of ``length`` tiles if given."""
    if not len(lex):  # an empty DAWG has no guide units to walk: nothing matches
        return []
    dct, guide = lex.words.dct, lex.words.guide
    end = len(parts)
    longest = length if length is not None else MAX_QUERY_TILES

    def closure(positions: set[int]) -> frozenset[int]:  # a star may match no tile at all
        out = set(positions)
        for i in positions:
            while i < end and parts[i] == "*":
                i += 1
                out.add(i)
        return frozenset(out)

    steps: dict[tuple[frozenset[int], str], frozenset[int]] = {}

    def step(alive: frozenset[int], tile: str) -> frozenset[int]:
        nxt = steps.get((alive, tile))
        if nxt is None:
            moved = set()
            for i in alive:
                if i == end:
                    continue
                if parts[i] == "*":
                    moved.add(i)
                elif parts[i] is None or parts[i] == tile:
                    moved.add(i + 1)
            nxt = steps[(alive, tile)] = closure(moved)
        return nxt

    found: list[str] = []

    def visit(index: int, alive: frozenset[int], key: str, partial: bytes) -> None:
        label = guide.child(index)
        while label:
            child = dct.follow_char(label, index)
            if child is None:  # only in a damaged DAWG
                return
            label_bytes = partial + bytes((label,))
            if label >= 0xC0 or (partial and len(label_bytes) < _utf8_length(label_bytes[0])):
                visit(child, alive, key, label_bytes)  # the middle of a multi-byte character
            else:
                tile = label_bytes.decode()
                depth = len(key)
                if depth >= len(prefix) or prefix[depth] == tile:
                    nxt = step(alive, tile)
                    if nxt:
                        word = key + tile
                        if end in nxt and dct.has_value(child) and (length is None or len(word) == length):
                            found.append(word)
                        if len(word) < longest:
                            visit(child, nxt, word, b"")
            label = guide.sibling(child)

    visit(dct.ROOT, closure({0}), "", b"")
    return found


def _utf8_length(lead: int) -> int:
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
