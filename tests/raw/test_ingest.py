"""Ingest into raw/sessions.db: incremental, idempotent, bad lines reported, rest imported."""

import getpass
import json
import re
import shutil
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.demo import data_dir
from memstrata.errors import InputError


def _claude_lines(count: int, start: int = 0) -> list[str]:
    lines = []
    for n in range(start, start + count):
        role = "user" if n % 2 == 0 else "assistant"
        message = (
            {"role": "user", "content": f"question number {n} about zeppelins"}
            if role == "user"
            else {
                "id": f"msg_{n}",
                "role": "assistant",
                "type": "message",
                "content": [{"type": "text", "text": f"answer number {n}"}],
            }
        )
        lines.append(
            json.dumps(
                {
                    "type": role,
                    "uuid": f"u{n}",
                    "parentUuid": f"u{n - 1}" if n else None,
                    "sessionId": "s-1",
                    "timestamp": f"2025-11-27T10:{n % 60:02d}:00Z",
                    "message": message,
                }
            )
        )
    return lines


def test_ingest_imports_the_demo_transcripts(memory: Memory):
    report = memory.ingest([data_dir() / "transcripts"])
    assert (report.files, report.sessions, report.problems) == (2, 2, [])
    sessions = {session.id: session for session in memory.raw.sessions()}
    assert set(sessions) == {
        "claude-code:5f1c2a9e-3b7d-4c11-9a2e-7d0c1e2f3a4b",
        "codex:019abc12-7f00-7c3a-9d10-5e6f7a8b9c0d",
    }
    # the login name, as the hooks record it: one person's sessions have one agent key
    login = re.sub(r"[^a-z0-9._-]+", "-", getpass.getuser().lower()).strip("-") or "default"
    assert sessions["claude-code:5f1c2a9e-3b7d-4c11-9a2e-7d0c1e2f3a4b"].agent == (
        f"claude-code:{login}:main"
    )


def test_reimporting_the_same_files_adds_nothing(memory: Memory):
    memory.ingest([data_dir() / "transcripts"])
    again = memory.ingest([data_dir() / "transcripts"])
    assert (again.turns_added, again.turns_updated, again.skipped_unchanged) == (0, 0, 2)


def test_a_longer_version_of_a_file_adds_only_the_new_turns(memory: Memory, tmp_path: Path):
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(_claude_lines(6)) + "\n")
    first = memory.ingest([path], format_name="claude-code")
    path.write_text("\n".join(_claude_lines(10)) + "\n")
    second = memory.ingest([path], format_name="claude-code")
    assert first.turns_added == 6
    assert (second.turns_added, second.turns_updated) == (4, 0)
    assert len(memory.raw.turns("claude-code:s-1")) == 10


def test_a_response_still_being_written_is_updated_not_duplicated(memory: Memory, tmp_path: Path):
    path = tmp_path / "session.jsonl"
    head = _claude_lines(1)
    part = {
        "type": "assistant",
        "uuid": "a1",
        "parentUuid": "u0",
        "sessionId": "s-1",
        "timestamp": "2025-11-27T10:01:00Z",
        "message": {
            "id": "msg_x",
            "role": "assistant",
            "content": [{"type": "text", "text": "first half"}],
        },
    }
    path.write_text("\n".join([*head, json.dumps(part)]) + "\n")
    memory.ingest([path], format_name="claude-code")
    part2 = {
        **part,
        "uuid": "a2",
        "message": {**part["message"], "content": [{"type": "text", "text": "second half"}]},
    }
    with path.open("a") as handle:
        handle.write(json.dumps(part2) + "\n")
    report = memory.ingest([path], format_name="claude-code")
    assert (report.turns_added, report.turns_updated) == (0, 1)
    turns = memory.raw.turns("claude-code:s-1")
    assert len(turns) == 2
    assert "first half" in turns[1].text and "second half" in turns[1].text
    assert memory.search("second half")[0].stratum == "raw"


