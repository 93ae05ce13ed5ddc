"""Bundles for game engines: ``lextools export E --for ENGINE -o DIR`` writes the files an engine loads
as they come, under the names it looks for, with a README of the commands that load them.

What each engine reads was taken from its own code (the commits are named in docs/formats.md):

- **MAGPIE** (jvc56/MAGPIE) reads a data directory: ``lexica/NAME.kwg`` (GADDAG + DAWG),
  ``lexica/NAME.klv2`` (leave values; it refuses to start without), ``letterdistributions/LD.csv``
  (``letter,lower case,count,score,is vowel``; row n is tile n, the blank first) and
  ``layouts/standard15.txt`` (the board). It picks the alphabet from the lexicon name's prefix and
  accepts a letter distribution only if its name starts with that alphabet's name (``english``,
  ``french`` …); it knows no Spanish prefix, so a Spanish lexicon is named ``FRA_…`` and its
  distribution ``french_…`` — only names: the tiles are the edition's, given with ``-ld``.
- **Macondo** (domino14/macondo, through word-golib) reads ``lexica/gaddag/NAME.kwg`` (NAME in capitals,
  as its shell writes it), ``lexica/gaddag/NAME.klv2`` (leaves, beside it) and ``letterdistributions/name`` (no suffix;
  ``letter,count,score,is vowel``, digraphs in brackets); ``set lexicon NAME DIST`` names both.
- **wolges** (andy-k/wolges) loads a KWG and a KLV2 by path; its alphabets are compiled in, and its
  ``buildlex custom-…`` reads an alphabet file (``label blank-label count score vowel n aliases… n
  blank-aliases…``), which this bundle holds.
- **Quackle** imports a word list (one word a line) against an alphabet file
  (``text blank-text score count vowel``, then ``blank score count``); it reads a word greedily, so
  a digraph tile is written ``[CH]``, which no single letter begins.
- **Zyzzyva** imports a word list of one character per tile (its letter values are built in): the
  digit notation (1 = CH, 2 = LL, 3 = RR) for an edition with digraph tiles.

The tile numbers are the edition's KWG alphabet (``lextools/core/kwg_alphabets.json``); a number the
edition leaves unused gets a row of count 0 (``_4``) so that the rows keep the numbering. Counts and
scores are the edition's (``lextools editions``); an edition whose counts are not known (es-mattel2021)
has no bundle for an engine that needs them. The vowels are A E I O U, as the engines' own English,
French and Spanish distributions mark them. Leaves are written empty (a KLV2 of no leave, as wolges'
``EMPTY_KLV_BYTES``): every leave is worth 0, so moves are ranked by score.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from lextools.core import kwg
from lextools.core.errors import ExportFormatError, path_text
from lextools.core.lexicon import Lexicon
from lextools.core.output_files import Commit, tool_versions
from lextools.core.spelling import Notation
from lextools.features.export import export_bytes, manifest, text_lines

ENGINES = ("magpie", "macondo", "wolges", "quackle", "zyzzyva")
BUNDLE_VERSION = 1
VOWELS = frozenset("AEIOU")
#: A KLV2 holding no leave (wolges' ``EMPTY_KLV_BYTES``): a KWG of one node, then 0 values.
EMPTY_KLV2 = b"\x01\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00"
#: MAGPIE's lexicon-name prefix and letter-distribution name, by language (its
#: ``ld_get_type_from_lex_name``: CEL is English, FRA French; there is no Spanish one).
MAGPIE_NAMES = {"en": ("CEL", "english"), "fr": ("FRA", "french"), "es": ("FRA", "french")}
#: Macondo's prefixes (word-golib's ``ProbableLetterDistributionName``: FILE is Spanish); the
#: distribution is named explicitly anyway.
MACONDO_PREFIX = {"en": "CEL", "fr": "FRA", "es": "FILE"}
#: The standard 15×15 board in MAGPIE's layout format: the start square, then a row a line
#: (``=`` triple word, ``-`` double word, ``"`` triple letter, ``'`` double letter).
STANDARD15 = "\n".join(
    [
        "7,7",
        "=  '   =   '  =",
        ' -   "   "   - ',
        "  -   ' '   -  ",
        "'  -   '   -  '",
        "    -     -    ",
        ' "   "   "   " ',
        "  '   ' '   '  ",
        "=  '   -   '  =",
        "  '   ' '   '  ",
        ' "   "   "   " ',
        "    -     -    ",
        "'  -   '   -  '",
        "  -   ' '   -  ",
        ' -   "   "   - ',
        "=  '   =   '  =",
    ]
)


@dataclass(frozen=True)
class Row:
    """One tile number of the KWG alphabet: its label (None for a number the edition leaves unused)."""

    number: int
    label: str | None
    count: int
    score: int

    @property
    def blank(self) -> bool:
        return self.number == 0

    def text(self, brackets: bool) -> str:
        """The label as the engine reads it: ``?`` for the blank, ``_N`` for an unused number."""
        if self.blank:
            return "?"
        if self.label is None:
            return f"_{self.number}"
        return f"[{self.label}]" if brackets and len(self.label) > 1 else self.label

    @property
    def vowel(self) -> int:
        return int(self.label in VOWELS)


@dataclass
class Bundle:
    """What ``write_bundle`` writes: files by path relative to the bundle directory."""

    engine: str
    edition: str
    lexicon_name: str
    letter_distribution: str | None
    files: dict[str, bytes] = field(default_factory=dict)
    kwg_manifest: dict[str, Any] = field(default_factory=dict)


def rows(lex: Lexicon, engine: str) -> list[Row]:
    """The tile rows in KWG numbering, the blank first, refused if a count or score is not known."""
    ed = lex.edition
    missing = [t.label for t in ed.tiles if t.count is None or t.value is None]
    if missing or ed.blanks is None:
        raise ExportFormatError(
            f"{ed.name}: {engine} needs the count and score of every tile, and the edition does not give them "
            f"({ed.unverified or ', '.join(missing)}); --for zyzzyva needs neither"
        )
    out = [Row(0, None, ed.blanks, 0)]
    for number, label in enumerate(kwg.kwg_alphabet(ed).labels[1:], start=1):
        tile = ed.by_label[label] if label is not None else None
        out.append(Row(number, label, tile.count or 0, tile.value or 0) if tile else Row(number, None, 0, 0))
    return out


def language(lex: Lexicon) -> str:
    return lex.edition.language if lex.edition.language in MAGPIE_NAMES else "en"


def magpie_csv(table: list[Row]) -> str:
    """MAGPIE's letter distribution: ``letter,lower case,count,score,is vowel``, a row per tile number."""
    return "".join(f"{r.text(False)},{r.text(False).lower()},{r.count},{r.score},{r.vowel}\n" for r in table)


