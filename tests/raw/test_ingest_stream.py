"""A transcript on a stream: ``memstrata ingest -`` reads standard input, and a pipe is read
the same way. The stream is copied to a file first (it can be read once, ingest reads twice)."""

import io
import json
import os
import threading
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.raw.spool import spooled
from tests.cli.process import run


def _chat(*texts: str) -> bytes:
    roles = ("user", "assistant")
    rows = [{"role": roles[n % 2], "content": text} for n, text in enumerate(texts)]
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


CHAT = ("where does the zeppelin dock", "at the mooring mast in Friedrichshafen")


def test_a_transcript_piped_to_ingest_dash_is_imported_and_named_stdin(workspace: Path):
    piped = run("--workspace", str(workspace), "ingest", "-", stdin=_chat(*CHAT))

    assert piped.returncode == 0, piped.stderr
    assert "1 session: 2 turns added" in piped.stdout
    found = run("--workspace", str(workspace), "search", "mooring mast")
    assert "at the mooring mast in Friedrichshafen" in found.stdout
    with Memory(workspace) as memory:
        [session] = memory.raw.sessions()
    assert session.source_path == "<stdin>"
    assert list((workspace / ".memstrata" / "spool").glob("*")) == []  # the copy is gone


def test_piping_a_longer_version_of_the_same_chat_adds_only_what_is_new(workspace: Path):
    run("--workspace", str(workspace), "ingest", "-", stdin=_chat(*CHAT))

    again = run("--workspace", str(workspace), "ingest", "-", stdin=_chat(*CHAT))
    longer_chat = _chat(*CHAT, "and in Hamburg?")
    longer = run("--workspace", str(workspace), "ingest", "-", stdin=longer_chat)

    assert "0 turns added, 0 updated" in again.stdout
    assert "1 session: 1 turn added" in longer.stdout
    with Memory(workspace) as memory:
        assert memory.raw.counts() == {"sessions": 1, "turns": 3}


def test_a_stream_leaves_no_import_mark_to_skip_it_by(memory: Memory):
    """A mark vouches for a file found unchanged; a stream's copy is new each time."""
    for _ in range(2):
        report = memory.ingest("-", stdin=io.BytesIO(_chat(*CHAT)))
        assert (report.files, report.skipped_unchanged) == (1, 0)
    assert memory.raw.import_mark("<stdin>") is None


def test_a_named_pipe_is_read_like_stdin_and_named_by_its_path(memory: Memory, tmp_path: Path):
    fifo = tmp_path / "chat.pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_bytes, args=(_chat(*CHAT),))
    writer.start()

    report = memory.ingest(fifo)
    writer.join()

    assert (report.sessions, report.turns_added, report.problems) == (1, 2, [])
    [session] = memory.raw.sessions()
    assert session.source_path == str(fifo)


def test_bad_lines_on_stdin_are_reported_by_line_and_the_rest_imports(workspace: Path):
    piped = run("--workspace", str(workspace), "ingest", "-", stdin=_chat(CHAT[0]) + b"not json\n")

    assert piped.returncode == 1
    assert "problem: <stdin>:2: invalid JSON" in piped.stderr
    assert "1 turn added" in piped.stdout


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "<stdin>: empty input, nothing to import"),
        (b"just a note, no transcript\n", "<stdin>: not a transcript format memstrata knows"),
    ],
)
def test_stdin_with_no_transcript_is_a_problem_named_stdin(workspace: Path, data: bytes, says: str):
    piped = run("--workspace", str(workspace), "ingest", "-", stdin=data)

    assert piped.returncode == 1
    assert says in piped.stderr
    assert "Traceback" not in piped.stderr


def test_stdin_in_another_format_than_asked_says_what_it_looks_like(workspace: Path):
    piped = run(
        "--workspace", str(workspace), "ingest", "--format", "codex", "-", stdin=_chat(*CHAT)
    )

    assert piped.returncode == 1
    assert "the input does not match --format codex (it looks like jsonl)" in piped.stderr


def test_stdin_named_twice_is_refused_before_anything_is_read(workspace: Path):
    piped = run("--workspace", str(workspace), "ingest", "-", "-", stdin=_chat(*CHAT))

    assert piped.returncode == 1
    assert "<stdin>: named twice; a stream can be read once" in piped.stderr


def test_a_file_named_dash_is_a_file_when_named_another_way(workspace: Path, tmp_path: Path):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "-").write_bytes(_chat(*CHAT))

    # (--format: a file without a suffix is claimed by no importer on its own)
    as_file = run(
        "--workspace", str(workspace), "ingest", "--format", "jsonl", "./-", cwd=folder, stdin=b""
    )

    assert as_file.returncode == 0, as_file.stderr
    assert "1 session: 2 turns added" in as_file.stdout
    with Memory(workspace) as memory:
        [session] = memory.raw.sessions()
    assert session.source_path == str(folder / "-")


@pytest.mark.parametrize(
    "relative",
    [
        "aider/chat-history.excerpt-A.bytes3501597-3505570.md",  # Markdown
        "gemini-cli/agent-sessions-shape/small.json",  # one JSON document over many lines
        "codex/codemie-synthetic/turn-spawn-skill.jsonl",
        "claude-code/codemie-real-v2.1.4/session-9eda1058.jsonl",
    ],
)
def test_a_real_transcript_piped_in_imports_as_its_file_does(
    transcripts: Path, tmp_path: Path, relative: str
):
    """The copy is named for the format that claims it: importers sniff by suffix too."""
    source = transcripts / relative
    with Memory.init(tmp_path / "from-file", embeddings=False) as memory:
        from_file = memory.ingest(source)
    with (
        Memory.init(tmp_path / "from-stdin", embeddings=False) as memory,
        source.open("rb") as stdin,
    ):
        from_stdin = memory.ingest("-", stdin=stdin)

    assert from_file.sessions > 0
    assert (from_stdin.sessions, from_stdin.turns_added, from_stdin.problems) == (
        from_file.sessions,
        from_file.turns_added,
        from_file.problems,
    )


def test_a_stream_over_the_cap_is_refused_and_leaves_no_copy(tmp_path: Path):
    spool = tmp_path / "spool"

    with (
        pytest.raises(InputError, match=r"<stdin>: more than 10 bytes; save the transcript"),
        spooled(Path("-"), spool, "auto", io.BytesIO(_chat(*CHAT)), max_bytes=10),
    ):
        pass

    assert not spool.exists()


def test_a_copy_left_by_a_killed_run_is_cleared_before_the_next(memory: Memory):
    spool = memory.workspace.spool_dir
    spool.mkdir(parents=True)
    (spool / "stdin.jsonl").write_bytes(_chat("a half-written copy"))

    report = memory.ingest("-", stdin=io.BytesIO(_chat(*CHAT)))

    assert report.turns_added == 2
    assert not spool.exists()


def test_a_process_with_no_standard_input_imports_files_and_says_so_for_dash(
    memory: Memory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A daemon or a service may run with ``sys.stdin`` None: only ``-`` needs it."""
    monkeypatch.setattr("sys.stdin", None)
    chat = tmp_path / "chat.jsonl"
    chat.write_bytes(_chat(*CHAT))

    assert memory.ingest(chat).turns_added == 2
    with pytest.raises(InputError, match=r"<stdin>: no standard input to read"):
        memory.ingest("-")
