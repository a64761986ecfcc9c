"""Import plain conversation JSONL: one message object per line, from any tool or data set.

Each line is ``{role | speaker, content | text, timestamp | time | date?, session | session_id?}``.
``content`` is a string or a list of blocks (``{"type": "text", "text": …}``; ``tool_use`` blocks
and an OpenAI-style ``tool_calls`` list fill the turn's tool calls; other blocks are dropped).

Roles: ``user`` / ``human`` → ``user``; ``assistant`` / ``ai`` / ``bot`` / ``model`` / ``gpt`` →
``assistant``; ``tool`` / ``function`` → ``tool``; ``system`` / ``developer`` → ``system``. Any
other label is a person's name (``"speaker": "Caroline"``): the turn is a ``user`` turn whose text
starts ``"Caroline: "``, so the name stays searchable. A line with neither role nor speaker, or
with neither content nor text, is a Problem.

Session ids are ``jsonl:<key>`` for a file without session fields and ``jsonl:<key>:<session>``
for each ``session`` / ``session_id`` value, where ``<key>`` is the first 16 hex digits of the
SHA-256 of the file name and the file's first non-blank line. The name keeps ids stable when a
folder moves; the first line (which appending never changes) keeps same-named files apart.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memstrata.clock import iso_or_empty
from memstrata.model import Problem, Session, Turn
from memstrata.raw.importers import HEAD_BYTES, ParsedFile, ParsedSession
from memstrata.raw.importers.lines import MAX_LINE_BYTES, read_json_lines
from memstrata.raw.importers.turns import cap_text, title_line, tool_call

FORMAT = "jsonl"
HARNESS = "jsonl"


_ROLES = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "model": "assistant",
    "gpt": "assistant",
    "tool": "tool",
    "function": "tool",
    "system": "system",
    "developer": "system",
}
_TIME_KEYS = ("timestamp", "time", "date")
_TEXT_BLOCKS = (None, "text", "input_text", "output_text")
_SESSION_KEYS = ("session", "session_id")


@dataclass(slots=True)
class _Draft:
    """A session's turns before they are frozen."""

    id: str
    turns: list[Turn] = field(default_factory=list)


def sniff(path: Path, head: bytes) -> bool:
    """Claim a ``.jsonl`` whose first object line has role|speaker and content|text keys.

    A line with bytes that are no UTF-8 still shows its keys (a file saved as Latin-1), and when
    no line parses, one that starts like a message object (cut short, broken) is enough: the
    file is a conversation with bad lines, each reported by number, not "no transcript".
    """
    if path.suffix.lower() != ".jsonl":
        return False
    lines = _whole_lines(head)
    first = _first_object(lines)
    if first is None:
        return any(_looks_like_message(raw) for raw in lines)
    return ("role" in first or "speaker" in first) and ("content" in first or "text" in first)


def parse(path: Path, agent: str, max_line_bytes: int = MAX_LINE_BYTES) -> ParsedFile:
    """Read every message line; lines are grouped into sessions by their session field."""
    key = _file_key(path)
    drafts: dict[str, _Draft] = {}
    problems: list[Problem] = []
    for item in read_json_lines(path, max_line_bytes):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        value = item.value
        if not isinstance(value, dict):
            problems.append(Problem(str(path), item.line, "expected a JSON object"))
            continue
        label = _first_present(value, ("role", "speaker"))
        if not isinstance(label, str) or not label.strip():
            problems.append(Problem(str(path), item.line, "no role or speaker"))
            continue
        if "content" not in value and "text" not in value and "tool_calls" not in value:
            problems.append(Problem(str(path), item.line, "no content or text"))
            continue
        text, calls = _content(_first_present(value, ("content", "text")))
        calls += _openai_calls(value.get("tool_calls"))
        role, name = _role(value, label)
        if name and text:
            text = f"{name}: {text}"
        if not text and not calls:
            continue
        session = _first_present(value, _SESSION_KEYS)
        session_id = f"jsonl:{key}" if session is None else f"jsonl:{key}:{session}"
        draft = drafts.setdefault(session_id, _Draft(session_id))
        draft.turns.append(
            Turn(
                session_id=session_id,
                index=len(draft.turns),
                role=role,
                time=iso_or_empty(_first_present(value, _TIME_KEYS)),
                text=cap_text(text),
                tool_calls=json.dumps(calls, sort_keys=True, ensure_ascii=False),
            )
        )
    sessions = tuple(_session(path, agent, draft) for draft in drafts.values())
    return ParsedFile(str(path), FORMAT, sessions, tuple(problems))


