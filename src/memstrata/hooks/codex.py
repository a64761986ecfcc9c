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
hold exactly our server before anything is written.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable, Sequence
from datetime import date, timedelta
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

HOOKS: tuple[tuple[str, str, int], ...] = (
    ("SessionStart", "session-start", 15),
    ("UserPromptSubmit", "user-prompt", 15),
    ("Stop", "stop", 120),
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


def hook_entries(workspace: Path, program: Sequence[str] | None = None) -> list[HookEntry]:
    """Our hooks for Codex; ``stop`` imports Codex rollouts."""
    extra = {"stop": ("--harness", "codex")}
    return [
        HookEntry(event, hook_command(name, workspace, *extra.get(name, ()), program=program), t)
        for event, name, t in HOOKS
    ]


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
    merged = merge_hooks(hooks.data, hook_entries(workspace, program), hooks_path)
    return [
        hooks.change(merged, "hooks: " + ", ".join(event for event, _, _ in HOOKS)),
        _config_change(config_path, mcp_argv(workspace, program)),
        _text_change(agents_path, MD_BEGIN, MD_END, GUIDANCE, "memory guidance for the agent"),
    ]


def plan_uninstall(
    scope: Scope = "project", *, project_dir: Path | None = None
) -> list[FileChange]:
    """What uninstalling would write: only our hooks, table and note are taken out."""
    hooks_path, config_path, agents_path = paths(scope, project_dir)
    changes = []
    hooks = read_json_object(hooks_path)
    if hooks.text is not None:
        cleaned = remove_hooks(hooks.data, hooks_path)
        change = hooks.change(cleaned, "hooks removed")
        if not cleaned:
            change = FileChange(hooks_path, hooks.text, None, "it held only memstrata's hooks")
        changes.append(change)
    changes.append(_text_change(config_path, TOML_BEGIN, TOML_END, None, "MCP server removed"))
    changes.append(_text_change(agents_path, MD_BEGIN, MD_END, None, "guidance removed"))
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
        apply_changes(changes)
    return changes


def uninstall(
    scope: Scope = "project", *, project_dir: Path | None = None, dry_run: bool = False
) -> list[FileChange]:
    """Take out what :func:`install` added; leave everything else as it is."""
    changes = plan_uninstall(scope, project_dir=project_dir)
    if not dry_run:
        apply_changes(changes)
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


def _config_change(path: Path, argv: Sequence[str]) -> FileChange:
    before = _read_text(path)
    text = _lf(before)
    _parse_toml(text, path)
    ours = _in_file(path, without_block, text, TOML_BEGIN, TOML_END)
    theirs = _parse_toml(ours, path).get("mcp_servers", {})
    existing = theirs.get(SERVER_NAME) if isinstance(theirs, dict) else None
    if existing is not None:
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
    return FileChange(path, before, _as_written(after, before), f"MCP server {SERVER_NAME!r}")


def _parse_toml(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"at line (\d+)", str(error))
        line = int(found.group(1)) if found else None
        raise ParseError(path, line, f"not valid TOML ({error}); left as it is") from None


# -- marked blocks in text files ---------------------------------------------------------------


def with_block(text: str, begin: str, end: str, body: str) -> str:
    """``text`` with our block holding ``body``: replaced where it is, else appended."""
    block = f"{begin}\n{body.rstrip(chr(10))}\n{end}\n"
    span = _block_span(text, begin, end)
    if span is not None:
        start, stop = span
        return text[:start] + block + text[stop:]
    if not text:
        return block
    return text + ("" if text.endswith("\n") else "\n") + "\n" + block


def without_block(text: str, begin: str, end: str) -> str:
    """``text`` without our block (and the blank line :func:`with_block` put before it)."""
    span = _block_span(text, begin, end)
    if span is None:
        return text
    start, stop = span
    head = text[:start]
    if head.endswith("\n\n"):
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
            return FileChange(path, None, None, note)
        kept = _in_file(path, without_block, text, begin, end)
        if not kept.strip() and kept != text:
            return FileChange(path, before, None, "it held only what memstrata added")
        return FileChange(path, before, _as_written(kept, before), note)
    after = _in_file(path, with_block, text, begin, end, body)
    return FileChange(path, before, _as_written(after, before), note)


def _in_file(path: Path, edit: Callable[..., str], *args: str) -> str:
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
    hooks = merge_hooks({}, hook_entries(workspace, program), Path("hooks.json"))
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
