"""Editions: a tile set plus the rules that turn spelling into tiles.

Each edition is one JSON file in ``lextools/core/editions/`` (read with :mod:`importlib.resources`
when first needed: :mod:`lextools.core.package_data`).
The facts come from the public rule texts (FISE/FILE tournament rules, Mattel's instructions, the
Hasbro rules, the FISF rules) named in each file's ``sources``; a fact they do not give
(every count and most values of es-mattel2021) is ``null`` in the file, never guessed, and features
that need it (scores, probability order) say so instead of answering.

File format, one object::

    name, title, language        the edition's id ("es-fise"), a readable title, ISO 639-1 code
    total_tiles, blanks          tiles in the bag and how many are blank; null when unverified
    tiles                        [{label, value, count, code?}]: value and count may be null;
                                 a tile of several letters (CH, LL, RR) has a one-character
                                 ``code`` — FISE's digit notation, 1 = CH, 2 = LL, 3 = RR —
                                 which is also how it is stored in lexicon keys
    alphabet                     every tile label once, in the edition's alphabetical order: the
                                 order of every list a person or a program reads. es-fise sorts
                                 the digraph tiles as letters of their own (… C CH D … L LL M N Ñ
                                 O … R RR S …), as the FISE lists do; every Spanish edition puts Ñ
                                 after N; en and fr are A–Z
    letters_without_tile         letters of the language with no tile (K, W in es-fise): a word
                                 using one is unplayable, and a blank cannot stand for it
    normalisation                {keep: letters whose diacritic is kept (Ñ), split_ligatures}
    challenge                    the edition's ruling on a challenged play, as data
    unverified                   optional sentence naming the facts that are null

Multi-letter tiles are *obligatory* in every edition we ship (FISE art. 11 for CH, LL, RR): the
letters C+H never spell the CH tile's square with two tiles, so spelling → tiles is deterministic.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import comb
from typing import Any

from lextools.core.errors import EditionDataError, QueryError, UnknownEditionError
from lextools.core.messages import Message, message
from lextools.core.package_data import names_in, read_text

#: The byte of the first tile of the alphabet in :meth:`Edition.rank_bytes` (bytes below it, such
#: as the newline that separates keys, are never a tile's), and the most tiles an edition may have,
#: so that the last one's byte is still one byte.
RANK_BYTE, MAX_TILE_KINDS = 0x41, 150


@dataclass(frozen=True)
class Tile:
    label: str
    value: int | None
    count: int | None
    code: str  # one character: the label itself for single letters


@dataclass(frozen=True, eq=False)
class Edition:
    name: str
    title: str
    language: str
    total_tiles: int | None
    blanks: int | None
    tiles: tuple[Tile, ...]
    letters_without_tile: frozenset[str]
    keep: frozenset[str]
    split_ligatures: bool
    challenge: dict[str, Any]
    unverified: str | None = None
    sources: tuple[str, ...] = ()
    #: Tile labels in alphabetical order (see the module docstring).
    alphabet: tuple[str, ...] = ()
    by_label: dict[str, Tile] = field(init=False, repr=False)
    by_code: dict[str, Tile] = field(init=False, repr=False)
    #: Single letters a word may be spelled with (digraph tiles are made of these).
    letters: frozenset[str] = field(init=False, repr=False)
    #: Letters in the longest tile (2 where there are digraph tiles).
    longest_tile: int = field(init=False, repr=False)
    #: The labels longest first, as one alternation (see ``__post_init__``).
    tile_pattern: re.Pattern[str] = field(init=False, repr=False)
    _code_of: dict[str, str] = field(init=False, repr=False)
    _value_of: dict[str, int | None] = field(init=False, repr=False)
    _label_of: dict[str, str] = field(init=False, repr=False)
    _collation: dict[int, int] = field(init=False, repr=False)
    _rank_bytes: dict[int, int] = field(init=False, repr=False)
    _from_ranks: bytes | dict[int, int] = field(init=False, repr=False)
    _spelling: dict[int, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # Derived once: normalisation and tokenisation read these for every character.
        object.__setattr__(self, "by_label", {t.label: t for t in self.tiles})
        object.__setattr__(self, "by_code", {t.code: t for t in self.tiles})
        object.__setattr__(self, "letters", frozenset(t.label for t in self.tiles if len(t.label) == 1))
        object.__setattr__(self, "longest_tile", max(len(t.label) for t in self.tiles))
        object.__setattr__(self, "_code_of", {t.label: t.code for t in self.tiles})
        object.__setattr__(self, "_value_of", {t.label: t.value for t in self.tiles})
        object.__setattr__(self, "_label_of", {t.code: t.label for t in self.tiles})
        object.__setattr__(self, "_spelling", {ord(t.code): t.label for t in self.tiles})
        # The labels longest first: at each position the alternation takes the first label that
        # matches, the longest, so ``findall`` splits letters into tiles greedily (lextools.core.spelling).
        labels = sorted((t.label for t in self.tiles), key=len, reverse=True)
        object.__setattr__(self, "tile_pattern", re.compile("|".join(map(re.escape, labels))))
        # Key code → a character whose code point is the tile's rank in the alphabet: a key
        # translated through this table sorts in the edition's order with plain string comparison.
        order = self.alphabet or tuple(sorted(t.label for t in self.tiles))
        table = {ord(self.by_label[label].code): 0x100 + rank for rank, label in enumerate(order)}
        object.__setattr__(self, "_collation", table)
        # The same rank as one byte (RANK_BYTE + rank), and back (a bytes table where every code is
        # latin-1, as in every edition we ship): keys as bytes that a file can hold and a sort of
        # bytes puts in the alphabet's order (lextools.core.anagram_table).
        ranks = {code: rank - 0x100 + RANK_BYTE for code, rank in table.items()}
        object.__setattr__(self, "_rank_bytes", ranks)
        back = {rank: code for code, rank in ranks.items()}
        latin = all(code < 0x100 for code in ranks)
        object.__setattr__(self, "_from_ranks", bytes(back.get(b, b) for b in range(256)) if latin else back)

    # -- alphabetical order -----------------------------------------------------------------------
    def collation_key(self, key: str) -> str:
        """Sort key of a lexicon key in the edition's alphabet: es-fise puts CHA after CU, ÑU after NU."""
        return key.translate(self._collation)

    def collation_keys(self, keys: Iterable[str]) -> Iterator[str]:
        """:meth:`collation_key` of each key, mapped with ``str.translate`` itself: no Python call per
        key, for the thousands of answers an anagram query sorts."""
        return map(str.translate, keys, itertools.repeat(self._collation))

    def rank_bytes(self, keys: Iterable[str]) -> Iterator[bytes]:
        """Each key as bytes, one per tile: ``RANK_BYTE`` + the tile's rank in the alphabet. Bytes sort
        as :meth:`collation_key` does, and a file can hold them (the alphagram table's records)."""
        ranked = map(str.translate, keys, itertools.repeat(self._rank_bytes))
        return map(str.encode, ranked, itertools.repeat("latin-1"))

    def keys_of_ranks(self, ranked: list[bytes]) -> list[str]:
        """The keys of :meth:`rank_bytes`, all at once: one translate and one split for the lot."""
        if not ranked:
            return []
        text = b"\n".join(ranked)
        if isinstance(self._from_ranks, bytes):
            return text.translate(self._from_ranks).decode("latin-1").split("\n")
        return text.decode("latin-1").translate(self._from_ranks).split("\n")

    def sort_keys(self, keys: Iterable[str]) -> list[str]:
        """Lexicon keys in the edition's alphabetical order."""
        return sorted(keys, key=self.collation_key)

    def sort_labels(self, labels: Iterable[str]) -> list[str]:
        """Tile labels in the edition's alphabetical order (hook lists, racks)."""
        return sorted(labels, key=lambda label: self.collation_key(self.by_label[label].code))

    # -- facts derived from the tile table -------------------------------------------------------

    @property
    def digraphs(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if len(t.label) > 1)

    @property
    def has_values(self) -> bool:
        return all(t.value is not None for t in self.tiles)

    @property
    def has_counts(self) -> bool:
        return self.blanks is not None and all(t.count is not None for t in self.tiles)

    # -- conversions between tile labels and lexicon keys ------------------------------------------
    def encode(self, tiles: Iterable[str]) -> str:
        """Tile labels → lexicon key (one character per tile)."""
        return "".join(map(self._code_of.__getitem__, tiles))

    def decode(self, key: str) -> tuple[str, ...]:
        """Lexicon key → tile labels (mapped, not a Python loop: a batch check decodes every word)."""
        return tuple(map(self._label_of.__getitem__, key))

    def spelling(self, key: str) -> str:
        """Lexicon key → plain spelling (CHIQUILLO), mapped by ``str.translate``: a comparison spells
        every word of two lexicons."""
        return key.translate(self._spelling)

    # -- scoring ----------------------------------------------------------------------------------
    def score(self, tiles: Sequence[str], blanks: Iterable[int] = ()) -> int | None:
        """Sum of tile values; tiles at the positions in ``blanks`` are blanks and score 0.

        None when a needed value is unverified (es-mattel2021).
        """
        if not blanks:
            values = list(map(self._value_of.__getitem__, tiles))
            return None if None in values else sum(values)  # type: ignore[arg-type]  # no None left
        blank_positions = set(blanks)
        total = 0
        for i, label in enumerate(tiles):
            if i in blank_positions:
                continue
            value = self.by_label[label].value
            if value is None:
                return None
            total += value
        return total

    def probability(self, tiles: Sequence[str]) -> int:
        """Number of ways to draw these tiles from a full bag, blanks not used (Zyzzyva's order).

        Raises :class:`QueryError` where tile counts are unverified.
        """
        if not self.has_counts:
            raise QueryError(message("unverified_counts", edition=self.name))
        ways = 1
        for label in set(tiles):
            ways *= comb(self.by_label[label].count or 0, tiles.count(label))
        return ways

    def as_dict(self) -> dict[str, Any]:
        """The edition as JSON-ready data (the service's tile table)."""
        return {
            "name": self.name,
            "title": self.title,
            "language": self.language,
            "total_tiles": self.total_tiles,
            "blanks": self.blanks,
            "tiles": [{"label": t.label, "value": t.value, "count": t.count, "code": t.code} for t in self.tiles],
            "alphabet": list(self.alphabet),
            "letters_without_tile": sorted(self.letters_without_tile),
            "digraph_tiles": [t.label for t in self.digraphs],
            "digraphs_obligatory": True,
            "challenge": self.challenge,
            "unverified": self.unverified,
            "sources": list(self.sources),
        }


