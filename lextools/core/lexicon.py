"""A built lexicon on disk, and the point queries on it (validity, hooks, score).

Files in the lexicon directory, for an edition ``E``::

    E.json                 metadata, the commit point of a build (see below)
    E-<sha16>.dawg         the words: a dawgdic ``CompletionDAWG`` of lexicon keys (dictionary + guide)
    E-<sha16>.alphagrams.dawg  the anagram index: a dawgdic ``DAWG`` (dictionary only) of alphagrams
    E-<sha16>.ranks        the probability ranking: every key, per length, likeliest first
                           (lextools.core.ranking)
    E-<sha16>.alphawords   the words of each alphagram, a perfect hash read in place
                           (lextools.core.anagram_table)
    E-<sha16>.stems        the stems lists of 6 and 7 tiles, ranked (lextools.core.stems)
    E.exclusions.json      what the build's rules dropped, per rule: count and examples
    E.provenance.tsv.gz    which rule dropped each excluded form, which sources list each word
                           (lextools.builder.provenance; read by lextools.features.explain)

A *lexicon key* has one character per tile: the letter itself, or the tile's code for a
multi-letter tile (FISE's digits: 1 = CH, 2 = LL, 3 = RR). So CHIQUILLO is stored as ``1IQUI2O``,
a DAWG walk goes tile by tile, and a front hook on CH is one more step, not two. The alphagram of a
key is its characters sorted in the lexicon's *alphagram order*, rarest tile first (the order is
in the metadata): sorted that way the alphagrams share more prefixes and suffixes, and their DAWG
stays close to the size of the words DAWG, far smaller than "ALPHAGRAM KEY" pairs (bench/README.md
has the figures). The index only says which multisets of tiles spell a word; the alphagram table
says which words (lextools.core.search).

Reading. Both files are memory-mapped, so every process serving a lexicon shares one copy of its
bytes through the page cache: DAWG-Python's ``Dictionary`` and ``Guide`` index a ``memoryview`` of
the map as they would their own arrays, for the walks (search, anagrams). Membership, completion
and :meth:`Lexicon.blank_fills` (dawgdic's similar-keys walk: hooks, anagrams), the hot path, go to
dawg2's C++ ``CompletionDAWG`` and ``DAWG`` built from the same bytes (their own copies, shared
by forked workers that did not write to them); when dawg2 cannot be
imported, or ``LEXTOOLS_READER=python``, DAWG-Python answers those too. Both readers give the same
answers (the tests run on both).

The DAWG files are named after their sha256, and ``E.json`` names them together with their
checksums, so a rebuild writes the new DAWGs beside the old ones and then replaces ``E.json`` in one
``os.replace``: a reader sees the old lexicon or the new one, never a mix, and a build that stops
half-way leaves the previous lexicon in place. The metadata object::

    format, format_version   "lextools-lexicon", 2 — a reader refuses any other version
    edition                  the edition name
    checksum                 sha256 of the words DAWG: the lexicon's identity (the service's ETag)
    files                    {"words": {name, sha256, bytes}, "alphagrams": {...}, "ranks": {...},
                             "alphawords": {...}}, every one required: a lexicon built before the
                             ranking file or the alphagram table is refused (rebuild it; scripts/run
                             rebuilds such a lexicon, lextools.builder.compile.outdated)
    alphagram_order          every tile code of the lexicon, rarest first: how alphagrams are sorted
    words                    number of words
    sources                  [{name, path, sha256, licence, origin, ...}]
    counts                   {read, kept, duplicates, dropped: {rule: count}}
    filters                  names of the rules the build applied
    built                    UTC build time, ISO 8601
    tools                    versions of lextools, dawg2, DAWG-Python, PyICU, ICU, Python
"""

from __future__ import annotations

import hashlib
import itertools
import json
import mmap
import os
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import dawg_python

from lextools.core.budget import pause
from lextools.core.edition import Edition, load_edition
from lextools.core.errors import CorruptLexiconError, LexiconError, LexiconNotFoundError, SpellingError
from lextools.core.inputs import read_input
from lextools.core.spelling import Spelling, spell, spell_lines

