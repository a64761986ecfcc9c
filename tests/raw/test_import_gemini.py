"""Gemini CLI recordings: the ``.json`` document and the append-only v0.40 ``.jsonl``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memstrata.raw.importers import HEAD_BYTES, gemini

from .support import assert_prefix_stable, only_session

FIXTURES = "gemini-cli/agent-sessions-shape"
NOT_TRANSCRIPTS = {"PROVENANCE.md", "SHA256SUMS", "manifest.json"}


def data_files(transcripts: Path) -> list[Path]:
    return sorted(
        path
        for path in transcripts.rglob("*")
        if path.is_file() and "LICENSES" not in path.parts and path.name not in NOT_TRANSCRIPTS
    )


def write_lines(path: Path, *records: object) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


HEADER = {
    "sessionId": "s-1",
    "projectHash": "abc",
    "startTime": "2026-01-01T10:00:00.000Z",
    "lastUpdated": "2026-01-01T10:00:00.000Z",
}


@pytest.mark.parametrize("name", ["small.json", "large.json", "jsonl_v040.jsonl"])
def test_every_gemini_fixture_parses_without_problems(transcripts: Path, name: str) -> None:
    parsed = gemini.parse(transcripts / FIXTURES / name, "gemini:default:main")

    assert parsed.problems == ()
    assert len(parsed.sessions) == 1
    assert parsed.sessions[0].turns
    assert parsed.sessions[0].session.harness == "gemini"


def test_session_id_and_times_come_from_the_recording_header(transcripts: Path) -> None:
    parsed = gemini.parse(transcripts / FIXTURES / "small.json", "gemini:default:main")

    session = parsed.sessions[0].session
    assert session.id == "gemini:session-2026-01-16T18-34-3739ef95"
    assert session.started == "2026-01-16T18:34:00Z"
    assert session.ended == "2026-01-16T18:34:10Z"
    assert session.agent == "gemini:default:main"
    assert session.title == "Hello"


def test_user_prompt_and_reply_become_user_and_assistant_turns(transcripts: Path) -> None:
    parsed = gemini.parse(transcripts / FIXTURES / "small.json", "a")

    assert only_session(parsed) == [("user", "Hello"), ("assistant", "Hi!")]
    assert [turn.index for turn in parsed.sessions[0].turns] == [0, 1]


def test_thoughts_are_not_imported(transcripts: Path) -> None:
    parsed = gemini.parse(transcripts / FIXTURES / "small.json", "a")

    assert all("reasoning placeholder" not in text for _, text in only_session(parsed))


def test_tool_calls_are_listed_on_the_gemini_turn_and_results_become_tool_turns(
    transcripts: Path,
) -> None:
    parsed = gemini.parse(transcripts / FIXTURES / "jsonl_v040.jsonl", "a")

    turns = parsed.sessions[0].turns
    assert [turn.role for turn in turns] == ["user", "assistant", "tool", "assistant"]
    assert turns[0].text == "Say hello and list files."
    calls = json.loads(turns[1].tool_calls)
    assert [call["name"] for call in calls] == ["run_shell_command"]
    assert json.loads(calls[0]["input"])["command"] == "ls -F"
    assert turns[2].text.startswith("Output: AgentSessions/\nREADME.md")
    assert turns[2].time == "2026-04-29T21:39:35Z"
    assert turns[3].text == "Hello! I listed the files."
    assert turns[3].tool_calls == "[]"


def test_legacy_model_parts_info_notices_and_tool_results_in_the_large_fixture(
    transcripts: Path,
) -> None:
    parsed = gemini.parse(transcripts / FIXTURES / "large.json", "a")

    roles_texts = only_session(parsed)
    assert roles_texts[0] == ("user", "Run a command")
    assert [role for role, _ in roles_texts] == [
        "user",
        "assistant",  # m2: a tool call, no text
        "tool",
        "assistant",  # m2b: another tool call
        "tool",
        "system",  # m3: info "Request cancelled."
        "assistant",  # m4: legacy type "model" with parts
        "user",
        "assistant",
    ]
    assert "No such file or directory" in roles_texts[4][1]
    assert roles_texts[5] == ("system", "Request cancelled.")
    assert roles_texts[6] == ("assistant", "Captured multiline output.")
    assert roles_texts[8] == ("assistant", "Ok")


def test_set_patches_update_the_header_and_are_not_turns(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "session.jsonl",
        HEADER,
        {"id": "u1", "timestamp": "2026-01-01T10:00:01Z", "type": "user", "content": "hi"},
        {"$set": {"lastUpdated": "2026-01-01T11:00:00Z", "summary": "Greeting the model"}},
        {"id": "g1", "timestamp": "2026-01-01T10:00:02Z", "type": "gemini", "content": "hello"},
    )

    parsed = gemini.parse(path, "a")

    assert parsed.problems == ()
    assert only_session(parsed) == [("user", "hi"), ("assistant", "hello")]
    assert parsed.sessions[0].session.ended == "2026-01-01T11:00:00Z"
    assert parsed.sessions[0].session.title == "Greeting the model"


def test_the_v040_fixture_applies_its_set_patch_without_a_turn(transcripts: Path) -> None:
    path = transcripts / FIXTURES / "jsonl_v040.jsonl"

    parsed = gemini.parse(path, "a")

    # Five message-or-patch lines after the header, one of them a $set: four turns, no problem.
    assert path.read_text().count('"$set"') == 1
    assert len(parsed.sessions[0].turns) == 4
    assert parsed.sessions[0].session.started == "2026-04-29T21:39:22Z"


def test_a_reappended_message_replaces_its_earlier_copy_in_place(tmp_path: Path) -> None:
    first = {"id": "g1", "timestamp": "2026-01-01T10:00:02Z", "type": "gemini", "content": ""}
    call = {"id": "c1", "name": "read_file", "args": {"path": "a.py"}, "resultDisplay": "print()"}
    path = write_lines(
        tmp_path / "session.jsonl",
        HEADER,
        {"id": "u1", "timestamp": "2026-01-01T10:00:01Z", "type": "user", "content": "read a.py"},
        first,
        {**first, "toolCalls": [call]},
    )

    parsed = gemini.parse(path, "a")

    assert only_session(parsed) == [("user", "read a.py"), ("assistant", ""), ("tool", "print()")]


def test_rewind_lines_keep_the_messages_that_were_said(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "session.jsonl",
        HEADER,
        {"id": "u1", "timestamp": "2026-01-01T10:00:01Z", "type": "user", "content": "first try"},
        {"$rewindTo": "u1"},
        {"id": "u2", "timestamp": "2026-01-01T10:00:05Z", "type": "user", "content": "second try"},
    )

    parsed = gemini.parse(path, "a")

    assert parsed.problems == ()
    assert only_session(parsed) == [("user", "first try"), ("user", "second try")]


def test_user_content_given_as_parts_is_joined_and_display_content_wins(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    path.write_text(
        json.dumps(
            {
                **HEADER,
                "messages": [
                    {
                        "id": "u1",
                        "type": "user",
                        "content": [{"text": "look at "}, {"text": "@a.py"}],
                    },
                    {
                        "id": "u2",
                        "type": "user",
                        "content": [{"text": "expanded file body"}],
                        "displayContent": "@b.py please",
                    },
                ],
            }
        )
    )

    parsed = gemini.parse(path, "a")

    assert only_session(parsed) == [("user", "look at @a.py"), ("user", "@b.py please")]


def test_a_long_turn_is_cut_with_a_marker(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    body = "x" * 20_050
    path.write_text(
        json.dumps({**HEADER, "messages": [{"id": "u", "type": "user", "content": body}]})
    )

    text = gemini.parse(path, "a").sessions[0].turns[0].text

    assert text == "x" * 20_000 + "… [truncated 50 chars]"


def test_a_malformed_line_is_reported_by_number_and_the_rest_imports(
    transcripts: Path, tmp_path: Path
) -> None:
    lines = (transcripts / FIXTURES / "jsonl_v040.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b"".join([*lines[:2], b'{"id": "half\n', *lines[2:]]))

    parsed = gemini.parse(path, "a")

    assert [problem.line for problem in parsed.problems] == [3]
    assert "invalid JSON" in parsed.problems[0].message
    assert len(parsed.sessions[0].turns) == 4


def test_a_broken_json_document_is_one_problem_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    path.write_text('{\n  "sessionId": "s",\n  "messages": [\n    {"id": "m1",,}\n  ]\n}\n')

    parsed = gemini.parse(path, "a")

    assert parsed.sessions == ()
    assert [problem.line for problem in parsed.problems] == [4]
    assert parsed.problems[0].message.startswith("invalid JSON")


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_invalid_utf8_is_a_problem_not_a_crash(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"session{suffix}"
    path.write_bytes(
        json.dumps(HEADER).encode() + b"\n" + b'{"id": "u", "type": "user", "content": "\xff"}\n'
    )

    parsed = gemini.parse(path, "a")

    assert [problem.line for problem in parsed.problems] == [2]
    assert "invalid UTF-8" in parsed.problems[0].message


def test_sniff_claims_gemini_recordings_and_nothing_else(transcripts: Path) -> None:
    claimed = {
        path.relative_to(transcripts).as_posix()
        for path in data_files(transcripts)
        if gemini.sniff(path, path.read_bytes()[:HEAD_BYTES])
    }

    assert claimed == {
        f"{FIXTURES}/{name}" for name in ("small.json", "large.json", "jsonl_v040.jsonl")
    }


def test_parsing_a_growing_jsonl_recording_is_prefix_stable(
    transcripts: Path, tmp_path: Path
) -> None:
    assert_prefix_stable(transcripts / FIXTURES / "jsonl_v040.jsonl", gemini.parse, tmp_path)
