"""Importing a session again, whole or cut short, never loses what the raw store holds."""

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from memstrata import Memory

SESSION = "claude-code:s-1"


def _line(kind: str, uuid: str, message: dict, **extra: object) -> str:
    line = {
        "type": kind,
        "uuid": uuid,
        "sessionId": "s-1",
        "timestamp": "2025-11-27T10:00:00Z",
        "message": message,
    }
    return json.dumps({**line, **extra}) + "\n"


def _route_session() -> list[str]:
    """A Claude Code session whose one response is written as two lines: text, then a tool call."""
    response = {"id": "msg_1", "role": "assistant", "type": "message"}
    write = {"file_path": "route.md", "content": "Hamburg to Oslo by zeppelin. " * 20}
    return [
        _line("user", "u0", {"role": "user", "content": "plan the zeppelin route"}),
        _line("assistant", "a1", {**response, "content": [{"type": "text", "text": "Writing."}]}),
        _line(
            "assistant",
            "a2",
            {**response, "content": [{"type": "tool_use", "name": "Write", "input": write}]},
        ),
        _line("user", "u3", {"role": "user", "content": "thanks, also book the hangar"}),
        json.dumps({"type": "custom-title", "customTitle": "Zeppelin route", "sessionId": "s-1"})
        + "\n",
    ]


def _stored(memory: Memory) -> list[tuple[int, str, str, int]]:
    return [
        (turn.index, turn.role, turn.text, len(json.loads(turn.tool_calls)))
        for turn in memory.raw.turns(SESSION)
    ]


def test_a_copy_cut_mid_line_adds_nothing_and_removes_nothing(memory: Memory, tmp_path: Path):
    full = tmp_path / "s-1.jsonl"
    full.write_text("".join(_route_session()))
    memory.ingest([full])
    before = _stored(memory)
    cut = tmp_path / "backup" / "s-1.jsonl"
    cut.parent.mkdir()
    cut.write_bytes(full.read_bytes()[: len("".join(_route_session()[:2])) + 120])

    report = memory.ingest([cut])

    assert before[1] == (1, "assistant", "Writing.", 1)
    assert _stored(memory) == before
    assert (report.turns_added, report.turns_updated, report.turns_kept) == (0, 0, 1)
    [problem] = report.problems
    assert (problem.path, problem.line) == (str(cut), 3)
    assert problem.message.startswith("last line cut short")
    assert [session.title for session in memory.raw.sessions()] == ["Zeppelin route"]


def _full_then_cut(memory: Memory, tmp_path: Path) -> tuple[Path, Path]:
    """The route session imported whole, and a copy of its first two lines (not imported)."""
    full = tmp_path / "s-1.jsonl"
    full.write_text("".join(_route_session()))
    memory.ingest([full])
    cut = tmp_path / "older.jsonl"
    cut.write_text("".join(_route_session()[:2]))
    return full, cut


def test_a_copy_cut_between_lines_keeps_the_title_the_full_file_gave(
    memory: Memory, tmp_path: Path
):
    _, cut = _full_then_cut(memory, tmp_path)

    report = memory.ingest([cut])

    assert report.problems == []
    assert [session.title for session in memory.raw.sessions()] == ["Zeppelin route"]
    assert _stored(memory)[1] == (1, "assistant", "Writing.", 1)


def test_the_full_file_is_still_skipped_after_a_shorter_copy_as_it_has_nothing_to_add(
    memory: Memory, tmp_path: Path
):
    full, cut = _full_then_cut(memory, tmp_path)
    memory.ingest([cut])

    again = memory.ingest([full])

    assert again.skipped_unchanged == 1
    assert _stored(memory)[1] == (1, "assistant", "Writing.", 1)


def test_a_store_cut_down_by_an_older_memstrata_is_restored_by_the_full_file(
    workspace: Path, tmp_path: Path
):
    full = tmp_path / "s-1.jsonl"
    full.write_text("".join(_route_session()))
    with Memory(workspace) as memory:
        memory.ingest([full])
        raw_db = memory.workspace.raw_db
    # What schema 1 left after a shorter copy: the tool call gone, the full file marked imported.
    with closing(sqlite3.connect(raw_db)) as db:
        db.execute(f"UPDATE turns SET tool_calls = '[]' WHERE session_id = '{SESSION}' AND idx = 1")
        db.execute("PRAGMA user_version = 1")
        db.commit()

    with Memory(workspace) as memory:
        report = memory.ingest([full])
        assert (report.skipped_unchanged, report.turns_updated) == (0, 1)
        assert _stored(memory)[1] == (1, "assistant", "Writing.", 1)
