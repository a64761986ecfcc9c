"""A snapshot restore is all or nothing: one killed partway leaves ``.memstrata/restore.json``,
which names the snapshot and the safety snapshot taken before it, and the next restore of that
snapshot (or the next snapshot taken) finishes it; restoring the safety snapshot goes back."""

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.maintain.ledger import read_ledger
from memstrata.maintain.restore import interrupted_restore, pending_restore, restore_snapshot
from memstrata.maintain.snapshot import SnapshotInfo, list_snapshots, take_snapshot
from memstrata.workspace.layout import Workspace, init_workspace
from tests.cli.process import run
from tests.maintain.messy import NOW

TOPICS = 20

#: restores the snapshot ``sys.argv[2]`` of the workspace ``sys.argv[1]``, and dies (SIGKILL)
#: just before the ``sys.argv[5]``-th call of ``os.<sys.argv[3]>`` on a file named ``sys.argv[4]``
RESTORER = """
import os, signal, sys
from memstrata import Memory

call, name, kill_at = sys.argv[3], sys.argv[4], int(sys.argv[5])
real = getattr(os, call)
seen = 0

def dying(path, *args, **kwargs):
    global seen
    target = args[0] if call == "replace" else path
    if os.path.basename(target) == name:
        seen += 1
        if seen == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
    return real(path, *args, **kwargs)

setattr(os, call, dying)
with Memory(sys.argv[1], embeddings=False) as memory:
    memory.restore_snapshot(sys.argv[2])
"""


def version_one_then_two(root: Path) -> str:
    """Topics at version one, snapshotted, then all rewritten to version two; the snapshot's id."""
    init_workspace(root)
    config = root / "memstrata.toml"  # the offline embedder, for the CLI's rebuilds
    config.write_text(re.sub(r"(?m)^model = .*$", "model = 'hashing'", config.read_text()))
    with Memory(root, clock=lambda: NOW, embeddings=False) as memory:
        for number in range(TOPICS):
            memory.write_topic(f"bulk/t{number:02d}", f"# T{number}\nVersion one {number}.\n")
        one = memory.take_snapshot("version one").id
        for number in range(TOPICS):
            memory.write_topic(f"bulk/t{number:02d}", f"# T{number}\nVersion two {number}.\n")
    return one


