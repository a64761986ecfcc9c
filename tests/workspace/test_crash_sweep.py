"""A writer killed just before it renames its temp file over ``.memstrata/index-view.json`` (or
any file outside the topic folders) leaves the temp file; the next read sweeps it once it is
old enough to be no live writer's. Before, only the journal, proposal, intent and ``_index.json``
folders were swept, and the rest stayed forever: one file per kill, and a restore's copy of the
raw database as big as the database."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from memstrata import Memory
from memstrata.workspace.litter import LITTER_MIN_AGE_S
from tests.killed_writer import killed_writer

#: writes a topic and is killed (SIGKILL) the moment the Index view is about to be replaced
KILLED_WRITER = killed_writer("index-view.json")


def temp_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.iterdir() if path.name.endswith(".tmp"))


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_a_read_sweeps_the_index_view_temp_file_of_a_killed_writer(workspace: Path):
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER, str(workspace)], capture_output=True, check=False
    )
    assert killed.returncode == -signal.SIGKILL
    state = workspace / ".memstrata"
    [litter] = temp_files(state)
    assert litter.name.startswith(".index-view.json.")

    with Memory(workspace, embeddings=False) as memory:
        memory.recall("Ann")
    assert temp_files(state) == [litter]  # young: it may be a live writer's

    age(litter, LITTER_MIN_AGE_S + 5)
    with Memory(workspace, embeddings=False) as memory:
        assert memory.get_topic("people/ann").summary == "# Ann\nDesign director."
        memory.recall("Ann")
    assert temp_files(state) == []


def test_the_sweep_reaches_every_folder_memstrata_replaces_files_in(workspace: Path):
    old = LITTER_MIN_AGE_S + 5
    folders = ("", "prompt", "memory/.garden", "memory/reports", "raw", ".memstrata")
    litter = []
    for folder in folders:
        (workspace / folder).mkdir(parents=True, exist_ok=True)
        temp = workspace / folder / ".state.json.0afbf792.tmp"
        temp.write_text("partial")
        age(temp, old)
        litter.append(temp)
    kept = workspace / "raw" / "sessions.db.tmp"  # not of the form memstrata writes
    kept.write_text("someone else's")
    age(kept, old)

    with Memory(workspace, embeddings=False) as memory:
        memory.recall("anything")

    assert [path for path in litter if path.exists()] == []
    assert kept.exists()
