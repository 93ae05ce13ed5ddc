"""Word sets side by side: ``compare`` a build with a reference list, ``diff`` two lexicons or lists."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from lextools.cli.common import JsonOpt, LexiconsOpt, home, out, print_json
from lextools.core.edition import load_edition
from lextools.features.compare import WordSet, comparison, open_word_set
from lextools.features.compare import diff as diff_sets

app = typer.Typer()


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
    built = open_word_set(built_or_list, ed, home(lexicons))
    ref = open_word_set(str(reference_list), ed or built.edition, home(lexicons))
    report = comparison(built, ref, missing, extra)
    if as_json:
        print_json(report)
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
            are = "is" if ws.unspellable == 1 else "are"
            out.print(
                f"{ws.unspellable:,} {words} of {ws.label} cannot be spelled in {ws.edition.name} "
                f"and {are} not counted "
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
    sa = open_word_set(a, ed, home(lexicons))
    sb = open_word_set(b, ed or sa.edition, home(lexicons))
    rows, added, removed = diff_sets(sa, sb)
    if as_json:
        print_json(
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
