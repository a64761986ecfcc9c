"""Two transcripts that give the same session id hold two conversations: both are kept whole and
found by search; a transcript imported again as it grows stays one conversation."""

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memstrata import Memory
from memstrata.raw.importers import detect_format, parse_file
from memstrata.workspace.layout import init_workspace

CLAUDE = "claude-code/codemie-real-v2.0.64/-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl"
CLAUDE_OTHER = "claude-code/codemie-real-v2.1.4/session-9eda1058.jsonl"
CODEX = (
    "codex/codemie-real-anonymized/"
    "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.first63lines.jsonl"
)
CODEX_OTHER = "codex/codemie-synthetic/turn-spawn-skill.jsonl"

#: every transcript in the shared data that is written a line at a time
GROWING = [
    "aider/chat-history.excerpt-A.bytes3501597-3505570.md",
    "aider/chat-history.excerpt-B.bytes598688-603333.md",
    "claude-code/agent-sessions-shape/schema-zoo-small.jsonl",
    "claude-code/agent-sessions-shape/subagent-layout/"
    "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/agent-a0ad4f44468bdf20d.jsonl",
    CLAUDE,
    "claude-code/codemie-real-v2.0.64/-tmp-private/agent-36541525.jsonl",
    "claude-code/codemie-real-v2.0.76-compaction-excerpt/session-624a4a58.lines148-161.jsonl",
    CLAUDE_OTHER,
    CODEX,
    CODEX_OTHER,
    "gemini-cli/agent-sessions-shape/jsonl_v040.jsonl",
    "openclaw-pi/agent-sessions/openclaw-large.jsonl",
    "openclaw-pi/agent-sessions/pi-small.jsonl",
]


def _claude_session_id(line: dict[str, Any], session_id: str) -> None:
    if "sessionId" in line:
        line["sessionId"] = session_id


def _codex_session_id(line: dict[str, Any], session_id: str) -> None:
    if line.get("type") == "session_meta":
        line["payload"]["id"] = session_id


def _with_session_id(
    source: Path, target: Path, session_id: str, rewrite: Callable[[dict[str, Any], str], None]
) -> Path:
    """A copy of the transcript ``source`` that gives ``session_id`` (a resumed or copied file)."""
    lines = [json.loads(raw) for raw in source.read_text().splitlines() if raw.strip()]
    for line in lines:
        rewrite(line, session_id)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    return target


def _conversation(path: Path) -> list[tuple[str, str]]:
    """The turns of ``path``'s one session as imported into a store of its own."""
    [parsed] = parse_file(path, str(detect_format(path)), None).sessions
    return [(turn.role, turn.text) for turn in parsed.turns]


def _stored(memory: Memory, session_id: str) -> list[tuple[str, str]]:
    return [(turn.role, turn.text) for turn in memory.raw.turns(session_id)]


@pytest.mark.parametrize(
    ("first", "second", "native_id", "rewrite"),
    [
        (CLAUDE, CLAUDE_OTHER, "4c2ddfdc-b619-4525-8d03-1950fb1b0257", _claude_session_id),
        (CODEX, CODEX_OTHER, "019e1625-789d-76c0-80ab-3724b5ddb799", _codex_session_id),
    ],
    ids=["claude-code", "codex"],
)
def test_a_second_conversation_under_a_stored_session_id_is_kept_apart_as_it_grows(
    memory: Memory,
    transcripts: Path,
    tmp_path: Path,
    first: str,
    second: str,
    native_id: str,
    rewrite: Callable[[dict[str, Any], str], None],
):
    whole = _with_session_id(
        transcripts / second, tmp_path / "b" / "other.jsonl", native_id, rewrite
    )
    growing = tmp_path / "live" / "other.jsonl"
    growing.parent.mkdir()
    lines = whole.read_bytes().splitlines(keepends=True)
    growing.write_bytes(b"".join(lines[: len(lines) // 2]))
    memory.ingest([transcripts / first])
    session_id = memory.raw.sessions()[0].id

    part = memory.ingest([growing])
    shutil.copy(whole, growing)
    grown = memory.ingest([growing])
    again = memory.ingest([transcripts / first, growing])

    [apart] = part.forks
    assert part.forks == grown.forks == {apart: session_id}
    assert apart.startswith(f"{session_id}~")
    assert grown.turns_added > 0 and grown.turns_kept == 0
    assert again.skipped_unchanged == 2
    assert _stored(memory, session_id) == _conversation(transcripts / first)
    assert _stored(memory, apart) == _conversation(whole)
    for path, found in ((transcripts / first, session_id), (whole, apart)):
        question = _conversation(path)[0][1]
        assert found in [hit.source for hit in memory.search_sessions(question)]
        raw = [hit.source for hit in memory.search(question) if hit.stratum == "raw"]
        assert f"{found}#0" in raw


@pytest.mark.parametrize("name", GROWING, ids=lambda name: Path(name).name[:40])
def test_a_real_transcript_imported_after_every_line_it_gains_stays_one_conversation(
    workspace: Path, transcripts: Path, tmp_path: Path, name: str
):
    source = transcripts / name
    live = tmp_path / "live" / name  # the same layout: subagent files are named by their folder
    live.parent.mkdir(parents=True)
    for meta in source.parent.glob(f"{source.stem}.meta.json"):
        shutil.copy(meta, live.parent / meta.name)
    lines = source.read_bytes().splitlines(keepends=True)
    init_workspace(tmp_path / "fresh")
    with Memory(workspace) as growing, Memory(tmp_path / "fresh") as fresh:
        forks: dict[str, str] = {}
        for count in range(1, len(lines) + 1):
            live.write_bytes(b"".join(lines[:count]))
            forks.update(growing.ingest([live]).forks)
        fresh.ingest([live])

        assert forks == {}
        assert growing.raw.sessions() == fresh.raw.sessions()
        for session in fresh.raw.sessions():
            assert growing.raw.turns(session.id) == fresh.raw.turns(session.id)
