"""Files for other programs: ``export`` a lexicon (text, DAWG, KWG, KAD, or a bundle for a game engine) and
``verify`` an export against it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, cast

import typer
from rich.table import Table

from lextools.cli.common import EditionArg, JsonOpt, LexiconsOpt, err, home, open_lexicon, out, print_json
from lextools.cli.language import LangOpt, language_of, number, say
from lextools.core.errors import LexiconError, path_text
from lextools.core.lexicon import Lexicon
from lextools.core.spelling import Notation
from lextools.features.engine_bundles import ENGINES, write_bundle
from lextools.features.export import KWG_FORMATS, check_format, export_bytes, text_lines, write_export
from lextools.features.verify import edition_to_verify
from lextools.features.verify import verify as verify_file

app = typer.Typer()

#: The parts a verdict names (its JSON's keys), and the message that names each in a person's language.
PART_NAMES = {
    "words": "part_words",
    "words (DAWG)": "part_words_dawg",
    "reversed words (GADDAG)": "part_reversed_gaddag",
    "split points (GADDAG)": "part_split_points_gaddag",
    "alphagrams": "part_alphagrams",
}


FormatOpt = Annotated[
    str,
    typer.Option(
        "--format", help="txt, dawg (as built), kwg (wolges' word graph; DAWG only unless --gaddag) or kad (alphagrams)"
    ),
]
GaddagOpt = Annotated[
    bool, typer.Option("--gaddag", help="kwg: the combined GADDAG + DAWG file, which move generators need.")
]
NotationOpt = Annotated[str, typer.Option(help="plain, digits (1=CH 2=LL 3=RR) or brackets ([CH])")]
EngineOpt = Annotated[
    str | None,
    typer.Option(
        "--for",
        help=f"Write into the directory --output what the engine loads, named as it expects, with a README: "
        f"{', '.join(ENGINES)}.",
    ),
]
OutputOpt = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        help="File to write, with FILE.manifest.json beside it; - for stdout (with --for: the directory)",
    ),
]


@app.command()
def export(
    edition: EditionArg,
    format: FormatOpt = "txt",
    gaddag: GaddagOpt = False,
    notation: NotationOpt = "plain",
    engine: EngineOpt = None,
    output: OutputOpt = None,
    lang: LangOpt = None,
    lexicons: LexiconsOpt = None,
) -> None:
    """Export the word list: text (Zyzzyva, FISE digits, wolges brackets), the DAWG, a KWG or KAD, or
    with --for the files a game engine loads (MAGPIE, Macondo, wolges, Quackle, Zyzzyva).

    Without --output, the text goes to standard output when it is piped or redirected; to a terminal,
    it is refused (exit 2), saying how to write it instead: -o FILE, a pipe, or -o - to see it all.
    """
    if engine is not None:
        _bundle(edition, engine, output, lang, lexicons, plain=format == "txt" and not gaddag and notation == "plain")
        return
    if gaddag and format not in ("kwg", "kwg-gaddag"):
        raise LexiconError("--gaddag goes with --format kwg")
    fmt = "kwg-gaddag" if gaddag else format
    check_format(fmt, notation)
    written = cast(Notation, notation)  # check_format refused any other
    to_stdout = output is None or str(output) == "-"
    if output is not None and not to_stdout and output.is_dir():
        raise LexiconError(f"{path_text(output)}: is a directory; --output names the file to write")
    if output is None and fmt != "txt":
        raise LexiconError(f"{fmt} is binary: give --output FILE, or --output - to write it to stdout")
    lex = open_lexicon(edition, lexicons)
    told = language_of(lang, lex.edition)
    if fmt == "kwg":
        err.print(say(told, "export_dawg_only"), style="yellow", highlight=False, markup=False)
    if output is None and sys.stdout.isatty():  # a whole lexicon scrolling past helps no one
        pipe = f"lextools export {edition} | less"
        raise LexiconError(say(told, "export_to_terminal", words=number(len(lex), told), pipe=pipe))
    if output is None or to_stdout:
        _to_stdout(lex, fmt, written, home(lexicons))
    elif output.exists() and not output.is_file():  # a device or a pipe is written to, never replaced
        _to_device(output, lambda: export_bytes(lex, fmt, written, home(lexicons)))
    else:
        _to_file(lex, fmt, output, written, home(lexicons), told)


def _to_file(lex: Lexicon, fmt: str, output: Path, notation: Notation, lexicon_dir: Path, told: str) -> None:
    with err.status(say(told, "export_working", edition=lex.edition.name, format=fmt)):
        info = write_export(lex, fmt, output, notation, lexicon_dir)
    nodes = say(told, "export_nodes", nodes=number(info["layout"]["nodes"], told)) if fmt in KWG_FORMATS else ""
    wrote = say(
        told,
        "export_wrote",
        file=path_text(output),
        words=number(info["words"], told),
        bytes=number(info["files"][0]["bytes"], told),
        nodes=nodes,
    )
    err.print(wrote, style="green", highlight=False, markup=False)


def _bundle(
    edition: str, engine: str, output: Path | None, lang: str | None, lexicons: Path | None, plain: bool
) -> None:
    """``export --for ENGINE -o DIR``: the engine's files in DIR, and what to run next."""
    if engine not in ENGINES:
        raise LexiconError(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
    if not plain:
        raise LexiconError(
            "--for writes each file in the format its engine reads: leave out --format, --gaddag and --notation"
        )
    if output is None or str(output) == "-":
        raise LexiconError("--for writes several files: give --output DIR, a directory")
    lex = open_lexicon(edition, lexicons)
    told = language_of(lang, lex.edition)
    with err.status(say(told, "export_bundle_working", edition=edition, engine=engine)):
        info = write_bundle(lex, engine, output, home(lexicons))
    wrote = say(
        told,
        "export_bundle_wrote",
        dir=path_text(output),
        files=len(info["files"]),
        engine=engine,
        words=number(info["words"], told),
        readme=path_text(output / "README.md"),
    )
    err.print(wrote, style="green", highlight=False, markup=False)


def _to_stdout(lex: Lexicon, fmt: str, notation: Notation, lexicon_dir: Path) -> None:
    if fmt == "txt":
        sys.stdout.writelines(text_lines(lex, notation))
    else:
        sys.stdout.buffer.write(export_bytes(lex, fmt, notation, lexicon_dir))
        sys.stdout.buffer.flush()


def _to_device(output: Path, data: Callable[[], bytes]) -> None:
    """Write to a device or a pipe (never replaced, unlike a file), and name it in an error of the write."""
    try:
        with output.open("wb") as f:
            f.write(data())
    except OSError as e:  # the error of a buffered write names no file
        raise OSError(e.errno, e.strerror, os.fspath(output)) from None


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="A KWG, KAD, DAWG or text export.")],
    edition: Annotated[
        str | None,
        typer.Option(
            "--edition", "-e", help="Edition whose lexicon the file should hold [default: as FILE.manifest.json says]."
        ),
    ] = None,
    format: Annotated[
        str | None,
        typer.Option("--format", help="txt, dawg, kwg, kwg-gaddag or kad (default: as its manifest or suffix says)"),
    ] = None,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check an export word for word against the lexicon: 0 identical, 1 different, 2 not of its format.

    The edition is the one named by the manifest beside the file (FILE.manifest.json, written by every
    export); --edition is needed only for a file without one, and must agree with it.
    """
    edition = edition_to_verify(file, edition)
    lex = open_lexicon(edition, lexicons)
    told = language_of(lang, lex.edition)
    with err.status(say(told, "verify_reading", file=file, edition=edition)):
        verdict = verify_file(file, lex, format)
    if as_json:
        print_json(verdict.as_dict())
    else:
        columns = ("part", "expected", "found", "missing", "extra", "examples")
        table = Table(*(say(told, f"column_{c}") for c in columns), title=f"{file} ({verdict.format})")
        for p in verdict.parts:
            examples = " ".join([*(f"-{w}" for w in p.missing_examples[:5]), *(f"+{w}" for w in p.extra_examples[:5])])
            counts = (number(n, told) for n in (p.expected, p.found, p.missing, p.extra))
            table.add_row(say(told, PART_NAMES[p.name]) if p.name in PART_NAMES else p.name, *counts, examples)
        out.print(table)
        said = say(told, "verify_identical" if verdict.identical else "verify_different")
        out.print(said, style=None if verdict.identical else "red", highlight=False, markup=False)
    raise typer.Exit(0 if verdict.identical else 1)