def edition_names() -> list[str]:
    """Names of the editions shipped with lextools, sorted."""
    return list(_shipped_names())


@cache
def _shipped_names() -> tuple[str, ...]:
    return tuple(names_in("editions", ".json"))


def canonical_edition_name(name: object) -> str:
    """The shipped edition ``name`` stands for, whatever its case (``ES-FISE``
    is es-fise); raises :class:`UnknownEditionError`, suggesting the names it may mean, for any other."""
    names = _shipped_names()
    if name in names:
        return str(name)
    folded = name.casefold() if isinstance(name, str) else None
    for known in names:
        if known.casefold() == folded:
            return known
    raise UnknownEditionError(_unknown_edition_message(name, folded or "", names))


def edition_suggestions(folded: str, names: Sequence[str]) -> list[str]:
    """Names an unknown edition may mean, in the order they are shipped: those it begins (``es`` →
    every Spanish edition) or that begin it (``en-us`` → en), else those close to it in spelling
    (``esfise``, ``es-fsie`` → es-fise)."""
    if not folded:
        return []
    starting = [n for n in names if n.startswith(folded) or folded.startswith(n)]
    if starting:
        return starting
    import difflib  # noqa: PLC0415  (only a mistyped name needs it; every command names an edition)

    squeezed = re.sub("[^0-9a-z]", "", folded)
    close = set(difflib.get_close_matches(folded, names, n=3, cutoff=0.6))
    close |= {n for n in names if n.replace("-", "") == squeezed}
    return [n for n in names if n in close]


