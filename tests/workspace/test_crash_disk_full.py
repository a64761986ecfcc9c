"""A full disk is said as such, naming the file that could not be written, and is never taken for
damage: no sound database is deleted, set aside or called "not usable, move it aside".

A real full disk needs a mount; these tests get the same errors without one: a child process
whose file-size limit (RLIMIT_FSIZE) is below what SQLite must grow its ``-shm`` file to gets
the very ``SQLITE_IOERR_SHMSIZE`` a full disk gives, and ``ENOSPC`` from ``write``/``fsync``
(which name no file) is raised by a stand-in for them.
"""

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import DiskFull
from memstrata.maintain.snapshot import list_snapshots, take_snapshot
from memstrata.raw.store import RawStore
from memstrata.workspace import atomic
from memstrata.workspace.atomic import append_line, update_shared_file, write_atomic
from memstrata.workspace.layout import Workspace

#: opens a database with too little room to grow its -shm file; prints what it raised
NO_ROOM = """
import resource, signal, sys
from pathlib import Path

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (8192, resource.RLIM_INFINITY))
from memstrata.index.db import IndexDB
from memstrata.raw.store import open_raw_store

what, path = sys.argv[1], Path(sys.argv[2])
try:
    if what == "cache":
        from memstrata.providers.cache import CachedEmbedder
        from memstrata.providers.hashing import HashingEmbedder

        CachedEmbedder(HashingEmbedder(), path, owned=True)
    elif what == "flush":
        from memstrata.maintain.tick import _sessions_since

        _sessions_since(path, "")
    else:
        (IndexDB.open if what == "index" else open_raw_store)(path)
except Exception as error:
    print(type(error).__name__, error)
else:
    print("opened")
"""


