"""Register memstrata with OpenAI Codex CLI: hooks, the MCP server, and an ``AGENTS.md`` note.

Where it writes: ``hooks.json`` and ``config.toml`` in ``<project>/.codex/`` (``--project``) or in
``~/.codex/`` (``--user``; ``$CODEX_HOME`` when set), and ``AGENTS.md`` beside them (for a
project, at its root). Codex's hooks (developers.openai.com/codex/hooks) use Claude Code's
document and payloads: ``SessionStart`` and ``UserPromptSubmit`` add context,
``Stop`` runs after each turn with the rollout's ``transcript_path``. Codex runs a hook only once
it is trusted (``/hooks`` in Codex); project config layers load in trusted projects only.
Codex builds without hooks can call ``memstrata hook codex-notify`` as their ``notify`` program
(printed by ``memstrata hooks print codex``); it is not installed, because ``notify`` holds a
single program and may already be someone else's.

``config.toml`` is edited as text, never re-serialised: our table sits between two marker
comments, is replaced in place or appended, and the result must parse with :mod:`tomllib` and
hold exactly our server before anything is written. Sub-tables a user adds to our server outside
the markers (``[mcp_servers.memstrata.env]``) are theirs: kept on install, and named on uninstall,
since Codex cannot start a server left with no ``command``.

What is ours follows :mod:`memstrata.hooks.settings`: the hooks install writes for the workspace in
effect, and the marked table when it names that workspace; the ``AGENTS.md`` note goes with it.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Literal, TypeVar

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

T = TypeVar("T")

HARNESS = "Codex"

SERVER_NAME = "memstrata"

HOOKS: tuple[tuple[str, str, int], ...] = (
    ("SessionStart", "session-start", 15),
    ("UserPromptSubmit", "user-prompt", 15),
    ("Stop", "stop", 120),
)

#: ``stop`` imports Codex rollouts.
ENTRIES: tuple[HookEntry, ...] = tuple(
    HookEntry(event, (name, "--harness", "codex") if name == "stop" else (name,), t)
    for event, name, t in HOOKS
)

TOML_BEGIN = "# >>> memstrata: added by 'memstrata hooks install codex' >>>"
TOML_END = "# <<< memstrata <<<"
MD_BEGIN = "<!-- memstrata: added by 'memstrata hooks install codex' -->"
MD_END = "<!-- /memstrata -->"

GUIDANCE = """\
## Long-term memory (memstrata)

You have a long-term memory through the `memstrata` MCP server.

- Before you answer about earlier work, people, preferences or decisions, call `recall` with a
  short question; call `get_topic` with an id from the memory index for the whole topic.
- When you learn something that should outlast this session (a decision, a preference, a fact
  about a person or project, a lesson from a mistake), call `remember` with one self-contained
  statement; note what happened today with `log`.
