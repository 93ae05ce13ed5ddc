"""Exports of a built lexicon for other programs, and the manifest that describes each one.

Formats (``FORMATS``, the one list the CLI and the service's OpenAPI document read):

    txt          one word per line, in the edition's alphabetical order, in a notation
    dawg         the words DAWG exactly as built (DAWG-Python ``CompletionDAWG``, digit-notation keys)
    kwg          DAWG-only KWG (wolges' format; see :mod:`lextools.core.kwg`)
    kwg-gaddag   combined GADDAG + DAWG KWG, what move generators load
    kad          the alphagrams' DAWG in KWG nodes (node 0 its root)

The manifest (``FILE.manifest.json`` beside a file export, ``GET /v1/{edition}/manifest`` in the
service) is everything another program needs to load the file without reading lextools: the format
and its layout, the alphabet (tile number or key character, label, other spellings, count, score),
the word and node counts, the sha256 of the file, and where the lexicon came from (its checksum,
sources, rules and the tools that built it).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lextools.core import kwg, search
from lextools.core.errors import CorruptLexiconError, ExportFormatError
from lextools.core.lexicon import Lexicon
from lextools.core.output_files import atomic_write, tool_versions
from lextools.core.spelling import NOTATIONS, Notation, write

FORMATS = ("txt", "dawg", "kwg", "kwg-gaddag", "kad")
BINARY_FORMATS = ("dawg", "kwg", "kwg-gaddag", "kad")
#: The formats written as KWG nodes (and numbered with the edition's KWG alphabet).
KWG_FORMATS = ("kwg", "kwg-gaddag", "kad")
MANIFEST_VERSION = 1
#: What each format holds, for people reading a manifest.
DESCRIPTIONS = {
    "txt": "one word per line, UTF-8, in the edition's alphabetical order",
    "dawg": "DAWG-Python CompletionDAWG (dawgdic layout) of lexicon keys, one character per tile",
    "kwg": (
        "KWG (wolges): little-endian u32 nodes; node 0's arc is the DAWG root, node 1 an empty GADDAG (arc 0), "
        "as wolges writes a DAWG-only file"
    ),
    "kwg-gaddag": "KWG (wolges): little-endian u32 nodes; node 0's arc is the DAWG root, node 1's the GADDAG root",
    "kad": "KAD (wolges): a DAWG-only KWG of the alphagrams, tiles sorted by tile number",
}
SUFFIXES = {"txt": ".txt", "dawg": ".dawg", "kwg": ".kwg", "kwg-gaddag": ".kwg", "kad": ".kad"}


def check_format(fmt: str, notation: str = "plain") -> None:
    if fmt not in FORMATS:
        raise ExportFormatError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if notation not in NOTATIONS:
        raise ExportFormatError(f"unknown notation {notation!r}; use one of {', '.join(NOTATIONS)}")


def text_lines(lex: Lexicon, notation: Notation = "plain") -> Iterator[str]:
    """The words in the edition's alphabetical order, each ending in a newline."""
    ed = lex.edition
    return (write(ed.decode(k), ed, notation) + "\n" for k in search.export_order(lex))


def export_bytes(
    lex: Lexicon, fmt: str, notation: Notation = "plain", home: Path | None = None, pause: kwg.Pause = None
) -> bytes:
    """The export as bytes. All but ``txt`` are made from the words DAWG file in the lexicon directory
    ``home`` (``dawg`` is a copy of it; a KWG reads its automaton instead of listing the words).
    ``pause`` is called every millisecond or so of KWG work (see lextools.core.kwg)."""
    check_format(fmt, notation)
    if fmt == "txt":
        return "".join(text_lines(lex, notation)).encode("utf-8")
    if home is None:
        raise ExportFormatError(f"the {fmt} export is made from the lexicon directory, and none was given")
    data = words_dawg(lex, Path(home))
    if fmt == "dawg":
        return data
    if fmt == "kad":
        return kwg.encode_lexicon_kad(data, lex.edition, pause)
    return kwg.encode_lexicon(data, lex.edition, gaddag=fmt == "kwg-gaddag", pause=pause)


def words_dawg(lex: Lexicon, home: Path) -> bytes:
    """The bytes of the words DAWG ``lex`` was loaded from (its sha256 is the lexicon checksum)."""
    try:
        data = (home / str(lex.metadata["files"]["words"]["name"])).read_bytes()
    except FileNotFoundError:  # a rebuild removed the generation that was loaded
        data = b""
    if hashlib.sha256(data).hexdigest() != lex.checksum:
        raise CorruptLexiconError(f"{lex.edition.name}: the lexicon was rebuilt meanwhile; try again")
    return data


