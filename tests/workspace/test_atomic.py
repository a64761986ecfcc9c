"""Crash-safe writes: whole lines kept, torn ones cut, modes kept, other writers' appends kept."""

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import LockTimeout
from memstrata.workspace.atomic import (
    append_line,
    create_atomic,
    update_shared_file,
    write_atomic,
)

CREATE = '{"op": "create"}'
ARCHIVE = '{"op": "archive"}'


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- append_line: a last line without its newline ---------------------------------------------


@pytest.mark.parametrize(
    ("before", "line", "after"),
    [
        pytest.param(
            CREATE.encode(), ARCHIVE, f"{CREATE}\n{ARCHIVE}\n".encode(), id="json-saved-by-hand"
        ),
        pytest.param(
            b"\xef\xbb\xbf" + CREATE.encode(),
            ARCHIVE,
            b"\xef\xbb\xbf" + f"{CREATE}\n{ARCHIVE}\n".encode(),
            id="json-after-a-bom",
        ),
        pytest.param(
            b"memory/2025-11-27.md#L9\tabcdef012345",
            "memory/2025-11-27.md#L12\t0123456789ab",
            b"memory/2025-11-27.md#L9\tabcdef012345\nmemory/2025-11-27.md#L12\t0123456789ab\n",
            id="text-line-saved-by-hand",
        ),
    ],
)
def test_a_whole_last_line_without_its_newline_gets_one(tmp_path, before, line, after):
    path = tmp_path / "history.jsonl"
    path.write_bytes(before)
    append_line(path, line)
    assert path.read_bytes() == after


@pytest.mark.parametrize(
    ("torn", "line"),
    [
        pytest.param(b'{"op": "upd', ARCHIVE, id="json-cut-short"),
        pytest.param(b"\0\0\0\0", ARCHIVE, id="zeros-left-by-a-crash"),
        pytest.param('{"reason": "café'.encode()[:-1], ARCHIVE, id="cut-inside-a-character"),
        pytest.param(b"memory/x.md#L3\tab\0\0", "memory/x.md#L4\t0123456789ab", id="text-zeros"),
        pytest.param(b"   ", ARCHIVE, id="only-blanks"),
    ],
)
def test_a_torn_last_line_is_cut_before_appending(tmp_path, torn, line):
    path = tmp_path / "history.jsonl"
    path.write_bytes(f"{CREATE}\n".encode() + torn)
    append_line(path, line)
    assert path.read_bytes() == f"{CREATE}\n{line}\n".encode()


def test_a_topic_history_saved_without_its_final_newline_keeps_every_entry(memory: Memory):
    memory.write_topic("people/ann", "Ann lives in Paris.")
    history = memory.workspace.topic_dir("people/ann") / "history.jsonl"
    history.write_bytes(history.read_bytes().rstrip(b"\n"))  # as many editors save it
    memory.archive_topic("people/ann")
    assert [entry.op for entry in memory.topic_history("people/ann")] == ["create", "archive"]


def test_a_history_line_torn_by_a_killed_writer_is_written_again_whole(memory: Memory):
    memory.write_topic("people/ann", "Design lead.")
    memory.write_topic("people/ann", "Design director.")
    folder = memory.workspace.topic_dir("people/ann")
    create, update = (folder / "history.jsonl").read_text().splitlines()
    # The state a writer killed mid-append leaves: its intent, and half its history line.
    (folder / "history.jsonl").write_text(f"{create}\n{update[: len(update) // 2]}")
    entry = json.loads(update)
    write_intent = {
        "topic": "people/ann",
        "summary": "Design director.",
        "detail": "",
        "meta": json.loads((folder / "meta.json").read_text()),
        "replaced": entry.pop("replaced"),  # the text the update replaced, kept in history
        "entry": entry,
    }
    memory.workspace.pending_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(memory.topics._intent_path("people/ann"), json.dumps(write_intent))
    assert memory.topics.complete_pending() == ["people/ann"]
    assert (folder / "history.jsonl").read_text() == f"{create}\n{update}\n"
    assert [entry.op for entry in memory.topic_history("people/ann")] == ["create", "update"]


# -- modes --------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o664, 0o640, 0o600, 0o444])
def test_a_replaced_file_keeps_its_mode(tmp_path, mode):
    path = tmp_path / "summary.md"
    path.write_text("old\n")
    path.chmod(mode)
    write_atomic(path, "new\n")
    assert (path.read_text(), mode_of(path)) == ("new\n", mode)


