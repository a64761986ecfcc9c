"""The Claude Code importer on real transcripts and on crafted edge cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memstrata.raw.importers import ParsedFile, claude_code, turns

AGENT = "claude-code:laptop:main"
PRIVATE = "claude-code/codemie-real-v2.0.64/-tmp-private"
MAIN_2_0 = f"{PRIVATE}/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl"
WARMUPS = (f"{PRIVATE}/agent-36541525.jsonl", f"{PRIVATE}/agent-50243ee8.jsonl")
SESSION_2_1 = "claude-code/codemie-real-v2.1.4/session-9eda1058.jsonl"
COMPACTION = (
    "claude-code/codemie-real-v2.0.76-compaction-excerpt/session-624a4a58.lines148-161.jsonl"
)
ZOO = "claude-code/agent-sessions-shape/schema-zoo-small.jsonl"
PARENT_ID = "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f"
LAYOUT = "claude-code/agent-sessions-shape/subagent-layout"
SUBAGENT = f"{LAYOUT}/{PARENT_ID}/subagents/agent-a0ad4f44468bdf20d.jsonl"
PARENT = f"{LAYOUT}/{PARENT_ID}.jsonl"
FIXTURES = (MAIN_2_0, *WARMUPS, SESSION_2_1, COMPACTION, ZOO, PARENT, SUBAGENT)


def parse(path: Path) -> ParsedFile:
    return claude_code.parse(path, AGENT)


def write_lines(path: Path, lines: list[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def user(text: Any, uuid: str, **extra: Any) -> dict[str, Any]:
    line = {
        "type": "user",
        "sessionId": "s-1",
        "uuid": uuid,
        "message": {"role": "user", "content": text},
        "timestamp": "2025-01-01T10:00:00.000Z",
    }
    return line | extra


def assistant(message_id: str, blocks: list[dict[str, Any]], uuid: str) -> dict[str, Any]:
    return {
        "type": "assistant",
        "sessionId": "s-1",
        "uuid": uuid,
        "message": {"id": message_id, "role": "assistant", "content": blocks},
        "timestamp": "2025-01-01T10:00:01.000Z",
    }


def tool_result(tool_use_id: str, content: Any, uuid: str) -> dict[str, Any]:
    return user([{"type": "tool_result", "tool_use_id": tool_use_id, "content": content}], uuid)


def texts(parsed: ParsedFile, role: str, session: int = 0) -> list[str]:
    return [turn.text for turn in parsed.sessions[session].turns if turn.role == role]


@pytest.mark.parametrize("relative", FIXTURES)
def test_every_claude_code_fixture_parses_without_problems(transcripts: Path, relative: str):
    parsed = parse(transcripts / relative)

    assert parsed.problems == ()
    assert parsed.format == "claude-code"
    for item in parsed.sessions:
        assert [turn.index for turn in item.turns] == list(range(len(item.turns)))
        assert all(turn.session_id == item.session.id for turn in item.turns)
        assert item.session.source_path == str(transcripts / relative)


def test_human_prompts_of_a_real_session_are_its_user_turns(transcripts: Path):
    parsed = parse(transcripts / MAIN_2_0)

    (item,) = parsed.sessions
    assert item.session.id == "claude-code:4c2ddfdc-b619-4525-8d03-1950fb1b0257"
    assert item.session.agent == AGENT
    assert item.session.title == "create hello.py, md and js"  # no title lines: the first prompt
    assert texts(parsed, "user") == [
        "create hello.py, md and js",
        "update py with one liner comment",
        "delete js",
    ]
    assert (item.session.started, item.session.ended) == (
        "2025-12-10T19:37:45Z",
        "2025-12-10T19:38:31Z",
    )


@pytest.mark.parametrize("relative", [MAIN_2_0, SESSION_2_1, COMPACTION])
def test_one_api_response_written_over_several_lines_is_one_assistant_turn(
    transcripts: Path, relative: str
):
    path = transcripts / relative
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    message_ids = {line["message"]["id"] for line in lines if line.get("type") == "assistant"}

    parsed = parse(path)

    assert len(texts(parsed, "assistant")) == len(message_ids)


def test_a_merged_response_keeps_its_text_and_every_tool_call(transcripts: Path):
    parsed = parse(transcripts / MAIN_2_0)

    first = parsed.sessions[0].turns[1]
    calls = json.loads(first.tool_calls)
    assert first.text == "I'll create three simple files: hello.py, hello.md, and hello.js."
    assert [call["name"] for call in calls] == ["Write", "Write", "Write"]
    assert all(len(call["input"]) <= turns.MAX_TOOL_INPUT_CHARS for call in calls)
    assert '"file_path": "/tmp/private/hello.py"' in calls[0]["input"]


def test_tool_results_become_tool_turns_in_file_order(transcripts: Path):
    parsed = parse(transcripts / MAIN_2_0)

    results = texts(parsed, "tool")
    assert len(results) == 6  # three Writes, a Read, an Edit, a Bash
    assert results[:3] == [
        "File created successfully at: /tmp/private/hello.py",
        "File created successfully at: /tmp/private/hello.md",
        "File created successfully at: /tmp/private/hello.js",
    ]
    assert all(turn.tool_calls == "[]" for turn in parsed.sessions[0].turns if turn.role == "tool")


def test_interrupt_markers_thinking_and_summaries_are_not_turns(transcripts: Path):
    path = transcripts / SESSION_2_1
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    thinking = next(
        block["thinking"]
        for line in lines
        if line.get("type") == "assistant"
        for block in line["message"]["content"]
        if block["type"] == "thinking"
    )

    parsed = parse(path)

    (item,) = parsed.sessions
    all_text = "\n".join(turn.text for turn in item.turns)
    assert "[Request interrupted by user" not in all_text
    assert thinking[:80] not in all_text
    assert texts(parsed, "user") == [
        "show tools and store response in file",
        "explore more of current repo",
        "what else?",
    ]
    # No summary's leafUuid is a line of this file, so the last summary line names it.
    assert item.session.title == "Cleared conversation history"


def test_a_task_result_is_a_tool_turn_with_the_subagent_report(transcripts: Path):
    parsed = parse(transcripts / SESSION_2_1)

    report = texts(parsed, "tool")[1]
    assert report.startswith("Perfect! Now I have a comprehensive understanding of the codebase.")
    task_calls = [
        call
        for turn in parsed.sessions[0].turns
        for call in json.loads(turn.tool_calls)
        if call["name"] == "Task"
    ]
    assert len(task_calls) == 2


def test_a_compaction_summary_becomes_a_system_turn(transcripts: Path):
    parsed = parse(transcripts / COMPACTION)

    turns = parsed.sessions[0].turns
    (summary,) = [turn for turn in turns if turn.role == "system"]
    assert summary.text.startswith("This session is being continued from a previous conversation")
    assert summary.time == "2026-01-07T20:58:27Z"
    assert "Conversation compacted" not in [turn.text for turn in turns]
    assert turns[-1].role == "assistant"
    assert turns[-1].index == summary.index + 1


@pytest.mark.parametrize("relative", WARMUPS)
def test_warmup_sidechains_are_skipped_entirely(transcripts: Path, relative: str):
    parsed = parse(transcripts / relative)

    assert parsed.sessions == ()
    assert parsed.problems == ()


def test_a_subagent_file_is_its_own_session_keyed_by_parent_and_agent_type(transcripts: Path):
    parsed = parse(transcripts / SUBAGENT)

    (item,) = parsed.sessions
    assert item.session.id == f"claude-code:{PARENT_ID}/agent-a0ad4f44468bdf20d"
    assert item.session.agent == "claude-code:laptop:general-purpose"
    assert item.session.title == "Search the repo for TODO comments"
    assert [turn.role for turn in item.turns] == ["user", "assistant", "tool"]
    assert item.turns[0].text == "Search the repo for TODO comments"
    assert item.turns[2].text == "a.txt:1: TODO fix"


def test_a_subagent_without_metadata_gets_the_subagent_role(tmp_path: Path, transcripts: Path):
    source = transcripts / SUBAGENT
    copy = tmp_path / "s-9" / "subagents" / source.name
    copy.parent.mkdir(parents=True)
    copy.write_bytes(source.read_bytes())

    (item,) = parse(copy).sessions

    assert item.session.id == "claude-code:s-9/agent-a0ad4f44468bdf20d"
    assert item.session.agent == "claude-code:laptop:subagent"


def test_a_sibling_sidechain_file_is_keyed_by_the_parent_session_and_agent_id(tmp_path: Path):
    path = write_lines(
        tmp_path / "agent-abc123.jsonl",
        [
            user(
                "Find the config loader",
                "u1",
                isSidechain=True,
                agentId="abc123",
                sessionId="parent-1",
            ),
            assistant("m1", [{"type": "text", "text": "It is in config.py"}], "a1")
            | {"isSidechain": True, "agentId": "abc123", "sessionId": "parent-1"},
        ],
    )

    (item,) = parse(path).sessions

    assert item.session.id == "claude-code:parent-1/agent-abc123"
    assert item.session.agent == "claude-code:laptop:subagent"
    assert [turn.text for turn in item.turns] == ["Find the config loader", "It is in config.py"]


def test_inline_sidechains_are_sessions_named_by_their_root_line(tmp_path: Path):
    path = write_lines(
        tmp_path / "s-1.jsonl",
        [
            user("Look around", "u1", parentUuid=None),
            user("Search for TODOs", "side-root", isSidechain=True, parentUuid=None),
            assistant("m1", [{"type": "text", "text": "Found two."}], "a1")
            | {"isSidechain": True, "parentUuid": "side-root"},
            assistant("m2", [{"type": "text", "text": "The subagent found two TODOs."}], "a2"),
        ],
    )

    main, side = parse(path).sessions

    assert main.session.id == "claude-code:s-1"
    assert [turn.text for turn in main.turns] == ["Look around", "The subagent found two TODOs."]
    assert side.session.id == "claude-code:s-1/agent-side-root"
    assert [turn.text for turn in side.turns] == ["Search for TODOs", "Found two."]


def test_the_schema_zoo_imports_without_problems_and_tolerates_placeholders(transcripts: Path):
    parsed = parse(transcripts / ZOO)

    assert parsed.problems == ()
    by_id = {item.session.id: item for item in parsed.sessions}
    main = by_id["claude-code:ses_stage0_small"]
    assert main.session.title == "Stage0 small fixture"  # custom-title beats ai-title and summary
    assert any(turn.time == "" for turn in main.turns)
    assert "claude-code:ses_stage0_small/agent-sys1" in by_id


def test_harness_text_is_removed_from_user_turns(tmp_path: Path):
    reminder = "<system-reminder>Remember the todo list.</system-reminder>"
    path = write_lines(
        tmp_path / "s-1.jsonl",
        [
            user(
                "<command-name>/review</command-name>\n<command-message>review</command-message>\n"
                "<command-args>src tests</command-args>",
                "u1",
            ),
            user("Caveat: the messages below were generated by local commands.", "u2", isMeta=True),
            user(reminder, "u3"),
            user([{"type": "text", "text": f"{reminder}\nfix the bug"}], "u4"),
            user([{"type": "text", "text": "[Request interrupted by user]"}], "u5"),
            user("<local-command-stdout>Set model to opus</local-command-stdout>", "u6"),
            {"type": "progress", "sessionId": "s-1", "uuid": "p1", "data": {}},
            {"type": "queue-operation", "operation": "enqueue", "sessionId": "s-1"},
            {"type": "something-new", "sessionId": "s-1"},
        ],
    )

    parsed = parse(path)

    assert parsed.problems == ()
    assert texts(parsed, "user") == ["/review src tests", "fix the bug"]


def test_a_response_continued_after_a_tool_result_stays_one_turn(tmp_path: Path):
    call = {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a.py"}}
    later = {"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "b.py"}}
    path = write_lines(
        tmp_path / "s-1.jsonl",
        [
            user("read both files", "u1"),
            assistant("m1", [{"type": "thinking", "thinking": "hmm", "signature": "c2ln"}], "a0"),
            assistant("m1", [{"type": "text", "text": "Reading."}, call], "a1"),
            tool_result("t1", "print('a')", "r1"),
            assistant("m1", [later], "a2"),
            tool_result("t2", [{"type": "text", "text": "print('b')"}], "r2"),
            assistant("m1", [later], "a2"),  # the same line written twice counts once
        ],
    )

    turns = parse(path).sessions[0].turns

    assert [turn.role for turn in turns] == ["user", "assistant", "tool", "tool"]
    assert turns[1].text == "Reading."
    assert [c["input"] for c in json.loads(turns[1].tool_calls)] == [
        '{"file_path": "a.py"}',
        '{"file_path": "b.py"}',
    ]
    assert turns[3].text == "print('b')"


def test_the_same_message_id_after_a_new_prompt_is_a_new_turn(tmp_path: Path):
    path = write_lines(
        tmp_path / "s-1.jsonl",
        [
            user("one", "u1"),
            assistant("m1", [{"type": "text", "text": "first"}], "a1"),
            user("two", "u2"),
            assistant("m1", [{"type": "text", "text": "second"}], "a2"),
        ],
    )

    assert texts(parse(path), "assistant") == ["first", "second"]


def test_long_text_is_truncated_with_a_marker(tmp_path: Path):
    path = write_lines(tmp_path / "s-1.jsonl", [tool_result("t1", "x" * 25_000, "r1")])

    (turn,) = parse(path).sessions[0].turns

    assert turn.text == "x" * 20_000 + "… [truncated 5000 chars]"


def test_long_tool_input_is_shortened(tmp_path: Path):
    blocks = [{"type": "tool_use", "id": "t1", "name": "Write", "input": {"content": "y" * 900}}]
    path = write_lines(tmp_path / "s-1.jsonl", [assistant("m1", blocks, "a1")])

    (turn,) = parse(path).sessions[0].turns

    (call,) = json.loads(turn.tool_calls)
    assert call["name"] == "Write"
    assert len(call["input"]) == turns.MAX_TOOL_INPUT_CHARS
    assert call["input"].endswith("…")


def test_a_summary_about_a_line_of_this_file_names_the_session(tmp_path: Path):
    path = write_lines(
        tmp_path / "s-1.jsonl",
        [
            {"type": "summary", "summary": "Fixing the parser", "leafUuid": "u1"},
            user("fix the parser", "u1"),
            {"type": "summary", "summary": "Another session entirely", "leafUuid": "elsewhere"},
        ],
    )

    (item,) = parse(path).sessions

    assert item.session.title == "Fixing the parser"


def test_bad_lines_are_reported_by_line_and_the_rest_imports(tmp_path: Path):
    path = tmp_path / "s-1.jsonl"
    path.write_bytes(
        (json.dumps(user("first prompt", "u1")) + "\n").encode()
        + b'{"type": "user", "message": \n'
        + b"[1, 2]\n"
        + (json.dumps(user("x", "u2") | {"message": "not an object"}) + "\n").encode()
        + b'{"type": "user", "text": "caf\xe9"}\n'
        + b"\n"
        + (json.dumps(assistant("m1", [{"type": "text", "text": "answer"}], "a1")) + "\n").encode()
    )

    parsed = parse(path)

    assert [problem.line for problem in parsed.problems] == [2, 3, 4, 5]
    assert "invalid UTF-8" in parsed.problems[3].message
    assert all(problem.path == str(path) for problem in parsed.problems)
    assert [(turn.role, turn.text) for turn in parsed.sessions[0].turns] == [
        ("user", "first prompt"),
        ("assistant", "answer"),
    ]


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        *[(relative, True) for relative in FIXTURES],
        ("codex/codemie-synthetic/turn-spawn-skill.jsonl", False),
        (
            "codex/codemie-real-anonymized/"
            "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.first63lines.jsonl",
            False,
        ),
        ("gemini-cli/agent-sessions-shape/jsonl_v040.jsonl", False),
        ("gemini-cli/agent-sessions-shape/small.json", False),
        ("openclaw-pi/agent-sessions/pi-small.jsonl", False),
        ("openclaw-pi/agent-sessions/openclaw-large.jsonl", False),
        (f"{LAYOUT}/{PARENT_ID}/subagents/agent-a0ad4f44468bdf20d.meta.json", False),
    ],
)
def test_sniff_claims_claude_code_files_only(transcripts: Path, relative: str, expected: bool):
    path = transcripts / relative

    assert claude_code.sniff(path, path.read_bytes()[: 64 * 1024]) is expected


@pytest.mark.parametrize("relative", FIXTURES)
def test_a_prefix_of_a_file_parses_to_the_same_turns_except_a_growing_last_one(
    tmp_path: Path, transcripts: Path, relative: str
):
    source = transcripts / relative
    lines = source.read_bytes().splitlines(keepends=True)
    full = {item.session.id: item for item in parse(source).sessions}
    # Keep the file's folder layout: a subagent's session id comes from it.
    copy = tmp_path / source.relative_to(transcripts)
    copy.parent.mkdir(parents=True)
    meta = source.with_name(f"{source.stem}.meta.json")
    if meta.exists():
        copy.with_name(meta.name).write_bytes(meta.read_bytes())

    for count in range(1, len(lines) + 1):
        copy.write_bytes(b"".join(lines[:count]))
        for item in parse(copy).sessions:
            whole = full[item.session.id]
            assert item.session.agent == whole.session.agent
            *settled, last = item.turns
            for turn in settled:
                grown = whole.turns[turn.index]
                assert (grown.role, grown.text) == (turn.role, turn.text), (count, turn.index)
            grown = whole.turns[last.index]
            assert grown.role == last.role
            assert grown.text.startswith(last.text), (count, last.index)