FORMAT = "lextools-lexicon"
FORMAT_VERSION = 2
#: The DAWG files of a lexicon generation, by their key in the metadata's ``files``.
PARTS = ("words", "alphagrams")
#: Its other files: the probability ranking (lextools.core.ranking) and the words of each alphagram
#: (lextools.core.anagram_table), mapped when the lexicon is loaded and checked on first use.
RANKS, ALPHAWORDS = "ranks", "alphawords"
#: The stems lists (lextools.core.stems), mapped when the lexicon is loaded if its build wrote them.
STEMS = "stems"
#: ``LEXTOOLS_READER``: ``dawg2`` (C++, the default when it imports) or ``python`` (DAWG-Python).
READERS = ("dawg2", "python")


def default_home() -> Path:
    """The lexicon directory: ``$LEXTOOLS_HOME``, else the per-user data directory (XDG)."""
    if os.environ.get("LEXTOOLS_HOME"):
        return Path(os.environ["LEXTOOLS_HOME"])
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "lextools"


def metadata_path(home: Path, edition: str) -> Path:
    return Path(home) / f"{edition}.json"


def alphagrammer(order: str) -> Callable[[str], str]:
    """A function sorting a key's tiles in ``order`` (every tile code, see the module docstring).

    Each code is swapped for a private-use character that sorts where the code's rank does, so
    the sort is ``sorted`` on a string, not a key function called per tile (a build sorts millions).
    Where every code is latin-1 (every edition we ship), the key is its ranks as bytes instead, one
    ``translate`` each way: quicker again, for the anagram queries that sort one rack each.
    """
    ranks = "".join(chr(0xE000 + i) for i in range(len(order)))
    to_ranks, to_codes = str.maketrans(order, ranks), str.maketrans(ranks, order)

    def alphagram(key: str) -> str:
        return "".join(sorted(key.translate(to_ranks))).translate(to_codes)

    tables = latin_ranks(order)
    if tables is None:
        return alphagram
    rank_of, code_of = tables

    def latin(key: str) -> str:
        try:
            ranked = key.encode("latin-1").translate(rank_of)
        except UnicodeEncodeError:
            return alphagram(key)
        if b"\xff" in ranked:  # a character that is no tile of the order
            return alphagram(key)
        return bytes(sorted(ranked)).translate(code_of).decode("latin-1")

    return latin


@cache
def latin_ranks(order: str) -> tuple[bytes, bytes] | None:
    """Where every code of ``order`` is latin-1: the ``bytes.translate`` tables that make a key's
    alphagram as bytes — a character → its rank in the order (0xFF: no tile), a rank → its code
    (0xFF → U+0001, which no key has). None for any other order."""
    if len(order) >= 0xFF or any(ord(c) > 0xFF for c in order):
        return None
    rank_of = bytes(order.find(chr(b)) if chr(b) in order else 0xFF for b in range(0x100))
    return rank_of, order.encode("latin-1").ljust(0x100, b"\1")


def alphagram_order(keys: Iterable[str]) -> str:
    """Tile codes by how many times they occur in the keys, rarest first (ties by code)."""
    text = "".join(keys)
    return order_of_counts({code: text.count(code) for code in set(text)})  # a C scan per code


def order_of_counts(counts: Mapping[str, int]) -> str:
    """:func:`alphagram_order` of keys that hold each code ``counts[code]`` times (0: none)."""
    return "".join(sorted((code for code in counts if counts[code]), key=lambda c: (counts[c], c)))


def reader_name() -> str:
    """Which reader answers membership: ``LEXTOOLS_READER`` if set, else dawg2 when it imports."""
    wanted = os.environ.get("LEXTOOLS_READER", "")
    if wanted and wanted not in READERS:
        raise LexiconError(f"LEXTOOLS_READER={wanted!r} names no reader: use {' or '.join(READERS)}")
    if wanted == "python":
        return "python"
    try:
        import dawg  # noqa: F401, PLC0415
    except ImportError:
        if wanted == "dawg2":
            raise LexiconError("LEXTOOLS_READER=dawg2, but dawg2 cannot be imported: pip install DAWG2") from None
        return "python"
    return "dawg2"


