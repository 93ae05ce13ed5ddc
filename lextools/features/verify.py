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

A GADDAG KWG that holds what it should is found so without listing a word or reading its GADDAG half
in a pass of its own: the file is read with only its DAWG half checked, which is walked together with
the lexicon's DAWG; the GADDAG half is walked a length at a time beside the DAWG half's prefixes of
that length, each list checked as it is reached. Both walks are made on arrays, a depth or a length
at a time (numpy, :mod:`lextools.features.verify_bulk`); a GADDAG walk longer than its strings' two
int64 words of tiles hold is made in Python. Anything off, and the file is read and checked in
full, then listed word by word to say what differs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any

from lextools.core import kwg
from lextools.core.edition import load_edition
from lextools.core.errors import ExportFormatError, QueryError, SourceError, SpellingError, path_text
from lextools.core.inputs import MAX_INPUT_BYTES, load_json, read_input
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
            fmt = _field(read_input(beside, MAX_MANIFEST_BYTES, gz=False), beside, "format")
        except (ValueError, UnicodeDecodeError, OSError):
            fmt = None
        if fmt in FORMATS:
            return str(fmt)
    suffix = path.suffix.lower()
    if suffix == ".kwg":
        return "kwg-gaddag" if kwg.read_kwg(data).has_gaddag else "kwg"
    if suffix in (".kad", ".dawg"):
        return suffix[1:]
    return "txt"


#: The largest manifest read (an export's is a few KB: its alphabet, its lexicon's sources and rules).
MAX_MANIFEST_BYTES = 4 * 2**20


def _field(raw: bytes, manifest: Path, name: str) -> object:
    """One field of a manifest's JSON object (None when it is no object); its nesting bounded before
    it is parsed (:func:`lextools.core.inputs.load_json`): a 200,000-deep one is refused, named."""
    info = load_json(raw, path_text(manifest))
    return info.get(name) if isinstance(info, dict) else None


def manifest_edition(path: Path) -> str | None:
    """The edition the manifest beside ``path`` names (every file export writes one), or None when there
    is no manifest; :class:`ExportFormatError` when it is there but names no edition."""
    beside = manifest_path(Path(path))
    try:
        raw = read_input(beside, MAX_MANIFEST_BYTES, gz=False)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise SourceError(f"cannot read {path_text(beside)}: {e.strerror or e}") from None
    try:
        edition = _field(raw, beside, "edition")
    except (ValueError, UnicodeDecodeError):
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


