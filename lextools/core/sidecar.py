"""Provenance: which source gave each word, and which rule dropped each excluded form.

A build records, next to the lexicon, a *sidecar* ``E.provenance.tsv.gz`` that ``lextools explain``
and the service read to answer "why is this word not valid?" ("DAME: enclitic form — DA + ME") and
"who says this word is valid?" (its sources). It is gzipped UTF-8 text, one record per line, fields
separated by tabs, written atomically like every built file::

    #checksum   <sha256 of the words DAWG this sidecar belongs to>
    #sources    <the sources most words come from, comma-separated>
    #sourcesets <sources>  <sources>  …              the other sets of sources, most used first
    <key>       +   <n>                                a word listed by the n-th of those sets (from 0)
    <key>       -   <rule>  <source>  <form>  <headword>   a form no source form survived the rules for

Keys are lexicon keys (one character per tile, see :mod:`lextools.core.lexicon`); ``form`` is the word
as its source wrote it (dámelo), ``headword`` the dictionary entry it comes from, when the source has
one. Only the exceptions are written, so the file stays small (the service keeps it in memory,
hence the numbered sets of sources). A sidecar
without ``#sourcesets`` (written before it existed) names the sources on each ``+`` line. A
sidecar whose checksum is not its lexicon's (a build interrupted between the two files) is ignored
rather than believed.

A build from a source that knows each form's lemma and rule (FISE's lemma lists) also writes
``E.lemmas.tsv.gz``, gzipped UTF-8 like the sidecar, read by :func:`read_sidecar` too::

    #checksum   <sha256 of the words DAWG>
    <key>  <lemma>  <rule>  <model>  <class>  <property>  <reason>  <section>  <where>   [the same eight again …]

``rule`` is how the form comes from its lemma (``form``, ``inf``, ``inf-se``, ``part-all``,
``part-masc``, ``word``, ``fem``, ``plural``, ``plural-only``), ``model`` the conjugation model
(``ar01/contar``), ``class`` and ``property`` the verb's codes in the lists (empty for other words),
``reason`` what decided a plural (``class-flag/-z``: the rule of -z, a dictionary's plural flag),
``section`` the section of the FISE lexicon regulation the rule is (``17.10``), ``where`` the list
and line of the lemma (``verbs:18``: the list by its kind, whose file the metadata names). Files
written before the last three were kept have five fields per lemma.

Words dropped because their spelling uses a letter without a tile (KILO in es-fise) have no key:
the spelling error itself is their explanation.
"""

from __future__ import annotations

import bisect
import zlib
from array import array
from collections.abc import Collection
from pathlib import Path
from typing import Any, BinaryIO

from lextools.core.lexicon import reader_name

CHECKSUM_KEY = "#checksum"
USUAL_SOURCES_KEY = "#sources"
SOURCE_SETS_KEY = "#sourcesets"
#: The fields of one lemma in a lemma record (:func:`lemmas_path`); older files have five.
LEMMA_FIELDS = 8
#: In the headword of a form built from FISE's lists, between the lemma, where the lists give it, the
#: section of the rule that left the form out and (a plural) the reason: ``amar@verbs:18@17.10``.
STEM_AT = "@"


def split_stem(stem: str) -> tuple[str, str, str, str]:
    """(lemma, where, section, reason) of a headword written ``lemma@where@section[@reason]`` (a plain
    headword: the lemma; ``reason`` is what refused a plural, ``named/+s``).

    >>> split_stem("amar@verbs:18@17.10"), split_stem("dar")
    (('amar', 'verbs:18', '17.10', ''), ('dar', '', '', ''))
    """
    lemma, _, rest = stem.partition(STEM_AT)
    where, _, rest = rest.partition(STEM_AT)
    section, _, reason = rest.partition(STEM_AT)
    return lemma, where, section, reason


def sidecar_path(home: Path, edition: str) -> Path:
    return Path(home) / f"{edition}.provenance.tsv.gz"


def lemmas_path(home: Path, edition: str) -> Path:
    return Path(home) / f"{edition}.lemmas.tsv.gz"


