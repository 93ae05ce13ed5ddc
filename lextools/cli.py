"""The ``lextools`` command line: a thin layer over the library.

Exit codes: 0 success (``check``: every word valid), 1 ``check`` found an invalid word, 2 usage or
data errors (unknown edition, missing or corrupt lexicon, unreadable list) with a one-line message.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from lextools import search
from lextools.compare import diff as diff_sets
from lextools.compare import open_word_set, precision_recall
from lextools.compile import compile_words, write_lexicon
from lextools.edition import Edition, edition_names, load_edition
from lextools.errors import LexiconError
from lextools.filters import SourceWord, rules_named
from lextools.lexicon import Lexicon, default_home, load_lexicon
from lextools.wordlist import read_bytes, read_words

app = typer.Typer(
    help="Scrabble lexicons per edition: build, check words, hooks, anagrams, patterns, exports.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True, soft_wrap=True)

LexiconsOpt = Annotated[
    Path | None,
    typer.Option("--lexicons", "--out", "-L", help="Lexicon directory [default: $LEXTOOLS_HOME or per-user data dir]"),
]
EditionArg = Annotated[str, typer.Argument(help="Edition: " + ", ".join(edition_names()))]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def _home(lexicons: Path | None) -> Path:
    return lexicons if lexicons is not None else default_home()


def _open(edition: str, lexicons: Path | None) -> Lexicon:
    return load_lexicon(edition, _home(lexicons))


def _print_json(data: Any) -> None:
    """JSON on stdout; a list is printed one element per line, so it reads as a table."""
    if isinstance(data, list) and data:
        body = ",\n ".join(json.dumps(item, ensure_ascii=False) for item in data)
        sys.stdout.write(f"[{body}]\n")
    else:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


@app.command()
def editions(as_json: JsonOpt = False) -> None:
    """List the editions with their tile totals and digraph rules."""
    eds = [load_edition(n) for n in edition_names()]
    if as_json:
        _print_json([e.as_dict() for e in eds])
        return
    table = Table("edition", "tiles", "digraph tiles", "no tile for", "title")
    for e in eds:
        total = str(e.total_tiles) if e.total_tiles is not None else "unverified"
        table.add_row(
            e.name,
            total,
            " ".join(t.label for t in e.digraphs) or "—",
            " ".join(sorted(e.letters_without_tile)) or "—",
            e.title,
        )
    out.print(table)


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int], None]]:
    with Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("words"),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    ) as bar:
        task = bar.add_task(label, total=None)
        yield lambda n: bar.update(task, completed=n)


@app.command()
def build(
    editions: Annotated[list[str] | None, typer.Argument(help="Editions to build [default: all]")] = None,
    source: Annotated[
        list[Path] | None, typer.Option("--source", "-s", help="A word list to build from (repeatable).")
    ] = None,
    rules: Annotated[str, typer.Option(help="Comma-separated filter rules for --source builds.")] = "one-tile",
    lexicons: LexiconsOpt = None,
) -> None:
    """Build lexicons: from your own word lists (--source), or from the default open sources."""
    names = editions or edition_names()
    for name in names:
        load_edition(name)  # fail on an unknown edition before any work
    home = _home(lexicons)
    if not source:
        from lextools.recipes import build_default

        for name in names:
            with _progress(f"{name}: reading sources") as tick:
                meta = build_default(name, home, progress=tick)
            _report_build(meta, home)
        return
    chosen = rules_named([r for r in rules.split(",") if r])
    sources_meta = [_user_source(p) for p in source]
    for name in names:
        edition = load_edition(name)

        def words(edition: Edition = edition) -> Iterator[SourceWord]:
            for p in source or ():
                for w in read_words(p, edition):
                    yield SourceWord(w, source=p.name, tags=frozenset({"user-list"}))

        with _progress(f"{name}: spelling and filtering") as tick:
            keys, report = compile_words(words(), edition, chosen, progress=tick)
        meta = write_lexicon(home, edition, keys, report, sources_meta, chosen)
        _report_build(meta, home)


def _user_source(path: Path) -> dict[str, Any]:
    data = read_bytes(path)  # raises SourceError for an unreadable list, before any build work
    raw = path.read_bytes()
    return {
        "name": path.name,
        "path": str(path.resolve()),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "bytes": len(data),
        "licence": None,
        "origin": "supplied by the user",
    }


def _report_build(meta: dict[str, Any], home: Path) -> None:
    counts = meta["counts"]
    dropped = ", ".join(f"{k} {v}" for k, v in counts["dropped"].items() if v) or "none"
    err.print(
        f"[green]built[/] {meta['edition']}: {meta['words']:,} words from {counts['read']:,} read "
        f"({counts['duplicates']:,} duplicates; dropped: {dropped}) → {home}"
    )


@app.command()
def check(
    edition: EditionArg,
    words: Annotated[list[str], typer.Argument(help="Words in any notation (CHIQUILLO, 1IQUI2O, [CH]IQUI[LL]O).")],
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check words. Exit 0 when every word is valid, 1 when any is not."""
    lex = _open(edition, lexicons)
    results = [lex.lookup(w) for w in words]
    if as_json:
        _print_json([r.as_dict() for r in results])
    else:
        table = Table("input", "word", "tiles", "valid", "score", "reason")
        for r in results:
            table.add_row(
                r.input,
                r.word or "",
                "·".join(r.tiles),
                "[green]yes[/]" if r.valid else "[red]no[/]",
                "" if r.score is None else str(r.score),
                r.reason or "",
            )
        out.print(table)
    raise typer.Exit(0 if all(r.valid for r in results) else 1)


