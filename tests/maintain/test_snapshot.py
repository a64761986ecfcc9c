"""Snapshots: canonical files and the raw database, listed, restored, and a restore undone."""

from pathlib import Path

from memstrata import Memory
from memstrata.maintain.ledger import read_ledger
from memstrata.maintain.snapshot import list_snapshots, restore_snapshot, take_snapshot
from memstrata.model import Session, Turn
from tests.maintain.messy import NOW, Truth, file_states, garden


def _canonical(root: Path) -> dict[str, bytes]:
    return {
        name: content
        for name, (content, _mtime) in file_states(root).items()
        if not name.startswith(
            (
                ".memstrata/",
                "raw/",
                "memory/ledger.jsonl",
                "memory/reports/",
                "memory/metrics.jsonl",
                "memory/topics/_index.json",
            )
        )
    }


def _raw_turns(root: Path) -> int:
    with Memory(root, clock=lambda: NOW) as memory:
        return memory.raw.counts()["turns"]


def test_restoring_the_snapshot_of_an_autonomous_run_brings_back_the_workspace(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    with Memory(root, clock=lambda: NOW) as memory:
        memory.raw.upsert(
            Session("s-1", "codex", "codex:me:main", "", "", "x.jsonl"),
            [Turn("s-1", 0, "user", "2025-11-27T09:00:00Z", "hello")],
        )
    before = _canonical(root)
    report = garden(root, "autonomous")
    with Memory(root, clock=lambda: NOW) as memory:
        memory.raw.upsert(
            Session("s-2", "codex", "codex:me:main", "", "", "y.jsonl"),
            [Turn("s-2", 0, "user", "2025-11-27T09:30:00Z", "later")],
        )
    assert _canonical(root) != before and _raw_turns(root) == 2

    with Memory(root, clock=lambda: NOW) as memory:
        result = restore_snapshot(memory, report.snapshot, NOW)
        assert {topic.meta.state for topic in memory.list_topics()} == {"active"}

    assert _canonical(root) == before
    assert _raw_turns(root) == 1
    assert read_ledger(root / "memory" / "ledger.jsonl")[-1].action == "restore"

    with Memory(root, clock=lambda: NOW) as memory:
        restore_snapshot(memory, result.safety_snapshot, NOW)  # the restore, undone
    assert _raw_turns(root) == 2


def test_snapshots_are_listed_oldest_first_and_a_half_written_one_never_is(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    with Memory(root, clock=lambda: NOW) as memory:
        first = take_snapshot(memory, "by hand", NOW)
        second = take_snapshot(memory, "by hand again", NOW)
        (memory.workspace.state_dir / "snapshots" / ".snap-x.partial").mkdir()
        listed = list_snapshots(memory.workspace)
    assert [info.id for info in listed] == [first.id, second.id]
    assert second.id == f"{first.id}-2" and first.files > 100


def test_a_restore_dry_run_lists_the_changes_and_writes_nothing(messy: tuple[Path, Truth]):
    root, _truth = messy
    report = garden(root, "autonomous")
    before = file_states(root)
    with Memory(root, clock=lambda: NOW) as memory:
        preview = restore_snapshot(memory, report.snapshot, NOW, dry_run=True)
    assert preview.dry_run and preview.written and preview.removed
    assert file_states(root) == before


def test_a_file_unchanged_since_the_last_snapshot_is_shared_not_copied_again(
    messy: tuple[Path, Truth],
):
    root, truth = messy
    with Memory(root, clock=lambda: NOW) as memory:
        first = take_snapshot(memory, "one", NOW)
        memory.write_topic(truth.healthy[0], "Changed between the snapshots.\n")
        second = take_snapshot(memory, "two", NOW)
    one, two = root / first.path, root / second.path
    kept = f"memory/topics/{truth.healthy[1]}/summary.md"
    changed = f"memory/topics/{truth.healthy[0]}/summary.md"
    assert (one / kept).stat().st_ino == (two / kept).stat().st_ino
    assert (one / changed).read_text() != (two / changed).read_text()
    assert (two / changed).read_text() == "Changed between the snapshots.\n"