def test_a_bad_line_is_reported_by_number_and_the_rest_imports(memory: Memory, tmp_path: Path):
    lines = _claude_lines(4)
    lines.insert(2, "{not json")
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n")
    report = memory.ingest([path], format_name="claude-code")
    assert [(problem.line, Path(problem.path).name) for problem in report.problems] == [
        (3, "session.jsonl")
    ]
    assert report.turns_added == 4


def test_a_lone_surrogate_escape_is_stored_as_u_fffd_and_counted(memory: Memory, tmp_path: Path):
    # Valid JSON, but no UTF-8 text (nor SQLite) holds \udce9 on its own.
    path = tmp_path / "session.jsonl"
    path.write_text(
        '{"role": "user", "content": "caf\\udce9 au lait with zeppelins"}\n'
        '{"role": "assistant", "content": "noted"}\n'
    )
    report = memory.ingest([path])

    assert (report.turns_added, report.mended_turns, report.problems) == (2, 1, [])
    assert memory.search("zeppelins")[0].text == "caf\ufffd au lait with zeppelins"


def test_a_file_whose_name_is_no_utf8_imports(memory: Memory, tmp_path: Path):
    path = tmp_path / "caf\udce9.jsonl"  # the file name's byte 0xe9, as Python names it
    path.write_text('{"role": "user", "content": "a note about airships"}\n')
    report = memory.ingest([path])
    again = memory.ingest([path])

    assert (report.turns_added, report.problems) == (1, [])
    assert again.skipped_unchanged == 1
    assert memory.search("airships")[0].stratum == "raw"


def test_an_oversized_line_is_reported_without_being_read_whole(memory: Memory, tmp_path: Path):
    path = tmp_path / "session.jsonl"
    with path.open("w") as handle:
        handle.write(_claude_lines(1)[0] + "\n")
        handle.write(
            '{"type": "user", "message": {"content": "' + "x" * (9 * 1024 * 1024) + '"}}\n'
        )
        handle.write(_claude_lines(2)[1] + "\n")
    report = memory.ingest([path], format_name="claude-code")
    assert [problem.line for problem in report.problems] == [2]
    assert "longer than" in report.problems[0].message
    assert report.turns_added == 2


def test_a_folder_walk_skips_files_no_importer_claims(memory: Memory, tmp_path: Path):
    folder = tmp_path / "projects"
    shutil.copytree(data_dir() / "transcripts", folder)
    (folder / "notes.md").write_text("just notes\n")
    (folder / "config.json").write_text('{"a": 1}\n')
    report = memory.ingest([folder])
    assert report.files == 2
    assert report.skipped_unknown == 2
    assert report.problems == []


def test_a_folder_walk_finds_aiders_hidden_history_and_skips_other_hidden_files(
    memory: Memory, tmp_path: Path
):
    """aider keeps its history as ``.aider.chat.history.md`` in each project folder: a walk
    that skipped every dot file never found it."""
    project = tmp_path / "myproject"
    (project / "src").mkdir(parents=True)
    (project / ".aider.chat.history.md").write_text(
        "\n# aider chat started at 2025-11-27 10:00:00\n\n#### fix the login bug\n\n"
        "Fixed: the session cookie had no path.\n"
    )
    (project / ".notes.md").write_text("# my hidden notes\n")
    report = memory.ingest([project])
    assert (report.files, report.sessions, report.turns_added) == (1, 1, 2)
    assert report.skipped_unknown == 0  # the other dot file is not even looked at


def test_a_named_file_no_importer_claims_is_a_problem(memory: Memory, tmp_path: Path):
    path = tmp_path / "notes.md"
    path.write_text("just notes\n")
    report = memory.ingest([path])
    assert "not a transcript format" in report.problems[0].message


