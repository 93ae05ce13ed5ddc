"""The files a build makes by sorting or grouping every key — the alphagram index's sorted
alphagrams, the probability ranking and the words of each alphagram — made with numpy: the keys as
arrays of tiles, sorted and grouped in bulk, not word by word.

:class:`KeyRows` holds each key as a row of a ``uint8`` matrix, one column per tile and a pad
(:data:`PAD`) after the last, so rows sort as bytes by ``np.lexsort`` of their columns: once as its
tiles' places in the edition's alphabet, once as its alphagram (its tiles in the lexicon's
alphagram order, sorted). A build makes it once for the three files. Every step is a bulk operation
over the rows (or over a slice of :data:`TEXT_ROWS` rows, where one would widen every byte to eight);
a Python loop runs per column or per slice, never per key. The files' formats are their readers'
(:mod:`lextools.core.lexicon`, :mod:`lextools.core.ranking`, :mod:`lextools.core.anagram_table`);
numpy is the build's alone: no look-up imports this module.

- :meth:`KeyRows.sorted_alphagrams` gives the distinct alphagrams sorted as strings, as the
  alphagram DAWG takes them.
- :meth:`KeyRows.ranking` writes the ranking file byte for byte as the order it documents: by
  length, then most ways to draw first, then the alphabet.
- :meth:`KeyRows.table` writes the alphagram table, its seeds found in bulk by
  :func:`lextools.builder.displace.displace`: the same seeds, so the same bytes, as the
  bucket-by-bucket search lextools used before.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from itertools import chain, repeat
from math import comb
from typing import Any
from zlib import adler32, crc32

import numpy as np
import numpy.typing as npt

from lextools.builder.displace import displace, stable_order
from lextools.core.anagram_table import MAGIC as TABLE_MAGIC
from lextools.core.edition import Edition
from lextools.core.lexicon import order_of_counts
from lextools.core.ranking import LONGEST, alphabet_codes
from lextools.core.ranking import MAGIC as RANKS_MAGIC

#: The byte after a key's last tile in its row (above every place: an alphabet has fewer than 255 tiles).
PAD = 0xFF
#: What ends a record of the alphagram table.
NEWLINE = ord("\n")
#: Rows made into Python strings at a time: never all the alphagrams as strings at once.
TEXT_ROWS = 1 << 16

Bytes = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]
#: Row numbers and lengths (fewer than 2³¹ keys).
Small = npt.NDArray[np.int32]
Hashes = npt.NDArray[np.uint32]


def ranking_bytes(edition: Edition, keys: Iterable[str]) -> bytearray:
    """The ranking file of these keys (:mod:`lextools.core.ranking`)."""
    return KeyRows(list(keys), alphabet_codes(edition)).ranking(edition)


def table_bytes(edition: Edition, keys: Iterable[str], order: str) -> bytearray:
    """The alphagram table of these keys (:mod:`lextools.core.anagram_table`), ``order`` the lexicon's
    alphagram order (every tile code of its keys)."""
    return KeyRows(list(keys), alphabet_codes(edition), order).table(edition)


def sorted_alphagrams(keys: Iterable[str], order: str) -> Iterator[str]:
    """The keys' distinct alphagrams (:func:`lextools.core.lexicon.alphagrammer`), sorted as strings."""
    return KeyRows(list(keys), order, order).sorted_alphagrams()


