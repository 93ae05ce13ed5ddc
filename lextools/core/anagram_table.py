"""The words of each alphagram: a hash table a build writes and a reader uses through a memory map.

The alphagram index (``E-<sha16>.alphagrams.dawg``, :mod:`lextools.core.lexicon`) says which
multisets of tiles spell words; this file says which words, so an anagram query looks its multisets
up here instead of spelling each one's words out of the words DAWG (:mod:`lextools.core.search`). It
is read in place, through ``mmap``: every process shares one copy of its bytes in the page cache,
and a process that answers no anagram never reads it. The file (``E-<sha16>.alphawords``, named in
``E.json`` with its checksum, checked on first use)::

    "lextools-alphawords 1\\n"      21 bytes
    uint32 n, then n bytes         the tile codes in the lexicon's alphagram order, UTF-8
    uint32 buckets                 how many slots the table has
    buckets × uint32               0 (empty) or 1 + the offset of a record in the records below
    records                        per alphagram: one byte, its length in tiles × 16 + k, its number
                                   of words (15 and a uint16 from 15 words up), then its k words,
                                   one byte per tile (the tile's place in the order above), in the
                                   edition's alphabet

A word's bytes sorted are its alphagram's (the bytes follow the alphagram order), so a record is
found by hashing the alphagram's bytes (CRC-32) into the table and probing slot after slot until a
record of that length whose first word sorts to those bytes, or an empty slot says there is none. A lexicon built
before this file answers anagrams as before, from the DAWGs alone.
"""

from __future__ import annotations

import mmap
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from itertools import repeat
from zlib import crc32

from lextools.core.edition import Edition
from lextools.core.errors import CorruptLexiconError
from lextools.core.ranking import as_bytes

MAGIC = b"lextools-alphawords 1\n"
#: The metadata's name of the file (``files``).
PART = "alphawords"
#: Slots per alphagram: few probes per look-up, a table about 1.3 × 4 bytes per alphagram.
_LOAD = 1.3


def table_bytes(edition: Edition, keys: Iterable[str], order: str) -> bytes:
    """The file for these keys, ``order`` the lexicon's alphagram order (every tile code of its keys)."""
    groups: dict[bytes, list[bytes]] = {}
    # Each record's words in the edition's alphabet.
    for word in as_bytes(order, sorted(keys, key=edition.collation_key)):
        groups.setdefault(bytes(sorted(word)), []).append(word)
    size = max(1, int(len(groups) * _LOAD) + 1)
    slots = [0] * size
    records: list[bytes] = []
    at = 0
    for alphagram, words in groups.items():
        slot = zlib.crc32(alphagram) % size
        while slots[slot]:
            slot = (slot + 1) % size
        slots[slot] = at + 1
        k = len(words)
        head = bytes(((len(alphagram) << 4) | min(k, 15),)) + (struct.pack("<H", k) if k >= 15 else b"")
        record = head + b"".join(words)
        records.append(record)
        at += len(record)
    encoded = order.encode()
    return b"".join(
        (
            MAGIC,
            struct.pack("<I", len(encoded)),
            encoded,
            struct.pack("<I", size),
            struct.pack(f"<{size}I", *slots),
            *records,
        )
    )