@app.command()
def hooks(
    edition: EditionArg,
    words: Annotated[list[str], typer.Argument(help="Words (need not be valid themselves).")],
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Front and back hooks at tile level, and inner-hook flags."""
    lex = _open(edition, lexicons)
    rows = []
    for w in words:
        s = lex.spell(w)
        h = lex.hooks(s.key)
        rows.append(
            {
                "word": s.word,
                "valid": s.key in lex,
                "front": list(h.front),
                "back": list(h.back),
                "front_inner": h.front_inner,
                "back_inner": h.back_inner,
            }
        )
    if as_json:
        _print_json(rows)
        return
    table = Table("front", "word", "back")
    for r in rows:
        word = ("·" if r["front_inner"] else "") + r["word"] + ("·" if r["back_inner"] else "")
        table.add_row(" ".join(r["front"]), word if r["valid"] else f"{word} (not valid)", " ".join(r["back"]))
    out.print(table)


def _print_keys(lex: Lexicon, keys: list[str], as_json: bool) -> None:
    if as_json:
        _print_json([lex.edition.spelling(k) for k in keys])
    else:
        for k in keys:
            sys.stdout.write(lex.edition.spelling(k) + "\n")


@app.command("two-tile")
def two_tile(edition: EditionArg, as_json: JsonOpt = False, lexicons: LexiconsOpt = None) -> None:
    """Words of two tiles (in es-fise this includes CHA, CHE, CHO, LLE)."""
    lex = _open(edition, lexicons)
    _print_keys(lex, lex.edition.sort_keys(search.words_of_length(lex, 2)), as_json)


@app.command()
def anagram(
    edition: EditionArg,
    rack: Annotated[str, typer.Argument(help="Tiles, ? for a blank: ARBOL??")],
    sub: Annotated[bool, typer.Option("--sub", help="Subanagrams: words using some of the tiles.")] = False,
    min_length: Annotated[int, typer.Option(help="Shortest word, in tiles.")] = 2,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Anagrams of a rack (blanks may be digraph tiles, never a letter the edition lacks)."""
    lex = _open(edition, lexicons)
    key, blanks = search.parse_rack(rack, lex)
    matches = search.anagrams(lex, key, blanks, sub=sub, min_length=min_length)
    matches.sort(key=lambda m: (-len(m.key), lex.edition.collation_key(m.key)))
    if as_json:
        _print_json([{"word": lex.edition.spelling(m.key), "blanks": list(m.blanks)} for m in matches])
        return
    for m in matches:
        note = f"  (blank: {' '.join(m.blanks)})" if m.blanks else ""
        sys.stdout.write(lex.edition.spelling(m.key) + note + "\n")


@app.command()
def pattern(
    edition: EditionArg,
    pattern: Annotated[str, typer.Argument(help="? one tile, * any tiles: CH?*O, ?A?")],
    order: Annotated[str, typer.Option(help="alpha or probability")] = "alpha",
    limit: Annotated[int, typer.Option(help="At most this many words (0: all).")] = 0,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Words matching a pattern (prefix search is PATTERN*)."""
    lex = _open(edition, lexicons)
    keys = [m.key for m in search.match_pattern(lex, search.parse_pattern(pattern, lex))]
    keys = search.ordered(lex, keys, order)
    _print_keys(lex, keys[:limit] if limit else keys, as_json)


@app.command()
def score(
    edition: EditionArg,
    word: Annotated[str, typer.Argument(help="A word in any notation.")],
    blank: Annotated[
        list[int] | None, typer.Option("--blank", "-b", help="1-based position of a tile played with a blank.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Score of a word, tile by tile (blanks score 0); no board premiums."""
    ed = load_edition(edition)
    from lextools.tokenize import spell

    s = spell(word, ed)
    blanks = {b - 1 for b in blank or []}
    if any(not 0 <= b < len(s.tiles) for b in blanks):
        raise LexiconError(f"--blank positions go from 1 to {len(s.tiles)}")
    breakdown = [
        {"tile": t, "blank": i in blanks, "value": 0 if i in blanks else ed.by_label[t].value}
        for i, t in enumerate(s.tiles)
    ]
    total = ed.score(s.tiles, blanks)
    if as_json:
        _print_json({"word": s.word, "tiles": breakdown, "score": total})
        return
    parts = " + ".join(f"{b['tile']}{'(blank)' if b['blank'] else ''} {b['value']}" for b in breakdown)
    shown = "unverified (tile values are not known for this edition)" if total is None else str(total)
    out.print(f"{s.word}: {parts} = {shown}")


@app.command()
def export(
    edition: EditionArg,
    format: Annotated[
        str, typer.Option("--format", help="txt, dawg (as built), kwg (wolges' word graph) or kad (alphagrams)")
    ] = "txt",
    gaddag: Annotated[bool, typer.Option("--gaddag", help="kwg: the combined GADDAG + DAWG file.")] = False,
    notation: Annotated[str, typer.Option(help="plain, digits (1=CH 2=LL 3=RR) or brackets ([CH])")] = "plain",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File to write, with FILE.manifest.json beside it; - for stdout"),
    ] = None,
    lexicons: LexiconsOpt = None,
) -> None:
    """Export the word list: text (Zyzzyva, FISE digits, wolges brackets), the DAWG, a KWG or KAD."""
    from lextools.export import KWG_FORMATS, check_format, export_bytes, text_lines, write_export

    if gaddag and format not in ("kwg", "kwg-gaddag"):
        raise LexiconError("--gaddag goes with --format kwg")
    fmt = "kwg-gaddag" if gaddag else format
    check_format(fmt, notation)
    lex = _open(edition, lexicons)
    if output is None or str(output) == "-":
        if fmt == "txt":
            sys.stdout.writelines(text_lines(lex, notation))  # type: ignore[arg-type]
        elif output is None:
            raise LexiconError(f"{fmt} is binary: give --output FILE, or --output - to write it to stdout")
        else:
            sys.stdout.buffer.write(export_bytes(lex, fmt, notation, _home(lexicons)))  # type: ignore[arg-type]
            sys.stdout.buffer.flush()
        return
    with err.status(f"exporting {edition} as {fmt}…"):
        try:
            info = write_export(lex, fmt, output, notation, _home(lexicons))  # type: ignore[arg-type]
        except OSError as e:
            raise LexiconError(f"cannot write {output}: {e.strerror or e}") from None
    size = info["files"][0]["bytes"]
    nodes = f", {info['layout']['nodes']:,} nodes" if fmt in KWG_FORMATS else ""
    err.print(f"[green]wrote[/] {output}: {info['words']:,} words, {size:,} bytes{nodes}; manifest beside it")


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="A KWG, KAD, DAWG or text export.")],
    edition: Annotated[str, typer.Option("--edition", "-e", help="Edition whose lexicon the file should hold.")],
    format: Annotated[
        str | None,
        typer.Option("--format", help="txt, dawg, kwg, kwg-gaddag or kad (default: as its manifest or suffix says)"),
    ] = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check an export word for word against the lexicon: 0 identical, 1 different, 2 not of its format."""
    from lextools.verify import verify as verify_file

    lex = _open(edition, lexicons)
    with err.status(f"reading {file} and comparing it with the {edition} lexicon…"):
        verdict = verify_file(file, lex, format)
    if as_json:
        _print_json(verdict.as_dict())
    else:
        table = Table("part", "expected", "found", "missing", "extra", "examples", title=f"{file} ({verdict.format})")
        for p in verdict.parts:
            examples = " ".join([*(f"-{w}" for w in p.missing_examples[:5]), *(f"+{w}" for w in p.extra_examples[:5])])
            table.add_row(p.name, f"{p.expected:,}", f"{p.found:,}", f"{p.missing:,}", f"{p.extra:,}", examples)
        out.print(table)
        out.print("identical" if verdict.identical else "[red]different[/]")
    raise typer.Exit(0 if verdict.identical else 1)


@app.command()
def compare(
    built_or_list: Annotated[str, typer.Argument(help="An edition (its built lexicon) or a word list file.")],
    reference_list: Annotated[Path, typer.Argument(help="The reference word list.")],
    edition: Annotated[str | None, typer.Option(help="Edition that reads the lists.")] = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Precision and recall of a build (or list) against a reference list, by length in tiles."""
    ed = load_edition(edition) if edition else None
    built = open_word_set(built_or_list, ed, _home(lexicons))
    ref = open_word_set(str(reference_list), ed or built.edition, _home(lexicons))
    rows = precision_recall(built.keys, ref.keys)
    if as_json:
        _print_json(
            [
                {
                    "length": r.length or "all",
                    "built": r.built,
                    "reference": r.reference,
                    "common": r.common,
                    "precision": r.precision,
                    "recall": r.recall,
                }
                for r in rows
            ]
        )
        return
    table = Table("tiles", "built", "reference", "common", "precision", "recall", title=f"{built.label} vs {ref.label}")
    for r in rows:
        table.add_row(
            str(r.length or "all"),
            f"{r.built:,}",
            f"{r.reference:,}",
            f"{r.common:,}",
            _pct(r.precision),
            _pct(r.recall),
        )
    out.print(table)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


