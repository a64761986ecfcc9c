"""OpenClaw / pi session JSONL: a session header, then a tree of entries kept in file order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memstrata.raw.importers import HEAD_BYTES, openclaw

from .support import assert_prefix_stable, only_session

FIXTURES = "openclaw-pi/agent-sessions"
NOT_TRANSCRIPTS = {"PROVENANCE.md", "SHA256SUMS", "manifest.json"}
SESSION = {"type": "session", "version": 3, "id": "s-1", "timestamp": "2026-05-12T01:00:00Z"}


def data_files(transcripts: Path) -> list[Path]:
    return sorted(
        path
        for path in transcripts.rglob("*")
        if path.is_file() and "LICENSES" not in path.parts and path.name not in NOT_TRANSCRIPTS
    )


def write_lines(path: Path, *records: object) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def message(entry_id: str, role: str, content: object, **extra: object) -> dict[str, object]:
    return {
        "type": "message",
        "id": entry_id,
        "parentId": None,
        "timestamp": "2026-05-12T01:00:05Z",
        "message": {"role": role, "content": content, **extra},
    }


@pytest.mark.parametrize("name", ["pi-small.jsonl", "openclaw-large.jsonl"])
def test_every_openclaw_and_pi_fixture_parses_without_problems(
    transcripts: Path, name: str
) -> None:
    parsed = openclaw.parse(transcripts / FIXTURES / name, "openclaw:default:main")

    assert parsed.problems == ()
    assert len(parsed.sessions) == 1
    assert parsed.sessions[0].turns


def test_the_session_line_names_the_session_and_its_start(transcripts: Path) -> None:
    parsed = openclaw.parse(transcripts / FIXTURES / "pi-small.jsonl", "openclaw:default:main")

    session = parsed.sessions[0].session
    assert session.id == "openclaw:019e19b4-eb48-746a-aa6b-8dfcfa37954b"
    assert session.harness == "openclaw"
    assert session.started == "2026-05-12T01:02:27Z"
    assert session.ended == "2026-05-12T01:02:45Z"
    assert session.title == "Read hello.py and summarize what it prints without editing files."


def test_compaction_entries_become_system_turns_with_their_summary(transcripts: Path) -> None:
    parsed = openclaw.parse(transcripts / FIXTURES / "pi-small.jsonl", "a")

    assert only_session(parsed) == [
        ("user", "Read hello.py and summarize what it prints without editing files."),
        ("assistant", "hello.py prints a fixture greeting."),
        ("system", "hello.py prints a fixture greeting."),
        ("user", "Add one concise follow-up sentence."),
        ("assistant", "hello.py prints a fixture greeting."),
        ("system", "hello.py prints a fixture greeting."),
    ]


def test_tool_calls_and_tool_results_in_the_openclaw_fixture(transcripts: Path) -> None:
    parsed = openclaw.parse(transcripts / FIXTURES / "openclaw-large.jsonl", "a")

    turns = parsed.sessions[0].turns
    assert [(turn.role, turn.text) for turn in turns] == [
        ("user", "Open /tmp/large and run status"),
        ("assistant", "Gathering files and git status."),
        ("tool", "M file1\nM file2"),
        ("assistant", "Done\n[media attached: screenshot-1]"),
        ("assistant", ""),
        ("tool", "file written"),
    ]
    calls = json.loads(turns[1].tool_calls)
    assert calls[0]["name"] == "run_terminal"
    assert json.loads(calls[0]["input"]) == {"command": "git status --short", "cwd": "/tmp/large"}
    assert json.loads(turns[4].tool_calls)[0]["name"] == "edit_file"
    assert turns[2].time == "2026-02-24T10:00:05Z"


def test_settings_changes_custom_state_and_hidden_context_are_not_turns(transcripts: Path) -> None:
    parsed = openclaw.parse(transcripts / FIXTURES / "openclaw-large.jsonl", "a")

    texts = " ".join(text for _, text in only_session(parsed))
    assert "System context injected" not in texts
    assert "openclaw-large" not in texts


def test_thinking_blocks_and_images_are_dropped(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        SESSION,
        message("a1", "user", [{"type": "image", "data": "AAAA"}, {"type": "text", "text": "see"}]),
        message(
            "a2",
            "assistant",
            [
                {"type": "thinking", "thinking": "secret musing"},
                {"type": "text", "text": "I see a cat."},
            ],
        ),
    )

    assert only_session(openclaw.parse(path, "a")) == [
        ("user", "see"),
        ("assistant", "I see a cat."),
    ]


def test_unknown_entry_types_are_skipped_silently(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        SESSION,
        {"type": "leaf", "id": "l1", "targetId": "x"},
        {"type": "label", "id": "l2", "label": "checkpoint"},
        {"type": "from-the-future", "id": "f1", "anything": [1, 2]},
        message("m1", "user", "hello"),
    )

    parsed = openclaw.parse(path, "a")

    assert parsed.problems == ()
    assert only_session(parsed) == [("user", "hello")]


def test_branches_keep_file_order(tmp_path: Path) -> None:
    first = {**message("b1", "user", "try A"), "parentId": "root"}
    second = {**message("b2", "user", "try B instead"), "parentId": "root"}
    summary = {"type": "branch_summary", "id": "bs", "parentId": "b2", "summary": "A failed"}
    path = write_lines(tmp_path / "s.jsonl", SESSION, first, second, summary)

    assert only_session(openclaw.parse(path, "a")) == [
        ("user", "try A"),
        ("user", "try B instead"),
        ("system", "A failed"),
    ]


def test_user_bash_commands_become_tool_turns(tmp_path: Path) -> None:
    entry = message("m1", "bashExecution", None, command="ls", output="a.py\nb.py", exitCode=0)
    path = write_lines(tmp_path / "s.jsonl", SESSION, entry)

    assert only_session(openclaw.parse(path, "a")) == [("tool", "$ ls\na.py\nb.py")]


def test_turn_time_falls_back_to_the_message_epoch_milliseconds(tmp_path: Path) -> None:
    entry = message("m1", "user", "hi", timestamp=1778547747671)
    del entry["timestamp"]
    path = write_lines(tmp_path / "s.jsonl", SESSION, entry)

    assert openclaw.parse(path, "a").sessions[0].turns[0].time == "2026-05-12T01:02:27Z"


def test_a_file_without_a_session_line_is_named_after_the_file(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "abc-123.jsonl", message("m1", "user", "hi"))

    assert openclaw.parse(path, "a").sessions[0].session.id == "openclaw:abc-123"


def test_a_malformed_line_is_reported_by_number_and_the_rest_imports(
    transcripts: Path, tmp_path: Path
) -> None:
    lines = (transcripts / FIXTURES / "pi-small.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b"".join([*lines[:4], b"not json at all\n", *lines[4:]]))

    parsed = openclaw.parse(path, "a")

    assert [problem.line for problem in parsed.problems] == [5]
    assert len(parsed.sessions[0].turns) == 6


def test_invalid_utf8_costs_only_its_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        json.dumps(SESSION).encode()
        + b'\n{"type": "message", "message": {"role": "user", "content": "\xfe"}}\n'
        + json.dumps(message("m2", "user", "still here")).encode()
        + b"\n"
    )

    parsed = openclaw.parse(path, "a")

    assert [problem.line for problem in parsed.problems] == [2]
    assert "invalid UTF-8" in parsed.problems[0].message
    assert only_session(parsed) == [("user", "still here")]


def test_sniff_claims_session_files_and_nothing_else(transcripts: Path) -> None:
    claimed = {
        path.relative_to(transcripts).as_posix()
        for path in data_files(transcripts)
        if openclaw.sniff(path, path.read_bytes()[:HEAD_BYTES])
    }

    assert claimed == {f"{FIXTURES}/pi-small.jsonl", f"{FIXTURES}/openclaw-large.jsonl"}


@pytest.mark.parametrize("name", ["pi-small.jsonl", "openclaw-large.jsonl"])
def test_parsing_a_growing_session_file_is_prefix_stable(
    transcripts: Path, tmp_path: Path, name: str
) -> None:
    assert_prefix_stable(transcripts / FIXTURES / name, openclaw.parse, tmp_path)
