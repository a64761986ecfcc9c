"""The ``memstrata`` command (:mod:`memstrata.cli.app` holds the click group).

The console script starts here. The two hooks a harness runs before every prompt, in the form
``hooks install`` writes them (``memstrata --workspace W hook user-prompt``), are answered
without loading click, about 15 ms of every prompt; any other command line, theirs with any
other option included, goes through click.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

#: the hooks answered without click (see :data:`memstrata.hooks.run.FAST_EXIT`)
_PROMPT_HOOKS = ("session-start", "user-prompt")


def main() -> None:
    """Console-script entry point."""
    hook = prompt_hook(sys.argv[1:])
    if hook is not None:
        from memstrata.hooks.run import answer

        answer(*hook)
        return
    from memstrata.cli.app import cli

    cli(prog_name="memstrata")


def prompt_hook(argv: list[str]) -> tuple[str, Path | None] | None:
    """``(hook, workspace)`` when ``argv`` is ``[--workspace W | -w W | --workspace=W] hook
    NAME`` for a per-prompt hook and nothing more; else ``None`` (click reads it)."""
    rest, workspace = list(argv), None
    if rest[:1] in (["--workspace"], ["-w"]) and len(rest) > 1:
        workspace, rest = rest[1], rest[2:]
    elif rest[:1] and rest[0].startswith("--workspace="):
        workspace, rest = rest[0].partition("=")[2], rest[1:]
    if workspace == "" or len(rest) != 2 or rest[0] != "hook" or rest[1] not in _PROMPT_HOOKS:
        return None
    return rest[1], None if workspace is None else Path(workspace)


def __getattr__(name: str) -> Any:
    # the click group and its table, for the callers that name them from here
    if name in ("cli", "COMMAND_MODULES"):
        from memstrata.cli import app

        return getattr(app, name)
    raise AttributeError(f"module 'memstrata.cli' has no attribute {name!r}")
