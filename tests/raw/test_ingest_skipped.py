"""Files ingest does not import are named with the reason, and never marked imported."""

import json
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.raw.importers import default_agent


def _write_chat(path: Path) -> Path:
    """A generic JSONL chat: a format auto-detection knows as ``jsonl``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        {"role": "user", "content": "where do zeppelins dock", "timestamp": "2025-11-27T10:00:00Z"},
        {"role": "assistant", "content": "at a mooring mast", "timestamp": "2025-11-27T10:00:05Z"},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_a_named_file_in_another_format_than_asked_is_a_problem_and_stays_importable(
    memory: Memory, tmp_path: Path
):
    chat = _write_chat(tmp_path / "chat.jsonl")

    wrong = memory.ingest([chat], format_name="gemini")
    right = memory.ingest([chat])

    assert [str(problem) for problem in wrong.problems] == [
        f"{chat}: no gemini session found: the file does not match --format gemini"
        " (it looks like jsonl)"
    ]
    assert (wrong.files, wrong.sessions, wrong.found_no_transcript) == (0, 0, True)
    assert (right.skipped_unchanged, right.sessions, right.turns_added) == (0, 1, 2)


def test_files_in_a_folder_that_do_not_match_the_format_are_listed_not_marked(
    memory: Memory, tmp_path: Path
):
    chat = _write_chat(tmp_path / "sessions" / "chat.jsonl")

    wrong = memory.ingest([tmp_path / "sessions"], format_name="claude-code")
    right = memory.ingest([tmp_path / "sessions"])

    assert (wrong.unknown_files, wrong.skipped_unknown, wrong.problems) == ([str(chat)], 1, [])
    assert wrong.found_no_transcript
    assert (right.skipped_unchanged, right.turns_added, right.found_no_transcript) == (0, 2, False)


def test_a_mark_made_in_one_format_does_not_skip_the_file_for_another(
    memory: Memory, tmp_path: Path
):
    chat = _write_chat(tmp_path / "chat.jsonl")
    memory.ingest([chat], format_name="jsonl")

    same = memory.ingest([chat], format_name="jsonl")
    auto = memory.ingest([chat])
    other = memory.ingest([chat], format_name="codex")

    assert (same.skipped_unchanged, auto.skipped_unchanged, other.skipped_unchanged) == (1, 1, 0)
    assert "does not match --format codex" in other.problems[0].message


def test_a_file_of_the_format_asked_for_without_any_session_is_imported_as_empty(
    memory: Memory, tmp_path: Path
):
    # Claude Code writes files holding only file-history snapshots; they are its own, just empty.
    path = tmp_path / "snapshots.jsonl"
    snapshot = {"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}}
    path.write_text(json.dumps(snapshot) + "\n")

    first = memory.ingest([path], format_name="claude-code")
    again = memory.ingest([path], format_name="claude-code")

    assert (first.files, first.sessions, first.problems) == (1, 0, [])
    assert again.skipped_unchanged == 1


def test_a_folder_walk_names_the_unknown_and_the_empty_files_it_skipped(
    memory: Memory, tmp_path: Path
):
    folder = tmp_path / "projects"
    _write_chat(folder / "chat.jsonl")
    (folder / "notes.md").write_text("just notes\n")
    (folder / "config.json").write_text('{"a": 1}\n')
    (folder / "new.jsonl").write_text("")

    report = memory.ingest([folder])

    assert report.unknown_files == [str(folder / "config.json"), str(folder / "notes.md")]
    assert report.skipped_unknown == 2
    assert report.empty_files == [str(folder / "new.jsonl")]
    assert (report.files, report.problems) == (1, [])


def test_an_empty_file_named_directly_is_reported_as_empty(memory: Memory, tmp_path: Path):
    path = tmp_path / "new.jsonl"
    path.write_text("")

    report = memory.ingest([path])

    assert [str(problem) for problem in report.problems] == [
        f"{path}: empty file, nothing to import"
    ]


def test_a_subagent_metadata_file_is_read_with_its_transcript_not_reported_unknown(
    memory: Memory, tmp_path: Path
):
    subagents = tmp_path / "projects" / "s-1" / "subagents"
    subagents.mkdir(parents=True)
    line = {
        "type": "user",
        "uuid": "u0",
        "sessionId": "s-1",
        "isSidechain": True,
        "agentId": "a1",
        "message": {"role": "user", "content": "find the hangar plans"},
    }
    (subagents / "agent-a1.jsonl").write_text(json.dumps(line) + "\n")
    (subagents / "agent-a1.meta.json").write_text('{"agentType": "Explore"}\n')

    report = memory.ingest([tmp_path / "projects"])

    assert (report.files, report.unknown_files) == (1, [])
    [session] = memory.raw.sessions()
    assert session.agent == default_agent("claude-code").replace(":main", ":Explore")


def test_a_device_named_directly_is_refused_with_what_to_do(memory: Memory):
    """It was "1 empty files skipped": /dev/zero has size 0, and would never end if read.
    A pipe is read (tests/raw/test_ingest_stream.py)."""
    with pytest.raises(InputError, match=r"not a regular file \(a device or a socket\)"):
        memory.ingest(Path("/dev/zero"))
    assert memory.raw.counts() == {"sessions": 0, "turns": 0}


def test_a_named_file_of_plain_text_asked_as_jsonl_says_where_it_stopped_being_json(
    memory: Memory, tmp_path: Path
):
    notes = tmp_path / "notes.jsonl"
    notes.write_text("just a note\nanother\n")

    report = memory.ingest([notes], format_name="jsonl")

    assert [str(problem) for problem in report.problems] == [
        f"{notes}: no jsonl session found: the file does not match --format jsonl"
        " (no format memstrata knows claims it); line 1: invalid JSON: Expecting value (column 1)"
    ]
