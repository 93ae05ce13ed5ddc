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
from lextools.core.errors import LexiconError, path_text
from lextools.core.lexicon import Lexicon
from lextools.core.spelling import Notation
from lextools.features.engine_bundles import ENGINES, write_bundle
from lextools.features.export import KWG_FORMATS, check_format, export_bytes, text_lines, write_export
from lextools.features.verify import edition_to_verify
from lextools.features.verify import verify as verify_file

app = typer.Typer()


#: Printed when a DAWG-only KWG is exported: a move generator finds no play in it.
DAWG_ONLY_WARNING = (
    "warning: a DAWG-only KWG: move generators (MAGPIE, Macondo, wolges) need the GADDAG and find no play "
    "without it; add --gaddag, or use --for ENGINE"
)


@app.command()
def export(
    edition: EditionArg,
    format: Annotated[
        str,
        typer.Option(
            "--format",
            help="txt, dawg (as built), kwg (wolges' word graph; DAWG only unless --gaddag) or kad (alphagrams)",
        ),
    ] = "txt",
    gaddag: Annotated[
        bool, typer.Option("--gaddag", help="kwg: the combined GADDAG + DAWG file, which move generators need.")
    ] = False,
    notation: Annotated[str, typer.Option(help="plain, digits (1=CH 2=LL 3=RR) or brackets ([CH])")] = "plain",
    engine: Annotated[
        str | None,
        typer.Option(
            "--for",
            help=f"Write into the directory --output what the engine loads, named as it expects, with a README: "
            f"{', '.join(ENGINES)}.",
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="File to write, with FILE.manifest.json beside it; - for stdout (with --for: the directory)",
        ),
    ] = None,
    lexicons: LexiconsOpt = None,
) -> None:
    """Export the word list: text (Zyzzyva, FISE digits, wolges brackets), the DAWG, a KWG or KAD, or
    with --for the files a game engine loads (MAGPIE, Macondo, wolges, Quackle, Zyzzyva)."""
    if engine is not None:
        _bundle(edition, engine, output, lexicons, plain=format == "txt" and not gaddag and notation == "plain")
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
    if fmt == "kwg":
        err.print(f"[yellow]{DAWG_ONLY_WARNING}[/]")
    lex = open_lexicon(edition, lexicons)
    if output is None or to_stdout:
        _to_stdout(lex, fmt, written, home(lexicons))
    elif output.exists() and not output.is_file():  # a device or a pipe is written to, never replaced
        _to_device(output, lambda: export_bytes(lex, fmt, written, home(lexicons)))
    else:
        _to_file(lex, fmt, output, written, home(lexicons))


def _to_file(lex: Lexicon, fmt: str, output: Path, notation: Notation, lexicon_dir: Path) -> None:
    with err.status(f"exporting {lex.edition.name} as {fmt}…"):
        info = write_export(lex, fmt, output, notation, lexicon_dir)
    size = info["files"][0]["bytes"]
    nodes = f", {info['layout']['nodes']:,} nodes" if fmt in KWG_FORMATS else ""
    err.print(
        f"[green]wrote[/] {path_text(output)}: {info['words']:,} words, {size:,} bytes{nodes}; manifest beside it"
    )


def _bundle(edition: str, engine: str, output: Path | None, lexicons: Path | None, plain: bool) -> None:
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
    with err.status(f"exporting {edition} for {engine}…"):
        info = write_bundle(lex, engine, output, home(lexicons))
    err.print(
        f"[green]wrote[/] {path_text(output)}: {len(info['files'])} files for {engine} "
        f"({info['words']:,} words); how to load them: {path_text(output / 'README.md')}"
    )


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
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check an export word for word against the lexicon: 0 identical, 1 different, 2 not of its format.

    The edition is the one named by the manifest beside the file (FILE.manifest.json, written by every
    export); --edition is needed only for a file without one, and must agree with it.
    """
    edition = edition_to_verify(file, edition)
    lex = open_lexicon(edition, lexicons)
    with err.status(f"reading {file} and comparing it with the {edition} lexicon…"):
        verdict = verify_file(file, lex, format)
    if as_json:
        print_json(verdict.as_dict())
    else:
        table = Table("part", "expected", "found", "missing", "extra", "examples", title=f"{file} ({verdict.format})")
        for p in verdict.parts:
            examples = " ".join([*(f"-{w}" for w in p.missing_examples[:5]), *(f"+{w}" for w in p.extra_examples[:5])])
            table.add_row(p.name, f"{p.expected:,}", f"{p.found:,}", f"{p.missing:,}", f"{p.extra:,}", examples)
        out.print(table)
        out.print("identical" if verdict.identical else "[red]different[/]")
    raise typer.Exit(0 if verdict.identical else 1)