def test_a_file_written_like_another_takes_its_mode_even_when_it_was_there(tmp_path):
    private = tmp_path / ".claude.json"
    private.write_text("{}")
    private.chmod(0o600)
    backup = tmp_path / ".claude.json.backup"
    backup.write_text("old")
    backup.chmod(0o644)  # left world-readable by an earlier version

    write_atomic(backup, "{}", mode_of=private)

    assert mode_of(backup) == 0o600


def test_a_symbolic_link_is_written_through_only_when_asked(tmp_path):
    kept = tmp_path / "dotfiles" / "settings.json"
    kept.parent.mkdir()
    kept.write_text("old\n")
    link = tmp_path / "settings.json"
    link.symlink_to(kept)

    write_atomic(link, "new\n", through_link=True)

    assert link.is_symlink() and link.resolve() == kept.resolve()
    assert kept.read_text() == "new\n"


def test_a_symbolic_link_in_a_workspace_never_leads_a_write_elsewhere(tmp_path):
    # a cloned workspace could hold summary.md -> ~/.bashrc
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    summary = tmp_path / "ws" / "summary.md"
    summary.parent.mkdir()
    summary.symlink_to(outside)

    write_atomic(summary, "topic text\n")

    assert outside.read_text() == "keep me\n"
    assert not summary.is_symlink() and summary.read_text() == "topic text\n"


NEW_FILES = """
import sys
from pathlib import Path
from memstrata.workspace.atomic import append_line, create_atomic, write_atomic
folder = Path(sys.argv[1])
write_atomic(folder / "written.md", "text\\n")
append_line(folder / "appended.jsonl", "{}")
create_atomic(folder / "created.md", b"text\\n")
"""


@pytest.mark.parametrize(("umask", "mode"), [("022", 0o644), ("002", 0o664), ("077", 0o600)])
def test_a_new_file_gets_what_the_umask_leaves_of_0666(tmp_path, umask, mode):
    # The umask is a property of the process, so each case runs in a process of its own.
    subprocess.run(
        [
            "sh",
            "-c",
            f'umask {umask} && exec "$0" -c "$1" "$2"',
            sys.executable,
            NEW_FILES,
            tmp_path,
        ],
        check=True,
    )
    subprocess.run(
        [
            "sh",
            "-c",
            f'umask {umask} && exec "$0" -m memstrata init "$1"',
            sys.executable,
            tmp_path / "ws",
        ],
        check=True,
        capture_output=True,
    )
    made = ["written.md", "appended.jsonl", "created.md", "ws/MEMORY.md", "ws/memstrata.toml"]
    assert {name: oct(mode_of(tmp_path / name)) for name in made} == dict.fromkeys(made, oct(mode))


# -- files other programs append to -------------------------------------------------------------


def test_create_atomic_never_replaces_a_file_that_is_there(tmp_path):
    path = tmp_path / "day.md"
    assert create_atomic(path, b"ours\n")
    assert not create_atomic(path, b"again\n")
    assert path.read_bytes() == b"ours\n"
    assert [p.name for p in tmp_path.iterdir()] == ["day.md"]  # no temp file left behind


def test_lines_added_at_the_end_are_appended_to_the_same_file(tmp_path):
    path = tmp_path / "day.md"
    path.write_bytes(b"# day\n")
    inode = path.stat().st_ino
    update_shared_file(path, lambda old: (old + b"- ours\n", None))
    assert (path.read_bytes(), path.stat().st_ino) == (b"# day\n- ours\n", inode)


@pytest.mark.parametrize("torn", [b"", b'{"op": "upd'], ids=["whole", "torn-last-line"])
def test_a_line_appended_to_a_file_with_another_name_leaves_the_other_name_as_it_was(
    tmp_path, torn
):
    # A snapshot shares an unchanged file with the snapshot before it through a hard link: an
    # append in place (or the cut of a torn line) would change both.
    path, other = tmp_path / "history.jsonl", tmp_path / "snapshot-copy.jsonl"
    path.write_bytes(f"{CREATE}\n".encode() + torn)
    path.chmod(0o640)
    other.hardlink_to(path)

    append_line(path, ARCHIVE)

    assert path.read_bytes() == f"{CREATE}\n{ARCHIVE}\n".encode()
    assert other.read_bytes() == f"{CREATE}\n".encode() + torn
    assert path.stat().st_nlink == other.stat().st_nlink == 1
    assert mode_of(path) == 0o640