def open_without_room(what: str, path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", NO_ROOM, what, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout.strip()


def no_space(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as the kernel's: no file name


def test_a_full_disk_does_not_cost_the_index_it_is_reading(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead.")
    index = workspace / ".memstrata" / "index.db"
    assert not Path(f"{index}-shm").exists()
    before = (index.stat().st_ino, index.read_bytes())

    said = open_without_room("index", index)

    # Taken for damage, the index was deleted and made anew on a disk with no room for it.
    assert said.startswith(f"DiskFull {index}: the disk is full"), said
    assert (index.stat().st_ino, index.read_bytes()) == before


def test_a_full_disk_is_not_called_damage_of_the_raw_database(tmp_path: Path):
    raw = tmp_path / "raw" / "sessions.db"
    RawStore(raw).close()
    before = raw.read_bytes()

    said = open_without_room("raw", raw)

    # not "not a usable raw sessions database …; move it aside and import the transcripts
    # again": it is the only copy of what was imported, and nothing is wrong with it
    assert said.startswith(f"DiskFull {raw}: the disk is full"), said
    assert "move it aside" not in said
    assert raw.read_bytes() == before


def test_a_full_disk_keeps_the_embedding_cache_and_names_it(tmp_path: Path):
    from memstrata.providers.cache import CachedEmbedder
    from memstrata.providers.hashing import HashingEmbedder

    cache = tmp_path / "embeddings.db"
    CachedEmbedder(HashingEmbedder(), cache, owned=True).close()
    for sidecar in (Path(f"{cache}-wal"), Path(f"{cache}-shm")):
        sidecar.unlink(missing_ok=True)

    said = open_without_room("cache", cache)

    # not set aside as a damaged cache, to embed everything anew
    assert said.startswith(f"DiskFull {cache}: the disk is full"), said
    assert {path.name for path in tmp_path.iterdir()} <= {
        "embeddings.db",
        "embeddings.db-wal",
        "embeddings.db-shm",
    }


def test_the_idle_flush_waits_for_a_raw_database_it_cannot_read_now(tmp_path: Path):
    raw = tmp_path / "raw" / "sessions.db"
    RawStore(raw).close()

    said = open_without_room("flush", raw)

    assert said.startswith(f"LockTimeout {raw}: could not be read now"), said
    assert "usable" not in said


def test_a_replacement_that_finds_the_disk_full_names_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    path = tmp_path / "meta.json"
    path.write_text("{}\n")
    monkeypatch.setattr(atomic.os, "fsync", no_space)

    with pytest.raises(OSError) as raised:
        write_atomic(path, '{"state": "active"}\n')

    assert raised.value.errno == errno.ENOSPC
    assert raised.value.filename == str(path)
    assert path.read_text() == "{}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["meta.json"]  # no temp file left


def test_an_append_that_finds_the_disk_full_names_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    history = tmp_path / "history.jsonl"
    history.write_text('{"op": "create"}\n')
    journal = tmp_path / "2025-11-27.md"
    journal.write_text("# 2025-11-27\n")
    monkeypatch.setattr(atomic.os, "pwrite", no_space)
    monkeypatch.setattr(atomic.os, "write", no_space)

    with pytest.raises(OSError) as appended:
        append_line(history, '{"op": "update"}')
    with pytest.raises(OSError) as logged:
        update_shared_file(journal, lambda old: ((old or b"") + b"- 10:00 a note\n", None))

    assert (appended.value.filename, logged.value.filename) == (str(history), str(journal))
    assert history.read_text() == '{"op": "create"}\n'
    assert journal.read_text() == "# 2025-11-27\n"


def test_a_snapshot_with_no_room_names_itself_not_the_file_it_copied(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    workspace = memory.workspace

    def copy_without_room(source: str, target: str, **kwargs: object) -> None:
        # shutil's own error on a full disk: the file copied from first, then the target
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(source), None, str(target))

    monkeypatch.setattr("memstrata.maintain.snapshot.shutil.copy2", copy_without_room)

    with pytest.raises(DiskFull) as raised:
        take_snapshot(memory, "by hand", memory.clock())

    snapshots = workspace.state_dir / "snapshots"
    assert str(raised.value).startswith(f"{snapshots}/snap-")
    assert "the disk is full, so no snapshot was taken" in str(raised.value)
    assert list_snapshots(Workspace(workspace.root)) == []
    assert [path.name for path in snapshots.iterdir()] == []  # its partial copy is gone


class FillingDisk:
    """``os.write``/``os.pwrite`` as on a disk that fills part-way: the first call writes what
    fits and returns that count, without an error; the next one finds no room at all."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.real_write, self.real_pwrite = os.write, os.pwrite

    def write(self, fd: int, data: bytes) -> int:
        return self._fill(lambda part: self.real_write(fd, part), data)

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        return self._fill(lambda part: self.real_pwrite(fd, part, offset), data)

    def _fill(self, write, data: bytes) -> int:  # type: ignore[no-untyped-def]
        if self.room <= 0:
            no_space()
        written = write(bytes(data[: self.room]))
        self.room -= written
        return written


def test_a_journal_append_the_disk_fills_during_leaves_no_line_cut_short(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
):
    memory.log("@Ann prefers cortado", kind="world")
    day = memory.workspace.journal_path(memory.clock().date().isoformat())
    before = day.read_bytes()
    assert before.endswith(b"- W @Ann prefers cortado\n")  # the next fact is an append
    disk = FillingDisk(room=20)
    monkeypatch.setattr(atomic.os, "write", disk.write)

    with pytest.raises(OSError) as raised:
        memory.log("@Bob leads the payments team and the billing canary", kind="world")

    assert raised.value.filename == str(day)
    # Before, "- W @Bob leads the p" stayed: a fact of half its words, recalled and promoted.
    assert day.read_bytes() == before


def test_a_history_append_the_disk_fills_during_fails_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    history = tmp_path / "history.jsonl"
    history.write_text('{"op": "create"}\n')
    monkeypatch.setattr(atomic.os, "pwrite", FillingDisk(room=7).pwrite)

    # Before, the short count went unread: the write "succeeded" with a torn line on disk,
    # and the intent holding the line whole was removed.
    with pytest.raises(OSError) as raised:
        append_line(history, '{"op": "update", "replaced": {"summary": "Design lead."}}')

    assert (raised.value.errno, raised.value.filename) == (errno.ENOSPC, str(history))
    assert history.read_text() == '{"op": "create"}\n'
