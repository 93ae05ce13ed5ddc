"""The ``lextools`` command line: a thin layer over the library.

Exit codes: 0 success (``check``: every word valid), 1 ``check`` found an invalid word, 2 usage,
data or I/O errors (unknown edition, missing or corrupt lexicon, unreadable list, refused build, full
disk, permission, not a directory) with a one-line message naming the path and the cause.
``--json`` prints the answer :mod:`lextools.features.answers` builds for the service too.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from lextools.build.filters import rules_named
from lextools.build.lists import DEFAULT_RULES, build_from_lists
from lextools.core import search
from lextools.core.budget import Budget
from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import LexiconError, os_error_message, path_text
from lextools.core.lexicon import Lexicon, default_home, load_lexicon
from lextools.core.messages import LANGUAGES, choose_language, message
from lextools.core.wordlist import WordList, decode, read_list, words_of
from lextools.features import answers, quiz
from lextools.features.compare import WordSet, comparison, open_word_set
from lextools.features.compare import diff as diff_sets

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
RecordOpt = Annotated[
    Path | None,
    typer.Option("--record", help="The challenge record (SQLite) [default: challenges.sqlite3 in the lexicon dir]"),
]


def _home(lexicons: Path | None) -> Path:
    return lexicons if lexicons is not None else default_home()


def _open(edition: str, lexicons: Path | None) -> Lexicon:
    return load_lexicon(edition, _home(lexicons))


def _print_json(data: Any) -> None:
    """One compact JSON document on stdout: the body the service returns for the same query."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")


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
    rules: Annotated[
        str | None, typer.Option(help="Comma-separated filter rules for --source builds [default: one-tile].")
    ] = None,
    recipe: Annotated[
        Path | None, typer.Option(help="Build from a recipe file (a copy of build/E.toml with your rules).")
    ] = None,
    encoding: Annotated[
        str | None, typer.Option(help="Read the --source lists in this encoding instead of deciding per file.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the lexicon even if the new one loses over 20% of its words.")
    ] = False,
    no_wait: Annotated[
        bool, typer.Option("--no-wait", help="Fail at once if another build of the edition is writing there.")
    ] = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Build lexicons: from your own word lists (--source), a recipe (--recipe), or the default open sources.

    A build that would leave no words, or lose more than 20% of the words of the lexicon it
    replaces (unless --force), is refused and the lexicon in place is left as it was.
    """
    if rules is not None and not source:
        raise LexiconError("--rules applies to --source builds; a recipe names its rules (see --recipe)")
    if encoding is not None and not source:
        raise LexiconError("--encoding applies to the --source lists")
    if source and recipe:
        raise LexiconError("give --source or --recipe, not both")
    if source and not editions:
        raise LexiconError("--source needs the edition to build, e.g. `lextools build es-fise --source words.txt`")
    for name in editions or ():
        load_edition(name)  # fail on an unknown edition before any work
    home = _home(lexicons)
    guard = {"force": force, "wait": not no_wait, "on_wait": lambda msg: err.print(f"[yellow]waiting:[/] {msg}")}
    from lextools.build.recipes import SharedSources, build_default, load_recipe, read_recipe

    if source:
        chosen = [r for r in (rules or ",".join(DEFAULT_RULES)).split(",") if r]
        rules_named(chosen)  # an unknown rule fails before any list is read
        # Every list is read and checked before any build, per edition: a KWG's tile numbers are the edition's.
        lists = {name: [read_list(p, encoding, load_edition(name)) for p in source] for name in editions or ()}
        for wl in next(iter(lists.values()), []):
            _report_encoding(wl)
        for name in editions or ():
            with _progress(f"{name}: spelling and filtering") as tick:
                meta = build_from_lists(home, load_edition(name), lists[name], chosen, progress=tick, **guard)
            _report_build(meta, home)
        return
    if recipe:
        house = read_recipe(recipe)
        if editions and editions != [house.edition]:
            raise LexiconError(f"{path_text(recipe)} is a recipe for {house.edition}, not {' '.join(editions)}")
        todo = [(house.edition, house)]
    else:
        todo = [(name, load_recipe(name)) for name in editions or edition_names()]
    shared = SharedSources(r for _, r in todo)  # the Spanish editions read their sources once
    for name, chosen_recipe in todo:
        with _progress(f"{name}: reading sources") as tick:
            meta = build_default(name, home, progress=tick, recipe=chosen_recipe, shared=shared, **guard)
        _report_build(meta, home)


def _report_encoding(wl: WordList) -> None:
    if wl.guessed:
        err.print(
            f"[yellow]note:[/] {path_text(wl.path)} read as {wl.encoding}: it has no UTF-8 sequence "
            "(use --encoding to read it otherwise)",
            highlight=False,
        )


def _report_build(meta: dict[str, Any], home: Path) -> None:
    counts = meta["counts"]
    dropped = ", ".join(f"{k} {v}" for k, v in counts["dropped"].items() if v) or "none"
    err.print(
        f"[green]built[/] {meta['edition']}: {meta['words']:,} words from {counts['read']:,} read "
        f"({counts['duplicates']:,} duplicates; dropped: {dropped}) → {home}"
    )
    for s in meta["sources"]:
        if "only_here" in s:  # a default build: what each source contributed and lost
            alone, removed = s["only_here"], s["removed"]
            err.print(f"  {s['name']}: {s['words']:,} words, {alone:,} from it alone, {removed:,} excluded")


@app.command()
def check(
    edition: EditionArg,
    words: Annotated[
        list[str] | None,
        typer.Argument(help="Words in any notation (CHIQUILLO, 1IQUI2O, [CH]IQUI[LL]O); - reads them from stdin."),
    ] = None,
    file: Annotated[Path | None, typer.Option("--file", "-f", help="Check the words of a list, one per line.")] = None,
    lang: Annotated[
        str | None, typer.Option(help="Language of the reasons: es, fr or en [default: the edition's]")
    ] = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check words. Exit 0 when every word is valid, 1 when any is not."""
    words = list(words or [])
    if words == ["-"]:
        words = words_of(decode(sys.stdin.buffer.read(), "standard input")[0])
    elif "-" in words:
        raise LexiconError("- (read the words from standard input) stands alone")
    if file is not None:
        words += read_list(file).words
    if not words:
        raise LexiconError("no words to check: name them, give - to read standard input, or --file LIST")
    lex = _open(edition, lexicons)
    answer = answers.check(lex, words, _language(lang, lex), _home(lexicons))  # a reason names its rule
    if as_json:
        _print_json(answer)
    else:
        table = Table("input", "word", "tiles", "valid", "score", "reason")
        for r in answer["results"]:
            table.add_row(
                r["input"],
                r["word"] or "",
                "·".join(r["tiles"]),
                "[green]yes[/]" if r["valid"] else "[red]no[/]",
                "" if r["score"] is None else str(r["score"]),
                r["reason"] or "",
            )
        out.print(table)
    raise typer.Exit(0 if all(r["valid"] for r in answer["results"]) else 1)


