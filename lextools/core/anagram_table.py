"""The words of each alphagram: a table a build writes and a reader uses through a memory map.

The alphagram index (``E-<sha16>.alphagrams.dawg``, :mod:`lextools.core.lexicon`) says which
multisets of tiles spell words; this file says which words, so an anagram query looks its multisets
up here instead of spelling each one's words out of the words DAWG (:mod:`lextools.core.search`). It
is read in place, through ``mmap``: every process shares one copy of its bytes in the page cache,
and a process that answers no anagram never reads it.

The table is a perfect hash of the index's alphagrams ("hash, displace", as in Belazzougui, Botelho
and Dietzfelbinger's CHD): an alphagram's bytes (its key in the index, UTF-8) pick a bucket by
CRC-32; the bucket's seed, found at build time so that no two alphagrams share a slot
(:mod:`lextools.builder.displace`: the buckets largest first, each its first seed that fits), picks
the slot: ``(crc32 + seed × adler32) mod slots``. Looking up many alphagrams is then a chain of
``map`` over C functions (no Python code per alphagram) and no probe or comparison: an alphagram
the index knows is always in its slot. An alphagram the index does not know lands in some other
one's slot, so the table is asked only for alphagrams the index has (one C++ test each). The file
(``E-<sha16>.alphawords``, named in ``E.json`` with its checksum, checked on first use)::

    "lextools-alphawords 2\\n"      22 bytes
    uint32 n, then n bytes         the tile codes in the lexicon's alphagram order, UTF-8
    uint32 buckets, uint32 slots
    buckets × uint16               each bucket's seed (padded to 4 bytes)
    (slots + 1) × uint32           where each slot's record starts in the file; the next one's start
                                   is where it ends (an empty slot: the two are equal)
    records                        per alphagram: its words in the edition's alphabet, each as its
                                   :meth:`~lextools.core.edition.Edition.rank_bytes` and a newline

The words of several alphagrams are one ``b"".join`` of their records and one ``split``; sorted as
bytes they are in the edition's alphabet. Every lexicon has the file: one built before it is
refused when it is loaded, and one with the first version of the file when the table is first read,
until it is built again.
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import add, mod, mul
from zlib import adler32, crc32

from lextools.core.errors import CorruptLexiconError
from lextools.core.lexicon import Lexicon, latin_ranks

MAGIC = b"lextools-alphawords 2\n"
#: The metadata's name of the file (``files``).
PART = "alphawords"


class AnagramTable:
    """The file read in place: :meth:`ranked_words` of alphagrams."""

    def __init__(self, data: bytes | mmap.mmap, order: str) -> None:
        try:
            if data[: len(MAGIC)] != MAGIC:
                raise ValueError("not an alphawords file of this version")
            at = len(MAGIC)
            (n,) = struct.unpack_from("<I", data, at)
            codes = bytes(data[at + 4 : at + 4 + n]).decode()
            at += 4 + n
            buckets, slots = struct.unpack_from("<II", data, at)
            at += 8
            seeds_end = at + 2 * buckets + (-2 * buckets % 4)
            if not buckets or not slots or seeds_end + 4 * (slots + 1) > len(data):
                raise ValueError("its table is cut short")
            view = memoryview(data)
            self.seeds = view[at : at + 2 * buckets].cast("H")
            self.starts = view[seeds_end : seeds_end + 4 * (slots + 1)].cast("I")
            if self.starts[-1] != len(data) or self.starts[0] != seeds_end + 4 * (slots + 1):
                raise ValueError("its records do not end where the file does")
        except (ValueError, struct.error, UnicodeDecodeError) as e:
            raise CorruptLexiconError(f"the alphawords file is damaged ({e}); rebuild the lexicon") from None
        if codes != order:
            raise CorruptLexiconError("the alphawords file is of another alphagram order; rebuild the lexicon")
        self.data = data
        self.buckets, self.slots = buckets, slots
        #: The alphagram's translate tables where every code is latin-1 (the alphagrammer's).
        self.latin = latin_ranks(order)

    def exact(self, rack: str, known: Callable[[str | bytes], bool]) -> list[bytes] | None:
        """:meth:`ranked_words_of` the rack's own alphagram, if the index (``known``) has it; None
        where a code is not latin-1 (the caller then sorts the rack itself). The quickest query
        there is, so its alphagram is made here: one translate each way and a sort of bytes."""
        if self.latin is None:
            return None
        rank_of, code_of = self.latin
        try:
            ranked = rack.encode("latin-1").translate(rank_of)
        except UnicodeEncodeError:  # a character no tile has: no word spends it
            return []
        name = bytes(sorted(ranked)).translate(code_of)  # (U+0001 for a character no tile has)
        if not name.isascii():
            name = name.decode("latin-1").encode()
        return self.ranked_words_of(name) if known(name) else []

    def ranked_words(self, alphagrams: Iterable[bytes]) -> list[bytes]:
        """The words of these alphagrams (each one the index knows, as its key in the index), as
        :meth:`~lextools.core.edition.Edition.rank_bytes`: each alphagram's in the alphabet's order,
        the alphagrams' one after the other."""
        return words_of(self.records(alphagrams))

    def records(self, alphagrams: Iterable[bytes]) -> list[bytes]:
        """The record of each of these alphagrams (each one the index knows, as its key in the index):
        its words, each a :meth:`~lextools.core.edition.Edition.rank_bytes` and a newline. Found by a
        chain of ``map`` over C functions, no Python code per alphagram."""
        names = alphagrams if isinstance(alphagrams, list) else list(alphagrams)
        if not names:
            return []
        first = list(map(crc32, names))
        seeds = map(self.seeds.__getitem__, map(mod, first, repeat(self.buckets)))
        at = list(map(mod, map(add, first, map(mul, seeds, map(adler32, names))), repeat(self.slots)))
        ends = map(self.starts.__getitem__, map(add, at, repeat(1)))
        spans = map(slice, map(self.starts.__getitem__, at), ends)
        return list(map(self.data.__getitem__, spans))

    def ranked_words_of(self, alphagram: bytes) -> list[bytes]:
        """:meth:`ranked_words` of one alphagram (a rack without blanks): in the alphabet's order."""
        first = crc32(alphagram)
        at = (first + self.seeds[first % self.buckets] * adler32(alphagram)) % self.slots
        words = self.data[self.starts[at] : self.starts[at + 1]].split(b"\n")
        words.pop()
        return words


