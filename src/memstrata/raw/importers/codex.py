"""OpenAI Codex CLI rollouts: ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl``.

Every line is ``{timestamp, type, payload}``. One file is one session, ``codex:<id>`` from the
``session_meta`` line (else the uuid in the file name). What becomes a turn:

* user and assistant text. Codex writes it twice, as a ``response_item`` message and as an
  ``event_msg`` (``user_message`` / ``agent_message``), in either order. The first copy makes the
  turn and the matching second copy is dropped, so a file cut between the two parses the same.
  Developer messages and the harness context Codex sends as user text (environment, permissions,
  ``AGENTS.md``) are not human turns.
* tool calls (``function_call``, ``custom_tool_call``, …) go on the last turn when it is an
  assistant turn, else on a new assistant turn without text.
* tool output (``function_call_output``, ``custom_tool_call_output``, ``exec_command_end``) is a
  ``tool`` turn, one per ``call_id``: the first output seen for a call wins.
* a ``compacted`` line with a message is a ``system`` turn.

The title is the first line of the first user turn.

Reasoning, token counts, turn contexts and unknown line types are skipped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memstrata.clock import iso_or_empty
from memstrata.model import Problem, Session, Turn
from memstrata.raw.importers import ParsedFile, ParsedSession
from memstrata.raw.importers.lines import MAX_LINE_BYTES, read_json_lines
from memstrata.raw.importers.turns import cap_text, title_line, tool_call

FORMAT = "codex"
HARNESS = "codex"


_LINE_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
_HEAD = re.compile(
    rb'\s*\{\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*'
    rb'"(?:session_meta|turn_context|response_item|event_msg|compacted)"\s*,\s*"payload"\s*:'
)
_FILE_UUID = re.compile(r"rollout-.*?([0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})")
_CONTEXT_PREFIXES = (
    "<environment_context>",
    "<permissions instructions>",
    "# AGENTS.md instructions for",
    "<user_instructions>",
    "<collaboration_mode>",
    "<skills_instructions>",
    "<plugins_instructions>",
    "<turn_aborted>",
)
_TOOL_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})


def sniff(path: Path, head: bytes) -> bool:
    """Is this a Codex rollout: does its first line read ``{"timestamp":…,"type":…,"payload":``."""
    if _HEAD.match(head):
        return True
    first = head.lstrip().split(b"\n", 1)[0]
    try:
        value = json.loads(first)
    except ValueError:
        return False
    return (
        isinstance(value, dict)
        and value.keys() >= {"timestamp", "type", "payload"}
        and value["type"] in _LINE_TYPES
    )


def parse(path: Path, agent: str, max_line_bytes: int = MAX_LINE_BYTES) -> ParsedFile:
    """Read one Codex rollout into its session and turns."""
    rollout = _Rollout(path)
    problems: list[Problem] = []
    for item in read_json_lines(path, max_line_bytes):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        message = rollout.add(item.value)
        if message:
            problems.append(Problem(str(path), item.line, message))
    return ParsedFile(str(path), FORMAT, rollout.sessions(agent), tuple(problems))


@dataclass(slots=True)
class _Draft:
    role: str
    time: str
    text: str
    calls: list[dict[str, str]] = field(default_factory=list)

    def build(self, session_id: str, index: int) -> Turn:
        tool_calls = json.dumps(self.calls, sort_keys=True, ensure_ascii=False)
        return Turn(session_id, index, self.role, self.time, cap_text(self.text), tool_calls)


class _Rollout:
    """Fold the lines of one rollout into turns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.session_id: str | None = None
        self.turns: list[_Draft] = []
        self.outputs: set[str] = set()
        # Text copies waiting for their twin from the other stream, keyed by (role, text).
        self.waiting: dict[str, list[tuple[str, str]]] = {"item": [], "event": []}

    def add(self, line: Any) -> str | None:
        """Fold one JSON line in; return a problem message when the line is unusable."""
        if not isinstance(line, dict):
            return f"expected a JSON object, got {type(line).__name__}"
        kind = line.get("type")
        if kind not in _LINE_TYPES:
            return None
        payload = line.get("payload")
        if not isinstance(payload, dict):
            return f"{kind} line without a payload object"
        time = iso_or_empty(line.get("timestamp"))
        if kind == "session_meta":
            if self.session_id is None and isinstance(payload.get("id"), str) and payload["id"]:
                self.session_id = payload["id"]
        elif kind == "response_item":
            self._add_item(payload, time)
        elif kind == "event_msg":
            self._add_event(payload, time)
        elif kind == "compacted":
            message = payload.get("message")
            if isinstance(message, str) and message.strip():
                self._append(_Draft("system", time, message))
        return None

    def _add_item(self, item: dict[str, Any], time: str) -> None:
        kind = item.get("type")
        if kind == "message":
            role = item.get("role")
            if role in ("user", "assistant"):
                self._add_text(role, _content_text(item.get("content")), time, "item")
        elif kind == "function_call":
            self._add_call(item.get("name"), item.get("arguments"), time)
        elif kind == "custom_tool_call":
            self._add_call(item.get("name"), item.get("input"), time)
        elif kind == "local_shell_call":
            action = item.get("action")
            command = action.get("command") if isinstance(action, dict) else None
            shown = " ".join(map(str, command)) if isinstance(command, list) else command
            self._add_call("local_shell", shown, time)
        elif kind == "web_search_call":
            action = item.get("action")
            query = action.get("query") if isinstance(action, dict) else None
            self._add_call("web_search", query, time)
        elif kind in _TOOL_OUTPUTS:
            self._add_output(item.get("call_id"), _output_text(item.get("output")), time)

    def _add_event(self, event: dict[str, Any], time: str) -> None:
        kind = event.get("type")
        if kind == "task_started":
            for waiting in self.waiting.values():
                waiting.clear()
        elif kind in ("user_message", "agent_message") and isinstance(event.get("message"), str):
            role = "user" if kind == "user_message" else "assistant"
            self._add_text(role, event["message"], time, "event")
        elif kind == "exec_command_end":
            output = event.get("aggregated_output")
            if not isinstance(output, str):
                parts = (event.get("stdout"), event.get("stderr"))
                output = "\n".join(part for part in parts if isinstance(part, str) and part)
            self._add_output(event.get("call_id"), output, time)

    def _add_text(self, role: str, text: str, time: str, source: str) -> None:
        if role == "user":
            text = _human_text(text)
        if not text.strip():
            return
        key = (role, " ".join(text.split()))
        twin = self.waiting["event" if source == "item" else "item"]
        if key in twin:
            twin.remove(key)
            return
        self.waiting[source].append(key)
        self._append(_Draft(role, time, text))

    def _add_call(self, name: Any, arguments: Any, time: str) -> None:
        call = tool_call(name, arguments)
        if not self.turns or self.turns[-1].role != "assistant":
            self._append(_Draft("assistant", time, ""))
        self.turns[-1].calls.append(call)

    def _add_output(self, call_id: Any, text: str, time: str) -> None:
        if isinstance(call_id, str) and call_id:
            if call_id in self.outputs:
                return
            self.outputs.add(call_id)
        self._append(_Draft("tool", time, text))

    def _append(self, draft: _Draft) -> None:
        if self.session_id is None:
            self.session_id = _id_from_name(self.path)  # decided once, before the first turn
        self.turns.append(draft)

    def sessions(self, agent: str) -> tuple[ParsedSession, ...]:
        if not self.turns or self.session_id is None:
            return ()
        session_id = f"{HARNESS}:{self.session_id}"
        turns = tuple(draft.build(session_id, index) for index, draft in enumerate(self.turns))
        times = [turn.time for turn in turns if turn.time]
        session = Session(
            id=session_id,
            harness=HARNESS,
            agent=agent,
            started=min(times, default=""),
            ended=max(times, default=""),
            source_path=str(self.path),
            title=next((title_line(turn.text) for turn in turns if turn.role == "user"), ""),
        )
        return (ParsedSession(session, turns),)


def _human_text(text: str) -> str:
    """Drop the harness context blocks Codex sends in user messages."""
    return "" if text.lstrip().startswith(_CONTEXT_PREFIXES) else text


def _content_text(content: Any) -> str:
    """Join the text parts of a message; harness-context parts and images are left out."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = [part.get("text") for part in content if isinstance(part, dict)]
    return "\n".join(text for text in texts if isinstance(text, str) and _human_text(text))


def _output_text(output: Any) -> str:
    """Tool output: a string, a JSON string ``{"output": …}``, or a list of content items."""
    if isinstance(output, str):
        if output.startswith("{"):
            try:
                decoded = json.loads(output)
            except ValueError:
                return output
            if isinstance(decoded, dict) and isinstance(decoded.get("output"), str):
                return str(decoded["output"])
        return output
    if isinstance(output, list):
        return _content_text(output)
    if isinstance(output, dict):
        return _output_text(output.get("content") or output.get("output") or "")
    return ""


def _id_from_name(path: Path) -> str:
    match = _FILE_UUID.search(path.name)
    return match.group(1) if match else path.stem
