"""``lextools editions``: the editions, their tile totals and digraph rules."""

from __future__ import annotations

import typer
from rich.table import Table

from lextools.cli.common import JsonOpt, out, print_json
from lextools.core.edition import edition_names, load_edition

app = typer.Typer()


@app.command()
def editions(as_json: JsonOpt = False) -> None:
    """List the editions with their tile totals and digraph rules."""
    eds = [load_edition(n) for n in edition_names()]
    if as_json:
        print_json([e.as_dict() for e in eds])
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
