"""``snapshot prune``: all but the newest snapshots go, never one an unfinished restore needs."""

import json
from datetime import timedelta
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from tests.cli.process import run
from tests.maintain.messy import NOW


@pytest.fixture
def four_snapshots(tmp_path: Path) -> tuple[Path, list[str]]:
    root = tmp_path / "ws"
    Memory.init(root, embeddings=False).close()
    taken = []
    for number in range(4):
        moment = NOW + timedelta(minutes=number)
        with Memory(root, clock=lambda moment=moment: moment, embeddings=False) as memory:
            memory.write_topic("people/ann", f"# Ann\nVersion {number}.")
            taken.append(memory.take_snapshot(f"s{number}").id)
    return root, taken


def _listed(root: Path) -> list[str]:
    with Memory(root, embeddings=False) as memory:
        return [info.id for info in memory.snapshots()]


def test_prune_keeps_the_newest_and_what_it_keeps_still_restores(four_snapshots):
    root, taken = four_snapshots

    with Memory(root, embeddings=False) as memory:
        result = memory.prune_snapshots(2)
        assert (result.removed, result.kept) == (tuple(taken[:2]), tuple(taken[2:]))
        assert result.freed_bytes > 0
        assert [info.id for info in memory.snapshots()] == taken[2:]
        memory.restore_snapshot(taken[2])
        assert memory.get_topic("people/ann").summary == "# Ann\nVersion 2."


def test_a_dry_run_prune_names_what_would_go_and_removes_nothing(four_snapshots):
    root, taken = four_snapshots

    with Memory(root, embeddings=False) as memory:
        result = memory.prune_snapshots(1, dry_run=True)

    assert result.removed == tuple(taken[:3]) and result.dry_run
    assert _listed(root) == taken


def test_the_snapshots_an_unfinished_restore_names_are_kept(four_snapshots):
    root, taken = four_snapshots
    marker = root / ".memstrata" / "restore.json"
    pending = {"snapshot": taken[0], "safety_snapshot": taken[1], "time": "2025-11-27T10:00:00Z"}
    marker.write_text(json.dumps(pending))

    with Memory(root, embeddings=False) as memory:
        result = memory.prune_snapshots(1)

    assert result.removed == (taken[2],)
    assert _listed(root) == [taken[0], taken[1], taken[3]]


def test_what_a_killed_prune_left_is_never_listed_and_goes_with_the_next_prune(four_snapshots):
    root, taken = four_snapshots
    snapshots = root / ".memstrata" / "snapshots"
    (snapshots / taken[0]).rename(snapshots / f".removing-{taken[0]}")  # killed after the rename

    assert _listed(root) == taken[1:]
    with Memory(root, embeddings=False) as memory:
        memory.prune_snapshots(3)
    assert sorted(path.name for path in snapshots.iterdir()) == taken[1:]


def test_keep_must_be_at_least_one(four_snapshots):
    root, taken = four_snapshots
    with Memory(root, embeddings=False) as memory, pytest.raises(InputError, match="at least 1"):
        memory.prune_snapshots(0)

    refused = run("-w", str(root), "snapshot", "prune", "--keep", "0")
    assert refused.returncode == 2 and _listed(root) == taken

    pruned = run("-w", str(root), "snapshot", "prune", "--keep", "3")
    assert pruned.returncode == 0, pruned.stderr
    assert pruned.stdout.startswith("removed 1 snapshots") and taken[0] in pruned.stdout
    assert _listed(root) == taken[1:]
