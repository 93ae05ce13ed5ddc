"""The search conditions (:data:`lextools.core.conditions.CONDITIONS`) as options of the commands that
take them (``anagram``, ``pattern``): one option a row, its help the row's English help.

:func:`typer_params` makes each row a keyword-only :class:`inspect.Parameter` annotated
``Annotated[T | None, typer.Option(help=...)]`` (a flag ``--front-hook/--no-front-hook``; a row with a
default of its own on the query, as an anagram's ``min_length``, takes ``T`` and that default; a list
of words, ``--in-list FILE``, is a list file's path; each test's negation, ``--not-length``, is a
flag after its test's last option), and
:func:`with_conditions` gives them to a command through its ``__signature__``
(:func:`lextools.cli.common.with_options`): the command's ``**given`` receives them by name, ready for
:func:`lextools.core.conditions.conditions`. A row added to the table is an option of both commands.

>>> [p.name for p in typer_params(ANAGRAM)][:4], typer_params(ANAGRAM)[0].default
(['min_length', 'max_length', 'not_length', 'min_rank'], 2)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated

import typer

from lextools.cli.common import Command, option, with_options
from lextools.core import conditions as table
from lextools.core.conditions import ANAGRAM, Condition, Negation

__all__ = ["ANAGRAM", "typer_params", "with_conditions"]

#: Where `--help` lists them, apart from the command's own options.
PANEL = "Search conditions"


def _option(condition: Condition | Negation, query: str) -> inspect.Parameter:
    if isinstance(condition, Negation):
        declared = typer.Option(f"--{condition.name.replace('_', '-')}", help=condition.help.en, rich_help_panel=PANEL)
        return option(condition.name, Annotated[bool, declared], False)
    if condition.kind == "words":  # the CLI reads a list from its file
        help_text = "Only words of this list file (one a line, as `lextools check --file` reads it)."
        return option(condition.name, Annotated[Path | None, typer.Option(help=help_text, rich_help_panel=PANEL)], None)
    default = condition.default_for(query)
    flag = condition.name.replace("_", "-")
    declared = typer.Option(
        *([f"--{flag}/--no-{flag}"] if condition.kind == "flag" else []), help=condition.help.en, rich_help_panel=PANEL
    )
    kind = condition.type if default is not None else condition.type | None
    return option(condition.name, Annotated[kind, declared], default)


def typer_params(query: str, rows: Iterable[Condition] | None = None) -> list[inspect.Parameter]:
    """The options of the conditions on ``query`` (one of :data:`lextools.core.conditions.QUERIES`),
    in the table's order, each test's negation after it (``rows``: those rows instead of the table's)."""
    return [_option(c, query) for c in table.parameters(rows)]


def with_conditions(query: str, *groups: Iterable[inspect.Parameter]) -> Callable[[Command], Command]:
    """A command's options for the search conditions on ``query`` (and the options of ``groups``
    before them), received by its ``**kwargs``."""
    return with_options(*groups, typer_params(query))