def restore_killed(root: Path, snapshot_id: str, call: str, name: str, kill_at: int) -> None:
    killed = subprocess.run(
        [sys.executable, "-c", RESTORER, str(root), snapshot_id, call, name, str(kill_at)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert killed.returncode == -9, killed.stderr


def versions(root: Path) -> Counter[str]:
    """How many topic summaries say version one, and how many version two."""
    return Counter(
        path.read_text().split("Version ")[1].split()[0]
        for path in (root / "memory" / "topics" / "bulk").glob("*/summary.md")
    )


def restore_lines(root: Path) -> list[str]:
    return [
        record.why
        for record in read_ledger(root / "memory" / "ledger.jsonl")
        if record.action == "restore"
    ]


def taken_before_restoring(root: Path, snapshot_id: str) -> list[SnapshotInfo]:
    """The safety snapshots restores of ``snapshot_id`` took."""
    return [
        info
        for info in list_snapshots(Workspace(root))
        if info.reason.startswith(f"before restoring {snapshot_id}")
    ]


@pytest.fixture
def half_restored(scratch: Path) -> tuple[Path, str, str]:
    """A workspace whose restore of version one was killed at its 10th summary: the workspace,
    the snapshot being restored and the safety snapshot taken before."""
    root = scratch / "ws"
    one = version_one_then_two(root)
    restore_killed(root, one, "replace", "summary.md", 10)
    [safety] = taken_before_restoring(root, one)
    return root, one, safety.id


def test_a_restore_killed_partway_leaves_a_marker_naming_both_ways_out(
    half_restored: tuple[Path, str, str],
):
    root, one, safety = half_restored

    message = interrupted_restore(Workspace(root))

    assert versions(root) == {"one": 9, "two": TOPICS - 9}  # half and half: what the kill left
    assert message is not None and f"a restore of snapshot {one} was interrupted" in message
    assert f"'memstrata snapshot restore {one}' finishes it" in message
    assert f"'memstrata snapshot restore {safety}' goes back" in message
    assert restore_lines(root) == []


def test_restoring_the_same_snapshot_again_finishes_it_against_the_first_safety_snapshot(
    half_restored: tuple[Path, str, str],
):
    root, one, safety = half_restored
    snapshots = len(list_snapshots(Workspace(root)))

    with Memory(root, clock=lambda: NOW, embeddings=False) as memory:
        finished = restore_snapshot(memory, one, NOW)
        undone = restore_snapshot(memory, finished.safety_snapshot, NOW)
        assert versions(root) == {"two": TOPICS}  # the state before the restore, whole
        restore_snapshot(memory, one, NOW)

    assert finished.resumed and finished.safety_snapshot == safety
    assert not finished.edits_snapshot and not undone.resumed
    assert versions(root) == {"one": TOPICS}
    assert pending_restore(Workspace(root)) is None
    assert len(list_snapshots(Workspace(root))) == snapshots + 2  # one per undo, none to finish
    assert restore_lines(root)[0] == f"restored {one}; the state before is {safety}"


def test_a_snapshot_taken_after_an_interrupted_restore_holds_the_finished_restore(
    half_restored: tuple[Path, str, str],
):
    root, _one, _safety = half_restored

    with Memory(root, clock=lambda: NOW, embeddings=False) as memory:
        taken = take_snapshot(memory, "after the kill", NOW)

    assert versions(root / taken.path) == {"one": TOPICS}
    assert versions(root) == {"one": TOPICS}
    assert interrupted_restore(Workspace(root)) is None


def test_restoring_the_safety_snapshot_instead_goes_back_to_the_state_before(
    half_restored: tuple[Path, str, str],
):
    root, _one, safety = half_restored

    with Memory(root, clock=lambda: NOW, embeddings=False) as memory:
        back = restore_snapshot(memory, safety, NOW)

    assert versions(root) == {"two": TOPICS}
    assert not back.resumed and interrupted_restore(Workspace(root)) is None
    [taken] = taken_before_restoring(root, safety)
    assert taken.id == back.safety_snapshot
    assert "(an interrupted restore had left the workspace part one, part another)" in taken.reason


def test_a_file_written_after_the_interruption_is_kept_in_a_snapshot_before_it_is_overwritten(
    half_restored: tuple[Path, str, str],
):
    root, one, _safety = half_restored
    late = root / "memory" / "topics" / "bulk" / f"t{TOPICS - 1:02d}" / "summary.md"
    late.write_text("# Late\nVersion late, written by hand after the kill.\n")

    with Memory(root, clock=lambda: NOW, embeddings=False) as memory:
        finished = restore_snapshot(memory, one, NOW)

    kept = root / ".memstrata" / "snapshots" / finished.edits_snapshot
    assert finished.resumed and finished.edits_snapshot
    assert "written by hand" in (kept / late.relative_to(root)).read_text()
    assert versions(root) == {"one": TOPICS}


@pytest.mark.parametrize(
    ("call", "name", "kill_at", "when"),
    [
        ("replace", "manifest.json", 1, "taking the safety snapshot"),
        ("replace", "restore.json", 1, "writing the marker"),
        ("replace", "_index.json", 1, "writing its first file"),
        ("replace", "summary.md", TOPICS, "writing its last summary"),
        ("unlink", "index.db", 1, "rebuilding the index, its ledger line written"),
    ],
)
def test_a_restore_killed_at_any_step_is_whole_once_restored_again(
    scratch: Path, call: str, name: str, kill_at: int, when: str
):
    root = scratch / "ws"
    one = version_one_then_two(root)
    restore_killed(root, one, call, name, kill_at)
    left = versions(root)
    assert pending_restore(Workspace(root)) is not None or left == {"two": TOPICS}, when

    with Memory(root, clock=lambda: NOW, embeddings=False) as memory:
        restore_snapshot(memory, one, NOW)
        found = memory.search("Version one 7")

    assert versions(root) == {"one": TOPICS}
    assert len(restore_lines(root)) == 1, when
    assert pending_restore(Workspace(root)) is None
    assert any("bulk/t07" in str(hit) for hit in found), when  # the index was rebuilt


def test_a_marker_that_cannot_be_read_stops_snapshots_until_a_restore_makes_the_workspace_whole(
    scratch: Path,
):
    root = scratch / "ws"
    one = version_one_then_two(root)
    (root / ".memstrata" / "restore.json").write_text('{"snapshot": ')

    with Memory(root, clock=lambda: NOW, embeddings=False) as memory:
        with pytest.raises(InputError, match=r"restore\.json, which cannot be read \(line 1"):
            take_snapshot(memory, "refused", NOW)
        restore_snapshot(memory, one, NOW)

    assert versions(root) == {"one": TOPICS}
    assert interrupted_restore(Workspace(root)) is None


def test_the_cli_warns_of_an_interrupted_restore_and_says_so_when_it_finishes_it(
    half_restored: tuple[Path, str, str],
):
    root, one, safety = half_restored
    base = ("--workspace", str(root), "snapshot")

    listed = run(*base, "list")
    finished = run(*base, "restore", one)
    back = run(*base, "restore", safety)

    assert listed.returncode == 0 and listed.stderr.startswith(
        f"Warning: a restore of snapshot {one} was interrupted"
    )
    assert finished.stdout.startswith(f"finished the interrupted restore of {one}: ")
    assert f"the state before is snapshot {safety}" in finished.stdout
    [newest] = [info.id for info in taken_before_restoring(root, safety)]
    assert back.stdout.startswith(f"restored {safety}: ")
    assert back.stdout.rstrip().endswith(
        f"the state before is snapshot {newest} (undo with 'memstrata snapshot restore {newest}')"
    )


def test_status_names_an_interrupted_restore_and_the_next_garden_finishes_it_first(
    half_restored: tuple[Path, str, str],
):
    root, one, _safety = half_restored

    status = run("--workspace", str(root), "status")
    garden = run("--workspace", str(root), "garden")

    assert f"problem: .memstrata/restore.json: a restore of snapshot {one} was interrupted" in (
        status.stderr
    )
    assert garden.returncode == 0, garden.stderr
    assert versions(root) == {"one": TOPICS}
    assert interrupted_restore(Workspace(root)) is None
