"""A command group that imports a command's module only when the command is run or listed.

click's "lazily loading subcommands" pattern, for Typer: each command group is a module with its own
``typer.Typer()``; the root group knows only where each command lives (``"module:app"``), and
:meth:`LazyGroup.get_command` imports that module on demand. So ``lextools check`` loads neither the
build machinery nor the service, and ``--help`` (which needs every short help) loads them all.

Other packages add commands through the entry-point group :attr:`LazyGroup.plugins` (pyproject.toml:
``[project.entry-points."lextools.commands"]``, ``name = "package.module:app"``); the service adds
``serve`` that way, so the library never imports it.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, get_args, get_origin

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

#: Typer 0.29 carries its own copy of click, which is private (``typer._click``): its classes are
#: named here only as what Typer's public classes take and give (a ``typer.Context``, a
#: ``TyperCommand`` or ``TyperGroup``, a ``TyperOption`` or ``TyperArgument``).
Context = Any
Command = Any
Parameter = Any


class LazyGroup(TyperGroup):
    """A Typer group whose commands are loaded from the Typer app of their module when asked for."""

    #: command name → ``"module:attribute"`` of the Typer app defining it, in the order ``--help`` lists them
    commands_at: ClassVar[Mapping[str, str]] = {}
    #: the entry-point group through which installed packages add commands (listed after ours)
    plugins: ClassVar[str | None] = None

    def list_commands(self, ctx: Context) -> list[str]:
        return list(dict.fromkeys([*super().list_commands(ctx), *self.commands_at, *self._plugged()]))

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        # Ours first: a one-word command reads no package metadata.
        target = self.commands_at.get(cmd_name) or self._plugged().get(cmd_name)
        command = None if target is None else _command_of(target, cmd_name, ctx)
        if command is not None:
            _plain(command.get_params(ctx))
        return command

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        option = super().get_help_option(ctx)
        _plain([] if option is None else [option])
        return option

    def _plugged(self) -> dict[str, str]:
        return _entry_points(self.plugins) if self.plugins else {}

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        """Typer's, with its "Did you mean …?" drawn from every command, not just those loaded (Typer
        draws it from the loaded ones): a name no command has fails here, as click words it."""
        name = args[0] if args else ""
        unknown = (
            name and not name.startswith("-") and not ctx.resilient_parsing and self.get_command(ctx, name) is None
        )
        matches = _close_matches(name, self.list_commands(ctx)) if unknown and self.suggest_commands else []
        if matches:
            ctx.fail(f"No such command {name!r}. Did you mean {', '.join(repr(m) for m in matches)}?")
        return super().resolve_command(ctx, args)


def _close_matches(word: str, names: list[str]) -> list[str]:
    from difflib import get_close_matches  # noqa: PLC0415  (only a mistyped command needs difflib)

    return get_close_matches(word, names)


@functools.cache
def _entry_points(group: str) -> dict[str, str]:
    # Imported when first needed: a command of ours (every one but a plugin's) reads no package
    # metadata, and importlib.metadata is a noticeable part of a one-word command's start-up.
    from importlib.metadata import entry_points  # noqa: PLC0415

    return {ep.name: ep.value for ep in entry_points(group=group)}


def _command_of(target: str, name: str, ctx: Context) -> Command | None:
    """The command ``name`` of the Typer app at ``module:attribute``: only it is converted (Typer's
    conversion of a command reads its function's signature, a cost per command), else the app's group."""
    command = _converted(target, name)
    return command if command is not None else _group_of(target).get_command(ctx, name)


@functools.cache
def _converted(target: str, name: str) -> Command | None:
    app = _app_at(target)
    for info in app.registered_commands:
        if info.callback is not None and (info.name or typer.main.get_command_name(info.callback.__name__)) == name:
            return typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
            )
    return None


def _app_at(target: str) -> typer.Typer:
    module, _, attribute = target.partition(":")
    app = getattr(importlib.import_module(module), attribute)
    if not isinstance(app, typer.Typer):
        raise TypeError(f"{target} is not a Typer app")
    return app


@functools.cache
def _group_of(target: str) -> TyperGroup:
    """The click group of the Typer app at ``module:attribute``, converted once.

    ``get_group`` rather than ``get_command``: a group even for an app of one command, without the
    completion options Typer adds to a lone command.
    """
    return typer.main.get_group(_app_at(target))


# -- the one reach into Typer's internals ------------------------------------------------------------
#
# Typer 0.29 converts every parameter's value with a pydantic TypeAdapter, and importing pydantic
# would cost a one-word command (``lextools check``) more than the rest of its start-up. No public
# API lets a command convert its own plain values, so this is where lextools uses one private
# attribute of Typer's: a parameter's converter, ``_runtime_param`` (Typer builds it on first use in
# ``get_runtime_param()``, and calls its ``coerce(value, param=, ctx=)``). :func:`_plain` sets it to
# a :class:`Plain` first, for the plain parameters only; anything else is left to Typer. Typer is
# pinned to 0.29.x (pyproject.toml), and tests/test_cli.py checks the attribute is still Typer's
# converter and that no one-word command imports pydantic.


def _plain(params: list[Parameter]) -> None:
    """Have :class:`Plain` convert the plain parameters among ``params``."""
    for param in params:
        if isinstance(param, TyperOption | TyperArgument) and param._runtime_param is None and Plain.converts(param):
            param._runtime_param = Plain(param.type_descriptor.annotation)  # type: ignore[assignment]  # Typer calls coerce()


_INTEGER = re.compile(r"-?[0-9]+")


def _as_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _as_int(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):  # a default
        return value
    return int(value) if isinstance(value, str) and _INTEGER.fullmatch(value) else None


def _as_bool(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _as_path(value: Any) -> Path | None:
    return value if isinstance(value, Path) else Path(value) if isinstance(value, str) else None


#: The annotations :class:`Plain` converts, and how (None: a value it leaves to Typer).
_PLAIN: dict[Any, Callable[[Any], Any]] = {str: _as_str, int: _as_int, bool: _as_bool, Path: _as_path}


class Plain:
    """Typer's conversion of a plain parameter without pydantic (see above): a ``str``, ``int``,
    ``bool`` or ``Path`` (or a list of one of them) with no constraint; a value of another shape is
    converted, or refused with its message, by Typer's own converter."""

    __slots__ = ("annotation",)

    def __init__(self, annotation: Any) -> None:
        self.annotation = annotation  # a plain class, not a dataclass: made in microseconds at import

    @staticmethod
    def converts(param: Parameter) -> bool:
        """Whether the parameter is plain: its type, or its list's, one of ours, with no constraint
        (bounds, a parser, a path with conditions of its own), and no file to open."""
        desc = param.type_descriptor
        info, annotation = desc.parameter_info, desc.annotation
        if get_origin(annotation) is list:
            (annotation,) = get_args(annotation) or (None,)
        constrained = info.parser is not None or info.min is not None or info.max is not None
        if annotation is Path:  # the conditions a path may have: only Typer's own checks them
            constrained |= bool(info.exists or info.writable or info.resolve_path or info.allow_dash)
            constrained |= not (info.file_okay and info.dir_okay)
        return annotation in _PLAIN and not constrained and not desc.is_file

    def coerce(self, value: Any, param: Parameter, ctx: Context) -> Any:
        """The value of ``param``: None or no values as they are (as Typer's ``coerce``), a plain one
        converted here, any other by Typer's own converter."""
        many = param.multiple or param.nargs == -1
        if value is None:
            return () if many else None
        kind = get_args(self.annotation)[0] if get_origin(self.annotation) is list else self.annotation
        items = list(value) if many and not isinstance(value, str) else [value]
        converted = [_PLAIN[kind](item) for item in items]
        if (many and isinstance(value, str)) or any(c is None or not _readable(c) for c in converted):
            param._runtime_param = None  # not plain after all: Typer's converter, which says why
            return param.get_runtime_param().coerce(value, param=param, ctx=ctx)
        return converted if many else converted[0]


def _readable(value: Any) -> bool:
    """A path Typer's check lets through (it refuses an existing one that cannot be read); anything else."""
    return not isinstance(value, Path) or not value.exists() or os.access(value, os.R_OK)
