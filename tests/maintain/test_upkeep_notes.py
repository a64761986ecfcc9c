"""A run's ``## Upkeep`` notes reach the day's journal once, however the run was cut short.

The saved state is a run's commit point: a run that failed before it (a full disk) wrote no
notes, and its retry writes them; the notes a saved run still owes are written by the next run,
less those already in the journal.
"""

import os
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.maintain.gardener import run_garden
from memstrata.maintain.report import GardenReport
from memstrata.maintain.state import UpkeepNotes, read_state, write_state
from tests.cli.process import can_mount_read_only, run_on_small_disk

NOW = datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)


def garden(root: Path, now: datetime) -> GardenReport:
    with Memory(root, clock=lambda: now, embeddings=False) as memory:
        return run_garden(memory, now=now)


def upkeep_notes(root: Path) -> list[str]:
    journal = (root / "memory" / "2025-11-27.md").read_text()
    return journal.split("\n## Upkeep\n", 1)[1].splitlines() if "## Upkeep" in journal else []


@pytest.mark.parametrize("notes_written", [0, 1, 2])
def test_the_notes_a_saved_run_still_owes_are_written_by_the_next_run_each_once(
    workspace: Path, notes_written: int
):
    # A finished run, set back to where a full disk would have stopped it after its state was
    # saved: its notes still owed in the state, only the first ``notes_written`` in the journal.
    earlier = NOW - timedelta(hours=1)
    with Memory(workspace, clock=lambda: earlier, embeddings=False) as memory:
        memory.log("Talked to Ann about the offsite.")
        memory.write_topic("people/ann", "# Ann\nDesign lead; drinks tea.")
    journal = workspace / "memory" / "2025-11-27.md"
    before = journal.read_text()
    first = garden(workspace, NOW)
    notes = upkeep_notes(workspace)
    assert [note.split(" ", 2)[2] for note in notes] == first.summary.splitlines()
    after = journal.read_text()
    cut_short = {0: before, 1: after.removesuffix(notes[1] + "\n"), 2: after}
    journal.write_text(cut_short[notes_written])
    owed = UpkeepNotes(NOW.isoformat(timespec="seconds"), tuple(first.summary.splitlines()))
    state = workspace / "memory" / ".garden" / "state.json"
    write_state(state, replace(read_state(state), notes=owed))

    second = garden(workspace, NOW + timedelta(minutes=5))

    assert upkeep_notes(workspace) == notes  # each line once, in its place, at the run's time
    assert second.recovered == (f"the Upkeep notes of {first.run_id}",)
    assert read_state(state).notes is None
    assert not garden(workspace, NOW + timedelta(minutes=10)).changed


def test_a_run_that_fails_on_a_full_disk_names_the_file_and_its_retry_notes_the_day_once(
    tmp_path: Path,
):
    if os.geteuid() != 0 or not can_mount_read_only(tmp_path):
        pytest.skip("needs root and mount namespaces to make a small disk")

    result = run_on_small_disk(
        tmp_path / "disk",
        """
$MEMSTRATA init ws >/dev/null && cd ws && $MEMSTRATA log "first line" >/dev/null
$MEMSTRATA remember "Ann drinks tea" >/dev/null
dd if=/dev/zero of=../fill bs=4k 2>/dev/null
$MEMSTRATA garden >/dev/null; echo "full: rc=$?"
rm ../fill
$MEMSTRATA garden >/dev/null; echo "freed: rc=$?"
cat memory/*.md
""",
    )

    assert "full: rc=1" in result.stdout and "freed: rc=0" in result.stdout, result.stderr
    [error] = result.stderr.splitlines()
    assert error.startswith("Error: ") and "/ws/memory/" in error  # the report or the state
    assert ": the disk is full (" in error and error.endswith("free some space and try again")
    assert result.stdout.count("First garden run (propose, r-") == 1
    assert result.stdout.count("Memory health: 1 active") == 1
