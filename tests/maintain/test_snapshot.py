"""Snapshots: canonical files and the raw database, listed, restored, and a restore undone."""

import json
import os
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.maintain.ledger import read_ledger
from memstrata.maintain.restore import restore_snapshot
from memstrata.maintain.snapshot import list_snapshots, take_snapshot
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


def test_a_change_that_kept_the_size_and_mtime_is_copied_not_shared(messy: tuple[Path, Truth]):
    # cp -p, touch -r and rsync -a set the mtime back; only the ctime tells the change
    root, truth = messy
    summary = root / "memory" / "topics" / truth.healthy[0] / "summary.md"
    with Memory(root, clock=lambda: NOW) as memory:
        first = take_snapshot(memory, "one", NOW)
        was = summary.stat()
        summary.write_bytes(summary.read_bytes().swapcase())
        os.utime(summary, ns=(was.st_atime_ns, was.st_mtime_ns))
        second = take_snapshot(memory, "two", NOW)
    relative = summary.relative_to(root)

    assert (summary.stat().st_size, summary.stat().st_mtime_ns) == (was.st_size, was.st_mtime_ns)
    assert (root / second.path / relative).read_bytes() == summary.read_bytes()
    assert (root / first.path / relative).stat().st_ino != (
        root / second.path / relative
    ).stat().st_ino


def _with_raw(root: Path) -> None:
    with Memory(root, clock=lambda: NOW) as memory:
        memory.raw.upsert(
            Session("s-1", "codex", "codex:me:main", "", "", "x.jsonl"),
            [Turn("s-1", 0, "user", "2025-11-27T09:00:00Z", "hello")],
        )


def _snapshot_count(root: Path) -> int:
    return len(list((root / ".memstrata" / "snapshots").iterdir()))


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("delete", "meta.json is missing"),
        ("edit", "summary.md differs"),
        ("add", "notes.md was not in it"),
        ("raw", "raw/sessions.db differs"),
    ],
)
def test_a_snapshot_whose_files_changed_since_it_was_taken_is_refused_and_nothing_changes(
    messy: tuple[Path, Truth], change: str, said: str
):
    root, truth = messy
    _with_raw(root)
    with Memory(root, clock=lambda: NOW) as memory:
        taken = take_snapshot(memory, "by hand", NOW)
        memory.write_topic(truth.healthy[0], "Changed after the snapshot.\n")
    topic = root / taken.path / "memory" / "topics" / truth.healthy[1]
    if change == "delete":
        (topic / "meta.json").unlink()
    elif change == "edit":
        (topic / "summary.md").write_text("Edited inside the snapshot.\n")
    elif change == "add":
        (topic / "notes.md").write_text("Added inside the snapshot.\n")
    else:
        with (root / taken.path / "raw" / "sessions.db").open("r+b") as database:
            database.seek(100)
            database.write(b"garbage" * 100)
    before, snapshots = file_states(root), _snapshot_count(root)

    with Memory(root, clock=lambda: NOW) as memory:
        for dry_run in (True, False):
            with pytest.raises(
                InputError, match=r"no longer matches its manifest\.json"
            ) as refused:
                restore_snapshot(memory, taken.id, NOW, dry_run=dry_run)
            assert said in str(refused.value) and "nothing was restored" in str(refused.value)

    assert file_states(root) == before
    assert _snapshot_count(root) == snapshots  # not even the safety snapshot was taken


def test_a_damaged_manifest_lists_as_damaged_is_refused_and_is_never_linked_from(
    messy: tuple[Path, Truth],
):
    root, truth = messy
    with Memory(root, clock=lambda: NOW) as memory:
        first = take_snapshot(memory, "by hand", NOW)
        (root / first.path / "manifest.json").write_text('{"id": "snap-')

        [listed] = list_snapshots(memory.workspace)
        with pytest.raises(InputError, match=r"is damaged \(manifest\.json line 1: Unterminated"):
            restore_snapshot(memory, first.id, NOW)
        second = take_snapshot(memory, "after", NOW)

    assert listed.id == first.id and listed.damaged.startswith("manifest.json line 1")
    summary = f"memory/topics/{truth.healthy[1]}/summary.md"
    assert (root / first.path / summary).stat().st_ino != (
        root / second.path / summary
    ).stat().st_ino
    assert [info.id for info in list_snapshots(memory.workspace) if not info.damaged] == [second.id]


def test_a_snapshot_taken_before_manifests_named_their_files_restores_as_it_is(
    messy: tuple[Path, Truth],
):
    root, truth = messy
    with Memory(root, clock=lambda: NOW) as memory:
        taken = take_snapshot(memory, "by hand", NOW)
        manifest = root / taken.path / "manifest.json"
        old = json.loads(manifest.read_text())
        manifest.write_text(json.dumps({k: v for k, v in old.items() if k != "contents"}))
        memory.write_topic(truth.healthy[0], "Changed after the snapshot.\n")

        result = restore_snapshot(memory, taken.id, NOW)

    summary = f"memory/topics/{truth.healthy[0]}/summary.md"
    assert summary in result.written
    assert (root / summary).read_bytes() == (root / taken.path / summary).read_bytes()


def test_a_snapshot_names_each_file_with_its_digest_even_where_it_shares_the_earlier_copy(
    messy: tuple[Path, Truth],
):
    root, truth = messy
    _with_raw(root)
    with Memory(root, clock=lambda: NOW) as memory:
        take_snapshot(memory, "one", NOW)
        memory.write_topic(truth.healthy[0], "Changed between the snapshots.\n")
        second = take_snapshot(memory, "two", NOW)
        restore_snapshot(memory, second.id, NOW)  # every digest checked, the shared ones too

    manifest = json.loads((root / second.path / "manifest.json").read_text())
    assert len(manifest["contents"]) == second.files - 1  # the raw database is counted apart
    assert manifest["raw_bytes"] == (root / second.path / "raw" / "sessions.db").stat().st_size
    assert sorted(path.name for path in (root / second.path / "raw").iterdir()) == ["sessions.db"]
