"""Provenance: which source gave each word, and which rule dropped each excluded form.

A build records, next to the lexicon, a *sidecar* ``E.provenance.tsv.gz`` that ``lextools explain``
and the service read to answer "why is this word not valid?" ("DAME: enclitic form — DA + ME") and
"who says this word is valid?" (its sources). It is gzipped UTF-8 text, one record per line, fields
separated by tabs, written atomically like every built file::

    #checksum   <sha256 of the words DAWG this sidecar belongs to>
    #sources    <the sources most words come from, comma-separated>
    <key>       +   <sources>                          a word whose sources are not the usual ones
    <key>       -   <rule>  <source>  <form>  <headword>   a form no source form survived the rules for

Keys are lexicon keys (one character per tile, see :mod:`lextools.lexicon`); ``form`` is the word
as its source wrote it (dámelo), ``headword`` the dictionary entry it comes from, when the source has
one. Only the exceptions are written, so the file stays small (about 70,000 lines for es-fise). A
sidecar whose checksum is not its lexicon's (a build interrupted between the two files) is ignored
rather than believed.

Words dropped because their spelling uses a letter without a tile (KILO in es-fise) have no key:
the spelling error itself is their explanation.
"""

from __future__ import annotations

import bisect
import gzip
import itertools
import sys
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lextools.filters import SourceWord

CHECKSUM_KEY = "#checksum"
USUAL_SOURCES_KEY = "#sources"


def sidecar_path(home: Path, edition: str) -> Path:
    return Path(home) / f"{edition}.provenance.tsv.gz"


@dataclass
class Provenance:
    """Filled by :func:`lextools.compile.compile_words` while it spells and filters."""

    #: kept key → the sources listing it, comma-separated and sorted (one shared string per set, so
    #: half a million words cost one dict entry each)
    sources: dict[str, str] = field(default_factory=dict)
    excluded: dict[str, tuple[str, SourceWord]] = field(default_factory=dict)  # key → (rule, form)
    _rank: dict[str, int] = field(default_factory=dict)
    _joined: dict[tuple[str, str], str] = field(default_factory=dict)

    def kept(self, key: str, word: SourceWord) -> None:
        current = self.sources.get(key)
        if current is None:
            self.sources[key] = sys.intern(word.source)
            if self.excluded:
                self.excluded.pop(key, None)
        elif word.source not in current.split(","):
            pair = (current, word.source)
            if pair not in self._joined:
                self._joined[pair] = ",".join(sorted({*current.split(","), word.source}))
            self.sources[key] = self._joined[pair]

    def dropped(self, key: str, rule: str, word: SourceWord, rank: int = 0) -> None:
        """Keep the form that passed the most rules (``rank``: the dropping rule's place in the recipe):
        VE is dropped as the proper noun "Ve" and as the letter name "ve"; the second says more."""
        if key in self.sources or rank <= self._rank.get(key, -1):
            return
        self.excluded[key] = (rule, word)
        self._rank[key] = rank

    def contributions(self, source: str) -> dict[str, int]:
        """What one source did in the build: the words it lists, those no other source gives, and the
        excluded words whose reported form is its own."""
        listed = only = 0
        for joined, n in Counter(self.sources.values()).items():
            names = joined.split(",")
            if source in names:
                listed += n
                only += n if names == [source] else 0
        removed = sum(1 for _, word in self.excluded.values() if word.source == source)
        return {"words": listed, "only_here": only, "removed": removed}

    def to_bytes(self, checksum: str) -> bytes:
        """The sidecar for the lexicon whose words DAWG has this checksum."""
        usual = Counter(self.sources.values()).most_common(1)
        usual_sources = usual[0][0] if usual else ""
        lines = [f"{CHECKSUM_KEY}\t{checksum}", f"{USUAL_SOURCES_KEY}\t{usual_sources}"]
        unusual = sorted((key, joined) for key, joined in self.sources.items() if joined != usual_sources)
        lines += [f"{key}\t+\t{joined}" for key, joined in unusual]
        for key, (rule, word) in sorted(self.excluded.items()):
            fields = (key, "-", rule, word.source, word.raw, word.stem or "")
            lines.append("\t".join(_clean(f) for f in fields))
        # A source named by a file name that is not UTF-8 is written with its odd bytes escaped (\udcff).
        return gzip.compress(("\n".join(lines) + "\n").encode("utf-8", "backslashreplace"), mtime=0)