def export_name(edition: str, fmt: str, notation: str = "plain") -> str:
    """The file name the service sends an export under (es-fise-gaddag.kwg, es-fise-digits.txt)."""
    stem = {"kwg-gaddag": f"{edition}-gaddag", "txt": f"{edition}-{notation}"}.get(fmt, edition)
    return stem + SUFFIXES[fmt]


def alphabet_table(lex: Lexicon, fmt: str) -> dict[str, Any]:
    """The tiles as the file numbers (KWG/KAD) or spells (dawg, txt) them, with counts and scores."""
    ed = lex.edition
    blank = {"label": "?", "aliases": [], "blank": True, "count": ed.blanks, "score": 0}
    if fmt in KWG_FORMATS:
        alphabet = kwg.kwg_alphabet(ed)
        tiles = [{"tile": 0, **blank}]
        for number, label in alphabet.numbered():
            tiles.append({"tile": number, **_tile_facts(lex, label)})
        return {
            "name": alphabet.name,
            "wolges": alphabet.wolges,
            "unused_numbers": [n for n, label in enumerate(alphabet.labels) if label is None],
            "tiles": tiles,
        }
    key = [{"key": ed.by_label[label].code, **_tile_facts(lex, label)} for label in ed.alphabet]
    return {"name": f"lextools-{ed.name}", "wolges": None, "unused_numbers": [], "tiles": [{"key": "?", **blank}, *key]}


def _tile_facts(lex: Lexicon, label: str) -> dict[str, Any]:
    tile = lex.edition.by_label[label]
    aliases = [tile.code, f"[{label}]"] if len(label) > 1 else []
    return {"label": label, "aliases": aliases, "blank": False, "count": tile.count, "score": tile.value}


def default_cache() -> Path:
    """Where the service keeps the exports it made: ``$LEXTOOLS_CACHE``, else the per-user cache
    directory (XDG), ``lextools/exports`` in it."""
    if os.environ.get("LEXTOOLS_CACHE"):
        return Path(os.environ["LEXTOOLS_CACHE"])
    cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache_home) / "lextools" / "exports"


def layout(fmt: str, data: bytes, notation: str) -> dict[str, Any]:
    if fmt == "txt":
        return {"encoding": "utf-8", "line_end": "\n", "notation": notation}
    if fmt == "dawg":
        return {"reader": "DAWG-Python CompletionDAWG", "key": "one character per tile (see alphabet.tiles.key)"}
    return {
        "node_bytes": 4,
        "byte_order": "little",
        "nodes": len(data) // 4,
        "tile": "node >> 24",
        "accepts": "node & 0x800000",
        "is_end": "node & 0x400000",
        "arc": "node & 0x3fffff",
        "dawg_root": "node 0",
        "gaddag_root": {"kwg-gaddag": "node 1", "kwg": "node 1, empty (arc 0)"}.get(fmt),
        "gaddag_separator": 0 if fmt == "kwg-gaddag" else None,
    }


def manifest(lex: Lexicon, fmt: str, data: bytes, name: str, notation: str = "plain") -> dict[str, Any]:
    """The manifest of one export (see the module docstring)."""
    meta = lex.metadata
    return {
        "manifest_version": MANIFEST_VERSION,
        "format": fmt,
        "description": DESCRIPTIONS[fmt],
        "layout": layout(fmt, data, notation),
        "edition": lex.edition.name,
        "alphabet": alphabet_table(lex, fmt),
        "words": len(lex),
        "files": [{"name": name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}],
        "lexicon": {
            "checksum": lex.checksum,
            "built": meta.get("built"),
            "sources": [{k: v for k, v in s.items() if k != "path"} for s in meta.get("sources", [])],
            "filters": meta.get("filters", []),
            "tools": meta.get("tools", {}),
        },
        "exported_with": tool_versions(),
    }


def manifest_path(path: Path) -> Path:
    return path.with_name(path.name + ".manifest.json")


def write_export(
    lex: Lexicon, fmt: str, path: Path, notation: Notation = "plain", home: Path | None = None
) -> dict[str, Any]:
    """Write the export to ``path`` and its manifest beside it, each atomically; return the manifest."""
    data = export_bytes(lex, fmt, notation, home)
    info = manifest(lex, fmt, data, path.name, notation)
    atomic_write(path, data)
    # a source's file name that is not UTF-8 (a surrogate) is written as its JSON escape (\udcd3)
    text = json.dumps(info, ensure_ascii=False, indent=1) + "\n"
    atomic_write(manifest_path(path), text.encode("utf-8", "backslashreplace"))
    return info