def macondo_csv(table: list[Row]) -> str:
    """Macondo's (word-golib's) letter distribution: ``letter,count,score,is vowel``, digraphs in brackets."""
    return "".join(f"{r.text(True)},{r.count},{r.score},{r.vowel}\n" for r in table)


def wolges_alphabet(lex: Lexicon, table: list[Row]) -> str:
    """wolges' alphabet file: label, blank label, count, score, vowel, aliases (a digraph's digit), blank aliases."""
    lines = []
    for r in table:
        code = lex.edition.by_label[r.label].code if r.label else ""
        aliases = f"1 {code}" if r.label and code != r.label else "0"
        lines.append(f"{r.text(True)}\t{r.text(True).lower()}\t{r.count}\t{r.score}\t{r.vowel}\t{aliases}\t0\n")
    return "".join(lines)


def quackle_alphabet(lex: Lexicon) -> str:
    """Quackle's alphabet file: ``text blank-text score count vowel`` a letter, then ``blank score count``."""
    ed = lex.edition
    lines = [f"# {ed.title}: lextools' tiles, counts and scores\n"]
    for label in ed.alphabet:
        tile = ed.by_label[label]
        text = f"[{label}]" if len(label) > 1 else label
        lines.append(f"{text}\t{text.lower()}\t{tile.value}\t{tile.count}\t{int(label in VOWELS)}\n")
    lines.append(f"blank\t0\t{ed.blanks}\n")
    return "".join(lines)


