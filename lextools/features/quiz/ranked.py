"""The ranked lists a quiz draws its questions from: a length's keys, words and alphagrams in
probability rank (:mod:`lextools.core.probability`, ties in the edition's alphabet), read from the
lexicon's ranking file (:mod:`lextools.core.ranking`), kept packed (:class:`Packed`) in the quiz's
cache (:mod:`lextools.features.quiz.cache`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from math import comb
from typing import TypeVar

from lextools.core import ranking
from lextools.core.budget import paced, paced_sorted
from lextools.core.edition import Edition
from lextools.core.lexicon import Lexicon
from lextools.core.probability import draw_count
from lextools.features.quiz.cache import cached
from lextools.features.quiz.request import HIGH_VALUE

T = TypeVar("T")


@dataclass(frozen=True)
class Ranked:
    key: str  # a lexicon key: a word, or an alphagram with its tiles in the edition's alphabet
    rank: int  # 1 = likeliest (or first in the alphabet where counts are unverified)
    ways: int | None  # draws from a full bag that give these tiles (None where counts are unverified)


def keys_of_length(lex: Lexicon, length: int) -> Packed:
    """The lexicon's keys of ``length`` tiles, in key order (whoever reads them ranks or sorts them),
    kept with the ranked lists: read from the lexicon's ranking file (:mod:`lextools.core.ranking`),
    and kept packed, one byte per tile (:class:`Packed`)."""
    ranks = ranking.ranks_of(lex)
    return cached(lex, ("keys", length), lambda: _keys_of_length(ranks, length))


def rank(edition: Edition, keys: Iterable[str], blanks: int) -> list[str]:
    """Keys by probability (most ways first, ties in the edition's alphabet), or alphabetically without counts."""
    if not edition.has_counts:
        return paced_sorted(keys, edition.collation_key)
    keys = list(keys)
    ways = [draw_count(edition, edition.decode(k), blanks) for k in paced(keys)]
    # One string per key, compared in C: the ways counted down from the most, at a fixed width, then
    # the key in the edition's alphabet — the order of (-ways, collation key), without a Python call
    # per comparison (a sort that long would hold the worker's other requests).
    most = max(ways, default=0)
    width = len(str(most))
    places = [f"{most - w:0{width}d}{c}" for w, c in zip(paced(ways), edition.collation_keys(keys), strict=True)]
    return [keys[i] for i in paced(paced_sorted(range(len(keys)), places.__getitem__))]


def ranked_alphagrams(lex: Lexicon, length: int, blanks: int) -> Packed:
    """The alphagrams of the words of ``length`` tiles (their tiles in the edition's alphabet), in
    rank order: (most ways first, with up to ``blanks`` blanks, then the alphabet), or alphabetical
    where the tile counts are unverified. Made from the ranking file's bytes, kept packed."""
    ranks = ranking.ranks_of(lex)
    return cached(lex, ("alphagrams", length, blanks), lambda: _ranked_alphagrams(lex, ranks, length, blanks))


class Packed:
    """Keys of one length in one ``bytes`` object, one byte per tile (its place in the ranking's
    alphabet), read as keys one at a time: a list of a hundred thousand keys in a few hundred KB and
    one allocation, given back whole when the list is dropped (as many ``str`` objects would be
    scattered over the worker's heap, and the heap would keep its high-water mark)."""

    def __init__(self, data: bytes, length: int, ranks: ranking.Ranks) -> None:
        self.data, self.length, self._ranks = data, length, ranks

    def __len__(self) -> int:
        return len(self.data) // self.length

    def __getitem__(self, index: int) -> str:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._ranks.text(self.data[index * self.length : (index + 1) * self.length])

    def __iter__(self) -> Iterator[str]:
        for start in paced(range(0, len(self.data), _PACKED_SLICE * self.length), slices=True):
            text = self._ranks.text(self.data[start : start + _PACKED_SLICE * self.length])
            yield from (text[i : i + self.length] for i in range(0, len(text), self.length))

    def records(self) -> Iterator[bytes]:
        """Each key as the ranking file writes it, paced for the worker's other requests."""
        size = self.length
        for start in paced(range(0, len(self.data), _PACKED_SLICE * size), slices=True):
            chunk = self.data[start : start + _PACKED_SLICE * size]
            yield from (chunk[i : i + size] for i in range(0, len(chunk), size))


#: Keys read or decoded at once from a :class:`Packed` list (a pause for other requests between two).
_PACKED_SLICE = 256


#: Keys of up to this many tiles are drawn in the edition's alphabet, longer ones in code-point
#: order (the orders a walk of the words DAWG and a pass over every key gave them, before the
#: ranking file).
_WALKED_LENGTHS = 5


def _keys_of_length(ranks: ranking.Ranks, length: int) -> Packed:
    """The keys of ``length`` tiles in the order a quiz has always drawn them from: up to
    :data:`_WALKED_LENGTHS` tiles the edition's alphabet (a walk of the words DAWG), longer ones the
    keys' own order (code points, as the DAWG lists them)."""
    packed = Packed(ranks.block(length), length, ranks)
    if length <= _WALKED_LENGTHS:
        return Packed(b"".join(paced_sorted(packed.records(), _same)), length, ranks)
    by_code_point = sorted(range(len(ranks.codes)), key=lambda place: ranks.codes[place])
    to_order = bytes(by_code_point.index(place) for place in range(len(ranks.codes))).ljust(0x100, b"\0")
    back = bytes(by_code_point).ljust(0x100, b"\0")
    ordered = paced_sorted((record.translate(to_order) for record in packed.records()), _same)
    return Packed(b"".join(ordered).translate(back), length, ranks)


def _same(item: T) -> T:
    """The sort key of items compared as they are (sorted in slices, :func:`paced_sorted`)."""
    return item


def _ranked_alphagrams(lex: Lexicon, ranks: ranking.Ranks, length: int, blanks: int) -> Packed:
    """Each word's tiles sorted (its alphagram: the file's bytes are places in the alphabet), once
    each, ordered as :func:`rank` orders them."""
    alphagrams = {bytes(sorted(record)) for record in Packed(ranks.block(length), length, ranks).records()}
    if not lex.edition.has_counts:
        return Packed(b"".join(paced_sorted(alphagrams, _same)), length, ranks)
    ways = _record_ways(lex.edition, ranks.codes, blanks)
    most_first = paced_sorted([(-ways(gram), gram) for gram in paced(alphagrams)], _same)
    return Packed(b"".join(gram for _, gram in most_first), length, ranks)


def _record_ways(edition: Edition, codes: str, blanks: int) -> Callable[[bytes], int]:
    """:func:`lextools.core.probability.draw_count` of a key as the ranking file writes it."""
    rows = [tuple(comb(edition.by_code[c].count or 0, m) for m in range(ranking.LONGEST + 2)) for c in codes]
    in_bag = edition.blanks or 0
    one, two = (in_bag if blanks >= 1 else 0), (comb(in_bag, 2) if blanks >= 2 else 0)

    def ways(record: bytes) -> int:
        p0, p1, p2 = 1, 0, 0  # ways for the tiles so far with 0, 1 and 2 of them left to blanks
        for place in set(record):
            k, row = record.count(place), rows[place]
            f0, f1, f2 = row[k], row[k - 1], row[k - 2] if k >= 2 else 0
            p0, p1, p2 = p0 * f0, p0 * f1 + p1 * f0, p0 * f2 + p1 * f1 + p2 * f0
        return p0 + one * p1 + two * p2

    return ways


def ranked_words(lex: Lexicon, length: int, blanks: int, list_name: str | None = None) -> list[str]:
    """The words of ``length`` tiles (of one named list, if given), in rank order. Without blanks or a
    list, the lexicon's ranking (:mod:`lextools.core.ranking`, read from its file) is that order."""
    if not blanks and list_name is None and 0 < length <= ranking.LONGEST:
        return ranking.ranks_of(lex).keys(length)
    return cached(
        lex,
        ("words", length, blanks, list_name),
        lambda: rank(lex.edition, list_keys(lex, length, list_name), blanks),
    )


def alphagram(edition: Edition, key: str) -> str:
    """A key's tiles in the edition's alphabetical order (es-fise: A C CH D …), as players write alphagrams."""
    return "".join(sorted(key, key=edition.collation_key))


def list_keys(lex: Lexicon, length: int, list_name: str | None) -> Iterable[str]:
    ed = lex.edition
    keys = keys_of_length(lex, length)
    if list_name == "high-value":
        codes = {t.code for t in ed.tiles if (t.value or 0) >= HIGH_VALUE}
        return [k for k in keys if codes.intersection(k)]
    if list_name and list_name.startswith("with-"):
        code = ed.by_label[list_name.removeprefix("with-")].code
        return [k for k in keys if code in k]
    return keys


def draw_ways(edition: Edition, key: str, blanks: int) -> int | None:
    return draw_count(edition, edition.decode(key), blanks) if edition.has_counts else None