- Never store secrets. Memory can be stale: what the user says now wins; say so when they differ.
"""

NEXT_STEPS = (
    "Codex runs new hooks only once you trust them: start codex and open /hooks. "
    "Codex builds whose hooks are behind a flag need [features] codex_hooks = true in config.toml."
)


def codex_home() -> Path:
    """``$CODEX_HOME``, else ``~/.codex``."""
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")


def paths(scope: Scope, project_dir: Path | None = None) -> tuple[Path, Path, Path]:
    """``(hooks.json, config.toml, AGENTS.md)`` for a scope."""
    if scope == "user":
        home = codex_home()
        return home / "hooks.json", home / "config.toml", home / "AGENTS.md"
    root = project_dir or Path.cwd()
    return root / ".codex" / "hooks.json", root / ".codex" / "config.toml", root / "AGENTS.md"


def plan_install(
    workspace: Path,
    scope: Scope = "project",
    *,
    project_dir: Path | None = None,
    program: Sequence[str] | None = None,
) -> list[FileChange]:
    """What installing would write (nothing is written)."""
    hooks_path, config_path, agents_path = paths(scope, project_dir)
    hooks = read_json_object(hooks_path)
    merged = merge_hooks(hooks.data, ENTRIES, workspace, hooks_path, program)
    note = "hooks: " + ", ".join(event for event, _, _ in HOOKS)
    if others := others_note(merged, ENTRIES, workspace):
        note += f"; {others}"
    return [
        hooks.change(merged, note),
        _config_change(config_path, mcp_argv(workspace, program), workspace, scope),
        _text_change(agents_path, MD_BEGIN, MD_END, GUIDANCE, "memory guidance for the agent"),
    ]


def plan_uninstall(
    workspace: Path | None, scope: Scope = "project", *, project_dir: Path | None = None
) -> list[FileChange]:
    """What uninstalling would write: only what install wrote for ``workspace`` is taken out
    (our hooks, our table when it names ``workspace``, and the note with it). With no workspace
    (``None``) nothing is, and it is an error when memstrata is installed there for one."""
    hooks_path, config_path, agents_path = paths(scope, project_dir)
    hooks = read_json_object(hooks_path)
    config = _read_text(config_path)
    table_for = _table_workspace(_lf(config), config_path)
    if workspace is None:
        named = [*installed_workspaces(hooks.data, ENTRIES), table_for]
        refuse_to_guess(named, "codex", scope)
    changes = []
    if hooks.text is not None:
        cleaned = hooks.data
        if workspace is not None:
            cleaned = remove_hooks(hooks.data, ENTRIES, workspace, hooks_path)
        notes = ["hooks removed"] if cleaned != hooks.data else []
        if others := others_note(cleaned, ENTRIES, None):
            notes.append(others)
        changes.append(removed_if_created(hooks.change(cleaned, "; ".join(notes)), workspace))
    if table_for is None or (workspace is not None and same_workspace(table_for, workspace)):
        guidance = _text_change(agents_path, MD_BEGIN, MD_END, None, "guidance removed")
        changes.append(removed_if_created(_config_removal(config_path), workspace))
        changes.append(removed_if_created(guidance, workspace))
    else:  # another workspace's install: its table and the note that goes with it stay
        note = f"MCP server {SERVER_NAME!r} for workspace {table_for}: kept"
        changes.append(FileChange(config_path, config, config, note))
    return changes


def install(
    workspace: Path,
    scope: Scope = "project",
    *,
    project_dir: Path | None = None,
    program: Sequence[str] | None = None,
    dry_run: bool = False,
) -> list[FileChange]:
    """Merge our hooks, MCP server and guidance into Codex's config (idempotent)."""
    changes = plan_install(workspace, scope, project_dir=project_dir, program=program)
    if not dry_run:
        apply_changes(changes, workspace)
    return changes


def uninstall(
    workspace: Path | None,
    scope: Scope = "project",
    *,
    project_dir: Path | None = None,
    dry_run: bool = False,
) -> list[FileChange]:
    """Take out what :func:`install` added for ``workspace``; leave everything else as it is."""
    changes = plan_uninstall(workspace, scope, project_dir=project_dir)
    if not dry_run:
        apply_changes(changes, workspace)
    return changes


# -- config.toml -------------------------------------------------------------------------------


def mcp_table(argv: Sequence[str]) -> str:
    """Our ``[mcp_servers.memstrata]`` table as TOML text."""
    args = ", ".join(toml_string(arg) for arg in argv[1:])
    return f"[mcp_servers.{SERVER_NAME}]\ncommand = {toml_string(argv[0])}\nargs = [{args}]\n"