class Hooks(NamedTuple):
    """The tiles that hook a word (a record: a named tuple is made in a fraction of a dataclass's
    time when the module is imported, and every look-up imports this one)."""

    front: tuple[str, ...]  # tiles that can go in front of the word
    back: tuple[str, ...]  # tiles that can go after it
    front_inner: bool  # the word minus its first tile is a word
    back_inner: bool  # the word minus its last tile is a word


class WordResult(NamedTuple):
    """A word looked up in a lexicon; the shape of ``check --json`` and of the service's answers (a
    named tuple, as :class:`Hooks`)."""

    input: str
    word: str | None
    tiles: tuple[str, ...]
    valid: bool
    score: int | None
    reason: str | None
    #: The lexicon key (one character per tile), for what a look-up leads to (hooks, explanations);
    #: None when the word cannot be spelled. Not part of the answer.
    key: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "input": self.input,
            "word": self.word,
            "tiles": list(self.tiles),
            "valid": self.valid,
            "score": self.score,
            "reason": self.reason,
        }


class Lexicon:
    """A loaded lexicon: read-only, safe to share between threads and forked workers.

    This class answers membership with DAWG-Python (the pure-Python reader); with dawg2, a lexicon
    is a :func:`cpp_lexicon` instead, the same class that is also dawg2's DAWG of the keys.
    """

    reader = "python"
    #: The stems file, mapped (None: a lexicon built before it).
    stems_map: MappedFile | None = None

    def __init__(
        self,
        edition: Edition,
        metadata: dict[str, Any],
        graph: Any,
        alphagrams: Any,
        files: tuple[MappedFile, MappedFile],
    ) -> None:
        self.edition = edition
        self.metadata = metadata
        self.graph = graph  # dawg_python.CompletionDAWG of keys over the mapped file: walks
        self.alphagrams = alphagrams  # dawg_python.Dictionary of alphagrams over the mapped file
        #: The ranking file and the alphagram table, mapped but not yet read (each checked on first
        #: use: lextools.core.ranking, lextools.core.anagram_table).
        self.ranks_map, self.alphawords_map = files
        self.alphagram_order = str(metadata["alphagram_order"])
        #: A key's alphagram: its tiles sorted in the alphagram order.
        self.alphagram = alphagrammer(self.alphagram_order)
        #: What answers ``in`` and completions, and whether some key starts with a prefix.
        self.words, self.is_prefix = self._membership(graph)
        self._label = {t.code: t.label for t in edition.tiles}
        # The tiles of the lexicon's words in the edition's alphabet: hooks are filled in in that
        # order, so hook lists read in the order players sort (es-fise: C CH D …).
        self._alphabet = "".join(edition.sort_keys(self.alphagram_order))

    @property
    def checksum(self) -> str:
        return str(self.metadata["checksum"])

    def release_pages(self) -> None:
        """:meth:`MappedFile.release` the ranking file and the alphagram table (what quizzes read)."""
        for mapped in (self.ranks_map, self.alphawords_map):
            mapped.release()

    def __len__(self) -> int:
        return int(self.metadata["words"])

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self.words

    def _membership(self, graph: Any) -> tuple[Any, Callable[[str], bool]]:
        root = graph.dct.ROOT
        return graph, lambda prefix: graph.dct.follow_bytes(prefix.encode(), root) is not None

    def __iter__(self) -> Iterator[str]:
        return self.words.iterkeys()

    def blank_fills(self, pattern: str, tiles: str, *, alphagrams: bool = False) -> list[str]:
        """Keys (with ``alphagrams``, alphagrams of the index) spelling ``pattern``, each ``?`` in it one
        of ``tiles`` — dawgdic's "similar keys" walk, which dawg2 runs in C++. DAWG-Python's only
        replaces a character by one other, so this reader walks the pattern itself."""
        dct = self.alphagrams if alphagrams else self.graph.dct
        choices = [c.encode() for c in tiles]
        found: list[str] = []

        def walk(index: int, at: int, key: str) -> None:
            while at < len(pattern) and pattern[at] != "?":
                index = dct.follow_bytes(pattern[at].encode(), index)
                if index is None:
                    return
                key += pattern[at]
                at += 1
            if at == len(pattern):
                if dct.has_value(index):
                    found.append(key)
                return
            for c, b in zip(tiles, choices, strict=True):
                nxt = dct.follow_bytes(b, index)
                if nxt is not None:
                    walk(nxt, at + 1, key + c)

        walk(dct.ROOT, 0, "")
        return found

    def blank_fills_of(self, patterns: list[str], tiles: str, *, alphagrams: bool = False) -> Iterable[str]:
        """:meth:`blank_fills` of each pattern, one after the other."""
        return itertools.chain.from_iterable(self.blank_fills(p, tiles, alphagrams=alphagrams) for p in patterns)

    def has_alphagram(self, alphagram: str | bytes) -> bool:
        """Is this multiset of tiles (an alphagram: its tiles in the alphagram order; or its key in the
        index, UTF-8) some word's?"""
        return bool(self.alphagrams.contains(alphagram if isinstance(alphagram, bytes) else alphagram.encode()))

    def alphagram_test(self) -> Callable[[str | bytes], bool]:
        """:meth:`has_alphagram` as a function to ``filter`` many alphagrams with."""
        return self.has_alphagram

    def keys(self, prefix: str = "") -> Iterator[str]:
        """Lexicon keys in key order (see the module docstring)."""
        return self.words.iterkeys(prefix)

    def spell(self, text: str) -> Spelling:
        return spell(text, self.edition)

    def lookup(self, text: str) -> WordResult:
        """Is this word valid? Never raises for a bad word: the reason says what is wrong."""
        edition = self.edition
        try:
            s = spell(text, edition)
        except SpellingError as e:
            return WordResult(text, None, (), False, None, e.reason)
        return self._result(text, s.word, s.tiles, s.key)

    def lookup_many(self, texts: Sequence[str]) -> list[WordResult]:
        """:meth:`lookup` of each word, the batch spelled at once (:func:`lextools.core.spelling.spell_lines`),
        which costs less per word than spelling each alone. A word the batch cannot vouch for is looked up alone."""
        decode, results = self.edition.decode, []
        for text, key in zip(texts, spell_lines(texts, self.edition), strict=True):
            if key is None:
                results.append(self.lookup(text))
            else:
                tiles = decode(key)
                results.append(self._result(text, "".join(tiles), tiles, key))
        return results

    def _result(self, text: str, word: str, tiles: tuple[str, ...], key: str) -> WordResult:
        # One-tile words are never built in, but a key could be asked directly.
        valid = key in self.words and len(tiles) > 1
        reason = None if valid else f"{word} is not in the {self.edition.name} lexicon"
        # Positional arguments: a batch check looks up every word, and keywords cost more.
        return WordResult(text, word, tiles, valid, self.edition.score(tiles), reason, key)

    def hooks(self, key: str) -> Hooks:
        """Hooks at tile level: in es-fise the CH tile hooks ARRO into CHARRO, one tile, not two.

        Each side is one :meth:`blank_fills` walk, ``?ARRO`` and ``ARRO?`` (dawg2's C++ with it), not a
        membership test per tile of the alphabet.
        """
        words, label, alphabet = self.words, self._label, self._alphabet
        return Hooks(
            front=tuple(label[k[0]] for k in self.blank_fills("?" + key, alphabet)) if key else (),
            back=tuple(label[k[-1]] for k in self.blank_fills(key + "?", alphabet)) if key else (),
            front_inner=len(key) > 2 and key[1:] in words,
            back_inner=len(key) > 2 and key[:-1] in words,
        )


