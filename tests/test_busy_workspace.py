"""Reads while another process holds the workspace lock (a rebuild embedding for minutes, a
long import): they go on from the index as it stands and say so; writes still wait."""

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import LockTimeout
from memstrata.providers.hashing import HashingEmbedder
from memstrata.recall.vector_cache import VectorCache

HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()  # until the test closes it
"""


@contextmanager
def another_process_holding_the_lock(workspace: Path) -> Iterator[None]:
    lock = workspace / ".memstrata" / "lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)


def test_recall_goes_on_from_the_index_while_another_process_holds_the_lock(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        memory.log("@Ann drinks a flat white with oat milk")
    with another_process_holding_the_lock(workspace), Memory(workspace, embeddings=False) as memory:
        result = memory.recall("what does Ann drink")
        context = memory.context("what does Ann drink")

    assert any("flat white" in item.content for item in result.items)
    assert any("another memstrata process is changing the workspace" in n for n in result.notes)
    assert "flat white" in context.text


def test_a_hand_edit_made_while_the_lock_was_held_is_read_once_it_is_free(
    workspace: Path, fixed_now
):
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        memory.log("@Ann drinks a flat white")
        day = workspace / "memory" / "2025-11-27.md"
        with another_process_holding_the_lock(workspace):
            day.write_text(day.read_text() + "- 11:00 @Ann switched to cortado\n")
            during = memory.recall("what does Ann drink")
        after = memory.recall("what does Ann drink")

    assert not any("cortado" in item.content for item in during.items)
    assert any("cortado" in item.content for item in after.items)
    assert not any("another memstrata process" in note for note in after.notes)


def test_writes_still_wait_for_the_lock(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        memory.lock.timeout_s = 0.5
        with another_process_holding_the_lock(workspace), pytest.raises(LockTimeout):
            memory.log("written while another process holds the workspace")


def test_a_backlog_is_embedded_with_the_lock_taken_per_batch(words_memory: Memory):
    for n in range(300):  # more than one batch of 256
        words_memory.log(f"entry number {n}")
    taken = []

    @contextmanager
    def counting_lock() -> Iterator[None]:
        taken.append(1)
        yield

    cache = VectorCache(HashingEmbedder(), counting_lock, True)

    assert cache.embed_all(words_memory.index.db, None) == 300
    assert len(taken) >= 3  # two batches written, then the side files: never all at once
