"""``memstrata garden --dry-run`` is a read-only scan: it leaves the workspace as it found it."""

import hashlib
from pathlib import Path

from memstrata.demo import data_dir
from memstrata.model import Session, Turn
from memstrata.raw.store import RawStore
from tests.cli.process import run

NOW = "2025-11-27T10:00:00Z"


def listing(root: Path) -> dict[str, str]:
    """Every file and folder outside ``.memstrata/`` (derived, disposable), with its sha256."""
    return {
        path.relative_to(root).as_posix(): (
            hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
        )
        for path in sorted(root.rglob("*"))
        if path.relative_to(root).parts[0] != ".memstrata"
    }


def test_a_dry_run_leaves_every_file_outside_the_state_folder_as_it_was(workspace: Path):
    ws = str(workspace)
    assert run("--workspace", ws, "ingest", str(data_dir() / "transcripts")).returncode == 0
    assert run("--workspace", ws, "remember", "Ann drinks tea").returncode == 0
    before = listing(workspace)
    assert "raw/sessions.db" in before and "raw/sessions.db-wal" not in before

    result = run("--workspace", ws, "garden", "--dry-run")

    assert result.returncode == 0, result.stderr
    assert "dry run: nothing written" in result.stdout
    assert " · raw: 2 sessions (" in result.stdout  # read, without a -wal or -shm beside it
    assert listing(workspace) == before


def test_a_dry_run_during_an_import_counts_the_sessions_the_import_committed(workspace: Path):
    ws = str(workspace)
    assert run("--workspace", ws, "ingest", str(data_dir() / "transcripts")).returncode == 0
    importer = RawStore(workspace / "raw" / "sessions.db")  # a writer at work: -wal and -shm
    try:
        session = Session("s-live", "claude-code", "main", NOW, NOW, "live.jsonl", "Live")
        importer.upsert(session, [Turn("s-live", 0, "user", NOW, "Is Ann in today?")])
        before = listing(workspace)
        assert {"raw/sessions.db-wal", "raw/sessions.db-shm"} <= before.keys()

        result = run("--workspace", ws, "garden", "--dry-run")
        after = listing(workspace)
    finally:
        importer.close()

    assert result.returncode == 0, result.stderr
    assert " · raw: 3 sessions (" in result.stdout  # the one still in the -wal counted too
    assert after.keys() == before.keys()  # the -shm's bytes are the writer's and its readers'