class Records:
    """The records of a sidecar by key, kept as its sorted lines in one byte string.

    A dict of lists costs many times the file's size in every process; one ``bytes`` object costs the
    file's size, and a process that loads it before gunicorn forks its workers shares it with every
    worker (nothing ever writes to those pages again). Only every ``STRIDE``-th line's offset and key
    are kept beside it (an offset for every line would cost another quarter of the text).
    """

    #: The key of every this many lines is kept apart, so a search starts with ``bisect`` among them
    #: and ends in one ``bytes.find`` over a block of neighbouring lines (the service explains every
    #: word it is asked).
    STRIDE = 32

    def __init__(self, lines: list[bytes]) -> None:
        """Takes the lines, each ending in a newline (``lines`` is left empty: their memory is free
        again before the keys kept apart are copied, which would otherwise hold on to most of it)."""
        lines.sort()
        self._count = len(lines)
        self._keys = self._key_index(lines)
        # Where each block of STRIDE lines starts, and where the last one ends.
        self._block_starts = array("Q", [0])
        total = 0
        for i, line in enumerate(lines, start=1):
            total += len(line)
            if i % self.STRIDE == 0 or i == self._count:
                self._block_starts.append(total)
        self._blob = b"".join(lines)
        lines.clear()
        # Each with its tab, so they sort as their lines do.
        self._every = [self._key_at(start) for start in self._block_starts[:-1]]

    @staticmethod
    def _key_index(lines: list[bytes]) -> Any | None:
        """Every key as dawg2's DAWG: most words the service is asked about have no record, which the
        DAWG tells sooner than the search below. None where lexicons are read without dawg2 (``LEXTOOLS_READER``)."""
        if reader_name() != "dawg2":
            return None
        import dawg  # noqa: PLC0415  (dawg2 is optional where lexicons are read with DAWG-Python)

        return dawg.DAWG(line.partition(b"\t")[0].rstrip(b"\n").decode("utf-8") for line in lines)

    def _key_at(self, start: int) -> bytes:
        """The key of the line at ``start``, with its tab (the whole line if it has none)."""
        end = self._blob.index(b"\n", start)
        tab = self._blob.find(b"\t", start, end)
        return self._blob[start : tab + 1 if tab >= 0 else end + 1]

    def __len__(self) -> int:
        return self._count

    def get(self, key: str) -> list[str] | None:
        """The fields after the key, or None when the key has no record."""
        if self._keys is not None and key not in self._keys:
            return None
        wanted = key.encode("utf-8") + b"\t"
        # The line, if any, is in the block whose first key is the last one not above ``wanted``.
        block = bisect.bisect_right(self._every, wanted) - 1
        if block < 0:
            return None
        blob, start, end = self._blob, self._block_starts[block], self._block_starts[block + 1]
        if blob.startswith(wanted, start):
            found = start
        else:
            found = blob.find(b"\n" + wanted, start, end) + 1
            if not found:
                return None
        return blob[found + len(wanted) : blob.index(b"\n", found)].decode("utf-8").split("\t")


def read_sidecar(data: bytes) -> tuple[dict[str, str], Records]:
    """The header (``checksum``, ``sources``) and the records by key, from a sidecar's bytes."""
    import gzip  # noqa: PLC0415  (read whole only to explain many words: a command's check reads none)

    header: dict[str, str] = {}
    lines: list[bytes] = []
    for line in gzip.decompress(data).splitlines(keepends=True):
        if line.startswith(b"#"):
            key, _, rest = line.decode("utf-8").rstrip("\n").partition("\t")
            header[key[1:]] = rest
        else:
            lines.append(line if line.endswith(b"\n") else line + b"\n")
    return header, Records(lines)


#: How much of the gzipped file :func:`find_records` decompresses at a time.
CHUNK = 1 << 16


def find_records(f: BinaryIO, keys: Collection[str]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The header, and the records of ``keys`` only (their fields after the key), from a sidecar file.

    For a few words (a command explaining one): the file is decompressed a chunk at a time and each
    chunk searched for those keys, so nothing else is kept, no line is split, and the reading stops
    once every key is found. :func:`read_sidecar` is for a process that explains many words.
    """
    wanted = {key.encode("utf-8") + b"\t" for key in keys}
    header: dict[str, str] = {}
    found: dict[str, list[str]] = {}
    inflate, rest = zlib.decompressobj(wbits=31), b""  # gzip
    while wanted and (chunk := f.read(CHUNK)):
        text = rest + inflate.decompress(chunk)
        if inflate.eof and inflate.unused_data:  # another gzip member follows (gzip allows several)
            f.seek(-len(inflate.unused_data), 1)
            inflate = zlib.decompressobj(wbits=31)
        cut = text.rfind(b"\n") + 1  # whole lines only; the last one's start waits for the next chunk
        _search(text[:cut], header, wanted, found)
        rest = text[cut:]
    if wanted:
        _search(rest + inflate.flush() + b"\n", header, wanted, found)
    return header, found


def _search(lines: bytes, header: dict[str, str], wanted: set[bytes], found: dict[str, list[str]]) -> None:
    """Moves each key of ``wanted`` whose record is among ``lines`` (whole lines) to ``found``; the
    header's lines come first in the file, and go to ``header``."""
    at = 0
    while lines.startswith(b"#", at):
        end = lines.index(b"\n", at)
        name, _, value = lines[at + 1 : end].decode("utf-8").partition("\t")
        header[name] = value
        at = end + 1
    view = b"\n" + lines[at:]
    for key in list(wanted):
        start = view.find(b"\n" + key)
        if start >= 0:
            start += 1 + len(key)
            found[key[:-1].decode("utf-8")] = view[start : view.index(b"\n", start)].decode("utf-8").split("\t")
            wanted.discard(key)
