"""What every command group of the CLI shares: the consoles, the common options, and errors → exit 2.

Kept to what a one-word command needs (typer, the core), since every command imports it: rich's
consoles are made when something is first printed through them, and a command that prints plain
lines (:func:`echo`), a small table (:func:`print_table`) or JSON never imports rich (importing it
would cost a one-word command a third of its time).
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from lextools.core.edition import canonical_edition_name, edition_names
from lextools.core.errors import LexiconError, os_error_message, path_text
from lextools.core.lexicon import Lexicon, default_home, load_lexicon

if TYPE_CHECKING:
    from rich.console import Console

    out: Console
    err: Console


def __getattr__(name: str) -> Any:
    """``out`` and ``err``, rich's consoles for stdout and stderr, made when first imported (a module
    that prints through rich imports them; see the module's docstring)."""
    if name not in ("out", "err"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _console(name == "err")


@functools.cache
def _console(stderr: bool) -> Console:
    from rich.console import Console  # noqa: PLC0415  (rich costs a one-word command a third of its time)

    return Console(stderr=True, soft_wrap=True) if stderr else Console()


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
DatabaseOpt = Annotated[
    str | None,
    typer.Option(
        "--database",
        help="The PostgreSQL database replicas share (postgresql://USER@HOST:PORT/NAME; a password is better "
        "in ~/.pgpass or $PGPASSWORD than on a command line) [default: $LEXTOOLS_DATABASE_URL; none: SQLite files]",
    ),
]


# -- option groups, declared once and given to the commands that take them ----------------------------

Command = TypeVar("Command", bound=Callable[..., Any])


def option(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    """One option of a group: a keyword-only parameter ``name: annotation = default``, the annotation
    an ``Annotated[T, typer.Option(...)]`` as Typer reads it."""
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def with_options(*groups: Iterable[inspect.Parameter]) -> Callable[[Command], Command]:
    """Give a command the options of ``groups`` through its ``__signature__``, which Typer reads with
    :func:`inspect.signature`: an option the command names (``*, as_json: bool``) takes the group's
    declaration in its place; the others stand where the command's ``**kwargs`` is, which takes
    them. An option of a group the command has no place for is a TypeError, when it is declared.

    >>> @with_options([option("as_json", JsonOpt, False)])
    ... def show(edition: str, *, as_json: bool) -> None: ...
    >>> inspect.signature(show).parameters["as_json"].default
    False
    """

    def give(command: Command) -> Command:
        signature = inspect.signature(command, eval_str=True)
        declared = {p.name: p for group in groups for p in group}
        own = signature.parameters
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in own.values()) and set(declared) - set(own):
            raise TypeError(f"{command.__name__} has no place for {', '.join(sorted(set(declared) - set(own)))}")
        parameters: list[inspect.Parameter] = []
        for p in own.values():
            if p.kind is inspect.Parameter.VAR_KEYWORD:
                parameters += [q for name, q in declared.items() if name not in own]
            else:
                parameters.append(declared.get(p.name, p))
        keyword = next((i for i, p in enumerate(parameters) if p.kind is inspect.Parameter.KEYWORD_ONLY), None)
        if keyword is not None:  # after the first keyword-only one, every option is keyword-only
            parameters[keyword:] = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in parameters[keyword:]]
        command.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        return command

    return give


#: The options every command printing an answer of a lexicon takes: ``--json`` and ``--lexicons``.
OUTPUT_OPTIONS = (option("as_json", JsonOpt, False), option("lexicons", LexiconsOpt, None))


def home(lexicons: Path | None) -> Path:
    """The lexicon directory: --lexicons, else $LEXTOOLS_HOME, else the per-user data dir."""
    return lexicons if lexicons is not None else default_home()


def open_lexicon(edition: str, lexicons: Path | None) -> Lexicon:
    return load_lexicon(edition, home(lexicons))


def echo(line: str) -> None:
    """One line on stdout as it is: no markup, no wrapping (rich's ``print(…, markup=False,
    highlight=False, soft_wrap=True)`` without rich)."""
    sys.stdout.write(line + "\n")


#: A table cell: its text, or its text and the colour a terminal shows it in ("green", "red").
Cell = str | tuple[str, str]
_COLOURS = {"green": "32", "red": "31"}


def print_table(columns: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    """A table drawn as rich draws its own (a heavy head, a light body), its last column wrapped to fit
    the terminal's width; colours only on a terminal, and never with ``NO_COLOR`` set."""
    texts = [[c if isinstance(c, str) else c[0] for c in row] for row in rows]
    widths = [max(map(len, column)) for column in zip(columns, *texts, strict=True)]
    room = shutil.get_terminal_size().columns - sum(widths[:-1]) - 3 * len(widths) - 1
    widths[-1] = min(widths[-1], max(room, 10))
    painted = sys.stdout.isatty() and not os.environ.get("NO_COLOR")

    def rule(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    def lines(bar: str, row: Sequence[Cell]) -> list[str]:
        cells = [c if isinstance(c, str) else c[0] for c in row]
        colours = [None if isinstance(c, str) else _COLOURS.get(c[1]) for c in row]
        wrapped = [*([c] for c in cells[:-1]), textwrap.wrap(cells[-1], widths[-1]) or [""]]
        out = []
        for i in range(max(map(len, wrapped))):
            parts = []
            for part, width, colour in zip(wrapped, widths, colours, strict=True):
                text = part[i] if i < len(part) else ""
                padded = text.ljust(width)
                parts.append(
                    f"\x1b[{colour}m{text}\x1b[0m{padded[len(text) :]}" if painted and colour and text else padded
                )
            out.append(bar + " " + f" {bar} ".join(parts) + " " + bar)
        return out

    drawn = [rule("┏", "━", "┳", "┓"), *lines("┃", columns), rule("┡", "━", "╇", "┩")]
    drawn += [line for row in rows for line in lines("│", row)]
    drawn.append(rule("└", "─", "┴", "┘"))
    sys.stdout.write("\n".join(drawn) + "\n")


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
        fail(f"{path_text(_line_around(e))}: a file name that is not UTF-8 cannot be used here")


def _line_around(e: UnicodeEncodeError) -> str:
    """The line of the text being encoded that holds the character refused (a name), not the whole text."""
    text = e.object
    start, end = text.rfind("\n", 0, e.start) + 1, text.find("\n", e.end)
    line = text[start : end if end >= 0 else len(text)].strip()
    return line if len(line) <= 200 else line[:200] + "…"


def fail(message: str) -> NoReturn:
    from rich.markup import escape  # noqa: PLC0415  (an error is the only plain line printed in colour)

    _console(stderr=True).print("[red]error:[/] " + escape(message), highlight=False)
    raise SystemExit(2) from None
