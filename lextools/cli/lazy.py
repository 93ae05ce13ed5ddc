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
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, get_args, get_origin

import typer
from typer import _click as click  # Typer 0.29 carries its own click: the classes TyperGroup is made of
from typer._click.exceptions import UsageError
from typer._coercion import RuntimeParam, build_runtime_param
from typer._param_types import coerce_cli_path
from typer.core import TyperGroup, TyperOption, _TyperParameter


class LazyGroup(TyperGroup):
    """A Typer group whose commands are loaded from the Typer app of their module when asked for."""

    #: command name → ``"module:attribute"`` of the Typer app defining it, in the order ``--help`` lists them
    commands_at: ClassVar[Mapping[str, str]] = {}
    #: the entry-point group through which installed packages add commands (listed after ours)
    plugins: ClassVar[str | None] = None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(dict.fromkeys([*super().list_commands(ctx), *self.commands_at, *self._plugged()]))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        # Ours first: a one-word command reads no package metadata.
        target = self.commands_at.get(cmd_name) or self._plugged().get(cmd_name)
        command = None if target is None else _command_of(target, cmd_name, ctx)
        if command is not None:
            _plain(command.get_params(ctx))
        return command

    def get_help_option(self, ctx: click.Context) -> TyperOption | None:
        option = super().get_help_option(ctx)
        _plain([] if option is None else [option])
        return option

    def _plugged(self) -> dict[str, str]:
        return _entry_points(self.plugins) if self.plugins else {}

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Typer's, with its "Did you mean …?" drawn from every command, not just those loaded."""
        try:
            return super().resolve_command(ctx, args)
        except UsageError as e:
            matches = _close_matches(args[0], self.list_commands(ctx)) if args and self.suggest_commands else []
            if matches and "Did you mean" not in e.message:
                e.message = f"{e.message.rstrip('.')}. Did you mean {', '.join(repr(m) for m in matches)}?"
            raise


def _close_matches(word: str, names: list[str]) -> list[str]:
    from difflib import get_close_matches  # noqa: PLC0415  (only a mistyped command needs difflib)

    return get_close_matches(word, names)


@functools.cache
def _entry_points(group: str) -> dict[str, str]:
    # Imported when first needed: a command of ours (every one but a plugin's) reads no package
    # metadata, and importlib.metadata is a noticeable part of a one-word command's start-up.
    from importlib.metadata import entry_points  # noqa: PLC0415

    return {ep.name: ep.value for ep in entry_points(group=group)}


def _command_of(target: str, name: str, ctx: click.Context) -> click.Command | None:
    """The command ``name`` of the Typer app at ``module:attribute``: only it is converted (Typer's
    conversion of a command reads its function's signature, a cost per command), else the app's group."""
    command = _converted(target, name)
    return command if command is not None else _group_of(target).get_command(ctx, name)


@functools.cache
def _converted(target: str, name: str) -> click.Command | None:
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


def _plain(params: list[click.Parameter]) -> None:
    """Have :class:`Plain` convert the plain parameters among ``params``."""
    for param in params:
        if isinstance(param, _TyperParameter) and param._runtime_param is None and Plain.converts(param):
            param._runtime_param = Plain(param.type_descriptor.parameter_info, param.type_descriptor.annotation)


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


@dataclass(frozen=True)
class Plain(RuntimeParam):
    """Typer's conversion of a plain parameter without pydantic (see the module's docstring)."""

    @staticmethod
    def converts(param: _TyperParameter) -> bool:
        """Whether the parameter is plain: its type, or its list's, one of ours, with no constraint
        (bounds, a parser, a path that must exist), and no file to open."""
        desc = param.type_descriptor
        info, annotation = desc.parameter_info, desc.annotation
        if get_origin(annotation) is list:
            (annotation,) = get_args(annotation) or (None,)
        constrained = info.parser is not None or info.min is not None or info.max is not None
        return annotation in _PLAIN and not constrained and not desc.is_file and not info.exists

    def _coerce_value(self, value: Any, param: _TyperParameter, ctx: click.Context) -> Any:
        many = get_origin(self.annotation) is list
        kind = get_args(self.annotation)[0] if many else self.annotation
        convert = _PLAIN[kind]
        items = list(value) if many else [value]
        converted = [convert(item) for item in items]
        if any(c is None for c in converted):  # not the plain value expected: Typer's conversion says why
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param, ctx)
        if kind is Path:  # what Typer checks of a path that exists (a directory where a file is wanted, …)
            info = self.parameter_info
            converted = [coerce_cli_path(c, info, path_type=Path, param=param, ctx=ctx) for c in converted]
        return converted if many else converted[0]
