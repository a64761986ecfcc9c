"""Register memstrata with Claude Code: hooks in ``settings.json``, the MCP server in its config.

=========  =================================  ==================================
scope      hooks                              MCP server ``memstrata``
=========  =================================  ==================================
project    ``<project>/.claude/settings.json``  ``<project>/.mcp.json``
user       ``~/.claude/settings.json``         ``~/.claude.json`` (``mcpServers``)
=========  =================================  ==================================

The hooks (Claude Code hooks reference, code.claude.com/docs/en/hooks):

* ``SessionStart`` → ``memstrata hook session-start``: the Rules and the Index, as context;
* ``UserPromptSubmit`` → ``memstrata hook user-prompt``: what is recalled for the prompt;
* ``Stop`` (after each answer) and ``SessionEnd`` → ``memstrata hook stop``: import the
  session's transcript (only what is new) and let memstrata do its due upkeep (``tick``).

Installing merges into what the files hold and is idempotent; uninstalling takes out only what
runs memstrata (see :func:`memstrata.hooks.is_our_command`).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from memstrata.errors import InputError, ParseError
from memstrata.hooks import (
    FileChange,
    HookEntry,
    apply_changes,
    hook_command,
    is_our_server,
    mcp_argv,
    merge_hooks,
    read_json_object,
    remove_hooks,
)

Scope = Literal["project", "user"]

SERVER_NAME = "memstrata"

NEXT_STEPS = "Claude Code loads hooks when it starts: restart it (or review them in /hooks)."

#: (event, hook, timeout in seconds). Reads must stay fast; stop imports and may tend memory.
HOOKS: tuple[tuple[str, str, int], ...] = (
    ("SessionStart", "session-start", 15),
    ("UserPromptSubmit", "user-prompt", 15),
    ("Stop", "stop", 120),
    ("SessionEnd", "stop", 120),
)


def settings_path(scope: Scope, project_dir: Path | None = None, home: Path | None = None) -> Path:
    if scope == "user":
        return (home or Path.home()) / ".claude" / "settings.json"
    return (project_dir or Path.cwd()) / ".claude" / "settings.json"


def mcp_config_path(
    scope: Scope, project_dir: Path | None = None, home: Path | None = None
) -> Path:
    if scope == "user":
        return (home or Path.home()) / ".claude.json"
    return (project_dir or Path.cwd()) / ".mcp.json"


def hook_entries(workspace: Path, program: Sequence[str] | None = None) -> list[HookEntry]:
    """Our hooks for Claude Code, with the workspace baked into each command."""
    return [
        HookEntry(event, hook_command(name, workspace, program=program), timeout_s)
        for event, name, timeout_s in HOOKS
    ]


def plan_install(
    workspace: Path,
    scope: Scope = "project",
    *,
    project_dir: Path | None = None,
    home: Path | None = None,
    program: Sequence[str] | None = None,
) -> list[FileChange]:
    """What installing would write: the hooks file and the MCP config (nothing is written)."""
    settings = read_json_object(settings_path(scope, project_dir, home))
    merged = merge_hooks(settings.data, hook_entries(workspace, program), settings.path)
    mcp = read_json_object(mcp_config_path(scope, project_dir, home))
    servers = _servers(mcp.data, mcp.path)
    existing = servers.get(SERVER_NAME)
    if existing is not None and not is_our_server(existing):
        raise InputError(
            f"{mcp.path}: an MCP server named {SERVER_NAME!r} that does not run memstrata is "
            "already configured; left as it is (rename or remove it first)"
        )
    argv = mcp_argv(workspace, program)
    server = {"type": "stdio", "env": {}, **(existing or {}), "command": argv[0], "args": argv[1:]}
    with_server = {**mcp.data, "mcpServers": {**servers, SERVER_NAME: server}}
    return [
        settings.change(merged, "hooks: " + ", ".join(event for event, _, _ in HOOKS)),
        mcp.change(with_server, f"MCP server {SERVER_NAME!r}"),
    ]


def plan_uninstall(
    scope: Scope = "project", *, project_dir: Path | None = None, home: Path | None = None
) -> list[FileChange]:
    """What uninstalling would write: our hooks and our MCP server taken out, nothing else."""
    changes = []
    settings = read_json_object(settings_path(scope, project_dir, home))
    if settings.text is not None:
        cleaned = remove_hooks(settings.data, settings.path)
        changes.append(_emptied_is_removed(settings.change(cleaned, "hooks removed"), cleaned))
    mcp = read_json_object(mcp_config_path(scope, project_dir, home))
    servers = _servers(mcp.data, mcp.path)
    if is_our_server(servers.get(SERVER_NAME)):
        rest = {name: value for name, value in servers.items() if name != SERVER_NAME}
        data = {key: value for key, value in mcp.data.items() if key != "mcpServers"}
        if rest:
            data = {**mcp.data, "mcpServers": rest}
        change = mcp.change(data, f"MCP server {SERVER_NAME!r} removed")
        changes.append(change if scope == "user" else _emptied_is_removed(change, data))
    return changes


def install(
    workspace: Path,
    scope: Scope = "project",
    *,
    project_dir: Path | None = None,
    home: Path | None = None,
    program: Sequence[str] | None = None,
    dry_run: bool = False,
) -> list[FileChange]:
    """Merge our hooks and MCP server into Claude Code's config (idempotent)."""
    changes = plan_install(workspace, scope, project_dir=project_dir, home=home, program=program)
    if not dry_run:
        apply_changes(changes)
    return changes


def uninstall(
    scope: Scope = "project",
    *,
    project_dir: Path | None = None,
    home: Path | None = None,
    dry_run: bool = False,
) -> list[FileChange]:
    """Take our hooks and MCP server out of Claude Code's config; leave the rest."""
    changes = plan_uninstall(scope, project_dir=project_dir, home=home)
    if not dry_run:
        apply_changes(changes)
    return changes


def _servers(data: dict[str, Any], path: Path) -> dict[str, Any]:
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise ParseError(path, None, "'mcpServers' is not a JSON object; left as it is")
    return servers


def _emptied_is_removed(change: FileChange, data: dict[str, Any]) -> FileChange:
    """A file left holding nothing once ours is out held only ours: remove it."""
    if data or change.before is None:
        return change
    return FileChange(change.path, change.before, None, "it held only memstrata's entries")


def snippet(workspace: Path, program: Sequence[str] | None = None) -> str:
    """What ``install`` adds, as text to paste by hand."""
    hooks = merge_hooks({}, hook_entries(workspace, program), Path("settings.json"))
    argv = mcp_argv(workspace, program)
    servers = {"mcpServers": {SERVER_NAME: {"type": "stdio", "command": argv[0], "args": argv[1:]}}}
    return (
        "# Claude Code hooks: merge into .claude/settings.json (project) or "
        "~/.claude/settings.json (user)\n"
        f"{json.dumps(hooks, indent=2)}\n\n"
        "# MCP server: merge into .mcp.json (project), or run:\n"
        f"#   claude mcp add --scope user {SERVER_NAME} -- {shlex.join(argv)}\n"
        f"{json.dumps(servers, indent=2)}\n"
    )
