"""Import OpenClaw and pi-coding-agent session JSONL (the pi transcript format, version 3).

Line 1 is ``{"type": "session", "version": 3, "id", "timestamp", "cwd"}``; every later line is an
entry with ``id``, ``parentId``, ``timestamp`` (ISO) and a ``type``:

* ``message``: ``message.role`` ``user`` / ``assistant`` / ``toolResult`` (→ ``tool``) with content
  blocks ``text`` / ``thinking`` / ``toolCall{id, name, arguments}`` / ``image``; pi's
  ``bashExecution`` (a ``!command`` the user ran) becomes a ``tool`` turn too.
* ``compaction`` and ``branch_summary``: a ``system`` turn holding the summary.
* ``custom_message``: a ``system`` turn when it was displayed; hidden injected context is skipped.
* ``model_change``, ``thinking_level_change``, ``custom``, ``label``, ``leaf`` … and unknown types
  are not turns and are skipped silently.

Entries form a tree through ``parentId`` (a rewind or fork starts a branch). Turns keep file order
instead of following one branch: abandoned branches were still said, and file order is what keeps
parsing prefix-stable while a session is being written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memstrata.clock import iso_or_empty
from memstrata.model import Problem, Session, Turn
from memstrata.raw.importers import ParsedFile, ParsedSession
from memstrata.raw.importers.lines import MAX_LINE_BYTES, read_json_lines
from memstrata.raw.importers.turns import cap_text, first_json_object, title_line, tool_call

FORMAT = "openclaw"
HARNESS = "openclaw"


_SUMMARY_TYPES = ("compaction", "branch_summary")


@dataclass(frozen=True, slots=True)
class _Draft:
    """A turn before it has a session and an index."""

    role: str
    time: str
    text: str
    tool_calls: tuple[dict[str, str], ...] = ()


def sniff(path: Path, head: bytes) -> bool:
    """Claim a ``.jsonl`` whose first line is a ``{"type": "session", "version": …}`` header."""
    if path.suffix.lower() != ".jsonl":
        return False
    first = first_json_object(head)
    return first is not None and first.get("type") == "session" and "version" in first


def parse(path: Path, agent: str, max_line_bytes: int = MAX_LINE_BYTES) -> ParsedFile:
    """Read one session file; the session id comes from its header (else the file name)."""
    header: dict[str, Any] | None = None
    drafts: list[_Draft] = []
    problems: list[Problem] = []
    last_time = ""
    for item in read_json_lines(path, max_line_bytes):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        entry = item.value
        if not isinstance(entry, dict):
            problems.append(Problem(str(path), item.line, "expected a JSON object"))
            continue
        kind = entry.get("type")
        time = iso_or_empty(entry.get("timestamp"))
        last_time = time or last_time
        if kind == "session":
            header = header or entry
        elif kind == "message":
            message = entry.get("message")
            if not isinstance(message, dict):
                problems.append(Problem(str(path), item.line, "message entry without a message"))
                continue
            drafts.extend(_message_drafts(message, time or iso_or_empty(message.get("timestamp"))))
        elif kind in _SUMMARY_TYPES and isinstance(entry.get("summary"), str):
            drafts.append(_Draft("system", time, entry["summary"].strip()))
        elif kind == "custom_message" and entry.get("display") is not False:
            drafts.append(_Draft("system", time, _content(entry.get("content")).text))
    drafts = [draft for draft in drafts if draft.text or draft.tool_calls]
    sessions = (_session(path, agent, header, drafts, last_time),) if drafts else ()
    return ParsedFile(str(path), FORMAT, sessions, tuple(problems))


def _session(
    path: Path, agent: str, header: dict[str, Any] | None, drafts: list[_Draft], last_time: str
) -> ParsedSession:
    header = header or {}
    session_id = f"openclaw:{header.get('id') or path.stem}"
    first_time = next((draft.time for draft in drafts if draft.time), "")
    title = next((title_line(draft.text) for draft in drafts if draft.role == "user"), "")
    session = Session(
        id=session_id,
        harness=HARNESS,
        agent=agent,
        started=iso_or_empty(header.get("timestamp")) or first_time,
        ended=last_time,
        source_path=str(path),
        title=title,
    )
    turns = tuple(
        Turn(
            session_id=session_id,
            index=index,
            role=draft.role,
            time=draft.time,
            text=cap_text(draft.text),
            tool_calls=json.dumps(list(draft.tool_calls), sort_keys=True, ensure_ascii=False),
        )
        for index, draft in enumerate(drafts)
    )
    return ParsedSession(session, turns)


def _message_drafts(message: dict[str, Any], time: str) -> list[_Draft]:
    role = message.get("role")
    if role == "user":
        return [_Draft("user", time, _content(message.get("content")).text)]
    if role == "assistant":
        found = _content(message.get("content"))
        if not found.text and not found.calls and isinstance(message.get("errorMessage"), str):
            return [_Draft("system", time, f"error: {message['errorMessage']}")]
        return [_Draft("assistant", time, found.text, found.calls)]
    if role == "toolResult":
        return [_Draft("tool", time, _content(message.get("content")).text)]
    if role == "bashExecution":
        output = message.get("output") if isinstance(message.get("output"), str) else ""
        return [_Draft("tool", time, f"$ {message.get('command', '')}\n{output}".strip())]
    return []


@dataclass(frozen=True, slots=True)
class _Content:
    text: str
    calls: tuple[dict[str, str], ...]


def _content(value: Any) -> _Content:
    """Text and tool calls of a content string or block list; thinking and images are dropped."""
    if isinstance(value, str):
        return _Content(value.strip(), ())
    texts: list[str] = []
    calls: list[dict[str, str]] = []
    for block in value if isinstance(value, list) else []:
        if isinstance(block, str):
            texts.append(block)
        elif not isinstance(block, dict):
            continue
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "toolCall":
            calls.append(tool_call(block.get("name"), block.get("arguments")))
    return _Content("\n".join(texts).strip(), tuple(calls))
