"""Import Gemini CLI chat recordings: the ``.json`` document and the append-only ``.jsonl`` (v0.40).

A ``.json`` recording is one document ``{sessionId, projectHash, startTime, lastUpdated, summary?,
messages[]}``. The ``.jsonl`` form writes the same header as its first line, then one line per
message, and ``{"$set": {...}}`` lines that patch the header (``lastUpdated``, ``summary`` …).

Message types map to turn roles: ``user`` → ``user``; ``gemini`` (and the legacy ``model`` with
``parts[]``) → ``assistant``; ``info`` / ``error`` / ``warning`` → ``system``; anything else is
skipped. Each tool call of an assistant message is listed in its ``tool_calls``, and a call with
output becomes a ``tool`` turn right after it (the ``functionResponse`` output the model got, else
the ``resultDisplay`` the user saw). Thoughts are skipped. A user message's ``displayContent``
(what was typed) wins over ``content`` (with ``@file`` contents expanded).

Choices that keep re-import prefix-stable:

* Gemini re-appends a message line with the same ``id`` when it grows (tokens, tool calls, tool
  results). The newest copy replaces the message where it first appeared, as Gemini's own reader
  does; in practice only the newest message is ever re-appended, so only its turns change.
* ``{"$rewindTo": id}`` lines are ignored: the rewound messages were said and stay as turns.
* ``$set.messages`` (Gemini rewriting its whole history after masking or compression) is ignored;
  the message lines already hold what was said.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memstrata.clock import iso_or_empty
from memstrata.model import Problem, Session, Turn
from memstrata.raw.importers import ParsedFile, ParsedSession
from memstrata.raw.importers.lines import MAX_LINE_BYTES, JsonLine, read_json_lines
from memstrata.raw.importers.turns import cap_text, first_json_object, title_line, tool_call

FORMAT = "gemini"
HARNESS = "gemini"


_ROLES = {
    "user": "user",
    "gemini": "assistant",
    "model": "assistant",
    "info": "system",
    "error": "system",
    "warning": "system",
}


@dataclass(frozen=True, slots=True)
class _Draft:
    """A turn before it has a session and an index."""

    role: str
    time: str
    text: str
    tool_calls: tuple[dict[str, str], ...] = ()


def sniff(path: Path, head: bytes) -> bool:
    """Claim a ``.json`` holding ``sessionId`` and ``messages``, or a v0.40 ``.jsonl`` header."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return b'"sessionId"' in head and b'"messages"' in head
    if suffix == ".jsonl":
        first = first_json_object(head)
        return first is not None and "sessionId" in first and "projectHash" in first
    return False


def parse(path: Path, agent: str, max_line_bytes: int = MAX_LINE_BYTES) -> ParsedFile:
    """Read one Gemini recording into (at most) one session."""
    if path.suffix.lower() == ".jsonl":
        header, messages, problems = _read_jsonl(path, max_line_bytes)
    else:
        header, messages, problems = _read_document(path)
    parsed = _build_session(path, agent, header, messages)
    return ParsedFile(str(path), FORMAT, parsed, tuple(problems))


def _read_document(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[Problem]]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        return {}, [], [Problem(str(path), line, f"invalid UTF-8 at byte {error.start}")]
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        message = f"invalid JSON: {error.msg} (column {error.colno})"
        return {}, [], [Problem(str(path), error.lineno, message)]
    if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
        return {}, [], [Problem(str(path), None, "not a Gemini chat recording (no messages list)")]
    messages = [message for message in document["messages"] if isinstance(message, dict)]
    return document, messages, []


def _read_jsonl(
    path: Path, max_line_bytes: int
) -> tuple[dict[str, Any], list[dict[str, Any]], list[Problem]]:
    header: dict[str, Any] = {}
    by_id: dict[str, dict[str, Any]] = {}
    problems: list[Problem] = []
    for item in read_json_lines(path, max_line_bytes):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        value = item.value
        if not isinstance(value, dict):
            problems.append(Problem(str(path), item.line, "expected a JSON object"))
        elif "$rewindTo" in value:
            continue
        elif isinstance(value.get("id"), str):
            # A re-appended id replaces the message in place (dicts keep first-insertion order).
            by_id[value["id"]] = value
        elif "$set" in value:
            _apply_patch(header, value["$set"], path, item, problems)
        elif "sessionId" in value:
            header.update(value)
        elif "type" in value:
            by_id[f"line-{item.line}"] = value
    return header, list(by_id.values()), problems


