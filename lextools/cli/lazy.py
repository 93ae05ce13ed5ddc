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
from collections.abc import Mapping
from difflib import get_close_matches
from typing import ClassVar

import typer
from typer import _click as click  # Typer 0.29 carries its own click: the classes TyperGroup is made of
from typer._click.exceptions import UsageError
from typer.core import TyperGroup


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
        return None if target is None else _group_of(target).get_command(ctx, cmd_name)

    def _plugged(self) -> dict[str, str]:
        return _entry_points(self.plugins) if self.plugins else {}

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Typer's, with its "Did you mean …?" drawn from every command, not just those loaded."""
        try:
            return super().resolve_command(ctx, args)
        except UsageError as e:
            matches = get_close_matches(args[0], self.list_commands(ctx)) if args and self.suggest_commands else []
            if matches and "Did you mean" not in e.message:
                e.message = f"{e.message.rstrip('.')}. Did you mean {', '.join(repr(m) for m in matches)}?"
            raise


@functools.cache
def _entry_points(group: str) -> dict[str, str]:
    # Imported when first needed: a command of ours (every one but a plugin's) reads no package
    # metadata, and importlib.metadata is a noticeable part of a one-word command's start-up.
    from importlib.metadata import entry_points  # noqa: PLC0415

    return {ep.name: ep.value for ep in entry_points(group=group)}


@functools.cache
def _group_of(target: str) -> TyperGroup:
    """The click group of the Typer app at ``module:attribute``, converted once.

    ``get_group`` rather than ``get_command``: a group even for an app of one command, without the
    completion options Typer adds to a lone command.
    """
    module, _, attribute = target.partition(":")
    app = getattr(importlib.import_module(module), attribute)
    if not isinstance(app, typer.Typer):
        raise TypeError(f"{target} is not a Typer app")
    return typer.main.get_group(app)