def test_a_shared_file_with_another_name_is_replaced_not_appended_to(tmp_path):
    path, other = tmp_path / "day.md", tmp_path / "snapshot-day.md"
    path.write_bytes(b"# day\n")
    other.hardlink_to(path)

    update_shared_file(path, lambda old: (old + b"- ours\n", None))

    assert (path.read_bytes(), other.read_bytes()) == (b"# day\n- ours\n", b"# day\n")
    assert path.stat().st_ino != other.stat().st_ino


def test_an_append_that_lands_before_ours_is_read_again_and_kept_first(tmp_path):
    path = tmp_path / "day.md"
    path.write_bytes(b"# day\n")
    seen = []

    def add_ours(old):
        seen.append(old)
        if len(seen) == 1:  # another program appends between our read and our write
            with path.open("a") as other:
                other.write("- theirs\n")
        return old + b"- ours\n", len(seen)

    assert update_shared_file(path, add_ours) == 2
    assert seen == [b"# day\n", b"# day\n- theirs\n"]
    assert path.read_bytes() == b"# day\n- theirs\n- ours\n"


def test_an_append_that_lands_while_a_file_is_rewritten_is_carried_over(tmp_path):
    path = tmp_path / "day.md"
    path.write_bytes(b"- one\n")
    calls = []

    def insert_heading(old):
        calls.append(old)
        with path.open("a") as other:  # lands after our read, before our rename
            other.write("- theirs\n")
        return b"# day\n" + old, None

    update_shared_file(path, insert_heading)
    assert len(calls) == 1  # an append is no reason to start again
    assert path.read_bytes() == b"# day\n- one\n- theirs\n"


def test_a_file_rewritten_by_another_program_meanwhile_is_read_again(tmp_path):
    path = tmp_path / "day.md"
    path.write_bytes(b"- one\n")
    seen = []

    def insert_heading(old):
        seen.append(old)
        if len(seen) == 1:  # an editor saves its own version meanwhile
            write_atomic(path, b"- edited\n")
        return b"# day\n" + old, None

    update_shared_file(path, insert_heading)
    assert seen == [b"- one\n", b"- edited\n"]
    assert path.read_bytes() == b"# day\n- edited\n"


def test_a_file_that_appears_while_it_is_created_is_kept_and_added_to(tmp_path):
    path = tmp_path / "day.md"

    def add_ours(old):
        if old is None:  # another program creates the file meanwhile
            path.write_bytes(b"- theirs\n")
            return b"- ours\n", None
        return old + b"- ours\n", None

    update_shared_file(path, add_ours)
    assert path.read_bytes() == b"- theirs\n- ours\n"


def test_a_file_rewritten_on_every_try_is_left_to_the_other_program(tmp_path):
    path = tmp_path / "day.md"
    path.write_bytes(b"- one\n")

    def insert_while_rewritten(old):
        write_atomic(path, b"- edited\n")
        return b"# day\n" + old, None

    with pytest.raises(LockTimeout, match="nothing was written"):
        update_shared_file(path, insert_while_rewritten)
    assert path.read_bytes() == b"- edited\n"
    assert [p.name for p in tmp_path.iterdir()] == ["day.md"]


def test_the_lock_and_databases_follow_the_umask_too(tmp_path):
    # A workspace shared by a group (umask 002) must stay writable by the group: SQLite makes
    # its files 0644 whatever the umask unless they exist first.
    ws = tmp_path / "ws"
    script = (
        'umask 002 && "$0" -m memstrata init "$1" >/dev/null'
        ' && sed -i "s/^model = .*/model = \'hashing\'/" "$1/memstrata.toml"'
        ' && "$0" -m memstrata -w "$1" log "zeppelin sighting" >/dev/null'
        ' && "$0" -m memstrata -w "$1" recall zeppelin >/dev/null'
    )
    subprocess.run(["sh", "-c", script, sys.executable, ws], check=True, capture_output=True)

    made = [
        ".memstrata/lock", ".memstrata/index.db", ".memstrata/access.db",
        ".memstrata/embeddings.db", "memory/metrics.jsonl",
    ]  # fmt: skip
    assert {name: oct(mode_of(ws / name)) for name in made} == dict.fromkeys(made, oct(0o664))
