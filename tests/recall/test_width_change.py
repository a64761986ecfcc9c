"""A model that answers in another width under the same name is no error: vectors of the old
width are ignored by search and embedded again, from the cache only when the width fits.

The embedder is the real OpenAI-compatible client against a real HTTP server on the loopback
address, whose answers go from 16 to 24 numbers wide (``wider``) and back, URL unchanged.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from memstrata import Memory
from memstrata.model import Session, Turn
from tests.cli.process import run
from tests.providers.fake_endpoint import FakeEmbeddings, workspace_on

WHEN = "2025-11-26T10:00:00Z"


DAY = (
    "# 2025-11-26\n\n- @Ann prefers cortado coffee before reviews\n"
    "- The billing canary went out at noon\n"
)


def _workspace(root: Path, base_url: str) -> Path:
    return workspace_on(root, f"openai:tiny@{base_url}", DAY)


def _with_turns(memory: Memory) -> None:
    memory.raw.upsert(
        Session("s1", "claude-code", "user", WHEN, WHEN, ""),
        [
            Turn("s1", 0, "user", WHEN, "Book the Lisbon venue near the river"),
            Turn("s1", 1, "assistant", WHEN, "Booked the Lisbon venue for Friday"),
        ],
    )


def _widths(memory: Memory) -> set[tuple[str, int]]:
    rows = memory.index.db.execute("SELECT DISTINCT kind, dim FROM vectors").fetchall()
    return {(row[0], int(row[1])) for row in rows}


def _reads_work(memory: Memory) -> None:
    """recall, context and raw search answer with their semantic arm, and say nothing failed."""
    result = memory.recall("what coffee does Ann drink")
    context = memory.context("cortado")
    turns = memory.search_raw("Lisbon venue")
    sessions = memory.search_sessions("Lisbon venue")

    assert result.items and result.items[0].source == "memory/2025-11-26.md#L3"
    assert "semantic" in result.items[0].arms
    assert not any("semantic arm off" in note for note in result.notes)
    assert "cortado" in context.text
    assert [hit.source for hit in turns][:1] in (["s1#0"], ["s1#1"])
    assert [hit.source for hit in sessions] == ["s1"]
    assert memory.embedder_failure == ""


def test_cached_vectors_of_the_old_width_are_embedded_again(
    tmp_path: Path, fixed_now: datetime, endpoint: str
):
    root = _workspace(tmp_path / "ws", endpoint)
    with Memory(root, clock=lambda: fixed_now) as memory:
        _with_turns(memory)
        assert memory.rebuild().embedded == 4
    FakeEmbeddings.mode = "wider"  # the cache and the index hold 16-wide rows of this name

    with Memory(root, clock=lambda: fixed_now) as memory:
        _reads_work(memory)  # before a rebuild: the reads embed what they need again
        report = memory.rebuild()
        widths = _widths(memory)

    assert report.embedded == 4
    assert widths == {("fact", 24), ("turn", 24)}


def test_stored_vectors_of_another_width_are_ignored_and_replaced(
    tmp_path: Path, fixed_now: datetime, endpoint: str
):
    root = _workspace(tmp_path / "ws", endpoint)
    FakeEmbeddings.mode = "wider"
    with Memory(root, clock=lambda: fixed_now) as memory:
        _with_turns(memory)
        memory.rebuild()
    (root / ".memstrata" / "embeddings.db").unlink()  # the index alone holds 24-wide rows
    FakeEmbeddings.mode = "ok"

    with Memory(root, clock=lambda: fixed_now) as memory:
        _reads_work(memory)
        widths = _widths(memory)

    assert widths == {("fact", 16), ("turn", 16)}


def test_the_cli_reads_and_rebuilds_after_the_width_changed(tmp_path: Path, endpoint: str):
    root = _workspace(tmp_path / "ws", endpoint)
    assert run("--workspace", str(root), "rebuild").returncode == 0
    FakeEmbeddings.mode = "wider"

    recall = run("--workspace", str(root), "recall", "what does Ann drink")
    context = run("--workspace", str(root), "context", "--query", "Ann")
    rebuild = run("--workspace", str(root), "rebuild")

    for result in (recall, context, rebuild):
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert "failed" not in result.stderr
    assert "cortado" in recall.stdout
    assert "embedded 2" in rebuild.stdout + rebuild.stderr