class KeyRows:
    """The keys as rows (the module docstring): :attr:`places`, each key's tiles as their places in
    ``alphabet`` (every code of the keys); and, while :meth:`sorted_alphagrams` runs, its alphagram —
    its tiles in the alphagram ``order`` (by default :func:`~lextools.core.lexicon.alphagram_order`'s),
    each as 1 + its code's place in :attr:`by_point`, and 0 for the pad, so that rows sort as the
    alphagrams' strings do ("AB" before "ABC")."""

    def __init__(self, keys: Sequence[str], alphabet: str, order: str | None = None) -> None:
        self.alphabet = alphabet
        self.lengths: Small = np.fromiter(map(len, keys), dtype=np.int32, count=len(keys))
        #: Columns of a row: the longest key and one more (a newline's place, or a pad).
        self.width = int(self.lengths.max(initial=0)) + 1
        self.places, counts = _rows(keys, alphabet, self.lengths, self.width)
        #: The alphagram order, and its codes by code point.
        self.order = order_of_counts(dict(zip(alphabet, counts.tolist(), strict=True))) if order is None else order
        self.by_point = "".join(sorted(self.order))
        if any(n and c not in self.order for c, n in zip(alphabet, counts.tolist(), strict=True)):
            raise ValueError("a key holds a tile code that is not in the alphagram order")
        #: What :meth:`table` needs of the alphagrams, kept by :meth:`sorted_alphagrams`: the keys by
        #: alphagram (and which is the first of its alphagram), the alphagrams' CRC-32s and Adler-32s.
        self.grouped: tuple[Small, npt.NDArray[np.bool_], Hashes, Hashes] | None = None

    # -- the alphagram index ---------------------------------------------------------------------

    def sorted_alphagrams(self) -> Iterator[str]:
        """The distinct alphagrams, sorted as strings (what the alphagram DAWG is built from), made
        strings :data:`TEXT_ROWS` at a time; and, on the way, :attr:`grouped`. (Given one by one by
        ``chain``, in C: a generator resumed for each of half a million strings costs a tenth of a second.)"""
        return chain.from_iterable(self._alphagram_parts())

    def _alphagram_parts(self) -> Iterator[list[str]]:
        """:meth:`sorted_alphagrams`, a list of strings at a time."""
        alphagrams = self.alphagram_rows()
        # The keys by their alphagrams' strings, each alphagram's in the alphabet's order.
        keys: list[npt.NDArray[Any]] = [self.alphabetical, *columns(alphagrams)]
        by = np.lexsort(keys).astype(np.int32)
        grouped = alphagrams[by].view(np.dtype((np.void, self.width))).ravel()  # a row as one value
        fresh = np.ones(len(by), dtype=bool)  # the first key of its alphagram
        fresh[1:] = grouped[1:] != grouped[:-1]
        del grouped
        heads, hashed = by[fresh], []
        for at in range(0, len(heads), TEXT_ROWS):
            part = heads[at : at + TEXT_ROWS]
            names = _strings(alphagrams[part], self.lengths[part], self.by_point)
            yield names
            hashed.append(_hashes(names))
        self.grouped = (by, fresh, *_joined_hashes(hashed))

    @cached_property
    def alphabetical(self) -> Small:
        """Each key's place among the keys in the alphabet's order: one sort key for a row's columns."""
        ranks = np.empty(len(self.lengths), dtype=np.int32)
        as_bytes = np.ascontiguousarray(self.places).view(np.dtype((np.void, self.width))).ravel()  # (memcmp)
        ranks[np.argsort(as_bytes, kind="stable")] = np.arange(len(ranks), dtype=np.int32)
        return ranks

    def alphagram_rows(self, which: npt.NDArray[np.intp] | None = None) -> Bytes:
        """Each key's alphagram as a row (the class docstring), or only the keys ``which``: the
        alphagram index and table's, and the stems lists' (:mod:`lextools.builder.study_lists`), made
        for each when it needs them rather than kept while the ranking and the table are made."""
        in_order = np.full(PAD + 1, PAD, dtype=np.uint8)  # an alphabet's place → its place in ``order``
        in_order[: len(self.alphabet)] = [self.order.find(c) % (PAD + 1) for c in self.alphabet]  # (-1: PAD)
        alphagrams = _translated(self.places.copy() if which is None else self.places[which], in_order)
        alphagrams.sort(axis=1)  # the pad last
        to_point = np.zeros(PAD + 1, dtype=np.uint8)  # a place in ``order`` → 1 + its place in ``by_point``
        to_point[: len(self.order)] = [self.by_point.index(c) + 1 for c in self.order]
        return _translated(alphagrams, to_point)

    # -- the ranking -----------------------------------------------------------------------------

    def ranking(self, edition: Edition) -> bytearray:
        """The ranking file (:mod:`lextools.core.ranking`; :attr:`alphabet` is the edition's)."""
        lengths = self.lengths
        if int(lengths.max(initial=0)) > LONGEST:
            raise ValueError(f"a key of {int(lengths.max())} tiles: the ranking holds at most {LONGEST}")
        ways = _ways(edition, self.alphabet, self.places) if edition.has_counts else np.zeros(len(lengths), np.int64)
        fewest = np.negative(ways, out=ways)  # most ways first
        ranked = np.lexsort((self.alphabetical, fewest, lengths)).astype(np.int32)  # the lengths first, …
        del ways, fewest
        encoded = self.alphabet.encode()
        counts = np.bincount(lengths, minlength=LONGEST + 1).astype("<u4").tobytes()
        head = b"".join((RANKS_MAGIC, len(encoded).to_bytes(4, "little"), encoded, counts))
        return _file(head, self.places, ranked, lengths)

    # -- the alphagram table ---------------------------------------------------------------------

    def table(self, edition: Edition) -> bytearray:
        """The alphagram table (:mod:`lextools.core.anagram_table`; :attr:`alphabet` is the edition's)."""
        if self.grouped is None:
            deque(self.sorted_alphagrams(), maxlen=0)  # for what it keeps on the way
        assert self.grouped is not None
        by, fresh, first, second = self.grouped
        slots, seeds, slot_of = displace(first, second)
        group = np.cumsum(fresh, dtype=np.int32) - 1
        ends = np.zeros(slots + 1, dtype=np.int64)  # where each slot's record ends, from the first's start
        ends[1:][slot_of] = np.bincount(group, weights=self.lengths[by] + 1).astype(np.int64)
        np.cumsum(ends, out=ends)
        # The records in slot order: each alphagram's words stay together and in order (a stable sort).
        words = by[stable_order(slot_of[group]).astype(np.int32)]
        del group, slot_of
        encoded = self.order.encode()
        head = b"".join((TABLE_MAGIC, len(encoded).to_bytes(4, "little"), encoded))
        head += len(seeds).to_bytes(4, "little") + slots.to_bytes(4, "little")
        seed_bytes = seeds.astype("<u2").tobytes()
        seed_bytes += b"\0" * (-len(seed_bytes) % 4)
        ends += len(head) + len(seed_bytes) + 4 * (slots + 1)
        if ends[-1] >= 1 << 32:
            raise ValueError("the alphagram table would hold 4 GiB or more")
        head = b"".join((head, seed_bytes, ends.astype("<u4").tobytes()))
        del ends
        rank_byte = np.full(PAD + 1, PAD, dtype=np.uint8)  # a place → its byte in the records
        rank_byte[: len(self.alphabet)] = np.frombuffer(next(edition.rank_bytes([self.alphabet])), dtype=np.uint8)
        return _file(head, self.places, words, self.lengths, rank_byte, NEWLINE)


