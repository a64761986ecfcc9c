"""Agent harness hooks: the commands a harness runs, and the config files that register them.

Claude Code and Codex CLI read the same hooks document (``settings.json`` / ``hooks.json``)::

    {"hooks": {"<Event>": [{"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}]}}

Every command we register is ``<memstrata> --workspace <root> hook <name> …``; a command is ours
when it runs memstrata's ``hook`` group, whatever path memstrata had when it was installed, so
installing again updates our entries in place and uninstalling removes only them.

JSON files are rewritten with the indent they had, so every byte outside our entries stays as it
was in a file written by the harness itself (2-space JSON). When re-serialising a file would change
bytes we did not mean to touch (another formatting), a ``.memstrata-backup`` copy is kept first.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memstrata.errors import ParseError
from memstrata.workspace.atomic import write_atomic
from memstrata.workspace.layout import find_workspace

#: The hook commands ``memstrata hook`` offers (see :mod:`memstrata.hooks.run`).
HOOK_NAMES: tuple[str, ...] = ("session-start", "user-prompt", "stop", "codex-notify")

BACKUP_SUFFIX = ".memstrata-backup"


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file an install or uninstall writes (or would write, in a dry run)."""

    path: Path
    before: str | None  # None: the file does not exist yet
    after: str | None  # None: the file is removed
    note: str = ""
    backup: Path | None = None

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        """A unified diff of the change, for ``--dry-run``."""
        import difflib

        lines = difflib.unified_diff(
            (self.before or "").splitlines(keepends=True),
            (self.after or "").splitlines(keepends=True),
            fromfile=f"{self.path} (now)",
            tofile=f"{self.path} (after)",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def apply_changes(changes: Sequence[FileChange]) -> None:
    """Write every changed file atomically (after its backup, when it has one)."""
    for change in changes:
        if not change.changed:
            continue
        if change.backup is not None and change.before is not None:
            # ~/.claude.json holds tokens: its copy is as private as it is
            write_atomic(change.backup, change.before, mode_of=change.path)
        if change.after is None:
            change.path.unlink(missing_ok=True)
        else:
            write_atomic(change.path, change.after, through_link=True)


# -- our commands ------------------------------------------------------------------------------


def launcher() -> list[str]:
    """How a harness should start this memstrata: its console script, else ``python -m``."""
    beside = Path(sys.executable).with_name("memstrata")
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("memstrata")
    if found:
        return [found]
    return [sys.executable, "-m", "memstrata"]


def hook_command(
    name: str, workspace: Path, *extra: str, program: Sequence[str] | None = None
) -> str:
    """The shell command a harness runs for hook ``name``."""
    argv = [*(program or launcher()), "--workspace", str(workspace), "hook", name, *extra]
    return shlex.join(argv)


def mcp_argv(workspace: Path, program: Sequence[str] | None = None) -> list[str]:
    """The MCP server's command line (``memstrata --workspace <root> mcp``)."""
    return [*(program or launcher()), "--workspace", str(workspace), "mcp"]


def memstrata_args(argv: Sequence[str]) -> list[str] | None:
    """The arguments after the program when ``argv`` runs memstrata (any path); else ``None``."""
    if not argv:
        return None
    program = Path(argv[0]).name
    if program in ("memstrata", "memstrata.exe"):
        return list(argv[1:])
    if program.startswith("python") and list(argv[1:3]) == ["-m", "memstrata"]:
        return list(argv[3:])
    return None


def is_our_command(command: object) -> bool:
    """Whether a shell command runs ``memstrata … hook <name>`` (wherever memstrata lives)."""
    if not isinstance(command, str):
        return False
    try:
        rest = memstrata_args(shlex.split(command))
    except ValueError:
        return False
    return rest is not None and any(
        word == "hook" and i + 1 < len(rest) and rest[i + 1] in HOOK_NAMES
        for i, word in enumerate(rest)
    )


def is_our_server(server: object) -> bool:
    """Whether an MCP server entry (``command`` + ``args``) runs ``memstrata … mcp``."""
    if not isinstance(server, dict):
        return False
    command, args = server.get("command"), server.get("args") or []
    if not isinstance(command, str) or not isinstance(args, list):
        return False
    rest = memstrata_args([command, *map(str, args)])
    return rest is not None and "mcp" in rest


# -- JSON files that keep their formatting ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JsonFile:
    """A JSON object read from disk, with what is needed to write it back the same way."""

    path: Path
    text: str | None  # None: no such file
    data: dict[str, Any]
    indent: int | str

    def render(self, data: dict[str, Any]) -> str:
        trailing = "\n" if self.text is None or self.text.endswith("\n") else ""
        return json.dumps(data, indent=self.indent, ensure_ascii=False) + trailing

    def change(self, data: dict[str, Any], note: str = "") -> FileChange:
        """The change that writes ``data``; unchanged data leaves the file untouched."""
        if self.text is not None and data == self.data:
            return FileChange(self.path, self.text, self.text, note)
        after = self.render(data)
        backup = None
        if self.text is not None and self.render(self.data) != self.text:
            backup = self.path.with_name(self.path.name + BACKUP_SUFFIX)
        return FileChange(self.path, self.text, after, note, backup)


def read_json_object(path: Path) -> JsonFile:
    """Read a JSON object file; a missing or empty file is ``{}``; anything else is an error."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return JsonFile(path, None, {}, 2)
    except UnicodeDecodeError as error:
        raise ParseError(path, None, f"not UTF-8 text ({error.reason}); left as it is") from None
    if not text.strip():
        return JsonFile(path, text, {}, 2)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        problem = f"not valid JSON ({error.msg}); left as it is"
        raise ParseError(path, error.lineno, problem) from None
    if not isinstance(data, dict):
        raise ParseError(path, 1, "expected a JSON object at the top; left as it is")
    return JsonFile(path, text, data, _indent_of(text))


def _indent_of(text: str) -> int | str:
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    return 2


# -- the hooks document ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HookEntry:
    """One hook we register: the harness event, our command and its timeout."""

    event: str
    command: str
    timeout_s: int
    matcher: str | None = None


def merge_hooks(data: dict[str, Any], entries: Sequence[HookEntry], path: Path) -> dict[str, Any]:
    """``data`` with our ``entries`` in its ``hooks``: updated in place if present, else added."""
    merged = json.loads(json.dumps(data))  # a deep copy; the input stays as read
    merged.setdefault("hooks", {})
    hooks = _hooks_table(merged, path)
    for entry in entries:
        groups = hooks.setdefault(entry.event, [])
        if not isinstance(groups, list):
            raise ParseError(path, None, f"hooks.{entry.event} is not a list; left as it is")
        handler = {"type": "command", "command": entry.command, "timeout": entry.timeout_s}
        placed = False
        emptied: list[dict[str, Any]] = []
        for group in _groups(groups):
            kept = []
            for existing in group["hooks"]:
                if isinstance(existing, dict) and is_our_command(existing.get("command")):
                    if placed:
                        continue  # a duplicate of ours: keep one
                    existing = {**existing, **handler}
                    placed = True
                kept.append(existing)
            if not kept and group["hooks"]:
                emptied.append(group)
            group["hooks"] = kept
        groups[:] = [g for g in groups if not any(g is e for e in emptied)]
        if not placed:
            group = {"matcher": entry.matcher} if entry.matcher is not None else {}
            groups.append({**group, "hooks": [handler]})
    return merged


def remove_hooks(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """``data`` without any of our hook commands; what only held ours goes with them."""
    cleaned = json.loads(json.dumps(data))
    if "hooks" not in cleaned:
        return cleaned
    hooks = _hooks_table(cleaned, path)
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        emptied: list[dict[str, Any]] = []
        removed = False
        for group in _groups(groups):
            kept = [
                h
                for h in group["hooks"]
                if not (isinstance(h, dict) and is_our_command(h.get("command")))
            ]
            if len(kept) != len(group["hooks"]):
                removed = True
                if not kept:
                    emptied.append(group)
                group["hooks"] = kept
        groups[:] = [g for g in groups if not any(g is e for e in emptied)]
        if removed and not groups:
            del hooks[event]
            if not hooks:
                del cleaned["hooks"]
    return cleaned


def our_hooks(data: dict[str, Any]) -> list[tuple[str, str]]:
    """``(event, command)`` of every hook of ours in a hooks document."""
    hooks = data.get("hooks")
    found: list[tuple[str, str]] = []
    if not isinstance(hooks, dict):
        return found
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else ():
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else ():
                if isinstance(handler, dict) and is_our_command(handler.get("command")):
                    found.append((event, handler["command"]))
    return found


def _hooks_table(data: dict[str, Any], path: Path) -> dict[str, Any]:
    hooks = data["hooks"]
    if not isinstance(hooks, dict):
        raise ParseError(path, None, "'hooks' is not a JSON object; left as it is")
    return hooks


def _groups(groups: list[Any]) -> list[dict[str, Any]]:
    """The matcher groups of one event that hold a list of handlers (others are left alone)."""
    return [g for g in groups if isinstance(g, dict) and isinstance(g.get("hooks"), list)]


def require_workspace(workspace: Path | None) -> Path:
    """The root of the workspace to write into hook commands: ``--workspace`` or discovery."""
    return find_workspace(workspace).root


def generic_snippet(workspace: Path, program: Sequence[str] | None = None) -> str:
    """The commands any harness can run, with plain-text output, and the MCP server."""
    run = [*(program or launcher()), "--workspace", str(workspace)]
    head = shlex.join(run)
    return (
        "# Any harness. At session start, add the output to the model's context:\n"
        f"{head} hook session-start --plain\n\n"
        "# Before each prompt, add the output to the model's context:\n"
        f'{head} hook user-prompt --plain --prompt "$PROMPT"\n\n'
        "# After each turn (or at the end of a session), import its transcript and tend memory\n"
        "# (--harness: claude-code, codex, gemini, openclaw, aider or jsonl):\n"
        f'echo \'{{"transcript_path": "/path/to/transcript"}}\' | {head} hook stop '
        "--harness jsonl\n\n"
        "# The MCP server, over stdio, for any MCP client:\n"
        f"{shlex.join(mcp_argv(workspace, program))}\n"
    )
