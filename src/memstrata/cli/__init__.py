"""The ``memstrata`` command: thin commands over :class:`memstrata.Memory`.

Errors are turned into one line and a non-zero exit here, in one place.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path
from typing import Any

import click

from memstrata.errors import MemstrataError


class _Group(click.Group):
    """A group that reports memstrata and OS errors as one line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MemstrataError as error:
            raise click.ClickException(str(error)) from error
        except OSError as error:
            where = f"{error.filename}: " if error.filename else ""
            reason = error.strerror or errno.errorcode.get(error.errno or 0, str(error))
            raise click.ClickException(f"{where}{reason}") from error
        except sqlite3.DatabaseError as error:
            raise click.ClickException(f"database error: {error}") from error


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--workspace",
    "-w",
    type=click.Path(path_type=Path),
    default=None,
    help="Workspace folder (default: $MEMSTRATA_WORKSPACE, else the nearest memstrata.toml above).",
)
@click.version_option(package_name="memstrata")
@click.pass_context
def cli(ctx: click.Context, workspace: Path | None) -> None:
    """Long-term memory for AI agents: rules, wiki, journal and raw strata.

    Example: memstrata init ~/agent-memory && memstrata -w ~/agent-memory status
    """
    ctx.obj = workspace


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="memstrata")


def _register() -> None:
    from memstrata.cli import (
        gate,
        hooks,
        journal,
        maintain,
        raw,
        search,
        serve,
        topic,
        workspace,
    )

    for module in (workspace, topic, journal, raw, search, gate, maintain, serve, hooks):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()
