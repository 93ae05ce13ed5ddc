"""The ``lextools`` command line: a thin layer over the library.

Exit codes: 0 success (``check``: every word valid), 1 ``check`` found an invalid word, 2 usage,
data or I/O errors (unknown edition, missing or corrupt lexicon, unreadable list, refused build, full
disk, permission, not a directory) with a one-line message naming the path and the cause.
``--json`` prints the answer :mod:`lextools.features.answers` builds for the service too.

Each command group is a module of this package with its own ``typer.Typer()``; the root group below
imports a group's module only when one of its commands runs (:mod:`lextools.cli.lazy`), and finds
commands of other installed packages (``serve``, from the service) through the entry-point group
``lextools.commands``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import typer

from lextools.cli.common import errors_exit_2
from lextools.cli.lazy import LazyGroup


class Commands(LazyGroup):
    """The ``lextools`` commands, in the order ``--help`` lists them, and the module of each."""

    commands_at: ClassVar[Mapping[str, str]] = {
        "editions": "lextools.cli.editions:app",
        "build": "lextools.cli.build:app",
        "check": "lextools.cli.words:app",
        "explain": "lextools.cli.words:app",
        "hooks": "lextools.cli.words:app",
        "card": "lextools.cli.words:app",
        "two-tile": "lextools.cli.study:app",
        "anagram": "lextools.cli.study:app",
        "pattern": "lextools.cli.study:app",
        "stems": "lextools.cli.lists:app",
        "high-value": "lextools.cli.lists:app",
        "new-words": "lextools.cli.lists:app",
        "list-quiz": "lextools.cli.lists:app",
        "quiz": "lextools.cli.quiz:app",
        "score": "lextools.cli.words:app",
        "export": "lextools.cli.files:app",
        "verify": "lextools.cli.files:app",
        "compare": "lextools.cli.compare:app",
        "diff": "lextools.cli.compare:app",
        "record": "lextools.cli.judge:app",
        "receipt": "lextools.cli.judge:app",
        "cardboxes": "lextools.cli.cardboxes:app",
    }
    plugins: ClassVar[str | None] = "lextools.commands"


app = typer.Typer(
    cls=Commands,
    help="Scrabble lexicons per edition: build, check words, hooks, anagrams, patterns, exports.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def lextools() -> None:
    """No options of its own: Typer makes a group only of an app with a callback or commands of its own."""


def main() -> None:
    """Entry point: library and I/O errors become one line naming the cause, and exit code 2."""
    with errors_exit_2():
        app()