def children(graph: Any, index: int) -> Iterator[tuple[str, int]]:
    """The tiles leaving a node of a ``CompletionDAWG`` and the node each leads to, in byte order.

    The guide lists a node's edges (dawgdic's ``Guide``: first child, next sibling); a tile that
    is several UTF-8 bytes (Ñ, accented French letters never are: they are folded) is one edge
    per byte, followed here to the node after its last byte.
    """
    dct, guide = graph.dct, graph.guide
    label = guide.child(index) if guide.size() else 0  # an empty lexicon has no guide at all
    while label:
        child = dct.follow_char(label, index)
        if child is None:  # only in a damaged DAWG
            return
        if label < 0x80:
            yield chr(label), child
        else:
            for rest, end in _continuations(dct, guide, child, utf8_length(label) - 1):
                yield bytes((label, *rest)).decode(), end
        label = guide.sibling(child)


def _continuations(dct: Any, guide: Any, index: int, n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    if n == 0:
        yield (), index
        return
    label = guide.child(index)
    while label:
        child = dct.follow_char(label, index)
        if child is None:
            return
        for rest, end in _continuations(dct, guide, child, n - 1):
            yield (label, *rest), end
        label = guide.sibling(child)


def utf8_length(lead: int) -> int:
    """Bytes in a UTF-8 character, from its first byte (0xC0 and up)."""
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def load_lexicon(edition_name: str, home: Path | None = None) -> Lexicon:
    """Load a built lexicon, checking its format version and checksums.

    Raises :class:`LexiconNotFoundError` when there is none, :class:`CorruptLexiconError` when a file
    is truncated, altered or of another format version.
    """
    edition = load_edition(edition_name)
    edition_name = edition.name  # ES-FISE is es-fise, and its files are es-fise's
    home = Path(home) if home is not None else default_home()
    reader = reader_name()
    for attempt in range(3):  # a rebuild may replace the metadata between our reads: read it again
        metadata = read_metadata(home, edition_name)
        try:
            graph = _map_dawg(home, metadata, "words", with_guide=True)
            alphagrams = _map_dawg(home, metadata, "alphagrams", with_guide=False).dct
            files = _map_file(home, metadata["files"][RANKS]), _map_file(home, metadata["files"][ALPHAWORDS])
            # the stems lists (lextools.core.stems): optional, a lexicon built before them has none
            stems = _map_file(home, metadata["files"][STEMS]) if STEMS in metadata["files"] else None
        except FileNotFoundError as e:
            if attempt == 2:
                raise CorruptLexiconError(
                    f"{edition_name}: {e.filename}, named in {metadata_path(home, edition_name)}, is missing; "
                    f"rebuild with `lextools build {edition_name}`"
                ) from None
            continue
        kind = cpp_lexicon() if reader == "dawg2" else Lexicon
        lex = kind(edition, metadata, graph, alphagrams, files)
        lex.stems_map = stems
        return lex
    raise AssertionError("unreachable")


#: The largest metadata file read (a build writes a few KB: its sources, rules and files).
MAX_METADATA_BYTES = 16 * 2**20


def read_metadata(home: Path, edition_name: str) -> dict[str, Any]:
    path = metadata_path(home, edition_name)
    try:  # bounded: `lextools compare FILE.json` reads any file a person names (a FIFO, a huge file)
        raw = read_input(path, MAX_METADATA_BYTES, gz=False)
    except FileNotFoundError:
        raise LexiconNotFoundError(
            f"no {edition_name} lexicon in {home}; build it with `lextools build {edition_name}`"
        ) from None
    try:
        metadata = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise CorruptLexiconError(f"{path} is not valid JSON ({e}); rebuild the lexicon") from None
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        raise CorruptLexiconError(f"{path} is not lextools lexicon metadata; rebuild the lexicon")
    if metadata.get("format_version") != FORMAT_VERSION:
        raise CorruptLexiconError(
            f"{path} has format version {metadata.get('format_version')!r}, this lextools reads "
            f"{FORMAT_VERSION}; rebuild the lexicon"
        )
    if metadata.get("edition") != edition_name:
        raise CorruptLexiconError(f"{path} describes edition {metadata.get('edition')!r}, not {edition_name}")
    files = metadata.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(files.get(k), dict) and {"name", "sha256"} <= files[k].keys() for k in PARTS
    ):
        raise CorruptLexiconError(f"{path} does not name its DAWG files; rebuild the lexicon")
    for part in (RANKS, ALPHAWORDS):
        if not (isinstance(files.get(part), dict) and {"name", "sha256"} <= files[part].keys()):
            raise CorruptLexiconError(
                f"{path} does not name its {part} file (a lexicon built by an older lextools); rebuild the lexicon"
            )
    if not isinstance(metadata.get("alphagram_order"), str):
        raise CorruptLexiconError(f"{path} has no alphagram order; rebuild the lexicon")
    # The checksum is the lexicon's identity (the service's ETag and search cursors): it must be the
    # words DAWG's, which _map_dawg verifies. The word count must be one (len(lexicon) reads it).
    if metadata.get("checksum") != files["words"]["sha256"]:
        raise CorruptLexiconError(f"{path}: its checksum is not its words DAWG's; rebuild the lexicon")
    words = metadata.get("words")
    if not isinstance(words, int) or isinstance(words, bool) or words < 0:
        raise CorruptLexiconError(f"{path}: its word count {words!r} is not a count; rebuild the lexicon")
    return metadata


