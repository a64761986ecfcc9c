"""Several processes writing at once, and writers killed mid-write: nothing lost, nothing torn."""

import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memstrata import Memory, sqlite
from memstrata.errors import LockTimeout
from memstrata.raw.store import RawStore, open_raw_store
from memstrata.wiki.text import content_hash

WRITER = """
import sys
from memstrata import Memory
root, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with Memory(root) as memory:
    for i in range(count):
        topic = f"{name}/t{i % 50:02d}" if i % 2 == 0 else "world/shared"
        memory.write_topic(topic, f"{name} wrote number {i}", actor=name, reason=f"write {i}")
"""


def _writers(root: Path, names: list[str], count: int) -> list[subprocess.Popen]:
    return [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root), name, str(count)], stderr=subprocess.PIPE
        )
        for name in names
    ]


def assert_history_explains_every_topic(memory: Memory) -> None:
    for topic in memory.list_topics():
        history = memory.topic_history(topic.id)
        assert history, topic.id
        assert history[0].before == ""
        for earlier, later in itertools.pairwise(history):
            assert later.before == earlier.after, topic.id
        assert history[-1].after == content_hash(topic.summary, topic.detail, topic.meta.state)


def test_four_processes_writing_at_once_lose_nothing(workspace: Path):
    names = ["pa", "pb", "pc", "pd"]
    processes = _writers(workspace, names, 100)
    for process in processes:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err.decode()
    with Memory(workspace) as memory:
        ids = {topic.id for topic in memory.list_topics()}
        for name in names:
            assert {f"{name}/t{i:02d}" for i in range(0, 50, 1) if i % 2 == 0} <= ids
            # Each of a writer's own topics got both its writes (i and i + 50).
            assert len(memory.topic_history(f"{name}/t00")) == 2
        shared = memory.topic_history("world/shared")
        assert len(shared) == 4 * 50
        assert_history_explains_every_topic(memory)
        memory.sync()
        live = memory.index.dump()
        memory.rebuild()
        assert memory.index.dump() == live


def _wait_for(path: Path, process: subprocess.Popen, timeout_s: float = 120.0) -> None:
    """Until ``path`` exists: the writer is past its start-up (which a loaded machine may
    stretch to seconds) and in the middle of its writes."""
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        assert time.monotonic() < deadline, f"no {path} after {timeout_s} s"
        time.sleep(0.001)


def test_writers_killed_mid_write_leave_no_topic_without_history(workspace: Path):
    topics = workspace / "memory" / "topics"
    for round_number in range(8):
        name = f"k{round_number}"
        [process] = _writers(workspace, [name], 400)
        # killed a little further into its writes each round, never before they began
        _wait_for(topics / name / f"t{2 * round_number:02d}" / "summary.md", process)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        with Memory(workspace) as memory:
            memory.sync()  # rolls forward whatever the killed writer left pending
            assert not list(memory.workspace.pending_dir.glob("*.json"))
            assert_history_explains_every_topic(memory)
    with Memory(workspace) as memory:
        assert len(memory.list_topics()) > 8


def test_a_raw_database_another_process_keeps_busy_is_not_called_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A writer that holds raw/sessions.db past the busy timeout (a long import) is no damage:
    the one line said is to try again, never to move the only copy of the transcripts aside."""
    raw = tmp_path / "raw" / "sessions.db"
    RawStore(raw).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            f"db = sqlite3.connect({str(raw)!r}, isolation_level=None)\n"
            "db.execute('BEGIN IMMEDIATE')\n"
            "print('holding', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        monkeypatch.setattr(sqlite, "BUSY_TIMEOUT_MS", 50)
        with pytest.raises(LockTimeout) as raised:
            open_raw_store(raw)
    finally:
        holder.communicate("")
    assert str(raised.value).startswith(f"{raw}: another process kept the raw sessions database")
    assert "move it aside" not in str(raised.value)
    open_raw_store(raw).close()  # sound, once the other process is done