def _session(path: Path, agent: str, draft: _Draft) -> ParsedSession:
    times = [turn.time for turn in draft.turns if turn.time]
    title = next((title_line(turn.text) for turn in draft.turns if turn.role == "user"), "")
    session = Session(
        id=draft.id,
        harness=HARNESS,
        agent=agent,
        started=times[0] if times else "",
        ended=times[-1] if times else "",
        source_path=str(path),
        title=title,
    )
    return ParsedSession(session, tuple(draft.turns))


def _role(value: dict[str, Any], label: str) -> tuple[str, str]:
    """The turn role and the name to prefix the text with ("" when the label is a role)."""
    role = _ROLES.get(label.strip().lower())
    speaker = value.get("speaker")
    if isinstance(speaker, str) and speaker.strip().lower() not in _ROLES and speaker.strip():
        name = speaker.strip()
    else:
        name = "" if role else label.strip()
    return role or "user", name


def _content(value: Any) -> tuple[str, list[dict[str, str]]]:
    """Text and tool calls of a content string, block, or list of blocks."""
    if value is None:
        return "", []
    if isinstance(value, str):
        return value.strip(), []
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value), []
    texts: list[str] = []
    calls: list[dict[str, str]] = []
    for block in value if isinstance(value, list) else [value]:
        if isinstance(block, str):
            texts.append(block)
        elif not isinstance(block, dict):
            continue
        elif block.get("type") in _TEXT_BLOCKS and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_use":
            calls.append(tool_call(block.get("name"), block.get("input")))
    return "\n".join(texts).strip(), calls


def _openai_calls(value: Any) -> list[dict[str, str]]:
    calls: list[dict[str, str]] = []
    for call in value if isinstance(value, list) else []:
        if isinstance(call, dict):
            function = call.get("function") if isinstance(call.get("function"), dict) else call
            calls.append(tool_call(function.get("name"), function.get("arguments")))
    return calls


def _first_present(value: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((value[key] for key in keys if value.get(key) is not None), None)


def _file_key(path: Path) -> str:
    """Hash of the file name and its first non-blank line (see the module docstring)."""
    digest = hashlib.sha256(os.fsencode(path.name) + b"\n")
    with path.open("rb") as handle:
        while raw := handle.readline(MAX_LINE_BYTES):
            if raw.strip():
                digest.update(raw.rstrip(b"\r\n"))
                break
    return digest.hexdigest()[:16]


def _whole_lines(head: bytes) -> list[bytes]:
    """The non-blank lines of ``head``, without one the head cut (a head shorter than
    ``HEAD_BYTES`` is the whole file, so its last line is whole)."""
    lines = head.splitlines()
    if len(head) >= HEAD_BYTES and not head.endswith(b"\n"):
        lines = lines[:-1]
    return [raw for raw in lines if raw.strip()]


def _first_object(lines: list[bytes]) -> dict[str, Any] | None:
    """The first line that parses as JSON (bad bytes read as U+FFFD), if an object; else
    ``None``."""
    for raw in lines:
        try:
            value = json.loads(raw.decode("utf-8", errors="replace"))
        except json.JSONDecodeError:
            continue
        return value if isinstance(value, dict) else None
    return None


def _looks_like_message(raw: bytes) -> bool:
    """Does a line that does not parse start as a message object (names a role or speaker)."""
    return raw.lstrip().startswith(b"{") and (b'"role"' in raw or b'"speaker"' in raw)
