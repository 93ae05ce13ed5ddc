"""The lists that teach which a build makes once, beside the lexicon: the stems lists
(:mod:`lextools.core.stems`, its format and reader, and :func:`lextools.core.stems.rank`, the ranking
word by word that a lexicon built before the file does in the background).

Here the same ranking is made in bulk with numpy from the keys' alphagram rows, which the build
makes for the alphagram index too (:meth:`lextools.builder.study_files.KeyRows.alphagram_rows`):
each alphagram of n + 1 tiles and its n + 1 stems as rows packed into one integer, grouped by
``np.unique``; a stem's tiles and words counted by ``np.bincount``. Python code runs only for the
stems that can be among the best (the edition's alphabet breaks their ties, a string per stem) and
for the words of the stems kept. The order is :func:`~lextools.core.stems.rank`'s, ties and all: a
stem's place among equals is where the dict of that function first meets it — the first of its
alphagrams among the sorted keys, then the tile taken out — and its tiles are listed in that order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from lextools.builder.study_files import KeyRows
from lextools.core import stems
from lextools.core.edition import Edition

Bytes = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]
#: Numbers of alphagrams (fewer than 2³¹).
Small = npt.NDArray[np.int32]
#: A row of at most 8 bytes as one integer.
Packed = npt.NDArray[np.uint64]


def stems_bytes(edition: Edition, keys: Sequence[str], rows: KeyRows, kept: int = stems.KEPT) -> bytes:
    """The stems file of these keys (sorted, as the build has them), ``rows`` made of them."""
    return stems.joined(ranked(edition, keys, rows, n + 1, kept) for n in stems.LENGTHS)


def ranked(edition: Edition, keys: Sequence[str], rows: KeyRows, length: int, kept: int) -> tuple[int, int, bytes]:
    """:func:`lextools.core.stems.rank` of the keys of ``length`` tiles as the file has it: how many
    stems they make, how many are kept (the best ``kept``) and their lines, best first."""
    which = np.flatnonzero(rows.lengths == length)  # the keys of this length, in the keys' order
    grams = Grams(rows.alphagram_rows(which)[:, :length])
    pairs = Pairs(grams)
    best = pairs.best(edition, rows.by_point, kept)
    chosen = np.full(pairs.total, -1, dtype=np.int64)  # a stem → its place among the best, -1 if not kept
    chosen[best] = np.arange(len(best))
    taken = np.flatnonzero(chosen[pairs.stem] >= 0)  # the pairs of the stems kept, in the dict's order
    taken = taken[np.argsort(chosen[pairs.stem[taken]], kind="stable")]
    needed = np.unique(pairs.gram[taken])
    codes = ["", *rows.by_point]
    ends = np.cumsum(pairs.tiles[best]).tolist()
    names, tiles, gram_of = pairs.keys(best, codes), pairs.tile[taken].tolist(), pairs.gram[taken].tolist()
    if plain_json(rows.by_point):
        texts = grams.texts(keys, which, needed)
        return pairs.total, len(best), _lines(names, ends, [codes[t] for t in tiles], [texts[g] for g in gram_of])
    words, made, start = grams.words(keys, which, needed), [], 0
    for stem, end in zip(names, ends, strict=True):
        takes = {codes[t]: words[g] for t, g in zip(tiles[start:end], gram_of[start:end], strict=True)}
        made.append(stems.Stem(stem, takes))
        start = end
    return pairs.total, len(best), b"".join(map(stems.stem_line, made))


def plain_json(codes: str) -> bool:
    """Are these tile codes written in JSON as they are (no quote, backslash or control character to
    escape)? Then a stem's line is joined as text (:func:`_lines`), not by ``json.dumps``."""
    return not any(c in '"\\' or ord(c) < 0x20 for c in codes)


def _lines(names: list[str], ends: list[int], tiles: list[str], words: list[str]) -> bytes:
    """The stems' lines as :func:`lextools.core.stems.stem_line` writes them: stem ``i`` takes
    ``tiles[ends[i - 1]:ends[i]]``, with those ``words`` (:meth:`Grams.texts`)."""
    pairs = ['["' + tile + '",["' + made + '"]]' for tile, made in zip(tiles, words, strict=True)]
    lines, start = [], 0
    for name, end in zip(names, ends, strict=True):
        lines.append('["' + name + '",[' + ",".join(pairs[start:end]) + "]]\n")
        start = end
    return "".join(lines).encode()


