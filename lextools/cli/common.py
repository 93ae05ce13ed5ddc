"""What every command group of the CLI shares: the consoles, the common options, and errors → exit 2.

Kept to what a one-word command needs (typer, rich's console, the core), since every command
imports it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from lextools.core.edition import canonical_edition_name, edition_names
from lextools.core.errors import LexiconError, os_error_message, path_text
from lextools.core.lexicon import Lexicon, default_home, load_lexicon

out = Console()
err = Console(stderr=True, soft_wrap=True)

LexiconsOpt = Annotated[
    Path | None,
    typer.Option("--lexicons", "--out", "-L", help="Lexicon directory [default: $LEXTOOLS_HOME or per-user data dir]"),
]


def edition_name(name: str) -> str:
    """An edition argument in its canonical spelling (``ES-FISE`` → es-fise); an unknown name is left
    for the command to refuse, with the names it may mean (:func:`canonical_edition_name`)."""
    try:
        return canonical_edition_name(name)
    except LexiconError:
        return name


EditionArg = Annotated[
    str, typer.Argument(help="Edition (any case): " + ", ".join(edition_names()), callback=edition_name)
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
RecordOpt = Annotated[
    Path | None,
    typer.Option("--record", help="The challenge record (SQLite) [default: challenges.sqlite3 in the lexicon dir]"),
]


def home(lexicons: Path | None) -> Path:
    """The lexicon directory: --lexicons, else $LEXTOOLS_HOME, else the per-user data dir."""
    return lexicons if lexicons is not None else default_home()


def open_lexicon(edition: str, lexicons: Path | None) -> Lexicon:
    return load_lexicon(edition, home(lexicons))


def print_json(data: Any) -> None:
    """One compact JSON document on stdout: the body the service returns for the same query."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")


@contextmanager
def errors_exit_2() -> Iterator[None]:
    """Library and I/O errors become one line naming the cause, and exit code 2 (never a traceback)."""
    try:
        yield
    except LexiconError as e:
        fail(str(e))
    except OSError as e:  # disk full, permission denied, not a directory, ...
        fail(os_error_message(e))
    except UnicodeEncodeError as e:  # a file name that is not UTF-8, met where text is needed
        fail(f"{path_text(e.object)}: a file name that is not UTF-8 cannot be used here")


def fail(message: str) -> NoReturn:
    err.print("[red]error:[/] " + escape(message), highlight=False)
    raise SystemExit(2) from None