def _apply_patch(
    header: dict[str, Any], patch: Any, path: Path, item: JsonLine, problems: list[Problem]
) -> None:
    if not isinstance(patch, dict):
        problems.append(Problem(str(path), item.line, "$set is not an object"))
        return
    header.update({key: value for key, value in patch.items() if key != "messages"})


def _build_session(
    path: Path, agent: str, header: dict[str, Any], messages: list[dict[str, Any]]
) -> tuple[ParsedSession, ...]:
    drafts = [draft for message in messages for draft in _message_drafts(message)]
    if not drafts:
        return ()
    session_id = f"gemini:{header.get('sessionId') or path.stem}"
    times = [draft.time for draft in drafts if draft.time]
    summary = header.get("summary")
    has_summary = isinstance(summary, str) and bool(summary.strip())
    session = Session(
        id=session_id,
        harness=HARNESS,
        agent=agent,
        started=iso_or_empty(header.get("startTime")) or (times[0] if times else ""),
        ended=max([iso_or_empty(header.get("lastUpdated")), *times]),
        source_path=str(path),
        title=title_line(summary) if has_summary else _first_user(drafts),
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
    return (ParsedSession(session, turns),)


def _message_drafts(message: dict[str, Any]) -> list[_Draft]:
    """Turn one recorded message into its turns: the message itself, then one per tool result."""
    role = _ROLES.get(str(message.get("type")))
    if role is None:
        return []
    time = iso_or_empty(message.get("timestamp"))
    content = message.get("content")
    if content in (None, "", []):
        content = message.get("parts")
    if role == "user":
        display = _parts(message.get("displayContent"))
        if display.text.strip():
            content = message.get("displayContent")
    found = _parts(content)
    calls = list(found.calls)
    results: list[_Draft] = [_Draft("tool", time, output) for output in found.results if output]
    for call in message.get("toolCalls") or []:
        if not isinstance(call, dict):
            continue
        calls.append(tool_call(call.get("name"), call.get("args")))
        output = _tool_call_output(call)
        if output:
            results.append(_Draft("tool", iso_or_empty(call.get("timestamp")) or time, output))
    drafts: list[_Draft] = []
    if found.text.strip() or calls:
        drafts.append(_Draft(role, time, found.text.strip(), tuple(calls)))
    return drafts + results


@dataclass(frozen=True, slots=True)
class _Parts:
    text: str
    calls: tuple[dict[str, str], ...]
    results: tuple[str, ...]


def _parts(value: Any) -> _Parts:
    """Split Gemini content (a string, a part, or a list of parts) into text, calls and results."""
    if isinstance(value, str):
        return _Parts(value, (), ())
    items = value if isinstance(value, list) else [value]
    texts: list[str] = []
    calls: list[dict[str, str]] = []
    results: list[str] = []
    for part in items:
        if isinstance(part, str):
            texts.append(part)
        elif not isinstance(part, dict) or part.get("thought") is True:
            continue
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif isinstance(part.get("functionCall"), dict):
            calls.append(
                tool_call(part["functionCall"].get("name"), part["functionCall"].get("args"))
            )
        elif isinstance(part.get("functionResponse"), dict):
            results.append(_response_text(part["functionResponse"].get("response")))
    return _Parts("".join(texts), tuple(calls), tuple(results))


def _tool_call_output(call: dict[str, Any]) -> str:
    """The text the model got back from a tool call, else what the user was shown."""
    outputs = _parts(call.get("result") or []).results
    output = "\n".join(text for text in outputs if text)
    if output:
        return output
    display = call.get("resultDisplay")
    if isinstance(display, str):
        return display
    if isinstance(display, dict) and isinstance(display.get("fileDiff"), str):
        return display["fileDiff"]
    return ""


def _response_text(response: Any) -> str:
    if isinstance(response, str):
        return response
    if isinstance(response, dict):
        for key in ("output", "error", "content"):
            if isinstance(response.get(key), str):
                return str(response[key])
    return "" if response is None else json.dumps(response, sort_keys=True, ensure_ascii=False)


def _first_user(drafts: list[_Draft]) -> str:
    return next((title_line(draft.text) for draft in drafts if draft.role == "user"), "")
