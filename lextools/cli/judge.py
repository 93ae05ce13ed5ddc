"""The word judge's records: ``record`` (the challenges judged) and ``receipt verify`` (one after the game).

``serve`` runs the judge itself; it is the service's command (:mod:`service.cli`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from lextools.cli.common import JsonOpt, LexiconsOpt, RecordOpt, err, home, out, print_json
from lextools.features.receipts import load_secret
from lextools.features.record import ChallengeRecord, as_csv_text, default_record, parse_since

app = typer.Typer()


@app.command("record")
def show_record(
    since: Annotated[str | None, typer.Option(help="Only challenges from this time on: 2026-11-30T09:00 UTC.")] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (for a spreadsheet) instead of a table.")] = False,
    as_json: JsonOpt = False,
    record: RecordOpt = None,
    lexicons: LexiconsOpt = None,
) -> None:
    """The challenge record: every challenge judged, with its time, edition, lexicon, words and verdict."""
    entries = ChallengeRecord(_record_path(record, lexicons)).entries(parse_since(since) if since else None)
    if as_csv:
        sys.stdout.write(as_csv_text(entries))
    elif as_json:
        print_json({"challenges": entries})
    else:
        table = Table("time (UTC)", "edition", "lexicon", "words", "verdict", "id")
        for e in entries:
            verdict = "[green]valid[/]" if e["acceptable"] else "[red]not valid[/]"
            when = e["time"][:19].replace("T", " ")
            table.add_row(when, e["edition"], e["checksum"][:8], escape(" ".join(e["words"])), verdict, e["id"])
        out.print(table)


def _record_path(record: Path | None, lexicons: Path | None) -> Path:
    return record if record is not None else default_record(home(lexicons))


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
    text = sys.stdin.read() if receipt == "-" else receipt
    path = _record_path(record, lexicons)
    rec = ChallengeRecord(path)
    result = rec.verify(text, load_secret(path, create=False))
    if result.ok:
        out.print(f"[green]{escape(result.message)}[/]", highlight=False)
    else:
        err.print(f"[red]not valid:[/] {escape(result.message)}", highlight=False)
    raise typer.Exit(0 if result.ok else 1)
