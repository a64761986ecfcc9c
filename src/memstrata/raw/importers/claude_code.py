"""Claude Code transcripts: ``~/.claude/projects/<project>/<sessionId>.jsonl``.

One file may hold several sessions. Lines of the conversation itself become
``claude-code:<sessionId>``; subagent (sidechain) lines become their own session
``claude-code:<sessionId>/agent-<agentId>`` in every layout Claude Code has used:

* 2.1.x ``<sessionId>/subagents/agent-<id>.jsonl`` (the parent id is the folder name), with an
  ``agent-<id>.meta.json`` whose ``agentType`` names the subagent's role in its agent key;
* 2.0.x ``agent-<id>.jsonl`` beside the session, lines carrying the parent's ``sessionId``,
  ``isSidechain`` and ``agentId``;
* ≤1.0.x ``isSidechain`` lines inline in the main file, without ``agentId``: each sidechain is
  named by the uuid of its root line and its lines are found through ``parentUuid``.

Sidechains whose first turn is the ``Warmup`` pre-warm prompt carry no task and are dropped.

One API response is written as one line per content block sharing ``message.id``; those lines
become one assistant turn, also when a tool result sits between them (until the next human turn).
That merge is the one way an earlier turn than the last can still change as a file grows.

Title of the main session: the last ``custom-title``, else the last ``ai-title``, else the last
``summary`` line whose ``leafUuid`` is a line of this file, else the last ``summary`` line, else
(as for subagent sessions) the first line of the first user turn.
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

FORMAT = "claude-code"
HARNESS = "claude-code"


_LINE_TYPES = frozenset({"user", "assistant", "system", "attachment", "progress"})
_IDENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_REMINDER = re.compile(r"<system-reminder>.*?(?:</system-reminder>|\Z)", re.DOTALL)
_TAG = r"<{0}>(.*?)</{0}>"
_SKIPPED_TAGS = ("<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>")


def sniff(path: Path, head: bytes) -> bool:
    """Is this a Claude Code transcript: lines with ``sessionId`` and ``uuid`` or ``message``."""
    for raw in head.split(b"\n"):
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(value, dict):
            return False
        kind = value.get("type")
        if "payload" in value or not isinstance(kind, str):
            return False
        if kind == "summary" and "leafUuid" in value:
            return True
        if kind == "file-history-snapshot" and "snapshot" in value:
            return True
        if kind in _LINE_TYPES and "sessionId" in value and ("uuid" in value or "message" in value):
            return True
    # A first line longer than the head: recognise Claude Code's fixed leading keys.
    return head.startswith(b'{"parentUuid":') and b'"sessionId":"' in head


def parse(path: Path, agent: str, max_line_bytes: int = MAX_LINE_BYTES) -> ParsedFile:
    """Read one Claude Code ``.jsonl`` file into its sessions and turns."""
    transcript = _Transcript(path, agent)
    problems: list[Problem] = []
    for item in read_json_lines(path, max_line_bytes):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        message = transcript.add(item.value)
        if message:
            problems.append(Problem(str(path), item.line, message))
    return ParsedFile(str(path), FORMAT, transcript.sessions(), tuple(problems + transcript.notes))


@dataclass(slots=True)
class _Draft:
    """A turn still being assembled (an API response may arrive over several lines)."""

    role: str
    time: str
    parts: list[str] = field(default_factory=list)
    calls: list[dict[str, str]] = field(default_factory=list)

    def build(self, session_id: str, index: int) -> Turn:
        tool_calls = json.dumps(self.calls, sort_keys=True, ensure_ascii=False)
        text = cap_text("\n".join(self.parts))
        return Turn(session_id, index, self.role, self.time, text, tool_calls)


@dataclass(slots=True)
class _SessionDraft:
    id: str
    agent: str
    is_sidechain: bool
    turns: list[_Draft] = field(default_factory=list)
    responses: dict[str, _Draft] = field(default_factory=dict)  # message.id → turn, this exchange
    is_warmup: bool = False

    def append(self, draft: _Draft) -> None:
        if self.is_sidechain and not self.turns and not self.is_warmup:
            self.is_warmup = draft.role == "user" and "\n".join(draft.parts).strip() == "Warmup"
        if self.is_warmup:
            return
        if draft.role in ("user", "system"):
            self.responses.clear()
        self.turns.append(draft)


class _Transcript:
    """Route each line of one file to its session and fold it into turns."""

    def __init__(self, path: Path, agent: str) -> None:
        self.path = path
        self.agent = agent
        self.drafts: dict[str, _SessionDraft] = {}
        self.main_id: str | None = None
        self.sidechain_of: dict[str, str] = {}  # line uuid → sidechain agent id
        self.seen: set[str] = set()
        self.uuids: set[str] = set()
        self.titles: dict[str, str] = {}
        self.summaries: list[tuple[str, str]] = []
        self.notes: list[Problem] = []
        self.subagent: tuple[str, str, str] | None = None
        if path.parent.name == "subagents" and path.stem.startswith("agent-"):
            parent, agent_id = path.parent.parent.name, path.stem.removeprefix("agent-")
            self.subagent = (parent, agent_id, self._subagent_agent())

    def add(self, line: Any) -> str | None:
        """Fold one JSON line in; return a problem message when the line is unusable."""
        if not isinstance(line, dict):
            return f"expected a JSON object, got {type(line).__name__}"
        kind = line.get("type")
        if self.main_id is None and _ident(line.get("sessionId")):
            self.main_id = line["sessionId"]
        uuid = _ident(line.get("uuid"))
        if uuid:
            self.uuids.add(uuid)
        if kind == "summary":
            if isinstance(line.get("summary"), str):
                self.summaries.append((line["summary"], str(line.get("leafUuid"))))
        elif kind in ("custom-title", "ai-title"):
            title = line.get("customTitle" if kind == "custom-title" else "aiTitle")
            if isinstance(title, str) and title.strip():
                self.titles[kind] = title.strip()
        if kind not in ("user", "assistant", "system"):
            return None
        session = self._session_for(line, uuid)
        if uuid:
            if uuid in self.seen:
                return None  # the same line written twice (resume, retry): count it once
            self.seen.add(uuid)
        time = iso_or_empty(line.get("timestamp"))
        if kind == "system":
            return self._add_system(session, line, time)
        message = line.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("content"), str | list):
            return f"{kind} line without a message object holding content"
        if kind == "assistant":
            self._add_assistant(session, message, time)
        else:
            self._add_user(session, line, message["content"], time)
        return None

    def _session_for(self, line: dict[str, Any], uuid: str | None) -> _SessionDraft:
        if self.subagent:
            parent, agent_id, agent = self.subagent
            return self._draft(f"{parent}/agent-{agent_id}", agent, True)
        if line.get("isSidechain") is not True:
            return self._draft(self._main_id(), self.agent, False)
        parent_uuid = _ident(line.get("parentUuid"))
        agent_id = (
            _ident(line.get("agentId"))
            or (self.sidechain_of.get(parent_uuid) if parent_uuid else None)
            or uuid
            or "sidechain"
        )
        if uuid:
            self.sidechain_of[uuid] = agent_id
        parent = _ident(line.get("sessionId")) or self._main_id()
        return self._draft(f"{parent}/agent-{agent_id}", _with_role(self.agent, "subagent"), True)

    def _main_id(self) -> str:
        if self.main_id is None:
            self.main_id = self.path.stem  # decided once, so a longer file keeps the same id
        return self.main_id

    def _draft(self, key: str, agent: str, is_sidechain: bool) -> _SessionDraft:
        if key not in self.drafts:
            self.drafts[key] = _SessionDraft(f"{HARNESS}:{key}", agent, is_sidechain)
        return self.drafts[key]

    def _subagent_agent(self) -> str:
        meta_path = self.path.with_name(f"{self.path.stem}.meta.json")
        role = "subagent"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            meta = None
        except (OSError, ValueError) as error:
            message = f"unreadable subagent metadata ({error})"
            self.notes.append(Problem(str(meta_path), None, message))
            meta = None
        if isinstance(meta, dict) and isinstance(meta.get("agentType"), str):
            role = meta["agentType"].replace(":", "-").strip() or role
        return _with_role(self.agent, role)

    def _add_system(self, session: _SessionDraft, line: dict[str, Any], time: str) -> None:
        # Most system lines are bookkeeping (durations, hooks, retries); a refusal is worth keeping.
        if line.get("subtype") == "api_refusal" and line.get("isMeta") is not True:
            reason = line.get("apiRefusalExplanation") or line.get("content") or ""
            session.append(_Draft("system", time, [f"API refusal: {reason}".strip()]))

    def _add_assistant(self, session: _SessionDraft, message: dict[str, Any], time: str) -> None:
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        texts: list[str] = []
        calls: list[dict[str, str]] = []
        for block in blocks:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif block.get("type") == "tool_use":
                calls.append(tool_call(block.get("name"), block.get("input", {})))
        if not texts and not calls:
            return  # thinking, signatures, redacted thinking: nothing to search
        message_id = _ident(message.get("id"))
        draft = session.responses.get(message_id) if message_id else None
        if draft is None:
            draft = _Draft("assistant", time)
            session.append(draft)
            if message_id:
                session.responses[message_id] = draft
        draft.parts.extend(texts)
        draft.calls.extend(calls)

    def _add_user(
        self, session: _SessionDraft, line: dict[str, Any], content: str | list[Any], time: str
    ) -> None:
        if line.get("isCompactSummary") is True:
            session.append(_Draft("system", time, [_block_text(content)]))
            return
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        texts: list[str] = []
        for block in blocks:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_result":
                # Kept even on isMeta lines: the result of a call the transcript recorded.
                session.append(_Draft("tool", time, [_block_text(block.get("content", ""))]))
            elif block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
        if line.get("isMeta") is True or not texts:
            return
        role, text = _human_text("\n".join(texts))
        if text:
            session.append(_Draft(role, time, [text]))

    def sessions(self) -> tuple[ParsedSession, ...]:
        main_title = self._title()
        parsed: list[ParsedSession] = []
        for draft in self.drafts.values():
            if draft.is_warmup or not draft.turns:
                continue
            turns = tuple(turn.build(draft.id, index) for index, turn in enumerate(draft.turns))
            times = [turn.time for turn in turns if turn.time]
            title = "" if draft.is_sidechain else main_title
            session = Session(
                id=draft.id,
                harness=HARNESS,
                agent=draft.agent,
                started=min(times, default=""),
                ended=max(times, default=""),
                source_path=str(self.path),
                title=title or _first_user(turns),
            )
            parsed.append(ParsedSession(session, turns))
        return tuple(parsed)

    def _title(self) -> str:
        if "custom-title" in self.titles:
            return title_line(self.titles["custom-title"])
        if "ai-title" in self.titles:
            return title_line(self.titles["ai-title"])
        own = [text for text, leaf in self.summaries if leaf in self.uuids]
        texts = own or [text for text, _ in self.summaries]
        return title_line(texts[-1]) if texts else ""


def _first_user(turns: tuple[Turn, ...]) -> str:
    return next((title_line(turn.text) for turn in turns if turn.role == "user"), "")


def _human_text(text: str) -> tuple[str, str]:
    """Return the role and searchable text of what a user line says, ``""`` when it is noise."""
    text = _REMINDER.sub("", text).strip()
    if text.startswith("[Request interrupted by user"):
        return "user", ""
    if text.startswith(_SKIPPED_TAGS):
        return "user", ""
    command = _tag(text, "command-name") if text.startswith("<command-") else None
    if command is not None:
        args = _tag(text, "command-args") or ""
        name = command if command.startswith("/") else f"/{command}"
        return "user", f"{name} {args}".strip()
    shell = _tag(text, "bash-input") if text.startswith("<bash-input>") else None
    if shell is not None:
        return "user", f"! {shell}"
    if text.startswith(("<bash-stdout>", "<bash-stderr>")):
        output = [_tag(text, "bash-stdout") or "", _tag(text, "bash-stderr") or ""]
        return "tool", "\n".join(part for part in output if part)
    return "user", text


def _tag(text: str, name: str) -> str | None:
    match = re.search(_TAG.format(name), text, re.DOTALL)
    return match.group(1).strip() if match else None


def _block_text(content: Any) -> str:
    """Join the text of a string or a list of content blocks (images and the rest are skipped)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(
        block["text"]
        for block in content
        if isinstance(block, dict) and isinstance(block.get("text"), str)
    )


def _ident(value: Any) -> str | None:
    """``value`` when it is a usable id; placeholders such as ``[trimmed for fixture]`` are not."""
    return value if isinstance(value, str) and _IDENT.fullmatch(value) else None


def _with_role(agent: str, role: str) -> str:
    """Replace the role of an agent key ``harness:account:role``."""
    if agent.count(":") >= 2:
        return f"{agent.rpartition(':')[0]}:{role}"
    return f"{agent}:{role}"
