"""The probability ranking of a lexicon: every key, shorter words first, then likeliest draw first.

The order is Zyzzyva's: words are ranked within their length in tiles, by the number of ways to draw
their tiles from a full bag (:meth:`lextools.core.edition.Edition.probability`), ties in the
edition's alphabet; shorter words come before longer ones. Where the tile counts are unverified
(es-mattel2021) the ranks are alphabetical within the length, as the quizzes' are, and
``order=probability`` is refused.

A build writes the ranking once (``E-<sha16>.ranks``, :func:`lextools.builder.study_files.ranking_bytes`),
named in ``E.json`` with its checksum like the DAWGs; a reader memory-maps it when the lexicon is
loaded and checks its checksum the first time it is used (so a one-word look-up never reads it, and
every process reading it shares one copy of its bytes through the page cache). The file::

    "lextools-ranks 1\\n"           17 bytes
    uint32 n, then n bytes         the tile codes in the edition's alphabet, UTF-8
    16 × uint32                    how many keys have 0, 1, …, 15 tiles
    the keys of 1 tile, then of 2, … each key one byte per tile (its place in the alphabet above),
    in rank order within its length

A key of L tiles is L bytes, so the i-th key of a length is found by arithmetic, and a key's rank
by a binary search of its length's keys. Positions are *global indexes*: the keys of every length
one after the other, as in the file.

Every lexicon has the file: one built before it is refused when it is loaded
(:func:`lextools.core.lexicon.read_metadata`) until it is built again.
"""

from __future__ import annotations

import logging
import mmap
import struct
from bisect import bisect_right
from math import comb

from lextools.core.edition import Edition
from lextools.core.errors import CorruptLexiconError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.spelling import spell

log = logging.getLogger("lextools.ranking")

MAGIC = b"lextools-ranks 1\n"
#: Lengths the file counts: 0 to this many tiles (a key is at most 15, the board).
LONGEST = 15
#: The metadata's name of the ranking file (``files``).
PART = "ranks"


def alphabet_codes(edition: Edition) -> str:
    """The edition's tile codes in its alphabet (es-fise: A B C 1 D …): a key's bytes in the file."""
    return "".join(sorted(edition.by_code, key=edition.collation_key))


def _ways_table(edition: Edition, codes: str) -> list[tuple[int, ...]]:
    """Per place in the alphabet, C(copies of the tile in the bag, m) for m = 0 … 15."""
    return [tuple(comb(edition.by_code[c].count or 0, m) for m in range(LONGEST + 1)) for c in codes]


def _ways(ways_of: list[tuple[int, ...]], record: bytes) -> int:
    ways = 1
    for b in set(record):
        ways *= ways_of[b][record.count(b)]
    return ways


