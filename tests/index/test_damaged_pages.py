"""An index whose file opens but holds a damaged page is made anew from the files by the first
call that meets the damage: the call succeeds, says so once, and nothing is written twice."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.gate.verdicts import Admitted
from tests.cli.process import run


def _indexed(root: Path, now: datetime) -> None:
    with Memory(root, clock=lambda: now) as memory:
        memory.write_topic("people/noah", "Noah: bassist, runs the payments team")
        memory.recall("Noah bass")


def _damage_page(root: Path, table: str) -> None:
    """Overwrite the root page of ``table`` in the closed index: the file still opens (its first
    page and schema are intact), a read of that table finds the page malformed."""
    path = root / ".memstrata" / "index.db"
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    (page,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    db.close()
    for suffix in ("-wal", "-shm"):
        assert not Path(f"{path}{suffix}").exists()  # everything checkpointed into the file
    with path.open("r+b") as handle:
        handle.seek((page - 1) * page_size)
        handle.write(b"\xab" * page_size)


def _sound(root: Path) -> bool:
    db = sqlite3.connect(root / ".memstrata" / "index.db")
    try:
        return db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        db.close()


READS: dict[str, Callable[[Memory], object]] = {
    "recall": lambda memory: memory.recall("Noah bass").items,
    "search": lambda memory: memory.search("Noah bass"),
    "context": lambda memory: memory.context(query="Noah bass").channel("recall").items,
    "status": lambda memory: memory.status().topics_by_state,
}


# status reads no full-text table: damage there waits for the first search that does
MEETINGS = [
    (read, table)
    for read in sorted(READS)
    for table in ("journal", "topics", "topics_fts_data")
    if (read, table) != ("status", "topics_fts_data")
]


@pytest.mark.parametrize(("read", "table"), MEETINGS)
def test_a_read_meeting_a_damaged_page_makes_the_index_anew(
    root: Path, fixed_now: datetime, read: str, table: str
):
    _indexed(root, fixed_now)
    _damage_page(root, table)

    with Memory(root, clock=lambda: fixed_now) as memory:
        found = READS[read](memory)

    assert found
    assert _sound(root)


def test_recall_says_once_that_the_index_was_made_anew(root: Path, fixed_now: datetime):
    _indexed(root, fixed_now)
    _damage_page(root, "journal")

    with Memory(root, clock=lambda: fixed_now) as memory:
        first = memory.recall("Noah bass")
        second = memory.recall("Noah bass")

    assert [item.source for item in first.items] == [item.source for item in second.items]
    assert "memory/2025-11-26.md#L3" in [item.source for item in first.items]
    healed = [note for note in first.notes if "made anew from the files" in note]
    assert healed and ".memstrata/index.db was damaged" in healed[0]
    assert not any("made anew" in note for note in second.notes)


def test_a_log_into_a_damaged_index_is_written_once_and_recalled(root: Path, fixed_now: datetime):
    _indexed(root, fixed_now)
    _damage_page(root, "journal")

    with Memory(root, clock=lambda: fixed_now) as memory:
        written = memory.log("Mila plays drums in the office band")
        found = memory.recall("Mila drums").items

    day = root / "memory" / f"{fixed_now.date().isoformat()}.md"
    assert day.read_text("utf-8").count("Mila plays drums") == 1
    assert "made anew from the files" in written.index_note
    assert any("Mila plays drums" in item.content for item in found)


def test_remember_into_a_damaged_index_admits_once(root: Path, fixed_now: datetime):
    _indexed(root, fixed_now)
    _damage_page(root, "topics")

    with Memory(root, clock=lambda: fixed_now) as memory:
        verdict = memory.remember("Ines leads the QA guild", kind="world")
        again = memory.remember("Ines leads the QA guild", kind="world")
        topics = [topic.id for topic in memory.list_topics()]

    assert isinstance(verdict, Admitted)
    assert not isinstance(again, Admitted)  # the index made anew holds the first
    assert sum("ines" in topic_id for topic_id in topics) == 1


def test_a_topic_written_into_a_damaged_index_is_recalled(root: Path, fixed_now: datetime):
    _indexed(root, fixed_now)
    _damage_page(root, "topics")

    with Memory(root, clock=lambda: fixed_now) as memory:
        written = memory.write_topic("people/ines", "Ines leads the QA guild")
        found = memory.recall("QA guild").items

    assert written.created
    assert [item.source for item in found][:1] == ["people/ines"]


def test_the_cli_says_the_index_was_made_anew(root: Path, fixed_now: datetime):
    _indexed(root, fixed_now)
    _damage_page(root, "topics_fts_data")

    result = run("recall", "Noah", cwd=root)

    assert result.returncode == 0, result.stderr
    assert "people/noah" in result.stdout
    assert "note: .memstrata/index.db was damaged" in result.stderr
    assert "Traceback" not in result.stderr
