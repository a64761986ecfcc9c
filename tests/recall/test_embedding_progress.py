"""A rebuild over many imported turns embeds for minutes: it tells how far it has got."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from memstrata import Memory
from memstrata.model import Session, Turn
from memstrata.providers.hashing import HashingEmbedder
from memstrata.recall.embedding import BATCH
from memstrata.workspace.layout import init_workspace

WHEN = "2025-11-27T10:00:00+00:00"
TURNS = BATCH + 44  # two batches of turns


def _store_turns(memory: Memory, count: int) -> None:
    turns = [Turn("s-1", i, "user", WHEN, f"turn {i} about zeppelin {i % 7}") for i in range(count)]
    memory.raw.upsert(Session("s-1", "test", "user", WHEN, WHEN, ""), turns)


def test_a_rebuild_tells_each_batch_embedded_up_to_the_whole_backlog(tmp_path: Path):
    root = tmp_path / "ws"
    init_workspace(root)
    (root / "memory" / "2025-11-26.md").write_text("# 2025-11-26\n\n- Ann likes oat milk\n")
    told: list[tuple[int, int]] = []
    with Memory(
        root, embedder=HashingEmbedder(), clock=lambda: datetime(2025, 11, 27, tzinfo=UTC)
    ) as memory:
        _store_turns(memory, TURNS)

        report = memory.rebuild(on_embedding=lambda done, total: told.append((done, total)))

    assert report.embedded == TURNS + 1
    assert told == [(1, TURNS + 1), (BATCH + 1, TURNS + 1), (TURNS + 1, TURNS + 1)]


def test_nothing_left_to_embed_tells_nothing(tmp_path: Path):
    root = tmp_path / "ws"
    init_workspace(root)
    told: list[tuple[int, int]] = []
    with Memory(root, embedder=HashingEmbedder()) as memory:
        memory.rebuild()
        assert memory.embed_missing(lambda done, total: told.append((done, total))) == 0
    assert told == []


def _set_embedder(root: Path, spec: str) -> None:
    config = root / "memstrata.toml"
    text = re.sub(r"(?m)^model = .*$", f"model = '{spec}'", config.read_text("utf-8"))
    config.write_text(text, encoding="utf-8")


def test_rebuild_on_a_terminal_shows_an_embedding_bar_and_in_a_pipe_prints_none(tmp_path: Path):
    root = tmp_path / "ws"
    init_workspace(root)
    _set_embedder(root, "hashing")
    with Memory(root, embedder=HashingEmbedder()) as memory:
        _store_turns(memory, TURNS)
    command = [sys.executable, "-m", "memstrata", "--workspace", str(root), "rebuild"]
    main, terminal = pty.openpty()
    try:
        shown = subprocess.run(command, stderr=terminal, stdout=subprocess.PIPE, timeout=120)
        os.close(terminal)
        screen = b""
        while chunk := _read(main):
            screen += chunk
    finally:
        os.close(main)
    piped = subprocess.run(command, capture_output=True, timeout=120)

    assert shown.returncode == 0 and piped.returncode == 0
    assert b"embedding" in screen and b"100%" in screen
    assert b"embedding" not in piped.stderr
    assert f"embedded {TURNS} items".encode() in piped.stdout


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 4096)
    except OSError:  # the terminal's other end closed
        return b""
