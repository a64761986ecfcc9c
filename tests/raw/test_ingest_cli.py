"""``memstrata ingest`` as a real process: what it could not import, it names, and exits 1."""

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.cli.process import can_bar_reading, run


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    assert run("init", str(root)).returncode == 0
    return root


def _write_chat(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        {"role": "user", "content": "where do zeppelins dock"},
        {"role": "assistant", "content": "at a mooring mast"},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _claude_session(path: Path) -> Path:
    """A response written as two lines sharing its message id: text, then a long tool call."""
    response = {"id": "msg_1", "role": "assistant", "type": "message"}
    write = {"file_path": "route.md", "content": "Hamburg to Oslo by zeppelin. " * 20}
    messages = [
        ("user", {"role": "user", "content": "plan the zeppelin route"}),
        ("assistant", {**response, "content": [{"type": "text", "text": "Writing."}]}),
        (
            "assistant",
            {**response, "content": [{"type": "tool_use", "name": "Write", "input": write}]},
        ),
        ("user", {"role": "user", "content": "thanks"}),
    ]
    lines = [
        {"type": kind, "uuid": f"l{n}", "sessionId": "s-1", "message": message}
        for n, (kind, message) in enumerate(messages)
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _tool_calls(ws: Path) -> list[str]:
    with closing(sqlite3.connect(ws / "raw" / "sessions.db")) as db:
        return [row[0] for row in db.execute("SELECT tool_calls FROM turns ORDER BY idx")]


def test_a_truncated_copy_is_reported_by_line_and_the_full_session_survives(
    ws: Path, tmp_path: Path
):
    full = _claude_session(tmp_path / "s-1.jsonl")
    assert run("--workspace", str(ws), "ingest", str(full)).returncode == 0
    before = _tool_calls(ws)
    cut = tmp_path / "part.jsonl"
    cut.write_bytes(full.read_bytes()[:-200])

    result = run("--workspace", str(ws), "ingest", str(cut))
    again = run("--workspace", str(ws), "ingest", str(full))

    assert result.returncode == 1
    assert f"problem: {cut}:3: last line cut short" in result.stderr
    assert "0 turns added, 0 updated, 1 kept as stored" in result.stdout
    assert '"name": "Write"' in before[1]
    assert _tool_calls(ws) == before
    assert again.returncode == 0 and "1 unchanged file skipped" in again.stdout


def test_a_wrong_format_names_the_files_exits_1_and_leaves_them_to_the_right_one(
    ws: Path, tmp_path: Path
):
    folder = tmp_path / "sessions"
    chat = _write_chat(folder / "chat.jsonl")

    wrong = run("--workspace", str(ws), "ingest", "--format", "gemini", str(folder))
    right = run("--workspace", str(ws), "ingest", str(folder))

    assert wrong.returncode == 1
    assert f"1 file not in gemini format skipped: {chat}" in wrong.stdout
    assert f"nothing imported: no gemini transcript found in {folder}" in wrong.stderr
    assert right.returncode == 0, right.stderr
    assert right.stdout.startswith("1 file, 1 session: 2 turns added")


def test_a_wrong_format_for_a_named_file_says_what_the_file_looks_like(ws: Path, tmp_path: Path):
    chat = _write_chat(tmp_path / "chat.jsonl")

    result = run("--workspace", str(ws), "ingest", "--format", "codex", str(chat))

    assert result.returncode == 1
    assert (
        f"problem: {chat}: no codex session found: the file does not match --format codex"
        " (it looks like jsonl)"
    ) in result.stderr


def test_skipped_files_are_named_in_text_and_all_listed_in_json(ws: Path, tmp_path: Path):
    folder = tmp_path / "projects"
    _write_chat(folder / "chat.jsonl")
    for name in ("a.md", "b.md", "c.md", "d.md"):
        (folder / name).write_text("just notes\n")
    (folder / "new.jsonl").write_text("")

    text = run("--workspace", str(ws), "ingest", str(folder))
    report = json.loads(run("--workspace", str(ws), "ingest", "--json", str(folder)).stdout)

    assert text.returncode == 0, text.stderr
    assert (
        f"4 unknown files skipped: {folder / 'a.md'}, {folder / 'b.md'}, {folder / 'c.md'}"
        " (and 1 more)"
    ) in text.stdout
    assert f"1 empty file skipped: {folder / 'new.jsonl'}" in text.stdout
    assert report["unknown_files"] == [
        str(folder / name) for name in ("a.md", "b.md", "c.md", "d.md")
    ]
    assert report["empty_files"] == [str(folder / "new.jsonl")]


def test_an_empty_file_named_directly_is_called_empty(ws: Path, tmp_path: Path):
    path = tmp_path / "new.jsonl"
    path.write_text("")

    result = run("--workspace", str(ws), "ingest", str(path))

    assert result.returncode == 1
    assert f"problem: {path}: empty file, nothing to import" in result.stderr
    assert "not a transcript format" not in result.stderr


def _claude_line(uuid: str, parent: str | None, role: str, text: str, time: str) -> str:
    message = {"role": role, "content": text}
    line = {"type": role, "sessionId": "same-session", "uuid": uuid, "parentUuid": parent}
    return json.dumps({**line, "timestamp": time, "message": message}) + "\n"


def test_two_files_of_one_session_id_holding_two_conversations_both_stay_searchable(
    ws: Path, tmp_path: Path
):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text(
        _claude_line("a1", None, "user", "first file question", "2026-11-01T10:00:00Z")
        + _claude_line("a2", "a1", "assistant", "first file answer", "2026-11-01T10:00:05Z")
    )
    two.write_text(
        _claude_line(
            "b1", None, "user", "second file question that is longer", "2026-11-02T10:00:00Z"
        )
        + _claude_line(
            "b2", "b1", "assistant", "second file answer that is longer", "2026-11-02T10:00:05Z"
        )
    )
    assert run("--workspace", str(ws), "ingest", str(one)).returncode == 0

    report = json.loads(run("--workspace", str(ws), "ingest", "--json", str(two)).stdout)
    turns = json.loads(run("--workspace", str(ws), "search", "--json", "file question").stdout)[
        "hits"
    ]
    found = run("--workspace", str(ws), "search", "--sessions", "--json", "file answer").stdout

    [apart] = report["forks"]
    assert report["forks"] == {apart: "claude-code:same-session"}
    with closing(sqlite3.connect(ws / "raw" / "sessions.db")) as db:
        stored = db.execute("SELECT session_id, idx, text FROM turns ORDER BY id").fetchall()
    assert stored == [
        ("claude-code:same-session", 0, "first file question"),
        ("claude-code:same-session", 1, "first file answer"),
        (apart, 0, "second file question that is longer"),
        (apart, 1, "second file answer that is longer"),
    ]
    assert {"claude-code:same-session#0", f"{apart}#0"} <= {hit["source"] for hit in turns}
    assert {hit["source"] for hit in json.loads(found)["hits"]} == {
        "claude-code:same-session",
        apart,
    }


@pytest.fixture
def unreadable():
    """Files and folders made unreadable by their mode, and made readable again afterwards
    (pytest must be able to clean them up)."""
    if not can_bar_reading():
        pytest.skip("as root, needs capsh to run without the right to read any file")
    barred: list[Path] = []

    def bar(path: Path) -> Path:
        path.chmod(0)
        barred.append(path)
        return path

    yield bar
    for path in barred:
        path.chmod(0o755)


def test_an_unreadable_file_in_a_folder_is_a_problem_and_the_rest_imports(
    ws: Path, tmp_path: Path, unreadable
):
    folder = tmp_path / "sessions"
    _write_chat(folder / "a.jsonl")
    locked = unreadable(_write_chat(folder / "b.jsonl"))
    _write_chat(folder / "c.jsonl")

    result = run("--workspace", str(ws), "ingest", str(folder), unprivileged=True)

    assert result.returncode == 1
    assert result.stdout.startswith("2 files, 2 sessions: 4 turns added")
    assert f"problem: {locked}: cannot read the file: Permission denied" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unreadable_file_is_imported_once_it_can_be_read(ws: Path, tmp_path: Path, unreadable):
    chat = unreadable(_write_chat(tmp_path / "chat.jsonl"))
    barred = run("--workspace", str(ws), "ingest", str(chat), unprivileged=True)
    chat.chmod(0o644)

    readable = run("--workspace", str(ws), "ingest", str(chat), unprivileged=True)

    assert barred.returncode == 2  # a usage error: the file named cannot be read
    assert f"Path '{chat}' is not readable" in barred.stderr
    assert "Traceback" not in barred.stderr
    assert readable.returncode == 0, readable.stderr
    assert readable.stdout.startswith("1 file, 1 session: 2 turns added")


def test_a_folder_that_cannot_be_listed_is_named_not_passed_over(
    ws: Path, tmp_path: Path, unreadable
):
    folder = tmp_path / "sessions"
    _write_chat(folder / "a.jsonl")
    _write_chat(folder / "private" / "b.jsonl")
    private = unreadable(folder / "private")

    result = run("--workspace", str(ws), "ingest", str(folder), unprivileged=True)

    assert result.returncode == 1
    assert result.stdout.startswith("1 file, 1 session: 2 turns added")
    assert f"problem: {private}: cannot list the folder: Permission denied" in result.stderr


def test_a_large_import_says_how_its_turns_get_their_vectors(ws: Path, tmp_path: Path):
    chat = tmp_path / "long.jsonl"
    rows = [
        {"role": "user" if n % 2 == 0 else "assistant", "content": f"turn {n} about zeppelins"}
        for n in range(1000)
    ]
    chat.write_text("".join(json.dumps(row) + "\n" for row in rows))
    small = _write_chat(tmp_path / "small.jsonl")

    large = run("--workspace", str(ws), "ingest", str(chat))
    few = run("--workspace", str(ws), "ingest", str(small))

    assert large.returncode == 0, large.stderr
    assert large.stderr.strip() == (
        "note: 1,000 new turns are found by their words at once, by their meaning once "
        "embedded: each search embeds up to 256 of them; 'memstrata rebuild' embeds them all "
        "now (minutes per 100k turns)"
    )
    assert few.stderr == ""
