"""The hooks document that registers memstrata's hooks with a harness, and what install owns in it.

Claude Code and Codex CLI read the same hooks document (``settings.json`` / ``hooks.json``)::

    {"hooks": {"<Event>": [{"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}]}}

What memstrata owns there is exactly what install writes, for one workspace: in an event it
installs, a handler whose command is ``<memstrata> --workspace <root> hook <name> …`` as install
writes it for that event, naming that workspace. Where memstrata itself lives does not count, so
installing again after moving memstrata updates the entries in place. Any other command, even one
that runs memstrata (for another workspace, in another event, written by hand another way), is the
user's: install adds its own entry beside it, uninstall leaves it.

Uninstall removes a file only when install created it (``.memstrata/hooks-created.json`` in the
workspace lists those) and nothing else is left in it; any other file stays, emptied of ours.

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

from memstrata.errors import InputError, ParseError, WorkspaceNotFound
from memstrata.workspace.atomic import write_atomic
from memstrata.workspace.layout import ENV_VAR, Workspace, find_workspace
from memstrata.workspace.litter import sweep_temps_of

#: The hook commands ``memstrata hook`` offers (see :mod:`memstrata.hooks.run`).
HOOK_NAMES: tuple[str, ...] = ("session-start", "user-prompt", "stop", "codex-notify")

BACKUP_SUFFIX = ".memstrata-backup"

#: In the workspace's ``.memstrata/``: the config files install created (uninstall may remove
#: them once nothing else is in them; a file not listed here is never removed).
CREATED_RECORD = "hooks-created.json"


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


def apply_changes(changes: Sequence[FileChange], workspace: Path | None = None) -> None:
    """Write every changed file atomically (after its backup, when it has one), and keep the
    record of the files created for ``workspace`` up to date."""
    created = [c.path for c in changes if c.changed and c.before is None and c.after is not None]
    if workspace is not None and created:
        _record_created(workspace, add=created)  # first: a file written is a file known
    for change in changes:
        sweep_temps_of(change.path)  # a killed install's, in a folder no workspace sweep sees
        if not change.changed:
            continue
        if change.backup is not None and change.before is not None:
            # ~/.claude.json holds tokens: its copy is as private as it is
            write_atomic(change.backup, change.before, mode_of=change.path)
        if change.after is None:
            change.path.unlink(missing_ok=True)
        else:
            write_atomic(change.path, change.after, through_link=True)
    removed = [c.path for c in changes if c.changed and c.after is None]
    if workspace is not None and removed:
        _record_created(workspace, drop=removed)


def created_by_install(workspace: Path, path: Path) -> bool:
    """Whether install created ``path`` for ``workspace`` (unknown, as for a workspace that is
    gone or a record that cannot be read, is no)."""
    return _file_key(path) in _created(workspace)


def removed_if_created(change: FileChange, workspace: Path | None) -> FileChange:
    """``change`` for a file it leaves holding nothing (no text, or ``{}``): the file is removed
    if install created it for ``workspace``; any other stays, empty, and the note says so."""
    if not change.changed or change.after is None or change.after.strip() not in ("", "{}"):
        return change
    if workspace is not None and created_by_install(workspace, change.path):
        note = f"{change.note}; nothing else was in it, and install created it"
        return FileChange(change.path, change.before, None, note)
    note = f"{change.note}; it holds nothing now, and stays: nothing says install created it"
    return FileChange(change.path, change.before, change.after, note, change.backup)


def _created(workspace: Path) -> set[str]:
    try:
        text = (Workspace(workspace).state_dir / CREATED_RECORD).read_text(encoding="utf-8")
        files = json.loads(text).get("created")
    except (OSError, ValueError, AttributeError):
        return set()
    return {f for f in files if isinstance(f, str)} if isinstance(files, list) else set()


def _record_created(
    workspace: Path, *, add: Sequence[Path] = (), drop: Sequence[Path] = ()
) -> None:
    known = _created(workspace)
    files = (known | {_file_key(path) for path in add}) - {_file_key(path) for path in drop}
    if files == known:
        return
    record = Workspace(workspace).state_dir / CREATED_RECORD
    if not files:
        record.unlink(missing_ok=True)
        return
    record.parent.mkdir(exist_ok=True)
    write_atomic(record, json.dumps({"created": sorted(files)}, indent=2) + "\n")


def _file_key(path: Path) -> str:
    return os.path.realpath(path)


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


def command_args(command: object) -> list[str] | None:
    """The arguments after the program when a shell command runs memstrata; else ``None``."""
    if not isinstance(command, str):
        return None
    try:
        return memstrata_args(shlex.split(command))
    except ValueError:
        return None


def is_our_command(command: object) -> bool:
    """Whether a shell command runs ``memstrata … hook <name>``, whoever wrote it (see
    :meth:`HookEntry.workspace_in` for what install owns)."""
    rest = command_args(command)
    return rest is not None and any(
        word == "hook" and i + 1 < len(rest) and rest[i + 1] in HOOK_NAMES
        for i, word in enumerate(rest)
    )


def is_our_server(server: object) -> bool:
    """Whether an MCP server entry (``command`` + ``args``) runs ``memstrata … mcp``."""
    rest = _server_args(server)
    return rest is not None and "mcp" in rest


def server_workspace(server: object) -> str | None:
    """The workspace an MCP server entry names when it is ``memstrata --workspace W mcp``, as
    install writes it; ``None`` for any other entry."""
    rest = _server_args(server)
    if rest is None or len(rest) != 3 or rest[0] != "--workspace" or rest[2] != "mcp":
        return None
    return rest[1]


def _server_args(server: object) -> list[str] | None:
    if not isinstance(server, dict):
        return None
    command, args = server.get("command"), server.get("args") or []
    if not isinstance(command, str) or not isinstance(args, list):
        return None
    return memstrata_args([command, *map(str, args)])


def same_workspace(named: str, workspace: Path) -> bool:
    """Whether a path written in a command names ``workspace`` (a relative one names nothing
    we can know: the harness decides where it runs)."""
    path = Path(named).expanduser()
    return path.is_absolute() and os.path.realpath(path) == os.path.realpath(workspace)


def workspace_in_effect(explicit: Path | None) -> Path | None:
    """The workspace whose entries uninstall takes out: ``--workspace``, else
    ``$MEMSTRATA_WORKSPACE``, else the nearest above here. A named folder that is gone still
    names its entries; ``None`` when nothing names a workspace."""
    configured = os.environ.get(ENV_VAR)
    named = explicit if explicit is not None else (Path(configured) if configured else None)
    try:
        return find_workspace(explicit).root
    except WorkspaceNotFound:
        if named is None:
            return None
        if not named.expanduser().exists():
            return Path(os.path.realpath(named.expanduser()))
        raise


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
    """One hook install registers: the harness event, the ``memstrata hook`` arguments (the hook
    name and its options) and the timeout."""

    event: str
    hook: tuple[str, ...]
    timeout_s: int
    matcher: str | None = None

    def command(self, workspace: Path, program: Sequence[str] | None = None) -> str:
        """The command install writes for this hook and ``workspace``."""
        return hook_command(self.hook[0], workspace, *self.hook[1:], program=program)

    def workspace_in(self, command: object) -> str | None:
        """The workspace ``command`` names when it is this hook as install writes it (for any
        workspace, wherever memstrata lives); ``None`` for any other command."""
        rest = command_args(command)
        if rest is None or rest[:1] != ["--workspace"] or rest[2:] != ["hook", *self.hook]:
            return None
        return rest[1]

    def is_installed_as(self, command: object, workspace: Path) -> bool:
        """Whether ``command`` is this hook as install writes it for ``workspace``."""
        named = self.workspace_in(command)
        return named is not None and same_workspace(named, workspace)


def merge_hooks(
    data: dict[str, Any],
    entries: Sequence[HookEntry],
    workspace: Path,
    path: Path,
    program: Sequence[str] | None = None,
) -> dict[str, Any]:
    """``data`` with our ``entries`` for ``workspace`` in its ``hooks``: updated in place where
    install wrote them before, else added; every other handler stays as it is."""
    merged = json.loads(json.dumps(data))  # a deep copy; the input stays as read
    merged.setdefault("hooks", {})
    hooks = _hooks_table(merged, path)
    for entry in entries:
        groups = hooks.setdefault(entry.event, [])
        if not isinstance(groups, list):
            raise ParseError(path, None, f"hooks.{entry.event} is not a list; left as it is")
        handler = {
            "type": "command",
            "command": entry.command(workspace, program),
            "timeout": entry.timeout_s,
        }
        placed = False
        emptied: list[dict[str, Any]] = []
        for group in _groups(groups):
            kept = []
            for existing in group["hooks"]:
                if isinstance(existing, dict) and entry.is_installed_as(
                    existing.get("command"), workspace
                ):
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


def remove_hooks(
    data: dict[str, Any], entries: Sequence[HookEntry], workspace: Path, path: Path
) -> dict[str, Any]:
    """``data`` without our ``entries`` for ``workspace``; a group or event that held only them
    goes with them. Other events, and other commands in ours, are not looked at."""
    cleaned = json.loads(json.dumps(data))
    if "hooks" not in cleaned:
        return cleaned
    hooks = _hooks_table(cleaned, path)
    for event in dict.fromkeys(entry.event for entry in entries):
        groups = hooks.get(event)
        if not isinstance(groups, list):
            continue
        mine = [entry for entry in entries if entry.event == event]
        emptied: list[dict[str, Any]] = []
        removed = False
        for group in _groups(groups):
            kept = [
                h
                for h in group["hooks"]
                if not (
                    isinstance(h, dict)
                    and any(e.is_installed_as(h.get("command"), workspace) for e in mine)
                )
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


def installed_workspaces(data: dict[str, Any], entries: Sequence[HookEntry]) -> list[str]:
    """The workspaces named by hooks that are ``entries`` as install writes them, in order."""
    found: dict[str, str] = {}
    for event, command in our_hooks(data):
        for entry in entries:
            named = entry.workspace_in(command) if entry.event == event else None
            if named is not None:
                found.setdefault(os.path.realpath(Path(named).expanduser()), named)
    return list(found.values())


def our_hooks(data: dict[str, Any]) -> list[tuple[str, str]]:
    """``(event, command)`` of every handler in a hooks document that runs a memstrata hook,
    whoever wrote it."""
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


def others_note(data: dict[str, Any], entries: Sequence[HookEntry], workspace: Path | None) -> str:
    """Says which handlers run memstrata but are not ``entries`` for ``workspace`` ('' if none)."""
    others = [
        (event, command)
        for event, command in our_hooks(data)
        if workspace is None
        or not any(e.event == event and e.is_installed_as(command, workspace) for e in entries)
    ]
    if not others:
        return ""
    events = ", ".join(dict.fromkeys(event for event, _ in others))
    named = [
        rest[1]
        for _, command in others
        if (rest := command_args(command)) and len(rest) > 1 and rest[0] == "--workspace"
    ]
    whose = f" for {', '.join(dict.fromkeys(named))}" if named else ""
    plural = "s" if len(others) != 1 else ""
    return f"kept {len(others)} other memstrata hook{plural} in {events}{whose}"


def _hooks_table(data: dict[str, Any], path: Path) -> dict[str, Any]:
    hooks = data["hooks"]
    if not isinstance(hooks, dict):
        raise ParseError(path, None, "'hooks' is not a JSON object; left as it is")
    return hooks


def _groups(groups: list[Any]) -> list[dict[str, Any]]:
    """The matcher groups of one event that hold a list of handlers (others are left alone)."""
    return [g for g in groups if isinstance(g, dict) and isinstance(g.get("hooks"), list)]


def refuse_to_guess(named: Sequence[str | None], harness: str, scope: str) -> None:
    """With no workspace in effect, uninstall takes nothing out; when memstrata is installed for
    some workspace, it says which, rather than guess whose entries to remove."""
    found = list(dict.fromkeys(name for name in named if name))
    if found:
        flag = " --user" if scope == "user" else ""
        raise InputError(
            f"no workspace in effect, and memstrata's entries here name {', '.join(found)}: "
            f"say whose to remove (memstrata -w {found[0]} hooks uninstall {harness}{flag})"
        )


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