def _rows(keys: Sequence[str], codes: str, lengths: Small, width: int) -> tuple[Bytes, Ints]:
    """Each key a row of its characters' places in ``codes``, then :data:`PAD`; and how many times
    each code occurs. Made :data:`TEXT_ROWS` keys at a time."""
    if len(codes) >= PAD:
        raise ValueError(f"{len(codes)} tile codes: a row holds fewer than {PAD}")
    rows = np.full((len(keys), width), PAD, dtype=np.uint8)
    counts = np.zeros(len(codes), dtype=np.int64)
    for at in range(0, len(keys), TEXT_ROWS):
        flat = _places("".join(keys[at : at + TEXT_ROWS]), codes)
        rows[at : at + TEXT_ROWS][np.arange(width) < lengths[at : at + TEXT_ROWS, None]] = flat  # row by row
        counts += np.bincount(flat, minlength=len(codes))
    return rows, counts


def _places(text: str, codes: str) -> Bytes:
    """Each character of ``text`` as its place in ``codes`` (``bytes.translate`` where every
    character is latin-1, as in every edition we ship)."""
    ords = [ord(c) for c in codes]
    try:
        latin = text.encode("latin-1")
    except UnicodeEncodeError:
        points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        place = np.full(max(*ords, int(points.max(initial=0)), 0xFF) + 1, PAD, dtype=np.uint8)
        place[ords] = np.arange(len(codes), dtype=np.uint8)
        flat = place[points]
    else:
        place = np.full(PAD + 1, PAD, dtype=np.uint8)
        place[[o for o in ords if o <= 0xFF]] = [i for i, o in enumerate(ords) if o <= 0xFF]
        flat = np.frombuffer(latin.translate(place.tobytes()), dtype=np.uint8)
    if (flat == PAD).any():
        raise ValueError("a key holds a character that is no tile code")
    return flat


def _translated(rows: Bytes, table: Bytes) -> Bytes:
    """``rows`` with each byte b replaced by ``table[b]`` (``bytes.translate``), in place,
    :data:`TEXT_ROWS` rows at a time."""
    bytes_table = table.tobytes()
    for at in range(0, len(rows), TEXT_ROWS):
        part = rows[at : at + TEXT_ROWS]
        part[...] = np.frombuffer(part.tobytes().translate(bytes_table), dtype=np.uint8).reshape(part.shape)
    return rows


def columns(rows: Bytes) -> list[Bytes]:
    """``np.lexsort``'s keys that sort the rows as bytes: their columns, the last first (the last key
    is the first compared). Views, not copies: each is sorted on as it is read."""
    return [rows[:, j] for j in range(rows.shape[1] - 1, -1, -1)]