def _unknown_edition_message(name: object, folded: str, names: Sequence[str]) -> Message:
    known = ", ".join(names)
    suggested = edition_suggestions(folded, names)
    if suggested:
        return message("unknown_edition_did_you_mean", name=repr(name), suggestions=", ".join(suggested), known=known)
    return message("unknown_edition", name=repr(name), known=known)


def load_edition(name: str) -> Edition:
    """Load and validate one edition by its name in any case (:func:`canonical_edition_name`); raises
    :class:`UnknownEditionError` for an unknown name. Every spelling of a name gives the same object."""
    return _load_shipped(canonical_edition_name(name))


@cache
def _load_shipped(name: str) -> Edition:
    return parse_edition(json.loads(read_text("editions", f"{name}.json")))


def parse_edition(data: dict[str, Any]) -> Edition:
    """Build an :class:`Edition` from its JSON data, checking it is consistent."""
    name = data["name"]

    def fail(msg: str) -> EditionDataError:
        return EditionDataError(f"edition {name}: {msg}")

    tiles = []
    for t in data["tiles"]:
        label = t["label"]
        code = t.get("code", label)
        if len(code) != 1:
            raise fail(f"tile {label} needs a one-character code")
        tiles.append(Tile(label=label, value=t["value"], count=t["count"], code=code))
    labels = [t.label for t in tiles]
    codes = [t.code for t in tiles]
    if len(set(labels)) != len(labels) or len(set(codes)) != len(codes):
        raise fail("duplicate tile labels or codes")
    letters = {t.label for t in tiles if len(t.label) == 1}
    for t in tiles:
        if len(t.label) > 1 and not set(t.label) <= letters:
            raise fail(f"tile {t.label} is made of letters that have no tile")
        if len(t.label) > 1 and t.code in letters:
            raise fail(f"tile {t.label} has a code that is also a letter")
    without = frozenset(data.get("letters_without_tile", []))
    if without & letters:
        raise fail(f"letters both with and without a tile: {sorted(without & letters)}")
    total, blanks = data.get("total_tiles"), data.get("blanks")
    counts = [t.count for t in tiles]
    if total is not None:
        if blanks is None or None in counts:
            raise fail("total_tiles given but some counts are unknown")
        found = sum(c for c in counts if c is not None) + blanks
        if found != total:
            raise fail(f"tile counts add up to {found}, not {total}")
    if len(tiles) > MAX_TILE_KINDS:
        raise fail(f"more than {MAX_TILE_KINDS} tiles")
    alphabet = data.get("alphabet")
    if not isinstance(alphabet, list) or sorted(alphabet) != sorted(labels):
        raise fail("alphabet must name every tile label exactly once")
    norm = data.get("normalisation", {})
    return Edition(
        name=name,
        title=data["title"],
        language=data["language"],
        total_tiles=total,
        blanks=blanks,
        tiles=tuple(tiles),
        letters_without_tile=without,
        keep=frozenset(norm.get("keep", [])),
        split_ligatures=bool(norm.get("split_ligatures", True)),
        challenge=data.get("challenge", {}),
        unverified=data.get("unverified"),
        sources=tuple(data.get("sources", [])),
        alphabet=tuple(alphabet),
    )
