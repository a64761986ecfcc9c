"""The Codex importer on real rollouts and on crafted edge cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memstrata.raw.importers import ParsedFile, codex, turns

AGENT = "codex:laptop:main"
ROLLOUT_UUID = "019e1625-789d-76c0-80ab-3724b5ddb799"
REAL = (
    f"codex/codemie-real-anonymized/rollout-2026-05-11T11-26-55-{ROLLOUT_UUID}.first63lines.jsonl"
)
SYNTHETIC = "codex/codemie-synthetic/turn-spawn-skill.jsonl"
FIXTURES = (REAL, SYNTHETIC)
FILE_UUID = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"


def parse(path: Path) -> ParsedFile:
    return codex.parse(path, AGENT)


def write_lines(path: Path, lines: list[Any]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def line(kind: str, payload: dict[str, Any], second: int = 0) -> dict[str, Any]:
    return {"timestamp": f"2025-06-01T10:00:{second:02d}.000Z", "type": kind, "payload": payload}


def message(role: str, text: str) -> dict[str, Any]:
    part = "output_text" if role == "assistant" else "input_text"
    return line(
        "response_item",
        {"type": "message", "role": role, "content": [{"type": part, "text": text}]},
    )


def event(kind: str, **fields: Any) -> dict[str, Any]:
    return line("event_msg", {"type": kind, **fields})


META = line("session_meta", {"id": "meta-id", "cwd": "/tmp/project"})


def roles_and_texts(parsed: ParsedFile) -> list[tuple[str, str]]:
    return [(turn.role, turn.text) for turn in parsed.sessions[0].turns]


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("relative", FIXTURES)
def test_every_codex_fixture_parses_without_problems(transcripts: Path, relative: str):
    parsed = parse(transcripts / relative)

    assert parsed.problems == ()
    assert parsed.format == "codex"
    (item,) = parsed.sessions
    assert item.session.harness == "codex"
    assert item.session.agent == AGENT
    assert [turn.index for turn in item.turns] == list(range(len(item.turns)))


def test_the_session_id_comes_from_session_meta(transcripts: Path):
    (item,) = parse(transcripts / REAL).sessions

    assert item.session.id == f"codex:{ROLLOUT_UUID}"
    assert item.session.title == "show tools"
    assert (item.session.started, item.session.ended) == (
        "2026-05-11T08:27:17Z",
        "2026-05-11T08:33:43Z",
    )


def test_without_session_meta_the_id_comes_from_the_file_name(tmp_path: Path):
    path = write_lines(
        tmp_path / f"rollout-2025-06-01T12-00-00-{FILE_UUID}.jsonl",
        [
            message("user", "hello"),
        ],
    )

    (item,) = parse(path).sessions

    assert item.session.id == f"codex:{FILE_UUID}"


def test_user_text_written_twice_is_one_user_turn(transcripts: Path):
    parsed = parse(transcripts / REAL)

    users = [text for role, text in roles_and_texts(parsed) if role == "user"]
    assert users == ["show tools", "let's update the defailt context compart to 90 in env var"]


def test_assistant_text_written_twice_is_one_assistant_turn(transcripts: Path):
    path = transcripts / REAL
    replies = [
        entry["payload"]["content"][0]["text"]
        for entry in read_lines(path)
        if entry["type"] == "response_item" and entry["payload"].get("role") == "assistant"
    ]

    parsed = parse(path)

    spoken = [text for role, text in roles_and_texts(parsed) if role == "assistant" and text]
    assert spoken == replies
    assert len(replies) == 4


def test_developer_and_environment_messages_are_not_turns(transcripts: Path):
    parsed = parse(transcripts / REAL)

    everything = "\n".join(text for _, text in roles_and_texts(parsed))
    for marker in ("<permissions instructions>", "<environment_context>", "AGENTS.md instructions"):
        assert marker not in everything


def test_tool_outputs_are_tool_turns_once_per_call_id(transcripts: Path):
    path = transcripts / REAL
    call_ids = {
        entry["payload"]["call_id"]
        for entry in read_lines(path)
        if entry["payload"].get("type") in ("function_call_output", "exec_command_end")
    }

    parsed = parse(path)

    tools = [text for role, text in roles_and_texts(parsed) if role == "tool"]
    assert len(tools) == len(call_ids) == 12
    assert tools[0].startswith("Chunk ID: a21e41")
    assert any(text.startswith("write_stdin failed: stdin is closed") for text in tools)


def test_parallel_calls_go_on_one_assistant_turn(transcripts: Path):
    parsed = parse(transcripts / REAL)

    calls = [json.loads(turn.tool_calls) for turn in parsed.sessions[0].turns]
    assert [call["name"] for call in calls[19]] == ["write_stdin"] * 3
    first = calls[1][0]
    assert first["name"] == "exec_command"
    assert json.loads(first["input"])["cmd"].startswith("sed -n '1,180p'")
    others = [turn for turn in parsed.sessions[0].turns if turn.role != "assistant"]
    assert all(turn.tool_calls == "[]" for turn in others)


def test_an_event_only_prompt_and_bare_tool_calls_still_make_turns(transcripts: Path):
    parsed = parse(transcripts / SYNTHETIC)

    turns = parsed.sessions[0].turns
    assert parsed.sessions[0].session.id == "codex:spawn-test-uuid"
    assert [(turn.role, turn.text) for turn in turns] == [
        ("user", "run a review"),
        ("assistant", ""),
        ("tool", "ok"),
        ("assistant", ""),
    ]
    names = [call["name"] for call in json.loads(turns[3].tool_calls)]
    assert names == ["spawn_agent", "wait_agent"]


def test_the_first_copy_of_a_message_wins_whichever_stream_it_came_from(tmp_path: Path):
    path = write_lines(
        tmp_path / "rollout.jsonl",
        [
            META,
            event("task_started", turn_id="t1"),
            message("developer", "<permissions instructions>sandboxed</permissions instructions>"),
            message("user", "<environment_context><cwd>/tmp</cwd></environment_context>"),
            event(
                "user_message", message="<environment_context><cwd>/tmp</cwd></environment_context>"
            ),
            message("user", "rename the module"),
            event("user_message", message="rename the module"),
            event("agent_message", message="Renaming it now."),
            message("assistant", "Renaming it now."),
            event("task_started", turn_id="t2"),
            message("user", "again"),
            event("user_message", message="again"),
            message("user", "again"),
            event("user_message", message="again"),
        ],
    )

    assert roles_and_texts(parse(path)) == [
        ("user", "rename the module"),
        ("assistant", "Renaming it now."),
        ("user", "again"),
        ("user", "again"),
    ]


def test_custom_tool_calls_compaction_and_unknown_lines(tmp_path: Path):
    patch = "*** Begin Patch\n*** Update File: a.py\n" + "+x\n" * 400 + "*** End Patch"
    path = write_lines(
        tmp_path / "rollout.jsonl",
        [
            META,
            message("user", "patch it"),
            line(
                "response_item", {"type": "reasoning", "summary": [], "encrypted_content": "gAAA"}
            ),
            line(
                "response_item",
                {
                    "type": "custom_tool_call",
                    "name": "apply_patch",
                    "input": patch,
                    "call_id": "c1",
                    "status": "completed",
                },
            ),
            line(
                "response_item",
                {
                    "type": "custom_tool_call_output",
                    "call_id": "c1",
                    "output": json.dumps(
                        {"output": "Success. Updated a.py", "metadata": {"exit_code": 0}}
                    ),
                },
            ),
            event("exec_command_end", call_id="c1", aggregated_output="duplicate", exit_code=0),
            event("exec_command_end", call_id="c2", stdout="only here", stderr="", exit_code=0),
            line(
                "compacted",
                {"message": "Summary: the module was patched.", "replacement_history": []},
            ),
            event("context_compacted"),
            line("something_new", {"x": 1}),
            event("token_count", info=None),
        ],
    )

    parsed = parse(path)

    assert parsed.problems == ()
    assert roles_and_texts(parsed) == [
        ("user", "patch it"),
        ("assistant", ""),
        ("tool", "Success. Updated a.py"),
        ("tool", "only here"),
        ("system", "Summary: the module was patched."),
    ]
    (call,) = json.loads(parsed.sessions[0].turns[1].tool_calls)
    assert call["name"] == "apply_patch"
    assert call["input"].startswith("*** Begin Patch")
    assert len(call["input"]) == turns.MAX_TOOL_INPUT_CHARS


def test_long_output_is_truncated_with_a_marker(tmp_path: Path):
    path = write_lines(
        tmp_path / "rollout.jsonl",
        [
            META,
            line(
                "response_item",
                {"type": "function_call_output", "call_id": "c1", "output": "z" * 20_007},
            ),
        ],
    )

    (turn,) = parse(path).sessions[0].turns

    assert turn.text == "z" * 20_000 + "… [truncated 7 chars]"


def test_bad_lines_are_reported_by_line_and_the_rest_imports(tmp_path: Path):
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(
        (json.dumps(META) + "\n").encode()
        + b'{"timestamp": "2025-06-01T10:00:00Z", "type": \n'
        + b'"just a string"\n'
        + (json.dumps(line("event_msg", {}) | {"payload": [1]}) + "\n").encode()
        + b'{"type": "event_msg", "payload": {"message": "\xff\xfe"}}\n'
        + (json.dumps(message("user", "still imported")) + "\n").encode()
    )

    parsed = parse(path)

    assert [problem.line for problem in parsed.problems] == [2, 3, 4, 5]
    assert "invalid UTF-8" in parsed.problems[3].message
    assert roles_and_texts(parsed) == [("user", "still imported")]


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        (REAL, True),
        (SYNTHETIC, True),
        ("claude-code/codemie-real-v2.1.4/session-9eda1058.jsonl", False),
        ("claude-code/agent-sessions-shape/schema-zoo-small.jsonl", False),
        ("gemini-cli/agent-sessions-shape/jsonl_v040.jsonl", False),
        ("gemini-cli/agent-sessions-shape/large.json", False),
        ("openclaw-pi/agent-sessions/pi-small.jsonl", False),
        ("openclaw-pi/agent-sessions/openclaw-large.jsonl", False),
    ],
)
def test_sniff_claims_codex_rollouts_only(transcripts: Path, relative: str, expected: bool):
    path = transcripts / relative

    assert codex.sniff(path, path.read_bytes()[: 64 * 1024]) is expected


def test_sniff_recognises_a_first_line_longer_than_the_head(tmp_path: Path):
    meta = line("session_meta", {"id": "x", "base_instructions": {"text": "i" * 100_000}})
    path = write_lines(tmp_path / "rollout.jsonl", [meta])

    assert codex.sniff(path, path.read_bytes()[: 64 * 1024])


@pytest.mark.parametrize("relative", FIXTURES)
def test_a_prefix_of_a_rollout_parses_to_the_same_turns_except_a_growing_last_one(
    tmp_path: Path, transcripts: Path, relative: str
):
    source = transcripts / relative
    lines = source.read_bytes().splitlines(keepends=True)
    (whole,) = parse(source).sessions
    copy = tmp_path / source.name

    for count in range(1, len(lines) + 1):
        copy.write_bytes(b"".join(lines[:count]))
        for item in parse(copy).sessions:
            assert item.session.id == whole.session.id
            *settled, last = item.turns
            for turn in settled:
                grown = whole.turns[turn.index]
                assert (grown.role, grown.text) == (turn.role, turn.text), (count, turn.index)
            grown = whole.turns[last.index]
            assert grown.role == last.role
            assert grown.text.startswith(last.text), (count, last.index)