class AnagramTable:
    """The file read in place: :meth:`words` of an alphagram."""

    def __init__(self, data: bytes | mmap.mmap, order: str) -> None:
        try:
            if data[: len(MAGIC)] != MAGIC:
                raise ValueError("not an alphawords file")
            at = len(MAGIC)
            (n,) = struct.unpack_from("<I", data, at)
            codes = bytes(data[at + 4 : at + 4 + n]).decode()
            at += 4 + n
            (size,) = struct.unpack_from("<I", data, at)
            at += 4
            if at + 4 * size > len(data):
                raise ValueError("its table is cut short")
        except (ValueError, struct.error, UnicodeDecodeError) as e:
            raise CorruptLexiconError(f"the alphawords file is damaged ({e}); rebuild the lexicon") from None
        if codes != order:
            raise CorruptLexiconError("the alphawords file is of another alphagram order; rebuild the lexicon")
        self.data = data
        self.view = memoryview(data)
        self.size = size
        self.slots = memoryview(data)[at : at + 4 * size].cast("I") if size else memoryview(b"").cast("I")
        self.records = at + 4 * size
        self.latin = all(ord(c) < 0x100 for c in order)
        self.codes = order
        #: A key's characters → their bytes (latin-1 editions: one ``translate``).
        self.to_bytes = bytes(order.find(chr(b)) % 256 if chr(b) in order else 0 for b in range(256))
        # (any other byte: U+0001, never a tile: a character no word has makes an alphagram of none)
        self.to_codes = bytes(ord(c) if self.latin else 0 for c in order).ljust(256, b"\1")
        #: A latin-1 key's characters → their places in the order, 255 for a character no word has
        #: (no record holds it, so its alphagram is found in none): :meth:`anagrams` of a rack.
        self.ranks = bytes(order.find(chr(b)) if chr(b) in order else 255 for b in range(256))
        self.quick = self.latin and len(order) < 255 and "\1" not in order

    def anagrams(self, key: str, known: Callable[[str], bool]) -> list[str]:
        """The keys spelled with exactly the tiles of this one (a :attr:`quick` table), in the edition's
        alphabet. Its alphagram is one translate and one sort; most racks spell no word, which the
        alphagram index (``known``, C++) says before the table is probed."""
        try:
            alphagram = bytes(sorted(key.encode("latin-1").translate(self.ranks)))
        except UnicodeEncodeError:  # a character no tile of the lexicon has
            return []
        if not known(alphagram.translate(self.to_codes).decode("latin-1")):
            return []
        return self.words(alphagram)

    def encode(self, alphagram: str) -> bytes:
        """An alphagram (codes in the alphagram order) as the file's bytes."""
        if self.latin:
            return alphagram.encode("latin-1").translate(self.to_bytes)
        return bytes(map(self.codes.index, alphagram))

    def all_words(self, alphagrams: Iterable[bytes]) -> list[str]:
        """:meth:`words` of each alphagram, one after the other (a latin-1 table: the probes of
        :meth:`groups`, then per length one translate, one decode and slices made by C functions)."""
        if not self.latin:
            return [w for a in alphagrams for w in self.words(a)]
        out: list[str] = []
        for n, parts in self.groups(alphagrams).items():
            text = b"".join(parts).translate(self.to_codes).decode("latin-1")
            out += map(text.__getitem__, chunks(len(text), n))
        return out

    def groups(self, alphagrams: Iterable[bytes]) -> dict[int, list[bytes]]:
        """The words of the alphagrams (of a latin-1 table) by length in tiles: each record's bytes,
        its words one after the other. The probes of :meth:`_record`, in one loop."""
        size, slots, data, records = self.size, self.slots, self.view, self.records - 1
        raws: dict[int, list[bytes]] = {}
        if not size:
            return raws
        for alphagram in alphagrams:
            n = len(alphagram)
            slot = crc32(alphagram) % size
            at = slots[slot]
            while at:
                at += records
                head = data[at]
                if head >> 4 == n:
                    k = head & 15
                    at += 1
                    if k == 15:
                        k, at = _count(data, at), at + 2
                    if bytes(sorted(data[at : at + n])) == alphagram:
                        raws.setdefault(n, []).append(data[at : at + k * n])
                        break
                slot += 1
                if slot == size:
                    slot = 0
                at = slots[slot]
        return raws

    def encode_all(self, alphagrams: Iterable[str]) -> Iterable[bytes]:
        """:meth:`encode` of each alphagram (a latin-1 table: C functions, no Python call per alphagram)."""
        if not self.latin:
            return map(self.encode, alphagrams)
        return map(bytes.translate, map(str.encode, alphagrams, repeat("latin-1")), repeat(self.to_bytes))

    def _record(self, alphagram: bytes) -> bytes:
        """The bytes of an alphagram's words, one after the other (empty when it has none)."""
        size, slots, data, n = self.size, self.slots, self.data, len(alphagram)
        if not size or not n:
            return b""
        slot = zlib.crc32(alphagram) % size
        while True:
            at = slots[slot]
            if not at:
                return b""
            at += self.records - 1
            head = data[at]
            k = head & 15
            at += 1
            if k == 15:  # 15 words or more: the count follows
                (k,) = struct.unpack_from("<H", data, at)
                at += 2
            if head >> 4 == n and bytes(sorted(data[at : at + n])) == alphagram:
                return data[at : at + k * n]
            slot = (slot + 1) % size

    def words(self, alphagram: bytes) -> list[str]:
        """The keys whose tiles are this alphagram (its bytes, :meth:`encode`), in the edition's alphabet."""
        raw, n = self._record(alphagram), len(alphagram)
        if not raw:
            return []
        text = raw.translate(self.to_codes).decode("latin-1") if self.latin else "".join(self.codes[b] for b in raw)
        return [text[i : i + n] for i in range(0, len(raw), n)]


def chunks(size: int, n: int) -> Iterator[slice]:
    """The slices cutting ``size`` items into runs of ``n``."""
    return map(slice, range(0, size, n), range(n, size + n, n))


def _count(data: bytes | mmap.mmap | memoryview, at: int) -> int:
    """A record's count of words from 15 up (the uint16 after its head)."""
    (k,) = struct.unpack_from("<H", data, at)
    return int(k)


def table_of(lex: object) -> AnagramTable | None:
    """The lexicon's table, its checksum checked the first time; None for a lexicon built without one."""
    cached: AnagramTable | None = getattr(lex, "_alphawords", None)
    if cached is not None:
        return cached
    mapped = getattr(lex, "alphawords_map", None)
    if mapped is None:
        return None
    metadata = lex.metadata  # type: ignore[attr-defined]
    entry = metadata["files"][PART]
    if not mapped.matches(entry["sha256"]):
        raise CorruptLexiconError(
            f"{entry['name']} does not match its checksum in {metadata['edition']}.json: "
            "the file is truncated or altered; rebuild the lexicon"
        )
    table = AnagramTable(mapped.data, str(metadata["alphagram_order"]))
    lex._alphawords = table  # type: ignore[attr-defined]  # kept with the lexicon
    return table