def test_a_missing_path_is_a_problem_naming_it(memory: Memory, tmp_path: Path):
    missing = tmp_path / "missing.jsonl"
    report = memory.ingest([missing])
    assert [str(problem) for problem in report.problems] == [f"{missing}: no such file or folder"]
    assert report.files == 0


def test_chinese_turns_are_found_by_chinese_queries(memory: Memory, tmp_path: Path):
    path = tmp_path / "chat.jsonl"
    rows = [
        {
            "role": "user",
            "content": "我们下周去上海出差，记得订酒店。",
            "timestamp": "2025-11-27T10:00:00Z",
        },
        {
            "role": "assistant",
            "content": "好的，我会预订外滩附近的酒店。",
            "timestamp": "2025-11-27T10:00:05Z",
        },
        {
            "role": "user",
            "content": "Also book a table for dinner.",
            "timestamp": "2025-11-27T10:01:00Z",
        },
    ]
    path.write_text("\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + "\n")
    memory.ingest([path], format_name="jsonl")
    assert memory.search("上海")[0].text.startswith("我们下周去上海")
    assert memory.search("酒店")[0].stratum == "raw"
    assert memory.search("dinner table")[0].text == "Also book a table for dinner."


def test_raw_turns_are_labelled_raw_and_cite_their_session_turn(memory: Memory):
    memory.ingest([data_dir() / "transcripts"])
    [hit] = [hit for hit in memory.search("p95 latency load test") if hit.stratum == "raw"][:1]
    assert hit.source.startswith("codex:019abc12-7f00-7c3a-9d10-5e6f7a8b9c0d#")


def test_ingest_redacts_secrets_and_counts_them(memory: Memory, tmp_path: Path):
    token = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8"
    key = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4Y5z6" + "-AbCdEfGh"
    path = tmp_path / "chat.jsonl"
    rows = [
        {"role": "user", "content": f"push with {token} please"},
        {"role": "assistant", "content": f"export ANTHROPIC_API_KEY={key}"},
    ]
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    report = memory.ingest([path], format_name="jsonl")
    assert sum(report.redacted.values()) == 2
    texts = [
        turn.text for session in memory.raw.sessions() for turn in memory.raw.turns(session.id)
    ]
    assert any("[REDACTED:" in text for text in texts)
    memory.close()
    for stored in memory.workspace.root.rglob("*"):
        if stored.is_file():
            data = stored.read_bytes()
            assert token.encode() not in data and key.encode() not in data, stored


def test_redaction_of_raw_turns_can_be_switched_off(workspace: Path, tmp_path: Path):
    (workspace / "memstrata.toml").write_text("[raw]\nredact_secrets = false\n")
    token = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8"
    path = tmp_path / "chat.jsonl"
    path.write_text(json.dumps({"role": "user", "content": f"token {token}"}) + "\n")
    with Memory(workspace) as memory:
        report = memory.ingest([path], format_name="jsonl")
        assert report.redacted == {}
        [session] = memory.raw.sessions()
        assert token in memory.raw.turns(session.id)[0].text


@pytest.mark.parametrize("agent", ["evil\x1b[31m:b:c", "claude-code:me\n:main"])
def test_an_agent_key_with_a_control_character_is_refused(memory: Memory, tmp_path: Path, agent):
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text('{"role": "user", "content": "hello"}\n')

    with pytest.raises(InputError, match="agent"):
        memory.ingest(transcript, agent=agent)
    assert memory.search_raw("hello") == []


@pytest.mark.parametrize("agent", ["bad", "bad key", "claude-code::main", "a:b:c:d"])
def test_an_agent_key_that_is_not_harness_account_role_is_refused(
    memory: Memory, tmp_path: Path, agent: str
):
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text('{"role": "user", "content": "hello"}\n')

    with pytest.raises(InputError, match="is not harness:account:role"):
        memory.ingest(transcript, agent=agent)
    assert memory.search_raw("hello") == []
    assert memory.ingest(transcript, agent="jsonl:me:main").sessions == 1