def _clean(field: str) -> str:
    """Sources may hold anything (a tab in a user's list is not a field separator)."""
    return field.replace("\t", " ").replace("\n", " ")


class Records:
    """The records of a sidecar by key, kept as its sorted lines in one byte string.

    Half a million keys as a dict of lists cost about 60 MB a process; one ``bytes`` object and an
    array of line offsets cost the file's size, and a process that loads them before gunicorn forks
    its workers shares them with every worker (nothing ever writes to those pages again).
    """

    #: The key of every this many lines is kept apart, so a search starts with ``bisect`` among them
    #: and ends among a few dozen neighbouring lines (the service explains every word it is asked).
    STRIDE = 32

    def __init__(self, lines: list[bytes]) -> None:
        """Takes the lines (``lines`` is left empty: their memory is free again before the keys kept
        apart are copied, which would otherwise hold on to most of it, a few of them in every block)."""
        lines.sort()
        self._blob = b"".join(lines)
        self._starts = array("Q", itertools.accumulate((len(line) for line in lines), initial=0))
        lines.clear()
        # Each with its tab, so they sort as their lines do (es-fise: 6,100 of them, 0.3 MB).
        self._every = [self._key(i) for i in range(0, len(self), self.STRIDE)]
        self._keys = self._key_index()

    def _key_index(self) -> Any | None:
        """Every key as dawg2's DAWG (es-fise: 219,000 keys, 0.4 MB, 0.1 s to build): most words the
        service is asked about have no record, which it tells in 0.1 µs where the search below takes
        1.7 µs. None where lexicons are read without dawg2 (``LEXTOOLS_READER``)."""
        from lextools.lexicon import reader_name

        if reader_name() != "dawg2":
            return None
        import dawg

        keys = (self._key(i) for i in range(len(self)))
        return dawg.DAWG(k[:-1].decode("utf-8") if k.endswith(b"\t") else k.rstrip(b"\n").decode("utf-8") for k in keys)

    def _key(self, i: int) -> bytes:
        """Line ``i`` up to its first tab, included (the whole line if it has none)."""
        start, end = self._starts[i], self._starts[i + 1]
        tab = self._blob.find(b"\t", start, end)
        return self._blob[start : tab + 1 if tab >= 0 else end]

    def __len__(self) -> int:
        return len(self._starts) - 1

    def _line(self, i: int) -> bytes:
        return self._blob[self._starts[i] : self._starts[i + 1]]

    def get(self, key: str) -> list[str] | None:
        """The fields after the key, or None when the key has no record."""
        if self._keys is not None and key not in self._keys:
            return None
        wanted = key.encode("utf-8") + b"\t"
        blob, starts, n, total = self._blob, self._starts, len(wanted), len(self)
        # The first line not below ``wanted`` comes after the last kept key below it, and is at most the
        # line of the first kept key not below it.
        kept = bisect.bisect_left(self._every, wanted)
        lo, hi = max(0, (kept - 1) * self.STRIDE + 1), min(total, kept * self.STRIDE)
        while lo < hi:
            mid = (lo + hi) // 2
            start = starts[mid]
            if blob[start : start + n] < wanted:
                lo = mid + 1
            else:
                hi = mid
        if lo < total:
            line = self._line(lo)
            if line.startswith(wanted):
                return line[n:].rstrip(b"\n").decode("utf-8").split("\t")
        return None


def read_sidecar(data: bytes) -> tuple[dict[str, str], Records]:
    """The header (``checksum``, ``sources``) and the records by key, from a sidecar's bytes."""
    header: dict[str, str] = {}
    lines: list[bytes] = []
    for line in gzip.decompress(data).splitlines(keepends=True):
        if line.startswith(b"#"):
            key, _, rest = line.decode("utf-8").rstrip("\n").partition("\t")
            header[key[1:]] = rest
        else:
            lines.append(line if line.endswith(b"\n") else line + b"\n")
    return header, Records(lines)
