"""The word judge's records: ``record`` (the challenges judged) and ``receipt verify`` (one after the game).

``serve`` runs the judge itself; it is the service's command (:mod:`service.cli`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from lextools.cli.common import JsonOpt, LexiconsOpt, RecordOpt, err, home, out
from lextools.core.errors import path_text
from lextools.core.inputs import read_stream
from lextools.core.messages import message
from lextools.features.inert import inert, inert_json, inert_words
from lextools.features.receipts import load_secret
from lextools.features.record import (
    ABSENT,
    ALTERED,
    MALFORMED,
    ChallengeRecord,
    as_csv_text,
    default_record,
    parse_since,
)

app = typer.Typer()


@app.command("record")
def show_record(
    since: Annotated[str | None, typer.Option(help="Only challenges from this time on: 2026-11-30T09:00 UTC.")] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (for a spreadsheet) instead of a table.")] = False,
    as_json: JsonOpt = False,
    record: RecordOpt = None,
    lexicons: LexiconsOpt = None,
) -> None:
    """The challenge record: every challenge judged, with its time, edition, lexicon, words and verdict.

    The record read is named on stderr (the table, CSV or JSON on stdout stays clean). Default record:
    challenges.sqlite3 in the lexicon directory. Exit 0, or 2 when it cannot be read.
    """
    entries = ChallengeRecord(_record_path(record, lexicons)).entries(parse_since(since) if since else None)
    if as_csv:
        sys.stdout.write(as_csv_text(entries))
    elif as_json:  # the words exact for a program, their control characters as JSON escapes for a person
        sys.stdout.write(inert_json({"challenges": entries}) + "\n")
    else:
        table = Table("time (UTC)", "edition", "lexicon", "words", "verdict", "id")
        for e in entries:
            verdict = Text("valid", "green") if e["acceptable"] else Text("not valid", "red")
            when = e["time"][:19].replace("T", " ")
            # Text, not markup: a client's words are shown as they are (inert), never read as markup or emoji
            table.add_row(when, inert(e["edition"]), e["checksum"][:8], Text(inert_words(e["words"])), verdict, e["id"])
        out.print(table, emoji=False, highlight=False)


def _record_path(record: Path | None, lexicons: Path | None) -> Path:
    """The record a command reads (--record, else the lexicon directory's), named on stderr."""
    path = record if record is not None else default_record(home(lexicons))
    err.print(escape(str(message("record_reading", record=path_text(path.absolute())))), highlight=False)
    return path


receipt_app = typer.Typer(help="Receipts of challenges: check one after the game.", no_args_is_help=True)
app.add_typer(receipt_app, name="receipt")


@receipt_app.command("verify")
def verify_receipt(
    receipt: Annotated[
        str, typer.Argument(help="The receipt as JSON (or the whole challenge answer); - reads it from stdin.")
    ] = "-",
    challenge_id: Annotated[
        str | None,
        typer.Option(
            "--id",
            help="Check a challenge from the record alone, by its id or the start of it (the 8 characters the "
            "judge shows under its verdict): the record's row against the signature kept with it.",
        ),
    ] = None,
    record: RecordOpt = None,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check a receipt, or with --id a challenge of the record, against the server secret and the
    challenge record (named on stderr).

    Exit 0 valid; 1 not valid (the signature and the record disagree: a forged receipt or an edited
    record); 2 not a receipt, an --id that starts several challenges' ids or one recorded before the
    record kept signatures (check the players' receipt then), or no record or secret to check it with;
    3 the challenge is not in this record (judged by another server, or recorded elsewhere: give that
    record with --record).
    """
    if challenge_id is not None and receipt != "-":
        raise typer.BadParameter("give a receipt or --id, not both", param_hint="RECEIPT")
    path = _record_path(record, lexicons)

    def secret() -> bytes:  # read only once the challenge is found: an unknown one needs no secret
        return load_secret(path, create=False)

    if challenge_id is not None:
        result = ChallengeRecord(path).verify_id(challenge_id, secret)
    else:
        text = read_stream().decode("utf-8", "surrogateescape") if receipt == "-" else receipt
        result = ChallengeRecord(path).verify(text, secret)
    # Text, not markup: nothing of the receipt or the words is read as markup or emoji (they are inert).
    if result.ok and result.receipt is not None:  # the challenge; the signed verdict, coloured by it; the words
        challenge, verdict, words = result.message.split("\n")
        colour = "bold green" if result.receipt.acceptable else "bold red"
        for line in (Text(challenge, "green"), Text(verdict, colour), Text(words)):
            out.print(line, highlight=False, emoji=False, soft_wrap=True)
    else:
        told = result.message
        if result.status in _SAID:  # "not valid" only for exit 1, "not found" only for exit 3
            told = str(message(_SAID[result.status], reason=told))
        elif result.status == MALFORMED and challenge_id is None and _AN_ID.fullmatch(receipt.strip()):
            told += "\n" + str(message("receipt_use_id", id=receipt.strip()))  # the 8 characters a kiosk shows
        err.print(Text(told, "red"), highlight=False, emoji=False, soft_wrap=True)
    raise typer.Exit(result.exit_status)


#: What a failed check begins with, by its outcome (the others say what they are themselves).
_SAID = {ALTERED: "receipt_not_valid", ABSENT: "receipt_not_found"}
#: A receipt's id, or the start of it, given where the receipt's JSON goes.
_AN_ID = re.compile(r"[0-9a-fA-F]{4,64}")
