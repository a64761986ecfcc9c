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
install writes for the workspace in effect (see :mod:`memstrata.hooks.settings`): a hook or an
MCP server ``memstrata`` for another workspace is left as it is.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from memstrata.errors import InputError, ParseError
from memstrata.hooks.settings import (
    FileChange,
    HookEntry,
    apply_changes,
    installed_workspaces,
    is_our_server,
    mcp_argv,
    merge_hooks,
    others_note,
    read_json_object,
    refuse_to_guess,
    remove_hooks,
    removed_if_created,
    same_workspace,
    server_workspace,
)

Scope = Literal["project", "user"]

HARNESS = "Claude Code"

SERVER_NAME = "memstrata"

NEXT_STEPS = "Claude Code loads hooks when it starts: restart it (or review them in /hooks)."

#: (event, hook, timeout in seconds). Reads must stay fast; stop imports and may tend memory.
HOOKS: tuple[tuple[str, str, int], ...] = (
    ("SessionStart", "session-start", 15),
    ("UserPromptSubmit", "user-prompt", 15),
    ("Stop", "stop", 120),
    ("SessionEnd", "stop", 120),
)

ENTRIES: tuple[HookEntry, ...] = tuple(HookEntry(event, (name,), t) for event, name, t in HOOKS)


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
    merged = merge_hooks(settings.data, ENTRIES, workspace, settings.path, program)
    note = "hooks: " + ", ".join(event for event, _, _ in HOOKS)
    if others := others_note(merged, ENTRIES, workspace):
        note += f"; {others}"
    mcp = read_json_object(mcp_config_path(scope, project_dir, home))
    servers = _servers(mcp.data, mcp.path)
    existing = servers.get(SERVER_NAME)
    if existing is not None and not _is_installed_for(existing, workspace):
        kept = _server_set_by_hand(existing, mcp.path, scope)
        return [settings.change(merged, note), FileChange(mcp.path, mcp.text, mcp.text, kept)]
    argv = mcp_argv(workspace, program)
    server = {"type": "stdio", "env": {}, **(existing or {}), "command": argv[0], "args": argv[1:]}
    with_server = {**mcp.data, "mcpServers": {**servers, SERVER_NAME: server}}
    return [settings.change(merged, note), mcp.change(with_server, f"MCP server {SERVER_NAME!r}")]


def plan_uninstall(
    workspace: Path | None,
    scope: Scope = "project",
    *,
    project_dir: Path | None = None,
    home: Path | None = None,
) -> list[FileChange]:
    """What uninstalling would write: what install wrote for ``workspace`` taken out, nothing
    else. With no workspace (``None``) nothing is, and it is an error when memstrata is
    installed there for some workspace (which one's entries to remove is not guessed)."""
    settings = read_json_object(settings_path(scope, project_dir, home))
    mcp = read_json_object(mcp_config_path(scope, project_dir, home))
    servers = _servers(mcp.data, mcp.path)
    server = servers.get(SERVER_NAME)
    if workspace is None:
        named = [*installed_workspaces(settings.data, ENTRIES), server_workspace(server)]
        refuse_to_guess(named, "claude-code", scope)
    changes = []
    if settings.text is not None:
        cleaned = settings.data
        if workspace is not None:
            cleaned = remove_hooks(settings.data, ENTRIES, workspace, settings.path)
        notes = ["hooks removed"] if cleaned != settings.data else []
        if others := others_note(cleaned, ENTRIES, None):
            notes.append(others)
        change = settings.change(cleaned, "; ".join(notes))
        changes.append(removed_if_created(change, workspace))
    if workspace is not None and _is_installed_for(server, workspace):
        rest = {name: value for name, value in servers.items() if name != SERVER_NAME}
        data = {key: value for key, value in mcp.data.items() if key != "mcpServers"}
        if rest:
            data = {**mcp.data, "mcpServers": rest}
        change = mcp.change(data, f"MCP server {SERVER_NAME!r} removed")
        changes.append(removed_if_created(change, workspace))
    elif is_our_server(server):
        named = server_workspace(server)
        whose = f"for workspace {named}" if named is not None else "set by hand"
        note = f"MCP server {SERVER_NAME!r} {whose}: kept"
        changes.append(FileChange(mcp.path, mcp.text, mcp.text, note))
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
        apply_changes(changes, workspace)
    return changes


def uninstall(
    workspace: Path | None,
    scope: Scope = "project",
    *,
    project_dir: Path | None = None,
    home: Path | None = None,
    dry_run: bool = False,
) -> list[FileChange]:
    """Take what install wrote for ``workspace`` out of Claude Code's config; leave the rest."""
    changes = plan_uninstall(workspace, scope, project_dir=project_dir, home=home)
    if not dry_run:
        apply_changes(changes, workspace)
    return changes


def _servers(data: dict[str, Any], path: Path) -> dict[str, Any]:
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise ParseError(path, None, "'mcpServers' is not a JSON object; left as it is")
    return servers


def _is_installed_for(server: object, workspace: Path) -> bool:
    named = server_workspace(server)
    return named is not None and same_workspace(named, workspace)


def _server_set_by_hand(server: object, path: Path, scope: Scope) -> str:
    """The note for a ``memstrata`` server install leaves as it is; an error for one that is
    not memstrata's or is another workspace's (install would re-point it)."""
    if not is_our_server(server):
        raise InputError(
            f"{path}: an MCP server named {SERVER_NAME!r} that does not run memstrata is "
            "already configured; left as it is (rename or remove it first)"
        )
    named = server_workspace(server)
    if named is not None:
        flag = " --user" if scope == "user" else ""
        raise InputError(
            f"{path}: the MCP server {SERVER_NAME!r} is installed for another workspace "
            f"({named}); left as it is (to switch, first run: memstrata -w {named} hooks "
            f"uninstall claude-code{flag})"
        )
    return f"MCP server {SERVER_NAME!r} set by hand; kept"


def snippet(workspace: Path, program: Sequence[str] | None = None) -> str:
    """What ``install`` adds, as text to paste by hand."""
    hooks = merge_hooks({}, ENTRIES, workspace, Path("settings.json"), program)
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