def toml_string(value: str) -> str:
    """A TOML basic string."""
    escaped = []
    for char in value:
        if char in '"\\':
            escaped.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def _config_change(path: Path, argv: Sequence[str], workspace: Path, scope: Scope) -> FileChange:
    before = _read_text(path)
    text = _lf(before)
    _parse_toml(text, path)
    table_for = _table_workspace(text, path)
    if table_for is not None and not same_workspace(table_for, workspace):
        raise _other_workspace(path, "memstrata's MCP server", table_for, scope)
    ours = _in_file(path, without_block, text, TOML_BEGIN, TOML_END)
    theirs = _parse_toml(ours, path).get("mcp_servers", {})
    existing = theirs.get(SERVER_NAME) if isinstance(theirs, dict) else None
    added_to = _additions(existing)
    if existing is not None and not added_to:
        named = server_workspace(existing)
        if named is not None and not same_workspace(named, workspace):
            raise _other_workspace(path, f"an MCP server {SERVER_NAME!r}", named, scope)
        if is_our_server(existing):
            return FileChange(path, before, before, f"MCP server {SERVER_NAME!r} set by hand; kept")
        raise InputError(
            f"{path}: an MCP server named {SERVER_NAME!r} that does not run memstrata is already "
            "configured; left as it is (rename or remove it first)"
        )
    after = _in_file(path, with_block, text, TOML_BEGIN, TOML_END, mcp_table(argv))
    try:
        added = tomllib.loads(after)["mcp_servers"][SERVER_NAME]
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as error:
        raise InputError(
            f"{path}: cannot add [mcp_servers.{SERVER_NAME}] to this file ({error}); left as it "
            "is: add the table printed by 'memstrata hooks print codex' by hand"
        ) from None
    if [added.get("command"), *added.get("args", [])] != list(argv):
        raise InputError(f"{path}: [mcp_servers.{SERVER_NAME}] did not read back as written")
    note = f"MCP server {SERVER_NAME!r}"
    if added_to:
        note += f"; your {', '.join(added_to)} kept"
    return FileChange(path, before, _as_written(after, before), note)


def _config_removal(path: Path) -> FileChange:
    """``config.toml`` without our table; what the user added to our server is named, not
    taken: without our table it is a server with no ``command``, which Codex cannot start."""
    before = _read_text(path)
    if before is None:
        return FileChange(path, None, None)
    text = _lf(before)
    kept = _in_file(path, without_block, text, TOML_BEGIN, TOML_END)
    notes = [f"MCP server {SERVER_NAME!r} removed"] if kept != text else []
    try:
        left = tomllib.loads(kept).get("mcp_servers", {})
    except tomllib.TOMLDecodeError:
        left = {}
    if orphans := _additions(left.get(SERVER_NAME) if isinstance(left, dict) else None):
        notes.append(
            f"left your {', '.join(orphans)}: a server with no command, which Codex cannot "
            "start; remove it too"
        )
    return FileChange(path, before, _as_written(kept, before), "; ".join(notes))


def _additions(server: object) -> list[str]:
    """The keys of a ``memstrata`` server table that names no program (``command``) or address
    (``url``): what a user added to ours outside the markers (``env``, timeouts …)."""
    if not isinstance(server, dict) or not server or "command" in server or "url" in server:
        return []
    return [f"mcp_servers.{SERVER_NAME}.{key}" for key in server]


def _table_workspace(text: str, path: Path) -> str | None:
    """The workspace our marked table names (``None``: no table, or one naming none)."""
    span = _in_file(path, _block_span, text, TOML_BEGIN, TOML_END)
    if span is None:
        return None
    try:
        server = tomllib.loads(text[span[0] : span[1]]).get("mcp_servers", {}).get(SERVER_NAME)
    except (tomllib.TOMLDecodeError, AttributeError):
        return None
    return server_workspace(server)


def _other_workspace(path: Path, what: str, named: str, scope: Scope) -> InputError:
    flag = " --user" if scope == "user" else ""
    return InputError(
        f"{path}: {what} is installed for another workspace ({named}); left as it is (to "
        f"switch, first run: memstrata -w {named} hooks uninstall codex{flag})"
    )


def _parse_toml(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"at line (\d+)", str(error))
        line = int(found.group(1)) if found else None
        raise ParseError(path, line, f"not valid TOML ({error}); left as it is") from None


# -- marked blocks in text files ---------------------------------------------------------------


def with_block(text: str, begin: str, end: str, body: str) -> str:
    """``text`` with our block holding ``body``: replaced where it is, else appended after a
    blank line (after a line end only, when the text had no final one: so that
    :func:`without_block` knows to take that line end out again)."""
    block = f"{begin}\n{body.rstrip(chr(10))}\n{end}\n"
    span = _block_span(text, begin, end)
    if span is not None:
        start, stop = span
        return text[:start] + block + text[stop:]
    return text + "\n" + block if text else block


