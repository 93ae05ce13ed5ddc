"""``lextools verify``: decode an export and check it word for word against a built lexicon.

A KWG is read through its own nodes, never through the encoder that may have written it: the DAWG
half's words are listed and compared with the lexicon's. The GADDAG half is checked in two parts:

- its paths without a separator must be the lexicon's words reversed (the split after the last tile);
- below each reversed prefix ``rev(p)``, the separator must lead to exactly the rest of every word
  starting with ``p`` — the words the DAWG half holds after ``p``; there must be one such separator
  for every proper prefix of a word, and none for anything else.

Sibling lists must be in strictly ascending tile order (the reader refuses the file otherwise), so
a string has at most one path: together the two checks mean each word has exactly one path per split
point. Whether two lists hold the same suffixes is decided by position (lextools and wolges point a
separator at the DAWG's own list), else by comparing the lists' structure, else by listing both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lextools.core import kwg
from lextools.core.edition import load_edition
from lextools.core.errors import ExportFormatError, QueryError, SourceError, SpellingError, path_text
from lextools.core.inputs import MAX_INPUT_BYTES, read_input
from lextools.core.lexicon import Lexicon, dawg_from_bytes
from lextools.core.messages import message
from lextools.core.spelling import spell
from lextools.core.wordlist import decode, words_of
from lextools.features.export import FORMATS, manifest_path

EXAMPLES = 10


@dataclass
class Part:
    """One comparison: what the file holds against what the lexicon says it should."""

    name: str
    expected: int
    found: int
    missing: int = 0
    extra: int = 0
    missing_examples: list[str] = field(default_factory=list)
    extra_examples: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return not self.missing and not self.extra

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "identical": self.identical}


@dataclass
class Verdict:
    file: str
    format: str
    edition: str
    parts: list[Part]

    @property
    def identical(self) -> bool:
        return all(p.identical for p in self.parts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "format": self.format,
            "edition": self.edition,
            "identical": self.identical,
            "parts": [p.as_dict() for p in self.parts],
        }


def detect_format(path: Path, data: bytes) -> str:
    """The format named by the manifest beside the file, else by its suffix (a KWG says if it has a GADDAG)."""
    beside = manifest_path(path)
    if beside.is_file():
        try:
            fmt = json.loads(read_input(beside, gz=False)).get("format")
        except (ValueError, UnicodeDecodeError, AttributeError, OSError):
            fmt = None
        if fmt in FORMATS:
            return str(fmt)
    suffix = path.suffix.lower()
    if suffix == ".kwg":
        return "kwg-gaddag" if kwg.read_kwg(data).has_gaddag else "kwg"
    if suffix in (".kad", ".dawg"):
        return suffix[1:]
    return "txt"


def manifest_edition(path: Path) -> str | None:
    """The edition the manifest beside ``path`` names (every file export writes one), or None when there
    is no manifest; :class:`ExportFormatError` when it is there but names no edition."""
    beside = manifest_path(Path(path))
    try:
        raw = read_input(beside, gz=False)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise SourceError(f"cannot read {path_text(beside)}: {e.strerror or e}") from None
    try:
        edition = json.loads(raw).get("edition")
    except (ValueError, UnicodeDecodeError, AttributeError):
        edition = None
    if not isinstance(edition, str) or not edition:
        raise ExportFormatError(message("manifest_no_edition", manifest=path_text(beside)))
    return edition


def edition_to_verify(path: Path, given: str | None) -> str:
    """The edition an export is checked against: the one its manifest names, which ``given`` (``--edition``)
    must not contradict; ``given`` alone when there is no manifest; an error when there is neither."""
    named = manifest_edition(path)
    beside = path_text(manifest_path(Path(path)))
    if named is None:
        if given is None:
            raise QueryError(message("verify_no_edition", file=path_text(Path(path)), manifest=beside))
        return given
    if given is not None and load_edition(given).name != named:
        raise QueryError(message("verify_edition_contradicts", edition=given, manifest=beside, named=named))
    return named


def verify(path: Path, lex: Lexicon, fmt: str | None = None) -> Verdict:
    """Compare the export at ``path`` with ``lex``; :class:`ExportFormatError` if it is not of its format."""
    graph_file = (fmt or "").startswith(("kwg", "kad")) or Path(path).suffix.lower() in (".kwg", ".kad")
    try:  # bounded before it is read: a regular file, at most a KWG's nodes for a KWG or KAD
        data = read_input(path, 4 * kwg.MAX_NODES if graph_file else MAX_INPUT_BYTES, gz=False)
    except OSError as e:
        raise SourceError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        fmt = fmt or detect_format(Path(path), data)
    except ExportFormatError as e:  # a .kwg file that is no KWG
        raise ExportFormatError(f"{path_text(path)} is not a kwg file: {e}") from None
    if fmt not in FORMATS:
        raise ExportFormatError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    try:
        parts = _CHECKS[fmt](data, lex)
    except SourceError as e:  # a tile number the edition's alphabet lacks: not this edition's file
        raise ExportFormatError(f"{path} is not a {fmt} file of {lex.edition.name}: {e}") from None
    except ExportFormatError as e:
        raise ExportFormatError(f"{path} is not a {fmt} file: {e}") from None
    return Verdict(str(path), fmt, lex.edition.name, parts)


def _compare(name: str, found: set[str], expected: set[str], show: Any) -> Part:
    missing = expected - found
    extra = found - expected
    return Part(
        name,
        expected=len(expected),
        found=len(found),
        missing=len(missing),
        extra=len(extra),
        missing_examples=[show(x) for x in sorted(missing)[:EXAMPLES]],
        extra_examples=[show(x) for x in sorted(extra)[:EXAMPLES]],
    )


def _speller(lex: Lexicon) -> Any:
    """Tile-number string → plain spelling, for examples (tiles joined with · when not a word)."""
    table = {n: label for n, label in kwg.kwg_alphabet(lex.edition).numbered()}
    return lambda tiles: "".join(table.get(ord(t), f"<{ord(t)}>") if ord(t) else "·" for t in tiles)


def _tile_words(lex: Lexicon) -> set[str]:
    return set(kwg.tile_words(lex.keys(), lex.edition))


def _check_kwg(data: bytes, lex: Lexicon, graph: kwg.Kwg | None = None) -> list[Part]:
    graph = graph or kwg.read_kwg(data)
    fast = _identical_parts(graph, lex)
    if fast is not None:
        return fast
    expected = _tile_words(lex)
    found = set(graph.words(graph.dawg_root))
    _known_tiles(found, lex)
    parts = [_compare("words (DAWG)", found, expected, _speller(lex))]
    if graph.has_gaddag:
        parts += _check_gaddag(graph, expected, lex)
    return parts


def _identical_parts(graph: kwg.Kwg, lex: Lexicon) -> list[Part] | None:
    """The parts of a file that holds exactly what it should, checked without listing a word; None
    as soon as anything differs, and the caller lists the words to say what.

    The DAWG half is walked together with the lexicon's words DAWG (:func:`kwg.holds_exactly`); the
    GADDAG half by :func:`_identical_gaddag`.
    """
    words = lex.graph
    if not kwg.holds_exactly(graph, graph.dawg_root, words.dct._units, words.guide._units, lex.edition):
        return None
    count = graph.counts[graph.dawg_root] if graph.dawg_root else 0
    parts = [Part("words (DAWG)", expected=count, found=count)]
    if graph.has_gaddag:
        gaddag = _identical_gaddag(graph, count)
        if gaddag is None:
            return None
        parts += gaddag
    return parts


def _dawg_prefixes(graph: kwg.Kwg) -> tuple[dict[int, int], int, int]:
    """Every prefix of the DAWG half (an int: one byte per tile, the first tile highest) → the arc
    of the list after it << 1 | whether it is a word; with the number of prefixes that have a list
    after them and the number of split points of the words (a word of n tiles has n - 1)."""
    nodes, arc_mask, accepts, is_end = graph.nodes, kwg.ARC_MASK, kwg.ACCEPTS, kwg.IS_END
    prefixes: dict[int, int] = {}
    inner = splits = 0
    stack = [(graph.dawg_root, 0, 0)]
    push, pop = stack.append, stack.pop
    while stack:
        arc, prefix, length = pop()
        prefix <<= 8
        while True:
            v = nodes[arc]
            longer = prefix | v >> 24
            child = v & arc_mask
            if v & accepts:
                splits += length
                prefixes[longer] = child << 1 | 1
            else:
                prefixes[longer] = child << 1
            if child:
                inner += 1
                push((child, longer, length + 1))
            if v & is_end:
                break
            arc += 1
    return prefixes, inner, splits


def _identical_gaddag(graph: kwg.Kwg, words: int) -> list[Part] | None:
    """The GADDAG parts when the half is exactly the DAWG half's (already found identical to the
    lexicon): every reversed path that is accepted is a word, and there are as many as words; every
    separator follows a prefix with a list after it, leads to that list (the same position or the
    same structure), and there are as many as such prefixes. One pass over the GADDAG's paths, each
    prefix held as an int grown at its front (a tile more in the reversed path), no string made."""
    prefixes, inner, splits = _dawg_prefixes(graph)
    nodes, counts, same = graph.nodes, graph.counts, _Sameness(graph)
    arc_mask, accepts, is_end, entry_of = kwg.ARC_MASK, kwg.ACCEPTS, kwg.IS_END, prefixes.get
    reversed_words = separators = split_paths = 0
    stack = [(graph.gaddag_root, 0, 0)]
    push, pop = stack.append, stack.pop
    while stack:
        arc, prefix, shift = pop()
        while True:
            v = nodes[arc]
            child = v & arc_mask
            tile = v >> 24
            if not tile:  # the separator: the rest of every word starting with the prefix (never 0)
                entry = entry_of(prefix, 0)
                if v & accepts or entry < 2 or (child != entry >> 1 and not same.equal(child, entry >> 1)):
                    return None
                separators += 1
                split_paths += counts[child]
            else:
                longer = tile << shift | prefix
                if v & accepts:
                    if not entry_of(longer, 0) & 1:
                        return None
                    reversed_words += 1
                if child and counts[child]:  # a list of no word is not walked
                    push((child, longer, shift + 8))
            if v & is_end:
                break
            arc += 1
    if reversed_words != words or separators != inner or split_paths != splits:
        return None
    return [
        Part("reversed words (GADDAG)", expected=words, found=words),
        Part("split points (GADDAG)", expected=splits, found=splits),
    ]


def _check_kwg_gaddag(data: bytes, lex: Lexicon) -> list[Part]:
    graph = kwg.read_kwg(data)
    if not graph.has_gaddag and (graph.dawg_root or not graph.reserves_gaddag):  # empty lexicon: both empty
        raise ExportFormatError("it has no GADDAG half (node 1 is not a GADDAG root)")
    return _check_kwg(data, lex, graph)


def _known_tiles(words: Iterable[str], lex: Lexicon) -> None:
    for _ in kwg.decode_keys(words, lex.edition):  # raises SourceError naming an unknown tile
        pass


def _check_gaddag(graph: kwg.Kwg, expected: set[str], lex: Lexicon) -> list[Part]:
    show = _speller(lex)
    # The DAWG half after each prefix, over the expected words (the DAWG half was compared above).
    after: dict[str, int] = {}
    stack = [(graph.dawg_root, "")]
    while stack:
        arc, prefix = stack.pop()
        for node in graph.siblings(arc):
            word = prefix + chr(node >> 24)
            if graph.live(node & kwg.ARC_MASK):
                after[word] = node & kwg.ARC_MASK
                stack.append((node & kwg.ARC_MASK, word))
    reversed_words: set[str] = set()
    splits = Part("split points (GADDAG)", expected=sum(len(w) - 1 for w in expected), found=0)
    same = _Sameness(graph)
    stack = [(graph.gaddag_root, "")]
    while stack:
        arc, rprefix = stack.pop()
        if len(rprefix) >= kwg.MAX_DEPTH:
            raise ExportFormatError(f"a path is longer than {kwg.MAX_DEPTH} tiles: the graph has a cycle")
        for node in graph.siblings(arc):
            tile, child = node >> 24, node & kwg.ARC_MASK
            if tile == kwg.SEPARATOR:
                prefix = rprefix[::-1]
                rests = same.compare(child, after.get(prefix, 0)) if prefix else None
                if node & kwg.ACCEPTS or rests is None:  # a separator first or last is no split point
                    splits.extra += 1
                    _example(splits.extra_examples, show(rprefix + "\0"))
                    continue
                missing, extra = rests
                splits.found += same.count(child)
                splits.missing += len(missing)
                splits.extra += len(extra)
                for r in sorted(missing)[:EXAMPLES]:
                    _example(splits.missing_examples, show(prefix + "\0" + r))
                for r in sorted(extra)[:EXAMPLES]:
                    _example(splits.extra_examples, show(prefix + "\0" + r))
                after.pop(prefix, None)
                continue
            word = rprefix + chr(tile)
            if node & kwg.ACCEPTS:
                reversed_words.add(word)
            if graph.live(child):
                stack.append((child, word))
    for prefix in sorted(after)[:EXAMPLES]:  # prefixes without a separator
        _example(splits.missing_examples, show(prefix) + "·…")
    splits.missing += sum(same.count(arc) for arc in after.values())
    _known_tiles(reversed_words, lex)
    whole = _compare("reversed words (GADDAG)", {w[::-1] for w in reversed_words}, expected, show)
    return [whole, splits]


def _example(examples: list[str], text: str) -> None:
    if len(examples) < EXAMPLES:
        examples.append(text)


class _Sameness:
    """Do two sibling lists of one file hold the same suffixes? Same position, same structure
    (lists hashed bottom-up by content), or, failing both, the same listed suffixes."""

    def __init__(self, graph: kwg.Kwg) -> None:
        self.graph = graph
        self.shape: dict[int, int] = {0: 0}
        self.shapes: dict[tuple[int, ...], int] = {(): 0}
        self.counts: dict[int, int] = {0: 0}

    def _shape(self, arc: int, depth: int = 0) -> int:
        found = self.shape.get(arc)
        if found is None:
            if depth > kwg.MAX_DEPTH:
                raise ExportFormatError("the graph has a cycle")
            content = tuple(
                (n & ~kwg.ARC_MASK) << 23 | self._shape(n & kwg.ARC_MASK, depth + 1) for n in self.graph.siblings(arc)
            )
            found = self.shape[arc] = self.shapes.setdefault(content, len(self.shapes))
        return found

    def equal(self, arc: int, want: int) -> bool:
        """Whether lists ``arc`` and ``want`` are one list or have the same structure."""
        return arc == want or self._shape(arc) == self._shape(want)

    def count(self, arc: int) -> int:
        """Number of accepted paths from ``arc`` (each split point below a separator is one)."""
        found = self.counts.get(arc)
        if found is None:
            found = sum(bool(n & kwg.ACCEPTS) + self.count(n & kwg.ARC_MASK) for n in self.graph.siblings(arc))
            self.counts[arc] = found
        return found

    def compare(self, arc: int, want: int) -> tuple[set[str], set[str]] | None:
        """(missing, extra) suffixes of list ``arc`` against list ``want``."""
        if arc == want or self._shape(arc) == self._shape(want):
            return set(), set()
        have, should = set(self.graph.words(arc)), set(self.graph.words(want))
        return should - have, have - should


def _check_kad(data: bytes, lex: Lexicon) -> list[Part]:
    graph = kwg.read_kwg(data)
    if graph.has_gaddag:
        raise ExportFormatError("it has a GADDAG half, which a KAD has not")
    found = set(graph.words(graph.dawg_root))
    _known_tiles(found, lex)
    expected = {"".join(sorted(w)) for w in _tile_words(lex)}
    return [_compare("alphagrams", found, expected, _speller(lex))]


def _check_dawg(data: bytes, lex: Lexicon) -> list[Part]:
    try:
        found = set(dawg_from_bytes(data).keys())
    except (ValueError, IndexError) as e:  # IndexError: units that point outside the array
        raise ExportFormatError(f"not a DAWG-Python CompletionDAWG ({e})") from None
    ed = lex.edition
    codes = {t.code for t in ed.tiles}
    return [
        _compare(
            "words", found, set(lex.keys()), lambda k: "".join(ed.by_code[c].label if c in codes else c for c in k)
        )
    ]


def _check_txt(data: bytes, lex: Lexicon) -> list[Part]:
    text, _, _ = decode(data)  # a binary file raises SourceError: not a word list
    found: set[str] = set()
    unspellable: list[str] = []
    for word in words_of(text):
        try:
            found.add(spell(word, lex.edition).key)
        except SpellingError:
            unspellable.append(word)
    part = _compare("words", found, set(lex.keys()), lex.edition.spelling)
    part.extra += len(unspellable)
    part.extra_examples = (unspellable + part.extra_examples)[:EXAMPLES]
    part.found += len(unspellable)
    return [part]


_CHECKS = {
    "kwg": _check_kwg,
    "kwg-gaddag": _check_kwg_gaddag,
    "kad": _check_kad,
    "dawg": _check_dawg,
    "txt": _check_txt,
}
