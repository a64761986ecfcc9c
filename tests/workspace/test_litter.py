"""Temp files that writers killed mid-write left beside the journal, the proposals, the
intents and ``_index.json`` are swept by the next read; a young one, or one not ours, stays."""

import os
import time
from pathlib import Path

from memstrata import Memory
from memstrata.workspace.litter import LITTER_MIN_AGE_S, sweep_litter


def make(path: Path, age_s: float) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("partial")
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def test_a_read_sweeps_what_killed_writers_left_and_keeps_the_rest(workspace: Path):
    memory_dir = workspace / "memory"
    old = LITTER_MIN_AGE_S + 5
    litter = [
        make(memory_dir / ".pending" / ".3eaba70bcb5e8671e3f18dc5.json.7264039f.tmp", old),
        make(memory_dir / "proposals" / ".p-c68c8614a3.md.0afbf792.tmp", old),
        make(memory_dir / "topics" / "._index.json.98ab1d21.tmp", old),
        make(memory_dir / ".2026-12-02.md.c10d8c57.tmp", old),
    ]
    kept = [
        make(memory_dir / ".2026-12-02.md.aa11bb22.tmp", 1),  # young: a writer may be at work
        make(memory_dir / "notes.tmp", old),  # not of the form we write
        make(memory_dir / ".2026-12-02.md.swp", old),  # an editor's
    ]

    with Memory(workspace, embeddings=False) as memory:
        memory.recall("anything at all")

    assert [path for path in litter if path.exists()] == []
    assert all(path.exists() for path in kept)


def test_the_sweep_names_what_it_removed(workspace: Path):
    temp = make(workspace / "memory" / "proposals" / ".p-0123456789.md.0afbf792.tmp", 120)

    assert sweep_litter_of(workspace) == [temp]
    assert sweep_litter_of(workspace) == []


def sweep_litter_of(root: Path) -> list[Path]:
    from memstrata.workspace.layout import Workspace

    return sweep_litter(Workspace(root))