def without_block(text: str, begin: str, end: str) -> str:
    """``text`` without our block and what :func:`with_block` put before it: a blank line, or
    the line end of a last line that had none (when the block is still last)."""
    span = _block_span(text, begin, end)
    if span is None:
        return text
    start, stop = span
    head = text[:start]
    if head.endswith("\n\n") or (head.endswith("\n") and stop == len(text)):
        head = head[:-1]
    return head + text[stop:]


def _block_span(text: str, begin: str, end: str) -> tuple[int, int] | None:
    """Where our block is (``None``: not there); half a block is an error, never guessed at."""
    start = text.find(begin + "\n")
    while start > 0 and text[start - 1] != "\n":
        start = text.find(begin + "\n", start + 1)
    if start < 0:
        return None
    finish = text.find("\n" + end, start)
    if finish < 0 or text.find(begin, start + len(begin)) != -1:
        raise InputError(f"our marker lines {begin!r} … {end!r} are not paired; fix them by hand")
    stop = finish + 1 + len(end)
    return start, stop + 1 if text[stop : stop + 1] == "\n" else stop


def _text_change(path: Path, begin: str, end: str, body: str | None, note: str) -> FileChange:
    """Put ``body`` in our block of ``path`` (``None``: take the block out)."""
    before = _read_text(path)
    text = _lf(before)
    if body is None:
        if before is None:
            return FileChange(path, None, None)
        kept = _in_file(path, without_block, text, begin, end)
        return FileChange(path, before, _as_written(kept, before), note if kept != text else "")
    after = _in_file(path, with_block, text, begin, end, body)
    return FileChange(path, before, _as_written(after, before), note)


def _in_file(path: Path, edit: Callable[..., T], *args: str) -> T:
    try:
        return edit(*args)
    except InputError as error:
        raise InputError(f"{path}: {error}; left as it is") from None


def _read_text(path: Path) -> str | None:
    """The file's text as it is, line ends included (``None`` when there is no file)."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as error:
        raise ParseError(path, None, f"not UTF-8 text ({error.reason}); left as it is") from None


def _lf(text: str | None) -> str:
    """``text`` with Windows line ends read as plain ones, for editing."""
    return (text or "").replace("\r\n", "\n")


def _as_written(edited: str, before: str | None) -> str:
    """``edited`` with the line ends the file had: "edited as text, your layout stays"."""
    return edited.replace("\n", "\r\n") if before and "\r\n" in before else edited


# -- rollouts ----------------------------------------------------------------------------------


def find_rollout(thread_id: str, today: date | None = None) -> Path | None:
    """``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread_id>.jsonl`` (recent days first)."""
    if not re.fullmatch(r"[0-9A-Za-z-]+", thread_id):
        return None
    sessions = codex_home() / "sessions"
    pattern = f"rollout-*-{thread_id}.jsonl"
    day = today or date.today()
    for back in range(3):
        found = sorted((sessions / (day - timedelta(days=back)).strftime("%Y/%m/%d")).glob(pattern))
        if found:
            return found[-1]
    found = sorted(sessions.rglob(pattern))
    return found[-1] if found else None


def snippet(workspace: Path, program: Sequence[str] | None = None) -> str:
    """What ``install`` adds, plus the ``notify`` line for Codex builds without hooks."""
    hooks = merge_hooks({}, ENTRIES, workspace, Path("hooks.json"), program)
    argv = mcp_argv(workspace, program)
    notify = [*argv[:-1], "hook", "codex-notify"]
    return (
        "# Codex hooks: merge into .codex/hooks.json (project) or ~/.codex/hooks.json (user)\n"
        f"{json.dumps(hooks, indent=2)}\n\n"
        "# MCP server: add to .codex/config.toml (project) or ~/.codex/config.toml (user)\n"
        f"{mcp_table(argv)}\n"
        "# Codex without hooks: instead, a top-level line of ~/.codex/config.toml (Codex runs one\n"
        "# notify program after each turn; this replaces any you have)\n"
        f"notify = [{', '.join(toml_string(arg) for arg in notify)}]\n\n"
        "# AGENTS.md (project root, or ~/.codex/AGENTS.md)\n"
        f"{GUIDANCE}"
    )
