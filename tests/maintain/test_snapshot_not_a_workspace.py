"""A snapshot is no workspace: commands run inside one are refused, an append to one of its files
changes no other snapshot, and the records a restore keeps are never what makes it refuse."""

import json
import re
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.maintain.restore import restore_snapshot
from memstrata.maintain.snapshot import verify_snapshot
from memstrata.metrics import append_metric
from memstrata.workspace.atomic import append_line
from tests.cli.process import run
from tests.maintain.messy import NOW, file_states

HISTORY = "memory/topics/people/ann/history.jsonl"


def two_snapshots(workspace: Path) -> tuple[Path, Path]:
    """Two snapshots of a workspace with a topic, a journal day and a metrics line, taken one
    after the other: every file unchanged between them, so shared."""
    config = workspace / "memstrata.toml"
    config.write_text(re.sub(r"(?m)^model = .*$", "model = 'hashing'", config.read_text()))
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        memory.write_topic("people/ann", "# Ann\nDrinks a flat white with oat milk.")
        memory.log("Ann wants the agenda first.")
        append_metric(workspace / "memory" / "metrics.jsonl", {"kind": "recall", "bytes": 1})
        first = memory.take_snapshot("one")
        second = memory.take_snapshot("two")
    return workspace / first.path, workspace / second.path


@pytest.mark.parametrize(
    "command",
    [
        ["recall", "Ann"],
        ["context", "--query", "Ann"],
        ["log", "written from inside a snapshot"],
        ["status"],
        ["hook", "session-start"],
    ],
    ids=lambda command: " ".join(command[:2]),
)
def test_a_command_run_inside_a_snapshot_is_refused_and_every_snapshot_still_restores(
    workspace: Path, command: list[str]
):
    first, second = two_snapshots(workspace)
    before = file_states(workspace / ".memstrata" / "snapshots")
    payload = json.dumps({"cwd": str(second / "memory")})

    inside = run(*command, cwd=second / "memory", stdin=payload)

    said = f"snapshot {second.name} of the workspace at {workspace}, not a workspace of its own"
    assert said in inside.stderr and f"--workspace {workspace}" in inside.stderr
    assert inside.returncode == (0 if command[0] == "hook" else 1)  # a hook never blocks a turn
    assert file_states(workspace / ".memstrata" / "snapshots") == before
    for snapshot in (first, second):
        restored = run("-w", str(workspace), "snapshot", "restore", snapshot.name, "--dry-run")
        assert restored.returncode == 0, restored.stderr


def test_a_line_appended_to_a_snapshots_copy_changes_no_other_snapshot(workspace: Path):
    # Opened as a workspace through the library, the gardener or a topic write would append to
    # the history file the two snapshots share through a hard link.
    first, second = two_snapshots(workspace)
    assert (first / HISTORY).stat().st_ino == (second / HISTORY).stat().st_ino

    append_line(second / HISTORY, '{"op": "written into a snapshot"}')

    verify_snapshot(first, first.name)  # as taken
    with pytest.raises(
        InputError, match=f"no longer matches its manifest.json \\({HISTORY} differs"
    ):
        verify_snapshot(second, second.name)


def test_metrics_are_copied_into_each_snapshot_and_a_restore_does_not_check_them(
    workspace: Path,
):
    # Hooks append to memory/metrics.jsonl in place, holding no lock; a restore keeps the
    # workspace's own (as it keeps the ledger and the reports), so never reads a snapshot's.
    first, second = two_snapshots(workspace)
    metrics = "memory/metrics.jsonl"
    assert (first / metrics).stat().st_ino != (second / metrics).stat().st_ino
    append_metric(first / metrics, {"kind": "recall", "bytes": 2})
    with (first / "memory" / "ledger.jsonl").open("a") as ledger:
        ledger.write('{"id": "g-written-into-a-snapshot"}\n')
    live = (workspace / metrics).read_bytes()

    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        result = restore_snapshot(memory, first.name, NOW)

    assert metrics not in result.written
    assert (workspace / metrics).read_bytes() == live
    assert (second / metrics).read_bytes() == live


def test_init_in_a_new_folder_inside_a_snapshot_is_refused(workspace: Path):
    # the snapshot holds a memstrata.toml of its own; the workspace whose .memstrata/ holds the
    # snapshot is the one that refuses
    _, second = two_snapshots(workspace)
    before = file_states(workspace / ".memstrata" / "snapshots")

    refused = run("init", str(second / "notes"))

    assert refused.returncode == 1
    assert f"inside the .memstrata/ folder of the workspace at {workspace}" in refused.stderr
    assert not (second / "notes").exists()
    assert file_states(workspace / ".memstrata" / "snapshots") == before
