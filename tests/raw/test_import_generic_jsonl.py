"""Plain conversation JSONL: one ``{role|speaker, content|text}`` object per line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.raw.importers import HEAD_BYTES, generic_jsonl

from .support import assert_prefix_stable, only_session

NOT_TRANSCRIPTS = {"PROVENANCE.md", "SHA256SUMS", "manifest.json"}


def data_files(transcripts: Path) -> list[Path]:
    return sorted(
        path
        for path in transcripts.rglob("*")
        if path.is_file() and "LICENSES" not in path.parts and path.name not in NOT_TRANSCRIPTS
    )


def write_lines(path: Path, *records: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("label", "role"),
    [
        ("user", "user"),
        ("Human", "user"),
        ("assistant", "assistant"),
        ("AI", "assistant"),
        ("bot", "assistant"),
        ("model", "assistant"),
        ("tool", "tool"),
        ("system", "system"),
    ],
)
def test_role_labels_are_normalised(tmp_path: Path, label: str, role: str) -> None:
    path = write_lines(tmp_path / "chat.jsonl", {"role": label, "content": "words"})

    assert only_session(generic_jsonl.parse(path, "a")) == [(role, "words")]


def test_a_conversation_becomes_one_session_with_ordered_turns(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "chat.jsonl",
        {"role": "user", "content": "What is RRF?", "timestamp": "2025-03-01T09:00:00+01:00"},
        {"role": "assistant", "text": "Reciprocal rank fusion.", "time": 1740816060000},
        {"role": "user", "content": [{"type": "text", "text": "Thanks"}, {"type": "image"}]},
    )

    parsed = generic_jsonl.parse(path, "jsonl:default:main")

    item = parsed.sessions[0]
    assert parsed.problems == ()
    assert [(t.index, t.role, t.text) for t in item.turns] == [
        (0, "user", "What is RRF?"),
        (1, "assistant", "Reciprocal rank fusion."),
        (2, "user", "Thanks"),
    ]
    assert [t.time for t in item.turns] == ["2025-03-01T08:00:00Z", "2025-03-01T08:01:00Z", ""]
    assert item.session.started == "2025-03-01T08:00:00Z"
    assert item.session.ended == "2025-03-01T08:01:00Z"
    assert item.session.title == "What is RRF?"
    assert item.session.harness == "jsonl"
    assert item.session.agent == "jsonl:default:main"


def test_speakers_are_user_turns_prefixed_with_their_name(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "locomo.jsonl",
        {"speaker": "Caroline", "text": "I went to a support group yesterday."},
        {"speaker": "Melanie", "text": "How did it go?", "date": "2023-05-08"},
        {"role": "Bob", "content": "Names in the role field count too."},
    )

    assert only_session(generic_jsonl.parse(path, "a")) == [
        ("user", "Caroline: I went to a support group yesterday."),
        ("user", "Melanie: How did it go?"),
        ("user", "Bob: Names in the role field count too."),
    ]


def test_session_fields_split_a_file_into_sessions(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "many.jsonl",
        {"session": "s1", "role": "user", "content": "one"},
        {"session_id": "s2", "role": "user", "content": "two"},
        {"session": "s1", "role": "assistant", "content": "three"},
    )

    parsed = generic_jsonl.parse(path, "a")

    ids = [item.session.id for item in parsed.sessions]
    assert [id_.rsplit(":", 1)[1] for id_ in ids] == ["s1", "s2"]
    assert ids[0].split(":")[1] == ids[1].split(":")[1]
    assert [(t.index, t.text) for t in parsed.sessions[0].turns] == [(0, "one"), (1, "three")]
    assert [(t.index, t.text) for t in parsed.sessions[1].turns] == [(0, "two")]


def test_the_default_session_id_follows_the_file_name_and_first_line(tmp_path: Path) -> None:
    line = {"role": "user", "content": "hello"}
    here = write_lines(tmp_path / "a" / "chat.jsonl", line)
    moved = write_lines(tmp_path / "b" / "chat.jsonl", line, {"role": "assistant", "content": "hi"})
    other = write_lines(tmp_path / "c" / "chat.jsonl", {"role": "user", "content": "different"})
    renamed = write_lines(tmp_path / "d" / "other.jsonl", line)

    def session_id(path: Path) -> str:
        return generic_jsonl.parse(path, "a").sessions[0].session.id

    assert session_id(here) == session_id(moved)
    assert session_id(here) != session_id(other)
    assert session_id(here) != session_id(renamed)
    assert session_id(here).startswith("jsonl:")


def test_tool_calls_are_kept_as_a_json_list(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "chat.jsonl",
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"function": {"name": "search", "arguments": '{"q": "rrf"}'}}],
        },
        {"role": "assistant", "content": [{"type": "tool_use", "name": "read", "input": {"p": 1}}]},
    )

    turns = generic_jsonl.parse(path, "a").sessions[0].turns

    assert json.loads(turns[0].tool_calls) == [{"name": "search", "input": '{"q": "rrf"}'}]
    assert json.loads(turns[1].tool_calls) == [{"name": "read", "input": '{"p": 1}'}]


def test_lines_without_role_or_content_are_problems_with_line_numbers(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "chat.jsonl",
        {"role": "user", "content": "kept"},
        {"content": "nobody said this"},
        {"role": "assistant"},
        ["not", "an", "object"],
        {"role": "assistant", "content": "also kept"},
    )

    parsed = generic_jsonl.parse(path, "a")

    assert [(p.line, p.message) for p in parsed.problems] == [
        (2, "no role or speaker"),
        (3, "no content or text"),
        (4, "expected a JSON object"),
    ]
    assert only_session(parsed) == [("user", "kept"), ("assistant", "also kept")]


def test_a_malformed_line_is_reported_by_number_and_the_rest_imports(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(
        '{"role": "user", "content": "a"}\n\n{"role": "user", "content": \n'
        '{"role": "assistant", "content": "b"}\n'
    )

    parsed = generic_jsonl.parse(path, "a")

    assert [problem.line for problem in parsed.problems] == [3]
    assert only_session(parsed) == [("user", "a"), ("assistant", "b")]


def test_invalid_utf8_costs_only_its_line(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(b'{"role": "user", "content": "\xc3"}\n{"role": "user", "content": "ok"}\n')

    parsed = generic_jsonl.parse(path, "a")

    assert [problem.line for problem in parsed.problems] == [1]
    assert "invalid UTF-8" in parsed.problems[0].message
    assert only_session(parsed) == [("user", "ok")]


@pytest.mark.parametrize(
    "data",
    [
        # saved as Latin-1: every line holds a byte that is no UTF-8
        b'{"role": "user", "content": "caf\xe9"}\n{"role": "assistant", "content": "\xe0 toi"}\n',
        # every line broken: a stray quote, then cut short by a crash
        b'{"role": "user", "content": "say "hi""}\n{"role": "assistant", "content": "Hel',
    ],
    ids=["latin-1", "broken"],
)
@pytest.mark.parametrize("format_name", ["auto", "jsonl"])
def test_a_conversation_whose_every_line_is_bad_is_reported_line_by_line(
    memory: Memory, tmp_path: Path, data: bytes, format_name: str
) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(data)

    report = memory.ingest([path], format_name=format_name)

    assert generic_jsonl.sniff(path, data)
    assert [(problem.path, problem.line) for problem in report.problems] == [
        (str(path), 1),
        (str(path), 2),
    ]
    assert all(
        problem.message.startswith(("invalid UTF-8", "invalid JSON", "last line cut short"))
        for problem in report.problems
    )
    assert report.sessions == 0


def test_a_jsonl_file_of_plain_text_is_still_no_conversation(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("just a note\n{\n")

    assert not generic_jsonl.sniff(path, path.read_bytes())


def test_a_long_message_is_cut_with_a_marker(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "chat.jsonl", {"role": "user", "content": "z" * 20_001})

    assert only_session(generic_jsonl.parse(path, "a"))[0][1].endswith("… [truncated 1 chars]")


def test_sniff_claims_plain_conversations_and_no_harness_transcript(
    transcripts: Path, tmp_path: Path
) -> None:
    chat = write_lines(tmp_path / "chat.jsonl", {"speaker": "Ann", "text": "hi"})
    events = write_lines(tmp_path / "events.jsonl", {"event": "click", "text": "hi"})
    claimed = [
        path
        for path in data_files(transcripts)
        if generic_jsonl.sniff(path, path.read_bytes()[:HEAD_BYTES])
    ]

    assert generic_jsonl.sniff(chat, chat.read_bytes())
    assert not generic_jsonl.sniff(events, events.read_bytes())
    assert not generic_jsonl.sniff(chat.with_suffix(".json"), chat.read_bytes())
    assert claimed == []


def test_parsing_a_growing_file_is_prefix_stable(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "full" / "chat.jsonl",
        {"session": "x", "speaker": "Ann", "text": "Shall we meet?"},
        {"session": "y", "role": "user", "content": "unrelated"},
        {"session": "x", "speaker": "Bo", "text": "Tuesday works."},
        {"session": "x", "role": "assistant", "content": "Noted."},
    )

    assert_prefix_stable(path, generic_jsonl.parse, tmp_path)