class MappedFile:
    """A file of the lexicon directory, memory-mapped but not read: whoever first reads it checks it
    (:meth:`matches`). The map and the open file outlive the file's deletion by a later build."""

    def __init__(self, path: Path) -> None:
        self.name = path.name
        self.file = open(path, "rb")  # noqa: SIM115  # kept open: checked on first use, maybe much later
        try:
            self.data: mmap.mmap | bytes = mmap.mmap(self.file.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            self.data = b""

    def release(self) -> None:
        """Let go of the pages of the map this process read (they stay in the page cache, shared, and
        come back on the next read): a burst of quizzes reads much of a lexicon's ranking and
        alphagram table, and would otherwise count them in the worker's memory (PSS) from then on."""
        if isinstance(self.data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
            self.data.madvise(mmap.MADV_DONTNEED)

    def matches(self, sha256: str, piece: int = 1 << 20) -> bool:
        """Is the file's sha256 this one? Read through the file, not the map: a check does not map the
        file's pages into this process, so only the pages queries read count in its memory (PSS).
        A pause between two pieces (a mebibyte): the first query of a worker checks a table of tens of them."""
        digest, at = hashlib.sha256(), 0
        while chunk := os.pread(self.file.fileno(), piece, at):
            digest.update(chunk)
            at += len(chunk)
            pause()
        return digest.hexdigest() == sha256


def _map_file(home: Path, entry: dict[str, Any]) -> MappedFile:
    """A file of the lexicon directory named by the metadata, mapped (:class:`MappedFile`)."""
    name = str(entry["name"])
    if Path(name).name != name:
        raise CorruptLexiconError(f"metadata names {name!r}, which is not a file of the lexicon directory")
    return MappedFile(home / name)


def _map_dawg(home: Path, metadata: dict[str, Any], part: str, with_guide: bool) -> Any:
    """A DAWG-Python ``CompletionDAWG`` whose arrays are views of the memory-mapped file.

    The file is dawgdic's: a dictionary (uint32 count, then that many uint32 units) and, for a
    ``CompletionDAWG``, a guide (uint32 count, then twice that many bytes). The map is shared with
    every other process reading the file, and outlives the file's deletion by a later build.
    """
    entry = metadata["files"][part]
    name = str(entry["name"])
    if Path(name).name != name:
        raise CorruptLexiconError(f"metadata names {name!r}, which is not a file of the lexicon directory")
    path = home / name
    with open(path, "rb") as f:
        try:
            data: mmap.mmap | bytes = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            data = b""
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise CorruptLexiconError(
            f"{path} does not match its checksum in {metadata_path(home, str(metadata['edition'])).name}: "
            "the file is truncated or altered; rebuild the lexicon"
        )
    try:
        return dawg_from_bytes(data, with_guide)
    except ValueError as e:  # checksum matched, but the content is no DAWG
        raise CorruptLexiconError(f"{path} is not a DAWG file ({e}); rebuild the lexicon") from None


def dawg_from_bytes(data: bytes | mmap.mmap, with_guide: bool = True) -> Any:
    """A DAWG-Python ``CompletionDAWG`` whose arrays are views of ``data`` (nothing is copied);
    ValueError when the bytes are no dawgdic DAWG (``with_guide``: a ``CompletionDAWG``'s)."""
    view = memoryview(data)
    try:
        dct_units, end = _array(view, 0, 4)
        guide_units, end = _array(view, end, 1, per_count=2) if with_guide else (None, end)
    except struct.error as e:
        raise ValueError(str(e)) from None
    if end != len(view):
        raise ValueError(f"{len(view) - end} bytes after the DAWG")
    dawg = dawg_python.CompletionDAWG()
    dawg.dct = dawg_python.wrapper.Dictionary()
    dawg.dct._units = dct_units
    if guide_units is not None:
        dawg.guide = dawg_python.wrapper.Guide()
        dawg.guide._units = guide_units
    return dawg


def _array(view: memoryview, start: int, item: int, per_count: int = 1) -> tuple[memoryview, int]:
    """A count-prefixed array of ``item``-byte units at ``start``; returns it and where it ends."""
    (count,) = struct.unpack_from("=I", view, start)
    end = start + 4 + count * item * per_count
    if (item == 4 and count == 0) or end > len(view):  # a dictionary has its root unit at least
        raise ValueError(f"an array of {count} units where the file has {len(view) - start - 4} bytes")
    return view[start + 4 : end].cast("I" if item == 4 else "B"), end


@cache
def cpp_lexicon() -> type[Lexicon]:
    """The :class:`Lexicon` that is also dawg2's ``CompletionDAWG`` of its keys (the C++ reader).

    ``key in lexicon`` is the hot path. As a method in Python it would add a Python call around
    dawg2's, which would cost more than the test itself. Here ``__contains__`` is dawg2's
    own slot, and ``lexicon.words`` is the lexicon itself. Built on first use, so that importing
    this module does not need dawg2 (without it, :func:`reader_name` picks DAWG-Python).
    """
    import dawg  # noqa: PLC0415

    class CppLexicon(Lexicon, dawg.CompletionDAWG):  # dawg2 has no type hints: its classes are Any
        reader = "dawg2"
        __contains__ = dawg.CompletionDAWG.__contains__  # the C slot itself, not a Python method

        def _membership(self, graph: Any) -> tuple[Any, Callable[[str], bool]]:
            units, guide = graph.dct._units, graph.guide._units  # the mapped file's two arrays
            self.frombytes(
                b"".join((struct.pack("=I", len(units)), units.cast("B"), struct.pack("=I", len(guide) // 2), guide))
            )
            # The anagram index too, for blank_fills (shared by forked workers).
            self._alphagram_dawg = dawg.DAWG().frombytes(
                b"".join((struct.pack("=I", len(self.alphagrams._units)), self.alphagrams._units.cast("B")))
            )
            self._replaces: dict[str, Any] = {}
            return self, self.has_keys_with_prefix

        def has_alphagram(self, alphagram: str | bytes) -> bool:
            return alphagram in self._alphagram_dawg

        def alphagram_test(self) -> Callable[[str | bytes], bool]:
            test: Callable[[str | bytes], bool] = self._alphagram_dawg.__contains__  # C, no Python call per alphagram
            return test

        def blank_fills(self, pattern: str, tiles: str, *, alphagrams: bool = False) -> list[str]:
            graph = self._alphagram_dawg if alphagrams else self
            if not tiles:  # dawg2 compiles no empty list of replacements
                return [pattern] if "?" not in pattern and pattern in graph else []
            found: list[str] = graph.similar_keys(pattern, self._replacements(tiles))
            return found

        def blank_fills_of(self, patterns: list[str], tiles: str, *, alphagrams: bool = False) -> Iterable[str]:
            if not tiles:
                return super().blank_fills_of(patterns, tiles, alphagrams=alphagrams)
            graph = self._alphagram_dawg if alphagrams else self
            # One map over dawg2's C++ walk: no Python call per pattern.
            return itertools.chain.from_iterable(
                map(graph.similar_keys, patterns, itertools.repeat(self._replacements(tiles)))
            )

        def _replacements(self, tiles: str) -> Any:
            """dawg2's compiled replacements of ``?`` by each of the tiles, kept per set of tiles."""
            replaces = self._replaces.get(tiles)
            if replaces is None:
                if len(self._replaces) >= 4096:  # one entry per set of tiles a query asked for
                    self._replaces.clear()
                replaces = self._replaces[tiles] = self.compile_replaces({"?": list(tiles)})
            return replaces

    return CppLexicon