def words_of(records: list[bytes]) -> list[bytes]:
    """The words of these records (:meth:`AnagramTable.records`), one after the other: one join, one split."""
    words = b"".join(records).split(b"\n")
    words.pop()  # the text ends with a newline
    return words


def table_of(lex: Lexicon) -> AnagramTable:
    """The lexicon's table, checked the first time: its checksum, and its version (a table of the
    first version, a hash probed by Python code, is refused: rebuild the lexicon)."""
    cached: AnagramTable | None = getattr(lex, "_alphawords", None)
    if cached is not None:
        return cached
    mapped, metadata = lex.alphawords_map, lex.metadata
    entry = metadata["files"][PART]
    if not mapped.matches(entry["sha256"]):
        raise CorruptLexiconError(
            f"{entry['name']} does not match its checksum in {metadata['edition']}.json: "
            "the file is truncated or altered; rebuild the lexicon"
        )
    if mapped.data[: len(MAGIC)] != MAGIC:
        raise CorruptLexiconError(
            f"{entry['name']} is not a table this lextools reads (an older lextools wrote it); rebuild the lexicon"
        )
    table = AnagramTable(mapped.data, str(metadata["alphagram_order"]))
    lex._alphawords = table  # type: ignore[attr-defined]  # kept with the lexicon
    return table