class Ranks:
    """A ranking file read in place (a memory map, or bytes computed in memory)."""

    def __init__(self, edition: Edition, data: bytes | mmap.mmap) -> None:
        self.edition = edition
        try:
            if data[: len(MAGIC)] != MAGIC:
                raise ValueError("no ranking file")
            at = len(MAGIC)
            (n,) = struct.unpack_from("<I", data, at)
            self.codes = bytes(data[at + 4 : at + 4 + n]).decode()
            at += 4 + n
            counts = struct.unpack_from(f"<{LONGEST + 1}I", data, at)
            at += 4 * (LONGEST + 1)
        except (ValueError, struct.error, UnicodeDecodeError) as e:
            raise CorruptLexiconError(
                f"{edition.name}: its ranking file is damaged ({e}); rebuild the lexicon"
            ) from None
        if self.codes != alphabet_codes(edition):
            raise CorruptLexiconError(f"{edition.name}: the ranking file is of another alphabet; rebuild the lexicon")
        self.data = data
        self.counts = counts
        #: Global index of the first key of each length, and byte offset of its keys.
        self.first: list[int] = []
        self.offset: list[int] = []
        index = 0
        for length, count in enumerate(counts):
            self.first.append(index)
            self.offset.append(at)
            index += count
            at += count * length
        if at != len(data):
            raise CorruptLexiconError(f"{edition.name}: the ranking file has {len(data) - at} bytes too many or few")
        self.total = index
        self._place = {c: i for i, c in enumerate(self.codes)}
        self._latin = all(ord(c) < 0x100 for c in self.codes)
        self._to_codes = bytes(ord(c) if self._latin else 0 for c in self.codes).ljust(0x100, b"\0")
        self._ways_of = _ways_table(edition, self.codes) if edition.has_counts else None

    def __len__(self) -> int:
        return self.total

    def length_at(self, index: int) -> int:
        """The length in tiles of the key at a global index."""
        return bisect_right(self.first, index) - 1

    def keys(self, length: int, start: int = 0, stop: int | None = None) -> list[str]:
        """The keys of ``length`` tiles from rank ``start`` (0-based) to ``stop``, in rank order."""
        stop = self.counts[length] if stop is None else min(stop, self.counts[length])
        if length == 0 or start >= stop:
            return [""] * max(0, stop - start)
        base = self.offset[length]
        text = self.text(bytes(self.data[base + start * length : base + stop * length]))
        return [text[i : i + length] for i in range(0, len(text), length)]

    def text(self, raw: bytes) -> str:
        """Keys as the file writes them (one byte per tile), as lexicon keys, one after the other."""
        return raw.translate(self._to_codes).decode("latin-1") if self._latin else "".join(self.codes[b] for b in raw)

    def block(self, length: int) -> bytes:
        """The keys of ``length`` tiles as the file holds them, one after the other in rank order: one
        byte per tile, its place in :attr:`codes` (a copy of the mapped bytes, one object)."""
        base = self.offset[length]
        return bytes(self.data[base : base + self.counts[length] * length])

    def key_at(self, index: int) -> str:
        length = self.length_at(index)
        return self.keys(length, index - self.first[length], index - self.first[length] + 1)[0]

    def record(self, key: str) -> bytes | None:
        """A key as the file writes it; None when a tile is not in the file's alphabet."""
        try:
            return bytes(map(self._place.__getitem__, key))
        except KeyError:
            return None

    def sort_key(self, record: bytes) -> tuple[int, bytes]:
        """What orders the keys of one length: most ways first, then the alphabet."""
        return (-_ways(self._ways_of, record) if self._ways_of is not None else 0, record)

    def rank(self, key: str) -> int | None:
        """The 0-based rank of a key among the keys of its length, None when it is not one of them."""
        record = self.record(key)
        length = len(key)
        if record is None or not 0 < length <= LONGEST:
            return None
        target = self.sort_key(record)
        base, data = self.offset[length], self.data
        lo, hi = 0, self.counts[length]
        while lo < hi:
            mid = (lo + hi) // 2
            at = base + mid * length
            if self.sort_key(bytes(data[at : at + length])) < target:
                lo = mid + 1
            else:
                hi = mid
        at = base + lo * length
        return lo if lo < self.counts[length] and bytes(data[at : at + length]) == record else None

    def index(self, key: str) -> int | None:
        """The global index of a key (see the module docstring), None when it is not in the file."""
        rank = self.rank(key)
        return None if rank is None else self.first[len(key)] + rank


def ranks_of(lex: Lexicon) -> Ranks:
    """The lexicon's ranking, read from its file (checked the first time) and kept with it."""
    cached: Ranks | None = getattr(lex, "_ranks", None)
    if cached is not None:
        return cached
    entry = lex.metadata["files"][PART]
    if not lex.ranks_map.matches(entry["sha256"]):
        raise CorruptLexiconError(
            f"{entry['name']} does not match its checksum in {lex.edition.name}.json: "
            "the file is truncated or altered; rebuild the lexicon"
        )
    ranks = Ranks(lex.edition, lex.ranks_map.data)
    log.info("%s: probability ranking of %s words, from %s", lex.edition.name, len(ranks), entry["name"])
    lex._ranks = ranks  # type: ignore[attr-defined]  # kept with the lexicon it ranks
    return ranks


def rank_of(lex: Lexicon, word: str) -> tuple[int, int] | None:
    """(1-based probability rank of the word among the lexicon's words of its length in tiles, how
    many words have that length); None when the word is not in the lexicon.

    ``word`` is a word in any notation (chorizo, [CH]ORIZO) or a lexicon key. Where the tile counts
    are unverified (es-mattel2021) the rank is the word's place in the alphabet within its length.
    """
    try:
        key: str | None = spell(word, lex.edition).key
    except SpellingError:
        key = None
    if key is None or key not in lex:
        key = word if word in lex else None
    if key is None or len(key) < 2:  # one-tile keys are never words
        return None
    ranks = ranks_of(lex)
    rank = ranks.rank(key)
    return None if rank is None else (rank + 1, ranks.counts[len(key)])
