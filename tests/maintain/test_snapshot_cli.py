"""``memstrata snapshot``: a restore dry run names its files; a damaged snapshot says so."""

import json
from pathlib import Path

from memstrata import Memory
from memstrata.cli.maintain import FILES_SHOWN
from tests.cli.process import run


def snapshot_then_change(workspace: Path, new_topics: int) -> str:
    """Snapshot a workspace of one topic, then write ``new_topics`` more; return its id."""
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead.")
        snapshot = memory.take_snapshot("before").id
        for number in range(new_topics):
            memory.write_topic(f"notes/n{number:03d}", f"Note {number}.")
    return snapshot


def test_a_dry_run_lists_every_file_it_would_write_and_remove(workspace: Path):
    snapshot = snapshot_then_change(workspace, 1)

    preview = run("--workspace", str(workspace), "snapshot", "restore", snapshot, "--dry-run")

    assert preview.returncode == 0, preview.stderr
    assert preview.stdout.splitlines() == [
        f"would restore {snapshot}: 1 file written, 3 removed",
        "  write  memory/topics/_index.json",
        "  remove memory/topics/notes/n000/history.jsonl",
        "  remove memory/topics/notes/n000/meta.json",
        "  remove memory/topics/notes/n000/summary.md",
    ]
    assert (workspace / "memory" / "topics" / "notes" / "n000" / "summary.md").exists()


def test_a_long_dry_run_says_how_many_more_and_json_lists_them_all(workspace: Path):
    snapshot = snapshot_then_change(workspace, FILES_SHOWN)  # three files each
    base = ("--workspace", str(workspace), "snapshot", "restore", snapshot, "--dry-run")

    preview = run(*base)
    listed = json.loads(run(*base, "--json").stdout)

    removed = [line for line in preview.stdout.splitlines() if line.startswith("  remove")]
    assert len(removed) == FILES_SHOWN + 1
    assert removed[-1] == f"  remove … and {2 * FILES_SHOWN} more (--json lists them all)"
    assert len(listed["removed"]) == 3 * FILES_SHOWN and listed["dry_run"] is True
    assert listed["written"] == ["memory/topics/_index.json"]


def test_a_damaged_snapshot_is_listed_as_such_and_restoring_it_is_a_clear_error(workspace: Path):
    snapshot = snapshot_then_change(workspace, 1)
    (workspace / ".memstrata" / "snapshots" / snapshot / "manifest.json").write_text("{")

    listed = run("--workspace", str(workspace), "snapshot", "list")
    restored = run("--workspace", str(workspace), "snapshot", "restore", snapshot)

    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith(
        f"{snapshot}  damaged, cannot be restored: manifest.json line 1"
    )
    assert restored.returncode == 1 and "Traceback" not in restored.stderr
    assert restored.stderr.startswith(f"Error: snapshot {snapshot} is damaged (manifest.json")
    assert (workspace / "memory" / "topics" / "notes" / "n000" / "summary.md").exists()
