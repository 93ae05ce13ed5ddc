"""A built lexicon on disk, and the point queries on it (validity, hooks, score).

Files in the lexicon directory, for an edition ``E``::

    E.json                 metadata, the commit point of a build (see below)
    E-<sha16>.dawg         the words: a DAWG-Python ``CompletionDAWG`` of lexicon keys
    E-<sha16>.anagrams.dawg  the alphagram index: a ``CompletionDAWG`` of "ALPHAGRAM KEY"
    E.exclusions.json      what the build's rules dropped, per rule: count and examples
    E.provenance.tsv.gz    which rule dropped each excluded form, which sources list each word
                           (lextools.provenance; read by lextools.explain)

A *lexicon key* has one character per tile: the letter itself, or the tile's code for a
multi-letter tile (FISE's digits: 1 = CH, 2 = LL, 3 = RR). So CHIQUILLO is stored as ``1IQUI2O``,
a DAWG walk goes tile by tile, and a front hook on CH is one more step, not two. The alphagram of a
key is its characters sorted; the index maps it to every word it spells, separated by one space.

The DAWG files are named after their sha256, and ``E.json`` names them together with their
checksums, so a rebuild writes the new DAWGs beside the old ones and then replaces ``E.json`` in one
``os.replace``: a reader sees the old lexicon or the new one, never a mix, and a build that stops
half-way leaves the previous lexicon in place. The metadata object::

    format, format_version   "lextools-lexicon", 1 — a reader refuses any other version
    edition                  the edition name
    checksum                 sha256 of the words DAWG: the lexicon's identity (the service's ETag)
    files                    {"words": {name, sha256, bytes}, "anagrams": {...}}
    words                    number of words
    sources                  [{name, path, sha256, licence, origin, ...}]
    counts                   {read, kept, duplicates, dropped: {rule: count}}
    filters                  names of the rules the build applied
    built                    UTC build time, ISO 8601
    tools                    versions of lextools, dawg2, DAWG-Python, PyICU, ICU, Python
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dawg_python

from lextools.edition import Edition, load_edition
from lextools.errors import CorruptLexiconError, LexiconNotFoundError, SpellingError
from lextools.tokenize import Spelling, spell

FORMAT = "lextools-lexicon"
FORMAT_VERSION = 1
#: Separates an alphagram from the word in the anagram index.
ALPHAGRAM_SEPARATOR = " "


def default_home() -> Path:
    """The lexicon directory: ``$LEXTOOLS_HOME``, else the per-user data directory (XDG)."""
    if os.environ.get("LEXTOOLS_HOME"):
        return Path(os.environ["LEXTOOLS_HOME"])
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "lextools"


def metadata_path(home: Path, edition: str) -> Path:
    return Path(home) / f"{edition}.json"


def alphagram(key: str) -> str:
    return "".join(sorted(key))


@dataclass(frozen=True)
class Hooks:
    front: tuple[str, ...]  # tiles that can go in front of the word
    back: tuple[str, ...]  # tiles that can go after it
    front_inner: bool  # the word minus its first tile is a word
    back_inner: bool  # the word minus its last tile is a word


@dataclass(frozen=True)
class WordResult:
    """A word looked up in a lexicon; the shape of ``check --json`` and of the service's answers."""

    input: str
    word: str | None
    tiles: tuple[str, ...]
    valid: bool
    score: int | None
    reason: str | None

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
    """A loaded lexicon: read-only, safe to share between threads and forked workers."""

    def __init__(self, edition: Edition, metadata: dict[str, Any], words: Any, anagrams: Any) -> None:
        self.edition = edition
        self.metadata = metadata
        self.words = words  # dawg_python.CompletionDAWG of keys
        self.anagrams = anagrams  # dawg_python.CompletionDAWG of "ALPHAGRAM KEY"
        # In the edition's alphabet, so hook lists read in the order players sort (es-fise: C CH D …).
        self._tiles = [(label, edition.by_label[label].code) for label in edition.sort_labels(edition.by_label)]

    @property
    def checksum(self) -> str:
        return str(self.metadata["checksum"])

    def __len__(self) -> int:
        return int(self.metadata["words"])

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self.words

    def __iter__(self) -> Iterator[str]:
        return self.words.iterkeys()

    def keys(self, prefix: str = "") -> Iterator[str]:
        """Lexicon keys in key order (see the module docstring)."""
        return self.words.iterkeys(prefix)

    def spell(self, text: str) -> Spelling:
        return spell(text, self.edition)

    def lookup(self, text: str) -> WordResult:
        """Is this word valid? Never raises for a bad word: the reason says what is wrong."""
        try:
            s = spell(text, self.edition)
        except SpellingError as e:
            return WordResult(input=text, word=None, tiles=(), valid=False, score=None, reason=e.reason)
        valid = s.key in self.words
        if valid and len(s.tiles) < 2:
            valid = False  # one-tile words are never built in, but a key could be asked directly
        return WordResult(
            input=text,
            word=s.word,
            tiles=s.tiles,
            valid=valid,
            score=self.edition.score(s.tiles),
            reason=None if valid else f"{s.word} is not in the {self.edition.name} lexicon",
        )

    def hooks(self, key: str) -> Hooks:
        """Hooks at tile level: in es-fise the CH tile hooks ARRO into CHARRO, one tile, not two."""
        front = tuple(label for label, code in self._tiles if code + key in self.words)
        back = tuple(label for label, code in self._tiles if key + code in self.words)
        return Hooks(
            front=front,
            back=back,
            front_inner=len(key) > 2 and key[1:] in self.words,
            back_inner=len(key) > 2 and key[:-1] in self.words,
        )


