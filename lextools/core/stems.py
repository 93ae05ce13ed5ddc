"""The stems lists, made once by a build (``E-<sha16>.stems``, named in ``E.json`` with its checksum,
checked on first use) so that a list's first page is a slice of a file, not a pass over the words.

A *stem* of ``n`` tiles is a set of tiles that makes a word of ``n + 1`` tiles with one tile more;
the list ranks the stems by the number of tiles they take, then of words, then in the edition's
alphabet (as Zyzzyva's and the clubs' stem lists do), and keeps the best :data:`KEPT` of each length
(the lists players study are their first few hundred). Ranking them is one pass over the words of
``n + 1`` tiles (:func:`rank`): a build does it for every length of :data:`LENGTHS`; a lexicon built
before this file did it in the background of the process that asks (lextools.features.lists).

The file, UTF-8 text::

    lextools-stems 1\n
    per length: a line {"length": n, "total": stems that make a word, "stems": k},
                then k lines, best first, each a stem: [stem key, [[tile code, [word keys]], …]]

A line per stem: a page parses only its own stems (the whole list of 5,000 stems as JSON is a
second of work on a busy machine, which a worker's event loop cannot spare).
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, overload

from lextools.core.edition import Edition
from lextools.core.errors import CorruptLexiconError
from lextools.core.lexicon import STEMS, Lexicon

MAGIC = b"lextools-stems 1\n"
#: The part's name in the metadata's ``files``.
PART = STEMS
#: Stem lengths, in tiles.
LENGTHS = (6, 7)
#: Stems kept per length, the best ones.
KEPT = 5000
#: Bytes of the file hashed between two pauses for other requests when it is checked.
CHECK_BYTES = 1 << 18
#: Words looked at between two calls of ``pace`` (a worker's other requests run in between).
PACE_EVERY = 2048


@dataclass(frozen=True)
class Stem:
    key: str  # the stem's tiles, in the lexicon's alphagram order
    takes: dict[str, list[str]]  # tile code → the words the stem makes with it (keys)


def rank(
    edition: Edition,
    keys: Iterable[str],
    alphagram: Callable[[str], str],
    kept: int = KEPT,
    pace: Callable[[], None] | None = None,
) -> tuple[int, list[Stem]]:
    """How many stems the ``keys`` (the words of one length, n + 1 tiles) make, and the best ``kept``
    stems of n tiles, best first; ``pace`` is called every :data:`PACE_EVERY` words."""
    alphagrams: dict[str, list[str]] = {}
    for i, key in enumerate(keys):
        alphagrams.setdefault(alphagram(key), []).append(key)
        if pace is not None and i % PACE_EVERY == 0:
            pace()
    takes: dict[str, dict[str, list[str]]] = {}
    for i, (gram, words) in enumerate(alphagrams.items()):
        for j in range(len(gram)):
            takes.setdefault(gram[:j] + gram[j + 1 :], {})[gram[j]] = words
        if pace is not None and i % PACE_EVERY == 0:
            pace()
    best = heapq.nsmallest(
        kept,
        takes.items(),
        key=lambda s: (-len(s[1]), -sum(map(len, s[1].values())), in_alphabet(edition, s[0])),
    )
    return len(takes), [Stem(stem, tiles) for stem, tiles in best]


def in_alphabet(edition: Edition, stem: str) -> str:
    """What ranks stems of as many tiles and words: a stem's collation characters, sorted (its
    alphagram in the edition's alphabet)."""
    return "".join(sorted(edition.collation_key(stem)))


def written(ranked: Iterable[tuple[int, Sequence[Stem]]]) -> bytes:
    """The stems file of each length's total and best stems, :data:`LENGTHS` in order (what
    :func:`rank` gives)."""
    return joined((total, len(best), b"".join(map(stem_line, best))) for total, best in ranked)


