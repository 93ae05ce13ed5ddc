"""``lextools build``: lexicons from your own word lists, a recipe, or the default open sources.

The only command group that imports the build machinery (:mod:`lextools.builder`) and rich's progress bars.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from lextools.builder.compile import SPELLING_RULES, cyclic_gc_paused
from lextools.builder.filters import rules_named
from lextools.builder.guard import BuildOptions
from lextools.builder.recipes import Recipe, SharedSources, build_default, fise_recipe, load_recipe, read_recipe
from lextools.builder.user_lists import DEFAULT_RULES, build_from_lists
from lextools.cli.common import LexiconsOpt, err, home
from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import LexiconError, path_text
from lextools.core.messages import catalogue, message
from lextools.core.wordlist import WordList, read_list

app = typer.Typer()
#: Words named one by one in a build's report (the metadata names them all).
NAMES_SHOWN = 20


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
    fise_lists: Annotated[
        Path | None,
        typer.Option("--fise-lists", help="Build from FISE's lemma lists in this folder (totals and their revision)."),
    ] = None,
    fise_update: Annotated[
        list[Path] | None,
        typer.Option("--fise-update", help="A folder of a later FISE revision, applied on top (repeatable, in order)."),
    ] = None,
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
    if fise_update and not fise_lists:
        raise LexiconError("--fise-update applies a revision to the lists of --fise-lists DIR")
    if fise_lists and source:
        raise LexiconError("give --source or --fise-lists, not both")
    # Fail on an unknown edition before any work; ES-FISE is es-fise.
    editions = [load_edition(name).name for name in editions] if editions else editions
    to = home(lexicons)
    if source:
        _build_lists(editions or [], source, rules, encoding, to, force=force, wait=not no_wait)
    elif fise_lists:
        todo = _fise_recipes(editions or ["es-fise"], recipe, fise_lists, fise_update or [])
        _build_recipes(todo, to, force=force, wait=not no_wait)
    else:
        _build_recipes(_recipes(editions or [], recipe), to, force=force, wait=not no_wait)


def _build_lists(
    editions: list[str],
    source: list[Path],
    rules: str | None,
    encoding: str | None,
    to: Path,
    *,
    force: bool,
    wait: bool,
) -> None:
    chosen = [r for r in (rules or ",".join(DEFAULT_RULES)).split(",") if r]
    rules_named(chosen)  # an unknown rule fails before any list is read
    # Every list is read and checked before any build, per edition: a KWG's tile numbers are the edition's.
    lists = {name: [read_list(p, encoding, load_edition(name)) for p in source] for name in editions}
    for wl in next(iter(lists.values()), []):
        _report_encoding(wl)
    for name in editions:
        with _progress(name) as bars:
            meta = build_from_lists(to, load_edition(name), lists[name], chosen, **bars.options(force, wait))
            bars.finish(meta["counts"]["read"])
        _report_build(meta, to)


def _recipes(editions: list[str], recipe: Path | None) -> list[tuple[str, Recipe]]:
    """The recipes to build: the one of --recipe (for its own edition), else the default of each edition."""
    if recipe is None:
        return [(name, load_recipe(name)) for name in editions or edition_names()]
    house = read_recipe(recipe)
    if editions and editions != [house.edition]:
        raise LexiconError(f"{path_text(recipe)} is a recipe for {house.edition}, not {' '.join(editions)}")
    return [(house.edition, house)]


def _fise_recipes(
    editions: list[str], recipe: Path | None, lists: Path, updates: list[Path]
) -> list[tuple[str, Recipe]]:
    """The recipes of a build from FISE's lists: --recipe's (naming the fise-lists source), else FISE's lists alone."""
    settings = {"fise_lists": str(lists), "fise_updates": [str(u) for u in updates]}
    if recipe is None:
        return [(name, fise_recipe(name, settings)) for name in editions]
    todo = _recipes(editions, recipe)
    if not any("fise-lists" in r.sources for _, r in todo):
        raise LexiconError(f"{path_text(recipe)} names no fise-lists source for --fise-lists to read")
    return [(name, replace(r, settings={**r.settings, **settings})) for name, r in todo]


def _build_recipes(todo: list[tuple[str, Recipe]], to: Path, *, force: bool, wait: bool) -> None:
    shared = SharedSources(r for _, r in todo)  # the Spanish editions read their sources once
    with cyclic_gc_paused():  # the sources kept for the next edition are walked once, after the last
        for name, chosen_recipe in todo:
            with _progress(name) as bars:
                meta = build_default(name, to, recipe=chosen_recipe, shared=shared, **bars.options(force, wait))
                bars.finish(meta["counts"]["read"])
            _report_build(meta, to)


def _waiting(msg: str) -> None:
    err.print(f"[yellow]waiting:[/] {msg}")


