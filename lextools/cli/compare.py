"""Word sets side by side: ``compare`` a build with a reference list, ``diff`` two lexicons or lists."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from lextools.cli.common import JsonOpt, LexiconsOpt, home, out, print_json
from lextools.cli.language import LangOpt, language_of, number, say
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
    lang: LangOpt = None,
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
    told = language_of(lang, built.edition)
    columns = [say(told, f"column_{c}") for c in ("tiles", "built", "reference", "common", "precision", "recall")]
    table = Table(*columns, title=say(told, "compare_title", built=built.label, reference=ref.label))
    for r in report["by_length"]:
        table.add_row(
            say(told, "row_all") if r["length"] == "all" else str(r["length"]),
            number(r["built"], told),
            number(r["reference"], told),
            number(r["common"], told),
            _pct(r["precision"], told),
            _pct(r["recall"], told),
        )
    out.print(table)
    _print_unspellable(told, built, ref)
    for name in ("missing", "extra"):
        if name in report:
            shown = report[name]
            said = say(told, f"compare_{name}", count=number(shown["count"], told), words=" ".join(shown["examples"]))
            out.print(said, highlight=False, markup=False, soft_wrap=True)


def _print_unspellable(lang: str, *sets: WordSet) -> None:
    for ws in sets:
        if ws.unspellable:
            said = say(
                lang,
                "unspellable_words",
                count=number(ws.unspellable, lang),
                label=ws.label,
                edition=ws.edition.name,
                examples=" ".join(ws.unspellable_examples),
            )
            out.print(said, highlight=False, markup=False, soft_wrap=True)  # one line: a script may grep it


def _pct(x: float | None, lang: str) -> str:
    """A share as a percentage with one decimal, in ``lang``'s writing (99.5%, 99,5 %)."""
    if x is None:
        return "—"
    return f"{100 * x:.1f}%" if lang == "en" else f"{100 * x:.1f}".replace(".", ",") + "\u00a0%"


@app.command()
def diff(
    a: Annotated[str, typer.Argument(help="Edition, lexicon metadata file (.json) or word list.")],
    b: Annotated[str, typer.Argument(help="Edition, lexicon metadata file (.json) or word list.")],
    edition: Annotated[str | None, typer.Option(help="Edition that reads word lists.")] = None,
    show: Annotated[int, typer.Option(help="List up to this many added/removed words.")] = 20,
    lang: LangOpt = None,
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
    told = language_of(lang, sa.edition)
    table = Table(*(say(told, f"column_{c}") for c in ("tiles", "added", "removed")), title=f"{sa.label} → {sb.label}")
    for r in rows:
        table.add_row(str(r.length), number(r.added, told), number(r.removed, told))
    table.add_row(say(told, "row_all"), number(len(added), told), number(len(removed), told))
    out.print(table)
    _print_unspellable(told, sa, sb)
    if show:
        for name, words in (("added", added), ("removed", removed)):
            line = say(told, f"diff_{name}", words=" ".join(words[:show]) + (" …" if len(words) > show else ""))
            out.print(line, highlight=False, markup=False, soft_wrap=True)