def _gaddag(lex: Lexicon, home: Path, pause: kwg.Pause) -> tuple[bytes, Callable[[str], dict[str, Any]]]:
    data = export_bytes(lex, "kwg-gaddag", home=home, pause=pause)
    return data, lambda name: manifest(lex, "kwg-gaddag", data, name)


def _stem(lex: Lexicon) -> str:
    """LEXTOOLS_ES_FISE: the part of a name that says whose lexicon it is (letters, digits and _ only)."""
    return "LEXTOOLS_" + lex.edition.name.upper().replace("-", "_")


def _words(lex: Lexicon, notation: Notation) -> bytes:
    return "".join(text_lines(lex, notation)).encode("utf-8")


def magpie_bundle(lex: Lexicon, home: Path, pause: kwg.Pause = None) -> Bundle:
    """A directory to run MAGPIE in: MAGPIE reads ``./data`` (its board layout before any option)."""
    table = rows(lex, "MAGPIE")
    prefix, ld_type = MAGPIE_NAMES[language(lex)]
    name, ld = f"{prefix}_{_stem(lex)}", f"{ld_type}_{_stem(lex).lower()}"
    data, describe = _gaddag(lex, home, pause)
    b = Bundle("magpie", lex.edition.name, name, ld, kwg_manifest=describe(f"data/lexica/{name}.kwg"))
    b.files[f"data/lexica/{name}.kwg"] = data
    b.files[f"data/lexica/{name}.klv2"] = EMPTY_KLV2
    b.files[f"data/letterdistributions/{ld}.csv"] = magpie_csv(table).encode("utf-8")
    b.files["data/layouts/standard15.txt"] = (STANDARD15 + "\n").encode("ascii")
    return b


def macondo_bundle(lex: Lexicon, home: Path, pause: kwg.Pause = None) -> Bundle:
    table = rows(lex, "Macondo")
    name, ld = f"{MACONDO_PREFIX[language(lex)]}_{_stem(lex)}", _stem(lex).lower()
    data, describe = _gaddag(lex, home, pause)
    b = Bundle("macondo", lex.edition.name, name, ld, kwg_manifest=describe(f"lexica/gaddag/{name}.kwg"))
    b.files[f"lexica/gaddag/{name}.kwg"] = data
    b.files[f"lexica/gaddag/{name}.klv2"] = EMPTY_KLV2
    b.files[f"letterdistributions/{ld}"] = macondo_csv(table).encode("utf-8")
    return b


def wolges_bundle(lex: Lexicon, home: Path, pause: kwg.Pause = None) -> Bundle:
    table = rows(lex, "wolges")
    name = lex.edition.name
    data, describe = _gaddag(lex, home, pause)
    b = Bundle("wolges", name, name, f"{name}.alphabet.txt", kwg_manifest=describe(f"{name}.kwg"))
    b.files[f"{name}.kwg"] = data
    b.files[f"{name}.klv2"] = EMPTY_KLV2
    b.files[f"{name}.alphabet.txt"] = wolges_alphabet(lex, table).encode("utf-8")
    return b


def quackle_bundle(lex: Lexicon, home: Path, pause: kwg.Pause = None) -> Bundle:
    rows(lex, "Quackle")  # refuses an edition without counts and scores
    name = _stem(lex).lower()  # Quackle's alphabet name ends at the first '.'
    words = _words(lex, "brackets")
    b = Bundle(
        "quackle", lex.edition.name, name, name, kwg_manifest=manifest(lex, "txt", words, f"{name}.txt", "brackets")
    )
    b.files[f"{name}.txt"] = words
    b.files[f"{name}.quackle_alphabet"] = quackle_alphabet(lex).encode("utf-8")
    return b