@app.command()
def diff(
    a: Annotated[str, typer.Argument(help="Edition, lexicon metadata file (.json) or word list.")],
    b: Annotated[str, typer.Argument(help="Edition, lexicon metadata file (.json) or word list.")],
    edition: Annotated[str | None, typer.Option(help="Edition that reads word lists.")] = None,
    show: Annotated[int, typer.Option(help="List up to this many added/removed words.")] = 20,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Words added and removed from A to B, by length in tiles."""
    ed = load_edition(edition) if edition else None
    sa = open_word_set(a, ed, _home(lexicons))
    sb = open_word_set(b, ed or sa.edition, _home(lexicons))
    rows, added, removed = diff_sets(sa, sb)
    if as_json:
        _print_json({"by_length": [r.__dict__ for r in rows], "added": added, "removed": removed})
        return
    table = Table("tiles", "added", "removed", title=f"{sa.label} → {sb.label}")
    for r in rows:
        table.add_row(str(r.length), f"{r.added:,}", f"{r.removed:,}")
    table.add_row("all", f"{len(added):,}", f"{len(removed):,}")
    out.print(table)
    if show:
        out.print("added: " + " ".join(added[:show]) + (" …" if len(added) > show else ""))
        out.print("removed: " + " ".join(removed[:show]) + (" …" if len(removed) > show else ""))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: any free port, logged at start).")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="gunicorn worker processes; each loads the lexicons once.")] = 2,
    lexicons: LexiconsOpt = None,
) -> None:
    """Serve the lexicons over HTTP (JSON under /v1) with gunicorn until interrupted."""
    from service.server import serve as run_server  # the CLI works without the service's imports

    run_server(host=host, port=port, workers=workers, lexicons=_home(lexicons))


def main() -> None:
    """Entry point: library errors become a message and exit code 2."""
    try:
        app()
    except LexiconError as e:
        err.print(f"[red]error:[/] {e}", highlight=False)
        raise SystemExit(2) from None