def joined(parts: Iterable[tuple[int, int, bytes]]) -> bytes:
    """The stems file of each length's total, count of stems kept and their lines (:func:`stem_line`,
    one after the other), :data:`LENGTHS` in order: the build writes the lines in bulk
    (:mod:`lextools.builder.study_lists`)."""
    lines = [MAGIC]
    for n, (total, count, best) in zip(LENGTHS, parts, strict=True):
        lines += (_line({"length": n, "total": total, "stems": count}), best)
    return b"".join(lines)


def stem_line(stem: Stem) -> bytes:
    """A stem's line of the file."""
    return _line([stem.key, [[code, words] for code, words in stem.takes.items()]])


def _line(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def has_file(lex: Lexicon) -> bool:
    """Did the build write the stems file (a lexicon built before it did not)?"""
    return lex.stems_map is not None


class StemLines(Sequence[Stem]):
    """The stems of one length as the file's lines, each parsed when a page asks for it."""

    def __init__(self, name: str, lines: list[bytes]) -> None:
        self.name, self.lines = name, lines

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, index: int) -> Stem: ...
    @overload
    def __getitem__(self, index: slice) -> list[Stem]: ...
    def __getitem__(self, index: int | slice) -> Stem | list[Stem]:
        if isinstance(index, slice):
            return [self._parsed(line) for line in self.lines[index]]
        return self._parsed(self.lines[index])

    def _parsed(self, line: bytes) -> Stem:
        try:
            key, takes = json.loads(line)
            stem = Stem(key, {code: words for code, words in takes})
            if not isinstance(key, str) or not all(isinstance(w, list) for w in stem.takes.values()):
                raise ValueError("a stem is not a key and its words")
        except (ValueError, TypeError) as e:
            raise CorruptLexiconError(f"{self.name} is damaged ({e}); rebuild the lexicon") from None
        return stem


def read(lex: Lexicon, length: int) -> tuple[int, StemLines]:
    """The stems of ``length`` tiles from the lexicon's file: the total and the best, best first
    (each parsed when read). The file is checked against its checksum the first time; a damaged
    one is a :class:`CorruptLexiconError` naming it."""
    entry = lex.metadata["files"][PART]
    name = str(entry["name"])
    lines: list[bytes] | None = getattr(lex, "_stem_lines", None)
    if lines is None:
        mapped = lex.stems_map
        if mapped is None:
            raise CorruptLexiconError(f"{lex.edition.name}: its build wrote no stems file; rebuild the lexicon")
        if not mapped.matches(str(entry["sha256"]), CHECK_BYTES):
            raise CorruptLexiconError(
                f"{name} does not match its checksum in {lex.edition.name}.json: "
                "the file is truncated or altered; rebuild the lexicon"
            )
        data = bytes(mapped.data)
        if not data.startswith(MAGIC):
            raise CorruptLexiconError(f"{name} is not a stems file of this version; rebuild the lexicon")
        lines = data[len(MAGIC) :].split(b"\n")
        lex._stem_lines = lines  # type: ignore[attr-defined]  # kept with the lexicon
    try:
        at = 0
        while True:
            head: dict[str, Any] = json.loads(lines[at])
            count = int(head["stems"])
            if head["length"] == length:
                return int(head["total"]), StemLines(name, lines[at + 1 : at + 1 + count])
            at += 1 + count
    except (ValueError, IndexError, KeyError, TypeError) as e:
        raise CorruptLexiconError(f"{name} is damaged ({e}); rebuild the lexicon") from None


def forget(lex: Lexicon) -> int:
    """Let go of the stems file's lines :func:`read` kept with the lexicon (a copy of the file in the
    heap, 4 MB for es-fise) and of the pages of its map; the next :func:`read` reads and checks it
    again. Returns the lines let go (0: none were kept)."""
    lines: list[bytes] | None = lex.__dict__.pop("_stem_lines", None)
    if lines is None:
        return 0
    if lex.stems_map is not None:
        lex.stems_map.release()
    return len(lines)
