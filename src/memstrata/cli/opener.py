"""Opening the Memory a command works on."""

from __future__ import annotations

from pathlib import Path

import click

from memstrata.memory import Memory


def open_memory(ctx: click.Context) -> Memory:
    """The Memory for ``--workspace`` (or discovery); closed when the command ends."""
    workspace: Path | None = ctx.find_root().obj
    memory = Memory(workspace)
    ctx.call_on_close(memory.close)
    return memory