def _check_kwg(data: bytes, lex: Lexicon, graph: kwg.Kwg | None = None, fast: bool = True) -> list[Part]:
    graph = graph or kwg.read_kwg(data)
    parts = _identical_parts(graph, lex) if fast else None
    if parts is not None:
        return parts
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

    The DAWG half is walked together with the lexicon's words DAWG (:func:`verify_bulk.holds_exactly`); the
    GADDAG half by :func:`_identical_gaddag`, which needs of ``graph`` only the DAWG half checked.
    """
    # numpy: loaded when a KWG is verified, never on a look-up's path
    from lextools.features import verify_bulk  # noqa: PLC0415

    words = lex.graph
    tiles = kwg.lexicon_tiles(lex.edition)
    if not verify_bulk.holds_exactly(graph, graph.dawg_root, words.dct._units, words.guide._units, tiles):
        return None
    count = graph.counts[graph.dawg_root] if graph.dawg_root else 0
    parts = [Part("words (DAWG)", expected=count, found=count)]
    if graph.has_gaddag:
        top = max((n for n, _ in kwg.kwg_alphabet(lex.edition).numbered()), default=1)
        gaddag = _gaddag_parts(graph, count, top.bit_length())
        if gaddag is None:
            return None
        parts += gaddag
    return parts


#: What the DAWG half says of a prefix with a list after it: ``accepts | arc``, whether it is a word
#: (the accepts flag of the node before the list) and where the list is.
_CODE_MASK = kwg.ACCEPTS | kwg.ARC_MASK


@dataclass
class _Prefixes:
    """The DAWG half's prefixes of one length, each an int of ``bits`` bits per tile, its first tile
    highest: the words with no list after them, and the others with what the DAWG half says of them
    (:data:`_CODE_MASK`)."""

    leaves: set[int] = field(default_factory=set)
    inner: dict[int, int] = field(default_factory=dict)
    words: int = 0

    def moved(self, graph: kwg.Kwg, paths: list[int], accepted: int, arc: int, sameness: _Sameness) -> int | None:
        """The split points below a separator that leads to ``arc`` rather than to the DAWG half's own
        list (a file from another writer need not share it), for each prefix of ``paths``; None unless
        each has a list after it of the same structure and is a word exactly when ``accepted`` says."""
        total = 0
        for prefix in paths:
            entry = self.inner.get(prefix)
            if entry is None or entry & kwg.ACCEPTS != accepted or not sameness.equal(arc, entry & kwg.ARC_MASK):
                return None
            total += graph.counts[entry & kwg.ARC_MASK]
        return total


def _dawg_level(
    nodes: Sequence[int], groups: dict[int, list[int]], bits: int
) -> tuple[_Prefixes, dict[int, list[int]]]:
    """The DAWG half's prefixes one tile longer than those of ``groups`` (the arc of a list → the
    prefixes before it), and their groups."""
    arc_mask, code_mask, accepts, is_end = kwg.ARC_MASK, _CODE_MASK, kwg.ACCEPTS, kwg.IS_END
    grow = (1 << bits).__mul__
    found = _Prefixes()
    deeper: dict[int, list[int]] = {}
    for arc, prefixes in groups.items():
        shifted = list(map(grow, prefixes))
        while True:
            v = nodes[arc]
            longer = list(map((v >> 24).__or__, shifted))
            child = v & arc_mask
            if child:
                found.inner.update(zip(longer, repeat(v & code_mask)))
                known = deeper.get(child)
                if known is None:
                    deeper[child] = longer
                else:
                    known.extend(longer)
            else:  # the DAWG half holds the lexicon: a node without a list ends a word
                found.leaves.update(longer)
            if v & accepts:
                found.words += len(longer)
            if v & is_end:
                break
            arc += 1
    return found, deeper


def _prefix_count(nodes: Sequence[int], root: int) -> int:
    """How many prefixes the DAWG half has (its paths from the root)."""
    level, total = {root: 1} if root else {}, 0
    while level:
        deeper: dict[int, int] = {}
        for arc, paths in level.items():
            while True:
                v = nodes[arc]
                total += paths
                if v & kwg.ARC_MASK:
                    deeper[v & kwg.ARC_MASK] = deeper.get(v & kwg.ARC_MASK, 0) + paths
                if v & kwg.IS_END:
                    break
                arc += 1
        level = deeper
    return total


def _gaddag_parts(graph: kwg.Kwg, words: int, bits: int) -> list[Part] | None:
    """:func:`_identical_gaddag`'s answer, from its walk made on arrays
    (:mod:`lextools.features.verify_bulk`) unless it needs longer strings than that holds."""
    # numpy: loaded when a GADDAG is verified, never on a look-up's path
    from lextools.features import verify_bulk  # noqa: PLC0415

    splits = verify_bulk.split_points(graph, bits, _Sameness(graph).equal)
    if splits == verify_bulk.TOO_LONG:
        return _identical_gaddag(graph, words, bits)
    if splits is None or words + splits > kwg.MAX_KWG_WORDS * 16:
        return None
    return [
        Part("reversed words (GADDAG)", expected=words, found=words),
        Part("split points (GADDAG)", expected=splits, found=splits),
    ]


def _identical_gaddag(graph: kwg.Kwg, words: int, bits: int) -> list[Part] | None:
    """The GADDAG parts when the half is exactly the DAWG half's (already found identical to the
    lexicon), walked a length at a time beside the DAWG half's prefixes of that length
    (:class:`_Prefixes`), no string made: a path is an int grown by a tile at its high end, so it is
    the prefix it spells reversed, and the paths that reach one list at one length are checked together.

    A list below a path ``rev(p)`` that starts with the separator is a split point: ``p`` must have a
    list after it in the DAWG half, the separator must lead to that list (the same position, else the
    same structure), and the node before the separator must accept exactly when ``p`` is a word. Any
    other accepted path must be a word with no list after it. Every path is a different prefix, so as
    many split points and such words at each length as the DAWG half has mean every one is there.

    Only the DAWG half of ``graph`` need have been checked: each list walked here is checked as it is
    walked (tiles ascending, within the alphabet's bits), and the walk stops, None, past
    :data:`kwg.MAX_DEPTH` tiles or at more paths of one length than the DAWG half has prefixes (which
    a GADDAG of it never has), so a file with a cycle or a maze of lists of no word is read in full.
    """
    nodes = graph.nodes
    dawg = {graph.dawg_root: [0]} if graph.dawg_root else {}
    level = {nodes[1] & _CODE_MASK: [0]}  # (accepts | arc of a list) → the paths through it
    prefixes, sameness, most = _Prefixes(), _Sameness(graph), _prefix_count(nodes, graph.dawg_root)
    length = splits = split_paths = 0
    while True:
        walked = _gaddag_level(graph, level, prefixes, length * bits, bits, sameness, most)
        if walked is None or length >= kwg.MAX_DEPTH:
            return None
        level, paths = walked
        split_paths += paths
        if not level and not dawg:
            break
        prefixes, dawg = _dawg_level(nodes, dawg, bits)
        length += 1
        splits += prefixes.words * (length - 1)
    if split_paths != splits or words + splits > kwg.MAX_KWG_WORDS * 16:
        return None
    return [
        Part("reversed words (GADDAG)", expected=words, found=words),
        Part("split points (GADDAG)", expected=splits, found=splits),
    ]


def _gaddag_level(
    graph: kwg.Kwg,
    level: dict[int, list[int]],
    prefixes: _Prefixes,
    shift: int,
    bits: int,
    sameness: _Sameness,
    most: int,
) -> tuple[dict[int, list[int]], int] | None:
    """Check the GADDAG paths of one length against the DAWG half's prefixes of that length; the paths
    one tile longer (at most ``most``), grouped by the list they reach, and the split points below the
    separators met. None when anything differs."""
    split_paths = _check_level(graph, level, prefixes, sameness)
    if split_paths is None:
        return None
    deeper = _grow_level(graph.nodes, level, shift, bits, most)
    return None if deeper is None else (deeper, split_paths)


def _check_level(graph: kwg.Kwg, level: dict[int, list[int]], prefixes: _Prefixes, sameness: _Sameness) -> int | None:
    """The split points below the separators of the lists ``level`` reaches, each list's paths checked
    against the DAWG half's prefixes of their length; None when they differ."""
    nodes, counts, arc_mask, accepts = graph.nodes, graph.counts, kwg.ARC_MASK, kwg.ACCEPTS
    leaves, inner = prefixes.leaves, prefixes.inner
    found = separators = split_paths = 0
    for key, paths in level.items():
        v = nodes[key & arc_mask] if key & arc_mask else 0
        if v and not v >> 24:  # the separator: the rest of every word starting with the prefix
            if v & accepts:
                return None
            said = key & accepts | v & arc_mask  # what the DAWG half must say of each prefix
            if len(paths) == 1:
                agrees = inner.get(paths[0]) == said
            else:
                agrees = list(map(inner.get, paths)).count(said) == len(paths)
            if agrees:
                split_paths += len(paths) * counts[v & arc_mask]
            else:
                moved = prefixes.moved(graph, paths, key & accepts, v & arc_mask, sameness)
                if moved is None:
                    return None
                split_paths += moved
            separators += len(paths)
        elif key & accepts:  # an accepted path with no separator after it: a word with no list after it
            if not leaves.issuperset(paths):
                return None
            found += len(paths)
    return split_paths if found == len(leaves) and separators == len(inner) else None


def _grow_level(
    nodes: Sequence[int], level: dict[int, list[int]], shift: int, bits: int, most: int
) -> dict[int, list[int]] | None:
    """The paths of ``level`` grown by each tile of the list they reach (the separator passed), grouped
    by the node's accepts flag and list; None past ``most`` paths, or at a list whose tiles are not
    ascending or not within ``bits``."""
    arc_mask, code_mask, is_end, top = kwg.ARC_MASK, _CODE_MASK, kwg.IS_END, 1 << bits
    grow, tiles = [(t << shift).__or__ for t in range(top)], [t << shift for t in range(top)]
    deeper: dict[int, list[int]] = {}
    for key, paths in level.items():
        arc = key & arc_mask
        if arc and not nodes[arc] >> 24:  # the separator, checked
            arc = 0 if nodes[arc] & is_end else arc + 1
        if not arc:
            continue
        if len(paths) > 1:
            most = _grow_list(nodes, arc, paths, grow, deeper, most)
            if most < 0:
                return None
            continue
        path, previous = paths[0], 0  # one path, as most are: grown without a map
        while True:
            v = nodes[arc]
            tile = v >> 24
            if tile <= previous or tile >= top:
                return None
            previous, key = tile, v & code_mask
            if key:  # a node that neither accepts nor leads anywhere ends nothing
                most -= 1
                known = deeper.get(key)
                if known is None:
                    deeper[key] = [tiles[tile] | path]
                else:
                    known.append(tiles[tile] | path)
            if v & is_end:
                break
            arc += 1
        if most < 0:
            return None
    return deeper


def _grow_list(
    nodes: Sequence[int], arc: int, paths: list[int], grow: list[Any], deeper: dict[int, list[int]], most: int
) -> int:
    """:func:`_grow_level` for one list reached by several paths: how many more paths ``deeper`` may
    take of the ``most`` it could, or -1."""
    code_mask, is_end, top, count = _CODE_MASK, kwg.IS_END, len(grow), len(paths)
    previous = 0
    while True:
        v = nodes[arc]
        tile = v >> 24
        if tile <= previous or tile >= top:
            return -1
        previous = tile
        key = v & code_mask
        if key:  # a node that neither accepts nor leads anywhere ends nothing
            most -= count
            if most < 0:
                return -1
            known = deeper.get(key)
            if known is None:
                deeper[key] = list(map(grow[tile], paths))
            else:
                known.extend(map(grow[tile], paths))
        if v & is_end:
            return most
        arc += 1


def _check_kwg_gaddag(data: bytes, lex: Lexicon) -> list[Part]:
    try:  # a file that holds what it should, read with only its DAWG half checked: the GADDAG walk checks the rest
        graph = kwg.read_kwg(data, gaddag=False)
        parts = _identical_parts(graph, lex) if graph.has_gaddag else None
    except (ExportFormatError, IndexError):  # read in full below, which says what is wrong
        parts = None
    if parts is not None:
        return parts
    graph = kwg.read_kwg(data)
    if not graph.has_gaddag and (graph.dawg_root or not graph.reserves_gaddag):  # empty lexicon: both empty
        raise ExportFormatError("it has no GADDAG half (node 1 is not a GADDAG root)")
    return _check_kwg(data, lex, graph, fast=False)


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