def load_lexicon(edition_name: str, home: Path | None = None) -> Lexicon:
    """Load a built lexicon, checking its format version and checksums.

    Raises :class:`LexiconNotFoundError` when there is none, :class:`CorruptLexiconError` when a file
    is truncated, altered or of another format version.
    """
    edition = load_edition(edition_name)
    home = Path(home) if home is not None else default_home()
    for attempt in range(3):  # a rebuild may replace the metadata between our reads: read it again
        metadata = read_metadata(home, edition_name)
        try:
            words = _read_dawg(home, metadata, "words")
            anagrams = _read_dawg(home, metadata, "anagrams")
        except FileNotFoundError as e:
            if attempt == 2:
                raise CorruptLexiconError(
                    f"{edition_name}: {e.filename}, named in {metadata_path(home, edition_name)}, is missing; "
                    f"rebuild with `lextools build {edition_name}`"
                ) from None
            continue
        return Lexicon(edition, metadata, words, anagrams)
    raise AssertionError("unreachable")


def read_metadata(home: Path, edition_name: str) -> dict[str, Any]:
    path = metadata_path(home, edition_name)
    try:
        raw = path.read_bytes()
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
        isinstance(files.get(k), dict) and {"name", "sha256"} <= files[k].keys() for k in ("words", "anagrams")
    ):
        raise CorruptLexiconError(f"{path} does not name its DAWG files; rebuild the lexicon")
    # The checksum is the lexicon's identity (the service's ETag and search cursors): it must be the
    # words DAWG's, which _read_dawg verifies. The word count must be one (len(lexicon) reads it).
    if metadata.get("checksum") != files["words"]["sha256"]:
        raise CorruptLexiconError(f"{path}: its checksum is not its words DAWG's; rebuild the lexicon")
    words = metadata.get("words")
    if not isinstance(words, int) or isinstance(words, bool) or words < 0:
        raise CorruptLexiconError(f"{path}: its word count {words!r} is not a count; rebuild the lexicon")
    return metadata


def _read_dawg(home: Path, metadata: dict[str, Any], part: str) -> Any:
    entry = metadata["files"][part]
    name = str(entry["name"])
    if Path(name).name != name:
        raise CorruptLexiconError(f"metadata names {name!r}, which is not a file of the lexicon directory")
    data = (home / name).read_bytes()
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise CorruptLexiconError(
            f"{home / name} does not match its checksum in {metadata_path(home, str(metadata['edition'])).name}: "
            "the file is truncated or altered; rebuild the lexicon"
        )
    try:
        return dawg_from_bytes(data)
    except ValueError as e:  # checksum matched, but the content is no DAWG
        raise CorruptLexiconError(f"{home / name} is not a DAWG file ({e}); rebuild the lexicon") from None


def dawg_from_bytes(data: bytes) -> Any:
    """A DAWG-Python ``CompletionDAWG`` read from bytes; ValueError when they are no such DAWG."""
    dawg = dawg_python.CompletionDAWG()
    dawg.dct = dawg_python.wrapper.Dictionary()
    dawg.guide = dawg_python.wrapper.Guide()
    try:
        with io.BytesIO(data) as fp:
            dawg.dct.read(fp)
            dawg.guide.read(fp)
    except (EOFError, ValueError, OSError, struct.error) as e:
        raise ValueError(str(e)) from None
    return dawg