def _language(lang: str | None, lex: Lexicon) -> str:
    if lang is not None and lang not in LANGUAGES:
        raise LexiconError(f"--lang {lang!r}: use one of {', '.join(LANGUAGES)}")
    return choose_language(lang, None, lex.edition.language)


@app.command()
def explain(
    edition: EditionArg,
    words: Annotated[list[str], typer.Argument(help="Words in any notation.")],
    lang: Annotated[str | None, typer.Option(help="Language: es, fr or en [default: the edition's]")] = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Why a word is not valid (the rule and the source form), or which sources give a valid one."""
    from lextools.features.explain import explain as explain_word

    lex = _open(edition, lexicons)
    language = _language(lang, lex)
    told = []
    for r in (explain_word(lex, w, _home(lexicons)) for w in words):
        if r.message is not None:
            reason = r.message.text(language)
        else:  # the spelling error (KILO in es-fise), or a lexicon built without a sidecar
            reason = answers.localized(r.result, lex.edition, language)["reason"]
        told.append({**r.as_dict(), "reason": reason})
    if as_json:
        _print_json(told)
        return
    for t in told:
        if t["valid"]:
            listed = message("explain_valid", word=t["word"], edition=edition, sources=", ".join(t["sources"]) or "—")
            out.print(listed.text(language), highlight=False, soft_wrap=True)
        else:
            out.print(t["reason"] or t["input"], highlight=False, soft_wrap=True)


@app.command()
def hooks(
    edition: EditionArg,
    words: Annotated[list[str], typer.Argument(help="Words (need not be valid themselves).")],
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Front and back hooks at tile level, and inner-hook flags (--json: the API's answer; a list for several words)."""
    lex = _open(edition, lexicons)
    rows = [answers.hooks(lex, w) for w in words]
    if as_json:
        _print_json(rows[0] if len(rows) == 1 else rows)
        return
    table = Table("front", "word", "back")
    for r in rows:
        word = ("·" if r["front_inner"] else "") + r["word"] + ("·" if r["back_inner"] else "")
        table.add_row(" ".join(r["front"]), word if r["valid"] else f"{word} (not valid)", " ".join(r["back"]))
    out.print(table)


def _print_words(answer: dict[str, Any], as_json: bool) -> None:
    if as_json:
        _print_json(answer)
        return
    for entry in answer["words"]:
        note = f"  (blank: {' '.join(entry['blanks'])})" if entry.get("blanks") else ""
        sys.stdout.write(entry["word"] + note + "\n")


@app.command("two-tile")
def two_tile(edition: EditionArg, as_json: JsonOpt = False, lexicons: LexiconsOpt = None) -> None:
    """Words of two tiles (in es-fise this includes CHA, CHE, CHO, LLE)."""
    _print_words(answers.two_tile(_open(edition, lexicons)), as_json)


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
    _print_words(answers.anagrams(lex, rack, blanks, sub, min_length, matches, answers.page(len(matches))), as_json)


@app.command()
def pattern(
    edition: EditionArg,
    pattern: Annotated[str, typer.Argument(help="? one tile, * any tiles: CH?*O, ?A?")],
    order: Annotated[str, typer.Option(help="alpha or probability")] = "alpha",
    limit: Annotated[int, typer.Option(help="At most this many words (0: all).")] = 0,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Words matching a pattern (prefix search is PATTERN*); --json is the service's search answer."""
    lex = _open(edition, lexicons)
    budget = Budget(results=limit or None)
    keys = list(search.find(lex, pattern=pattern, order=order, budget=budget))
    _print_words(answers.search_page(lex, order, keys, answers.page(len(keys), budget.truncated)), as_json)


@app.command("quiz")
def quiz_command(
    edition: EditionArg,
    kind: Annotated[str, typer.Option("--type", help=" | ".join(quiz.QUIZ_TYPES))] = "anagram",
    length: Annotated[int | None, typer.Option(help="Tiles per word or rack [default: by type].")] = None,
    blanks: Annotated[
        int, typer.Option(help=f"Blanks on the rack and in the probability count (0-{quiz.MAX_BLANKS}).")
    ] = 0,
    order: Annotated[str, typer.Option(help=" | ".join(quiz.ORDERS))] = "probability",
    rank_from: Annotated[int, typer.Option("--from", help="First probability rank within the length.")] = 1,
    rank_to: Annotated[int | None, typer.Option("--to", help="Last probability rank [default: the last].")] = None,
    count: Annotated[int, typer.Option(help=f"Questions (1-{quiz.MAX_COUNT}).")] = quiz.DEFAULT_COUNT,
    seed: Annotated[
        int | None, typer.Option(help="Draw the questions at random from the range, the same for a seed.")
    ] = None,
    min_length: Annotated[int, typer.Option(help="build: shortest word, in tiles.")] = quiz.DEFAULT_BUILD_MIN,
    list_name: Annotated[
        str | None, typer.Option("--list", help="type list: two-tile, three-tile, high-value, with-CH…")
    ] = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """A word-study quiz with its answers: the JSON of GET /v1/{edition}/quiz."""
    lex = _open(edition, lexicons)
    request = quiz.QuizRequest(kind, length, blanks, order, rank_from, rank_to, count, seed, min_length, list_name)
    result = quiz.quiz(lex, request)
    if as_json:
        _print_json(result)
        return
    for q in result["questions"]:
        sys.stdout.write(quiz.question_line(q) + "\n")


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
    answer = answers.score(load_edition(edition), word, blank or [])
    if as_json:
        _print_json(answer)
        return
    parts = " + ".join(f"{b['tile']}{'(blank)' if b['blank'] else ''} {b['value']}" for b in answer["tiles"])
    shown = "unverified (tile values are not known for this edition)" if answer["score"] is None else answer["score"]
    out.print(f"{answer['word']}: {parts} = {shown}")


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
    from lextools.features.export import KWG_FORMATS, check_format, export_bytes, text_lines, write_export

    if gaddag and format not in ("kwg", "kwg-gaddag"):
        raise LexiconError("--gaddag goes with --format kwg")
    fmt = "kwg-gaddag" if gaddag else format
    check_format(fmt, notation)
    to_stdout = output is None or str(output) == "-"
    if output is not None and not to_stdout and output.is_dir():
        raise LexiconError(f"{path_text(output)}: is a directory; --output names the file to write")
    if output is None and fmt != "txt":
        raise LexiconError(f"{fmt} is binary: give --output FILE, or --output - to write it to stdout")
    lex = _open(edition, lexicons)
    if to_stdout:
        if fmt == "txt":
            sys.stdout.writelines(text_lines(lex, notation))  # type: ignore[arg-type]
        else:
            sys.stdout.buffer.write(export_bytes(lex, fmt, notation, _home(lexicons)))  # type: ignore[arg-type]
            sys.stdout.buffer.flush()
        return
    if output.exists() and not output.is_file():  # a device or a pipe is written to, never replaced
        try:
            with output.open("wb") as f:
                f.write(export_bytes(lex, fmt, notation, _home(lexicons)))  # type: ignore[arg-type]
        except OSError as e:  # the error of a buffered write names no file
            raise OSError(e.errno, e.strerror, os.fspath(output)) from None
        return
    with err.status(f"exporting {edition} as {fmt}…"):
        info = write_export(lex, fmt, output, notation, _home(lexicons))  # type: ignore[arg-type]
    size = info["files"][0]["bytes"]
    nodes = f", {info['layout']['nodes']:,} nodes" if fmt in KWG_FORMATS else ""
    err.print(
        f"[green]wrote[/] {path_text(output)}: {info['words']:,} words, {size:,} bytes{nodes}; manifest beside it"
    )


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
    from lextools.features.verify import verify as verify_file

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
    missing: Annotated[int, typer.Option(help="List up to this many reference words the build lacks.")] = 0,
    extra: Annotated[int, typer.Option(help="List up to this many built words the reference lacks.")] = 0,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Precision and recall of a build (or list) against a reference list, by length in tiles."""
    ed = load_edition(edition) if edition else None
    built = open_word_set(built_or_list, ed, _home(lexicons))
    ref = open_word_set(str(reference_list), ed or built.edition, _home(lexicons))
    report = comparison(built, ref, missing, extra)
    if as_json:
        _print_json(report)
        return
    table = Table("tiles", "built", "reference", "common", "precision", "recall", title=f"{built.label} vs {ref.label}")
    for r in report["by_length"]:
        table.add_row(
            str(r["length"]),
            f"{r['built']:,}",
            f"{r['reference']:,}",
            f"{r['common']:,}",
            _pct(r["precision"]),
            _pct(r["recall"]),
        )
    out.print(table)
    _print_unspellable(built, ref)
    for name in ("missing", "extra"):
        if name in report:
            shown = report[name]
            line = f"{name} ({shown['count']:,}): " + " ".join(shown["examples"])
            out.print(line, highlight=False, markup=False, soft_wrap=True)


def _print_unspellable(*sets: WordSet) -> None:
    for ws in sets:
        if ws.unspellable:
            words = "word" if ws.unspellable == 1 else "words"
            out.print(
                f"{ws.unspellable:,} {words} of {ws.label} cannot be spelled in {ws.edition.name} and are not counted "
                f"(e.g. {' '.join(ws.unspellable_examples)})",
                highlight=False,
                markup=False,
                soft_wrap=True,  # one line, whatever the width: a script may grep it
            )


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
        _print_json(
            {
                "by_length": [r.__dict__ for r in rows],
                "added": added,
                "removed": removed,
                "unspellable": {sa.label: sa.unspellable, sb.label: sb.unspellable},
            }
        )
        return
    table = Table("tiles", "added", "removed", title=f"{sa.label} → {sb.label}")
    for r in rows:
        table.add_row(str(r.length), f"{r.added:,}", f"{r.removed:,}")
    table.add_row("all", f"{len(added):,}", f"{len(removed):,}")
    out.print(table)
    _print_unspellable(sa, sb)
    if show:
        for name, words in (("added", added), ("removed", removed)):
            line = f"{name}: " + " ".join(words[:show]) + (" …" if len(words) > show else "")
            out.print(line, highlight=False, markup=False, soft_wrap=True)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: any free port, logged at start).")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="gunicorn worker processes; each loads the lexicons once.")] = 2,
    lexicons: LexiconsOpt = None,
    kiosk: Annotated[
        str | None, typer.Option(help="Serve only the word judge for this edition (a table kiosk); all else 404.")
    ] = None,
    judge_clear: Annotated[
        float, typer.Option(min=1, max=600, help="Seconds a verdict stays on the judge (Esc clears it sooner).")
    ] = 10.0,
    record: RecordOpt = None,
) -> None:
    """Serve the lexicons over HTTP (JSON under /v1) with gunicorn until interrupted."""
    from service.server import serve as run_server  # the CLI works without the service's imports

    if kiosk is not None:
        load_edition(kiosk)  # an unknown edition: one line, exit 2
    home = _home(lexicons)
    config = {"KIOSK": kiosk, "JUDGE_CLEAR_SECONDS": judge_clear, "RECORD": _record(record, home)}
    run_server(host=host, port=port, workers=workers, lexicons=home, app_config=config)


def _record(record: Path | None, home: Path) -> Path:
    from lextools.features.record import default_record

    return record if record is not None else default_record(home)


@app.command("record")
def show_record(
    since: Annotated[str | None, typer.Option(help="Only challenges from this time on: 2026-11-30T09:00 UTC.")] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (for a spreadsheet) instead of a table.")] = False,
    as_json: JsonOpt = False,
    record: RecordOpt = None,
    lexicons: LexiconsOpt = None,
) -> None:
    """The challenge record: every challenge judged, with its time, edition, lexicon, words and verdict."""
    from lextools.features.record import ChallengeRecord, as_csv_text, parse_since

    entries = ChallengeRecord(_record(record, _home(lexicons))).entries(parse_since(since) if since else None)
    if as_csv:
        sys.stdout.write(as_csv_text(entries))
    elif as_json:
        _print_json({"challenges": entries})
    else:
        table = Table("time (UTC)", "edition", "lexicon", "words", "verdict", "id")
        for e in entries:
            verdict = "[green]valid[/]" if e["acceptable"] else "[red]not valid[/]"
            when = e["time"][:19].replace("T", " ")
            table.add_row(when, e["edition"], e["checksum"][:8], escape(" ".join(e["words"])), verdict, e["id"])
        out.print(table)


receipt_app = typer.Typer(help="Receipts of challenges: check one after the game.", no_args_is_help=True)
app.add_typer(receipt_app, name="receipt")


@receipt_app.command("verify")
def verify_receipt(
    receipt: Annotated[
        str, typer.Argument(help="The receipt as JSON (or the whole challenge answer); - reads it from stdin.")
    ] = "-",
    record: RecordOpt = None,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check a receipt against the server secret and the challenge record. Exit 0 valid, 1 not valid."""
    from lextools.features.receipts import load_secret
    from lextools.features.record import ChallengeRecord

    text = sys.stdin.read() if receipt == "-" else receipt
    path = _record(record, _home(lexicons))
    rec = ChallengeRecord(path)
    result = rec.verify(text, load_secret(path, create=False))
    if result.ok:
        out.print(f"[green]{escape(result.message)}[/]", highlight=False)
    else:
        err.print(f"[red]not valid:[/] {escape(result.message)}", highlight=False)
    raise typer.Exit(0 if result.ok else 1)


def main() -> None:
    """Entry point: library and I/O errors become one line naming the cause, and exit code 2."""
    try:
        app()
    except LexiconError as e:
        _fail(str(e))
    except OSError as e:  # disk full, permission denied, not a directory, ...
        _fail(os_error_message(e))
    except UnicodeEncodeError as e:  # a file name that is not UTF-8, met where text is needed
        _fail(f"{path_text(e.object)}: a file name that is not UTF-8 cannot be used here")


def _fail(message: str) -> NoReturn:
    err.print("[red]error:[/] " + escape(message), highlight=False)
    raise SystemExit(2) from None
