"""The cardboxes kept by sync code (lextools/features/cardboxes.py): ``cardboxes export`` and ``import``
move them between the SQLite file beside the lexicons and the database replicas share; ``cardboxes sweep``
deletes those neither read nor written for 180 days (``EXPIRY_DAYS``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from lextools.cli.common import DatabaseOpt, LexiconsOpt, err, home
from lextools.core.errors import QueryError
from lextools.core.messages import message
from lextools.features.cardboxes import EXPIRY_DAYS, EXPIRY_SECONDS, Cardboxes, CardboxStore
from lextools.features.stores import CARDBOXES_NAME, copy_cardboxes, database_url, open_cardboxes

app = typer.Typer()
cardboxes_app = typer.Typer(help="The cardboxes kept by sync code: move them to a shared database and back, sweep.",
                            no_args_is_help=True)  # fmt: skip
app.add_typer(cardboxes_app, name="cardboxes")

CardboxesOpt = Annotated[
    Path | None,
    typer.Option("--cardboxes", help="The cardboxes' SQLite file [default: cardboxes.sqlite3 in the lexicon dir]"),
]


def _stores(
    command: str, path: Path | None, lexicons: Path | None, database: str | None
) -> tuple[Cardboxes, CardboxStore]:
    """The SQLite file and the shared database's cardboxes an export or import copies between."""
    url = database_url(database)
    if url is None:
        raise QueryError(message("store_needs_database", command=command))
    return Cardboxes(path if path is not None else home(lexicons) / CARDBOXES_NAME), open_cardboxes(url, Path())


def _copy(source: CardboxStore, target: CardboxStore) -> None:
    copied = copy_cardboxes(source, target)
    said = message("store_copied", what="cardboxes", source=source.where, target=target.where, **copied.__dict__)
    err.print(escape(str(said)), highlight=False)


@cardboxes_app.command("export")
def export_cardboxes(
    cardboxes: CardboxesOpt = None, lexicons: LexiconsOpt = None, database: DatabaseOpt = None
) -> None:
    """Copy the shared database's cardboxes into a SQLite file.

    Every cardbox the file lacks, under its sync code, as it was last saved. Exit 0, or 2 when either
    cannot be read or written.
    """
    sqlite, shared = _stores("lextools cardboxes export", cardboxes, lexicons, database)
    _copy(shared, sqlite)


@cardboxes_app.command("import")
def import_cardboxes(
    cardboxes: CardboxesOpt = None, lexicons: LexiconsOpt = None, database: DatabaseOpt = None
) -> None:
    """Copy a SQLite file's cardboxes into the shared database.

    Every cardbox the database lacks, under its sync code, so the players' codes work on every replica.
    Run it again: what is there already is left alone. Exit 0, or 2 when either cannot be read or written.
    """
    sqlite, shared = _stores("lextools cardboxes import", cardboxes, lexicons, database)
    _copy(sqlite, shared)


@cardboxes_app.command("sweep")
def sweep_cardboxes(cardboxes: CardboxesOpt = None, lexicons: LexiconsOpt = None, database: DatabaseOpt = None) -> None:
    """Delete the cardboxes neither read nor written for 180 days.

    The store's writes delete them too, as they come; this empties a quiet store (a cron job). The
    shared database's with --database (or $LEXTOOLS_DATABASE_URL), else the SQLite file. Exit 0, or 2
    when the store cannot be read or written.
    """
    url = database_url(database)
    path = cardboxes if cardboxes is not None else home(lexicons) / CARDBOXES_NAME
    store = open_cardboxes(url, path)
    said = message("store_swept", deleted=store.sweep(EXPIRY_SECONDS), days=EXPIRY_DAYS, where=store.where)
    err.print(escape(str(said)), highlight=False)