def _file(
    head: bytes, rows: Bytes, which: Small, lengths: Small, table: Bytes | None = None, ending: int | None = None
) -> bytearray:
    """``head``, then rows ``which`` one after the other, each its first ``length`` bytes (each byte
    b as ``table[b]``, if given) and then ``ending``, if given. Written in place into one buffer the
    size of the file, :data:`TEXT_ROWS` rows at a time."""
    extra = 0 if ending is None else 1
    out = bytearray(len(head) + int(lengths[which].sum(dtype=np.int64)) + extra * len(which))
    out[: len(head)] = head
    body, done = np.frombuffer(out, dtype=np.uint8)[len(head) :], 0
    for at in range(0, len(which), TEXT_ROWS):
        part, sizes = rows[which[at : at + TEXT_ROWS]], lengths[which[at : at + TEXT_ROWS]]
        if table is not None:
            _translated(part, table)
        if ending is not None:
            part[np.arange(len(part)), sizes] = ending
        chunk = part[np.arange(rows.shape[1]) < (sizes + extra)[:, None]]
        body[done : done + len(chunk)] = chunk
        done += len(chunk)
    del body  # (a view of ``out``: while it lives, ``out`` cannot change size)
    return out


def _strings(rows: Bytes, lengths: Small, codes: str) -> list[str]:
    """Alphagram rows as strings, each of its first ``length`` bytes b as ``codes[b - 1]``: one text,
    decoded and split (no Python code per string)."""
    end = next(c for c in map(chr, range(NEWLINE, PAD + 1 + NEWLINE)) if c not in codes)  # "\n", unless a code
    character = np.zeros(PAD + 1, dtype=np.uint32)
    character[: len(codes) + 1] = [ord(end), *map(ord, codes)]  # the pad after a row's tiles: the end
    places = rows[np.arange(rows.shape[1]) <= lengths[:, None]]
    strings = character[places].tobytes().decode("utf-32-le", "surrogatepass").split(end)
    strings.pop()  # the text ends with an end
    return strings


def _hashes(names: list[str]) -> tuple[Hashes, Hashes]:
    """The CRC-32 and Adler-32 of each alphagram as the index's key, UTF-8: what the table hashes
    (zlib's functions mapped over them: no Python code per name). A lone surrogate, which no key
    has, is hashed as Python writes it (``surrogatepass``) rather than refused."""
    encoded = list(map(str.encode, names, repeat("utf-8"), repeat("surrogatepass")))
    first = np.fromiter(map(crc32, encoded), dtype=np.uint32, count=len(encoded))
    return first, np.fromiter(map(adler32, encoded), dtype=np.uint32, count=len(encoded))


def _joined_hashes(parts: list[tuple[Hashes, Hashes]]) -> tuple[Hashes, Hashes]:
    """The hashes of :func:`_hashes`'s parts, one after the other."""
    empty = np.zeros(0, dtype=np.uint32)
    return np.concatenate([empty, *(p[0] for p in parts)]), np.concatenate([empty, *(p[1] for p in parts)])


def _ways(edition: Edition, codes: str, rows: Bytes) -> Ints:
    """Per row, the ways to draw its tiles from a full bag: over each run of one tile in the sorted
    row, C(copies of the tile, the run's length), multiplied. int64 holds it: the product is at
    most C(tiles in the bag, 15) (Vandermonde), checked here."""
    counts = [edition.by_code[c].count or 0 for c in codes]
    if comb(sum(counts), LONGEST) >= 1 << 63:
        raise ValueError(f"{edition.name}: a bag of {sum(counts)} tiles has more ways to draw than int64 holds")
    table = np.ones((PAD + 1, LONGEST + 2), dtype=np.int64)  # the pad's row: 1s
    for place, count in enumerate(counts):
        table[place] = [comb(count, m) for m in range(LONGEST + 2)]
    factor = table.ravel()  # (place, m) at place × (LONGEST + 2) + m; m = 0 (C(n, 0) = 1) amid a run
    ways = np.ones(len(rows), dtype=np.int64)
    for at in range(0, len(rows), TEXT_ROWS):
        tiles = np.sort(rows[at : at + TEXT_ROWS], axis=1).T.copy()  # each tile's copies together, the pad last
        run = np.zeros(tiles.shape[1], dtype=np.int64)
        for j, here in enumerate(tiles):
            ends = here != (tiles[j + 1] if j + 1 < len(tiles) else PAD)  # (a pad's run never ends)
            run += 1
            ways[at : at + TEXT_ROWS] *= factor[here.astype(np.int64) * (LONGEST + 2) + run * ends]
            run *= ~ends
    return ways