class SourceBars:
    """One bar per source of an edition's build: the source being read, its words so far and, when the
    total is known (a list's line count, the count of the build it replaces), out of how many.

    The build reports the words read from all its sources (``tick``) and the start of each source
    (``source``: its label, the words expected, the words read before it).
    """

    def __init__(self, bar: Progress, edition: str) -> None:
        self.bar, self.edition = bar, edition
        self.task: TaskID | None = None
        self.start = 0

    def source(self, label: str, expected: int | None, before: int) -> None:
        self.finish(before)
        shown = Path(label).name if "/" in label else label  # a list's file name; a recipe's "source NAME"
        self.task = self.bar.add_task(f"{self.edition}: {shown}", total=expected)
        self.start = before

    def options(self, force: bool, wait: bool) -> BuildOptions:
        """A build's options that report to these bars (and say when the build waits for the lock)."""
        return {"progress": self.tick, "on_source": self.source, "force": force, "wait": wait, "on_wait": _waiting}

    def tick(self, read: int) -> None:
        if self.task is not None:
            self.bar.update(self.task, completed=max(0, read - self.start))

    def finish(self, read: int) -> None:
        """The current source ends at ``read`` words in all: its bar shows its own count as the total."""
        if self.task is not None:
            done = max(0, read - self.start)
            self.bar.update(self.task, total=done, completed=done)


@contextmanager
def _progress(edition: str) -> Iterator[SourceBars]:
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
        yield SourceBars(bar, edition)


def _report_encoding(wl: WordList) -> None:
    if wl.guessed:
        err.print(
            f"[yellow]note:[/] {path_text(wl.path)} read as {wl.encoding}: it has no UTF-8 sequence "
            "(use --encoding to read it otherwise)",
            highlight=False,
        )


def _report_build(meta: dict[str, Any], to: Path) -> None:
    """What a build made, in plain words: the words kept of those read, what each rule left out, and
    (a default build) what each source gave."""
    counts = meta["counts"]
    err.print(
        f"[green]built[/] {meta['edition']}: {meta['words']:,} words from {counts['read']:,} read "
        f"({counts['duplicates']:,} of them read again, from another form or source) → {escape(str(to))}",
        highlight=False,
    )
    left_out = [(name, n) for name, n in counts["dropped"].items() if n]
    if left_out:
        err.print("  left out:", highlight=False)
    for name, n in left_out:
        err.print(f"    {n:>9,}  {escape(rule_text(name))}", highlight=False)
    by_source = [s for s in meta["sources"] if "only_here" in s]  # a default build: what each source gave
    if by_source:
        err.print(
            "  by source — its words in the lexicon, how many of them no other source gives, and how many "
            "more of its words a rule left out (each left-out word counted for one source; words too long "
            "for the board or with no tile to spell them are counted above only):",
            highlight=False,
        )
    for s in by_source:
        err.print(
            f"    {escape(s['name'])}: {s['words']:,} in the lexicon, {s['only_here']:,} from it alone; "
            f"{s['removed']:,} left out by a rule",
            highlight=False,
        )
    for s in meta["sources"]:
        if "fise" in s:
            _report_fise(s["fise"])


def rule_text(name: str) -> str:
    """A rule of a build as a person reads it: the catalogue's ``rule_<name>`` (in English, as the rest
    of a build's report), else the spelling rule's own description, else its name."""
    if f"rule_{name}" in catalogue():
        return message(f"rule_{name}").text("en")
    return SPELLING_RULES.get(name, name)


def _report_fise(fise: dict[str, Any]) -> None:
    """What a build from FISE's lists read, and what it could not decide or read (each note names its line)."""
    err.print(
        f"  FISE's lists: {fise['verbs']:,} verbs, {fise['other_words']:,} other words, {fise['forms']:,} forms; "
        f"{fise['undecided_plurals']:,} words no open source decides the plural of "
        f"(undecided_plurals = {fise['undecided_take']!r})",
        highlight=False,
    )
    reasons = fise.get("plural_reasons", {})
    if reasons:  # what decided each word's plural, in the order the reasons are asked
        told = ", ".join(f"{reason} {n:,}" for reason, n in reasons.items())
        err.print(f"  plurals decided by: {told}", highlight=False)
    _report_reading(fise)
    _report_long_feminines(fise.get("feminines_too_long", []))
    for note in fise["first_notes"]:
        err.print(f"  [yellow]note:[/] {escape(note)}", highlight=False)
    if fise["notes"] > len(fise["first_notes"]):
        err.print(f"  … {fise['notes'] - len(fise['first_notes']):,} more notes", highlight=False)


def _report_long_feminines(names: list[str]) -> None:
    """The feminines of the lists left out for their length, whose masculine the lexicon keeps."""
    if not names:
        return
    shown = ", ".join(names[:NAMES_SHOWN])
    more = f" … {len(names) - NAMES_SHOWN:,} more" if len(names) > NAMES_SHOWN else ""
    err.print(
        f"  {len(names):,} feminines longer than the 15-square board, left out (their masculines kept): "
        f"{escape(shown)}{more}",
        highlight=False,
    )


def _report_reading(fise: dict[str, Any]) -> None:
    """The lines of the lists not understood (skipped: the build went on), by file, and the files passed over."""
    total = fise.get("not_understood", 0)
    by_file = ", ".join(f"{name} {n:,}" for name, n in fise.get("not_understood_by_file", {}).items())
    per_file = f" ({escape(by_file)})" if by_file else ""
    lines = "line" if total == 1 else "lines"
    err.print(f"  {total:,} {lines} not understood, skipped{per_file}", highlight=False)
    shown = fise.get("first_not_understood", [])
    for line in shown:
        err.print(f"  [yellow]not understood:[/] {escape(line)}", highlight=False)
    if total > len(shown):
        err.print(f"  … {total - len(shown):,} more lines not understood", highlight=False)
    for name in fise.get("ignored_files", []):
        err.print(f"  passed over (not one of FISE's lists): {escape(name)}", highlight=False)