def zyzzyva_bundle(lex: Lexicon, home: Path, pause: kwg.Pause = None) -> Bundle:
    notation: Notation = "digits" if any(len(t.label) > 1 for t in lex.edition.tiles) else "plain"
    name = f"lextools-{lex.edition.name}"
    words = _words(lex, notation)
    b = Bundle(
        "zyzzyva", lex.edition.name, name, None, kwg_manifest=manifest(lex, "txt", words, f"{name}.txt", notation)
    )
    b.files[f"{name}.txt"] = words
    return b


BUILDERS: dict[str, Callable[[Lexicon, Path, kwg.Pause], Bundle]] = {
    "magpie": magpie_bundle,
    "macondo": macondo_bundle,
    "wolges": wolges_bundle,
    "quackle": quackle_bundle,
    "zyzzyva": zyzzyva_bundle,
}


def bundle(lex: Lexicon, engine: str, home: Path, pause: kwg.Pause = None) -> Bundle:
    """The files of ``engine``'s bundle of ``lex`` (made from the lexicon directory ``home``), README included."""
    if engine not in BUILDERS:
        raise ExportFormatError(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
    b = BUILDERS[engine](lex, home, pause)
    b.files["README.md"] = READMES[engine](lex, b).encode("utf-8")
    return b


# -- the READMEs: what each file is and the commands that load it ------------------------------------
# The prose is Markdown in engine_readmes/ENGINE.md (package data, read through importlib.resources),
# filled by str.format_map; each template lists its placeholders in the HTML comment it starts with.
# Here stays only what is computed: names, the tiles, the sentences that depend on the edition.

#: A rack to try, typed as every engine types it (a digraph tile in brackets: [CH]).
EXAMPLE_RACK = "AEILNRS"
#: What ends a template's opening comment, which the README does not get.
_COMMENT_END = "-->\n"


def _render(engine: str, **values: str) -> str:
    """``engine_readmes/ENGINE.md`` without its opening comment, its placeholders filled."""
    text = resources.files("lextools.features").joinpath("engine_readmes", f"{engine}.md").read_text("utf-8")
    comment, end, body = text.partition(_COMMENT_END)
    if not (comment.startswith("<!--") and end):
        raise ValueError(f"engine_readmes/{engine}.md does not start with its comment of placeholders")
    return body.format_map(values)


def _header(lex: Lexicon, b: Bundle, engine: str) -> str:
    version = tool_versions().get("lextools", "unknown")
    return (
        f"# {lex.edition.name} for {engine}\n\n"
        f"Made by `lextools export {lex.edition.name} --for {b.engine}` (lextools {version}) from the "
        f"{lex.edition.name} lexicon: {len(lex):,} words, checksum `{lex.checksum[:16]}…`. "
        "`bundle.json` lists every file with its size and sha256."
    )


def _tiles_line(lex: Lexicon) -> str:
    ed = lex.edition
    tiles = ", ".join(
        f"{t.label} {t.count}×{t.value}" for t in sorted(ed.tiles, key=lambda t: ed.alphabet.index(t.label))
    )
    return f"The tiles (count × score), as `lextools editions` lists them: {tiles}; {ed.blanks} blanks."


def magpie_readme(lex: Lexicon, b: Bundle) -> str:
    prefix, ld_type = MAGPIE_NAMES[language(lex)]
    spanish = " MAGPIE has no Spanish prefix: FRA is only the name it accepts." if language(lex) == "es" else ""
    return _render(
        "magpie",
        header=_header(lex, b, "MAGPIE"),
        name=b.lexicon_name,
        ld=b.letter_distribution or "",
        prefix=prefix,
        ld_type=ld_type,
        spanish_note=spanish,
        tiles=_tiles_line(lex),
        rack=EXAMPLE_RACK,
    )


def macondo_readme(lex: Lexicon, b: Bundle) -> str:
    name = b.lexicon_name
    return _render(
        "macondo",
        header=_header(lex, b, "Macondo"),
        name=name,
        prefix=name.split("_")[0],
        ld=b.letter_distribution or "",
        tiles=_tiles_line(lex),
        rack=EXAMPLE_RACK,
    )


def wolges_readme(lex: Lexicon, b: Bundle) -> str:
    name = b.lexicon_name
    own = kwg.kwg_alphabet(lex.edition).wolges
    if own:
        game_config = f"let game_config = game_config::make_{own}_game_config();"
        note = (
            f"The tile numbers are wolges' own {own} alphabet, and `{name}.alphabet.txt` is that alphabet with "
            "this edition's counts and scores."
        )
    else:
        game_config = (
            f'let text = std::fs::read_to_string("{name}.alphabet.txt")?;\n'
            "let alphabet = alphabet::Alphabet::new_static_from_text(&text)?;"
        )
        note = (
            "wolges has no alphabet for this edition: its game configurations are compiled in, so give one "
            f"the alphabet of `{name}.alphabet.txt` (a row of count 0, `_N`, keeps an unused tile number)."
        )
    return _render(
        "wolges",
        header=_header(lex, b, "wolges"),
        name=name,
        tiles=_tiles_line(lex),
        game_config=game_config,
        alphabet_note=note,
    )


def quackle_readme(lex: Lexicon, b: Bundle) -> str:
    return _render("quackle", header=_header(lex, b, "Quackle"), name=b.lexicon_name, tiles=_tiles_line(lex))


def zyzzyva_readme(lex: Lexicon, b: Bundle) -> str:
    digits = [t for t in lex.edition.tiles if len(t.label) > 1]
    note = (
        "\n\nThe tiles of two letters are digits, as FISE's lists write them: "
        + ", ".join(f"{t.code} = {t.label}" for t in digits)
        + " (type them so in Zyzzyva's searches)."
        if digits
        else ""
    )
    return _render("zyzzyva", header=_header(lex, b, "Zyzzyva"), name=b.lexicon_name, digits_note=note)


READMES: dict[str, Callable[[Lexicon, Bundle], str]] = {
    "magpie": magpie_readme,
    "macondo": macondo_readme,
    "wolges": wolges_readme,
    "quackle": quackle_readme,
    "zyzzyva": zyzzyva_readme,
}


def bundle_manifest(lex: Lexicon, b: Bundle) -> dict[str, Any]:
    """``bundle.json``: the engine, the names to give it, and each file's size and sha256."""
    files = [
        {"name": path, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        for path, data in sorted(b.files.items())
    ]
    return {
        "bundle_version": BUNDLE_VERSION,
        "engine": b.engine,
        "edition": b.edition,
        "lexicon_name": b.lexicon_name,
        "letter_distribution": b.letter_distribution,
        "words": len(lex),
        "files": files,
        "word_list": b.kwg_manifest,
    }


def write_bundle(lex: Lexicon, engine: str, out_dir: Path, home: Path, pause: kwg.Pause = None) -> dict[str, Any]:
    """Write the bundle into ``out_dir`` (made if missing), every file or none; return its ``bundle.json``."""
    if out_dir.exists() and not out_dir.is_dir():
        raise ExportFormatError(f"{path_text(out_dir)}: not a directory; --for writes a directory of files")
    b = bundle(lex, engine, home, pause)
    info = bundle_manifest(lex, b)
    with Commit() as commit:
        for rel, data in sorted(b.files.items()):
            path = out_dir / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            commit.add(path, data)
        commit.add(out_dir / "bundle.json", (json.dumps(info, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
        commit.done()
    return info
