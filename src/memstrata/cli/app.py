"""The click group of the ``memstrata`` command: thin commands over :class:`memstrata.Memory`.

Errors are turned into one line and a non-zero exit here, in one place. Command modules are
imported only when their command runs: a hook that runs on every prompt must not pay for the
gate, the gardener or the MCP SDK.
"""

from __future__ import annotations

import errno
import importlib
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import click

from memstrata.errors import MemstrataError
from memstrata.sqlite import database_error_message

#: command name → the module of ``memstrata.cli`` that defines it (in its ``COMMANDS``)
COMMAND_MODULES: dict[str, str] = {
    "init": "workspace", "status": "workspace", "rebuild": "workspace", "demo": "workspace",
    "topic": "topic", "log": "journal", "ingest": "raw",
    "search": "search", "recall": "search", "context": "search", "metrics": "search",
    "remember": "gate", "proposals": "gate", "promote": "gate",
    "garden": "maintain", "ledger": "maintain", "snapshot": "maintain", "tick": "maintain",
    "mcp": "serve", "serve": "serve", "hooks": "hooks", "hook": "hooks",
    "bench": "bench",
}  # fmt: skip


class _Group(click.Group):
    """Loads commands lazily, and reports memstrata and OS errors as one line, not a trace."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is None:
            return None
        commands = importlib.import_module(f"memstrata.cli.{module}").COMMANDS
        return next((command for command in commands if command.name == cmd_name), None)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MemstrataError as error:
            raise click.ClickException(str(error)) from error
        except BrokenPipeError:
            # The reader went away (`memstrata search x | head`): stop quietly, as Unix tools do,
            # and point stdout at nothing so the interpreter's last flush cannot fail again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(141) from None
        except OSError as error:
            where = f"{error.filename}: " if error.filename else ""
            reason = error.strerror or errno.errorcode.get(error.errno or 0, str(error))
            raise click.ClickException(f"{where}{reason}") from error
        except sqlite3.DatabaseError as error:
            raise click.ClickException(database_error_message(error)) from error


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