class Grams:
    """The distinct alphagrams of some keys (rows of one length, a tile a byte), in the order of
    their first key: :attr:`rows`, and :attr:`words`, how many keys each has."""

    def __init__(self, rows: Bytes) -> None:
        _, first, inverse, counts = np.unique(_packed(rows), return_index=True, return_inverse=True, return_counts=True)
        by_first, self.of_key = _in_first_order(first, inverse)  # the grams in the order of their first key
        self.rows: Bytes = rows[first[by_first]]
        self.count: Ints = counts[by_first]

    def words(self, keys: Sequence[str], which: Ints, grams: Small) -> dict[int, list[str]]:
        """The keys of each of ``grams``, in the keys' order (``which``: the keys' places in ``keys``)."""
        texts, ends = self._keys_of(keys, which, grams)
        return {g: texts[start:end] for g, start, end in zip(grams.tolist(), [0, *ends], ends, strict=False)}

    def texts(self, keys: Sequence[str], which: Ints, grams: Small) -> dict[int, str]:
        """The keys of each of ``grams`` as the text inside a JSON list (``a","b``), where no key holds
        a newline, a quote or a backslash: one join and one split for them all."""
        if not len(grams):
            return {}
        texts, ends = self._keys_of(keys, which, grams)
        marked = np.insert(np.array(texts, dtype=object), ends[:-1], "\n").tolist()  # a newline after each but the last
        return dict(zip(grams.tolist(), '","'.join(marked).split('","\n","'), strict=True))

    def _keys_of(self, keys: Sequence[str], which: Ints, grams: Small) -> tuple[list[str], list[int]]:
        """The keys of ``grams``, one gram's after the other's, and where each gram's end."""
        by_gram = which[np.argsort(self.of_key, kind="stable")]
        counts = self.count[grams]
        ends = np.cumsum(counts)
        starts = np.concatenate(([0], np.cumsum(self.count)))[grams]
        at = np.repeat(starts - (ends - counts), counts) + np.arange(int(ends[-1]) if len(ends) else 0)
        return [keys[i] for i in by_gram[at].tolist()], ends.tolist()


class Pairs:
    """Every (stem, tile) an alphagram makes, one pair for each distinct tile it can lose, in the
    order :func:`lextools.core.stems.rank` meets them: :attr:`gram`, :attr:`tile` (a byte of the
    rows), :attr:`stem` (a number per distinct stem, in the order of its first pair); and per stem,
    :attr:`tiles` it takes and :attr:`words` it makes."""

    def __init__(self, grams: Grams) -> None:
        rows = grams.rows
        n, length = rows.shape
        fresh = np.ones(rows.shape, dtype=bool)  # a tile unlike the one before: a stem not met yet
        fresh[:, 1:] = rows[:, 1:] != rows[:, :-1]
        kept = fresh.ravel()
        self.gram: Small = np.repeat(np.arange(n, dtype=np.int32), length)[kept]
        self.tile = rows.ravel()[kept]
        gram_values, stem_values = _packed(rows), np.empty(rows.shape, dtype=np.uint64)
        for j in range(length):  # the gram without its byte j: the bytes after it one byte lower
            low = gram_values & np.uint64((1 << 8 * j) - 1)
            stem_values[:, j] = low | (gram_values >> np.uint64(8 * j) >> np.uint64(8) << np.uint64(8 * j))
        values, first, inverse, tiles = np.unique(
            stem_values.ravel()[kept], return_index=True, return_inverse=True, return_counts=True
        )
        del stem_values, gram_values
        by_first, self.stem = _in_first_order(first, inverse)  # the stems in the order of their first pair
        self.values: Packed = values[by_first]
        self.tiles: Ints = tiles[by_first]
        self.words: Ints = np.bincount(self.stem, weights=grams.count[self.gram], minlength=len(values)).astype(
            np.int64
        )
        self.total = len(values)
        self.width = max(length - 1, 0)

    def best(self, edition: Edition, codes: str, kept: int) -> Ints:
        """The best ``kept`` stems, best first: most tiles, most words, the edition's alphabet, the
        dict's order. Only the stems as good as the ``kept``-th in tiles and words are told apart by
        the alphabet, a string each."""
        if not self.total or kept <= 0:
            return np.zeros(0, dtype=np.int64)
        fewest = np.lexsort((-self.words, -self.tiles))
        last = fewest[min(kept, self.total) - 1]
        tiles, words = self.tiles[last], self.words[last]
        near = np.flatnonzero((self.tiles > tiles) | ((self.tiles == tiles) & (self.words >= words)))
        ties = [stems.in_alphabet(edition, name) for name in self.keys(near, ["", *codes])]
        tiles_of, words_of = self.tiles[near].tolist(), self.words[near].tolist()
        # ``near`` is in the dict's order, and ``sorted`` keeps it among equals (as ``heapq.nsmallest`` does)
        order = sorted(range(len(near)), key=lambda i: (-tiles_of[i], -words_of[i], ties[i]))
        return near[order[:kept]]

    def keys(self, which: Ints, codes: list[str]) -> list[str]:
        """The stems ``which`` as lexicon keys (``codes``: a row's byte → its tile code)."""
        rows = self.values[which].astype("<u8").view(np.uint8).reshape(len(which), 8)[:, : self.width].tolist()
        return ["".join(map(codes.__getitem__, row)) for row in rows]


def _in_first_order(first: Ints, inverse: Ints) -> tuple[Ints, Ints]:
    """``np.unique``'s distinct values renumbered in the order of their first occurrence (``first``),
    as a dict meets them: the unique values' places in that order, and each item's new number."""
    by_first = np.argsort(first)
    renumber = np.empty_like(by_first)
    renumber[by_first] = np.arange(len(by_first))
    return by_first, renumber[inverse.ravel()]


def _packed(rows: Bytes) -> Packed:
    """Each row of at most 8 bytes as one integer, its byte k at bits 8k (little-endian, on any
    machine: :meth:`Pairs.keys` reads them back so): equal rows, equal integers."""
    wide = np.zeros((len(rows), 8), dtype=np.uint8)
    wide[:, : rows.shape[1]] = rows
    return wide.view("<u8").ravel().astype(np.uint64)
