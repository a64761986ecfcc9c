"""A damaged ``raw/sessions.db``: a restore mends it (and can be undone), a snapshot is refused
with the file and what to do, and a database error names each file with its own mend."""

import json
import sqlite3
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import RawStoreDamaged
from memstrata.maintain.restore import restore_snapshot
from memstrata.maintain.snapshot import list_snapshots, take_snapshot
from memstrata.model import Session, Turn
from memstrata.sqlite import database_error_message
from tests.cli.process import run
from tests.maintain.messy import NOW, Truth, file_states, garden


def with_one_session(root: Path) -> None:
    with Memory(root, clock=lambda: NOW, embeddings=False) as memory:
        memory.raw.upsert(
            Session("s-1", "codex", "codex:me:main", "", "", "x.jsonl"),
            [Turn("s-1", 0, "user", "2025-11-27T09:00:00Z", "hello")],
        )


def damage(raw: Path, how: str) -> bytes:
    """Overwrite the database (``garbage``) or cut it short (``cut``); return its bytes."""
    if how == "garbage":
        raw.write_bytes(b"garbage\n")
    else:
        with raw.open("r+b") as database:
            database.truncate(raw.stat().st_size // 2)
    return raw.read_bytes()


@pytest.mark.parametrize("how", ["garbage", "cut"])
def test_a_restore_mends_a_damaged_raw_database_and_its_safety_snapshot_keeps_the_damage(
    workspace: Path, how: str
):
    with_one_session(workspace)
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        for number in range(40):  # pages enough that cutting the file in half damages it
            memory.raw.upsert(
                Session(f"s-{number + 2}", "codex", "codex:me:main", "", "", f"{number}.jsonl"),
                [Turn(f"s-{number + 2}", 0, "user", "2025-11-27T09:00:00Z", "word " * 200)],
            )
        good = take_snapshot(memory, "good", NOW)
    raw = workspace / "raw" / "sessions.db"
    damaged = damage(raw, how)

    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        result = restore_snapshot(memory, good.id, NOW)
        assert memory.raw.counts()["sessions"] == 41
        [*_, safety] = list_snapshots(memory.workspace)

    kept = workspace / safety.path
    manifest = json.loads((kept / "manifest.json").read_text())
    assert safety.id == result.safety_snapshot and result.raw_restored
    assert (kept / "raw" / "sessions.db").read_bytes() == damaged
    assert manifest["raw_damaged"].startswith("not a usable SQLite database (")
    assert "raw/sessions.db kept byte for byte: not a usable SQLite database" in safety.reason

    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        restore_snapshot(memory, safety.id, NOW)  # the restore, undone: the damage comes back
    assert raw.read_bytes() == damaged
    assert not raw.with_name("sessions.db-wal").exists()


def test_taking_a_snapshot_of_a_damaged_raw_database_names_the_file_and_what_to_do(
    workspace: Path,
):
    with_one_session(workspace)
    damage(workspace / "raw" / "sessions.db", "garbage")

    taken = run("-w", str(workspace), "snapshot", "take")

    assert taken.returncode == 1
    assert taken.stderr == (
        f"Error: {workspace}/raw/sessions.db: not a usable SQLite database (file is not a "
        "database), so no snapshot can be taken; move it aside and import the transcripts again "
        "('memstrata ingest'), or restore a snapshot ('memstrata snapshot list')\n"
    )
    assert list((workspace / ".memstrata" / "snapshots").iterdir()) == []  # nothing half made


def test_an_autonomous_garden_run_stops_before_its_first_step_on_a_damaged_raw_database(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    with_one_session(root)
    damage(root / "raw" / "sessions.db", "garbage")
    topics = {name: state for name, state in file_states(root).items() if "/topics/" in name}

    with pytest.raises(RawStoreDamaged, match=r"raw/sessions\.db: .*so no snapshot can be taken"):
        garden(root, "autonomous")

    assert {name: s for name, s in file_states(root).items() if "/topics/" in name} == topics


def test_the_message_for_a_damaged_database_gives_each_file_its_own_mend(tmp_path: Path):
    # The error does not say which file it came from: the index is made anew from the files,
    # while the raw database holds the only copy of what was imported.
    garbage = tmp_path / "x.db"
    garbage.write_bytes(b"garbage\n")
    with pytest.raises(sqlite3.DatabaseError) as caught:
        sqlite3.connect(garbage).execute("SELECT 1 FROM sqlite_master")

    message = database_error_message(caught.value)

    assert message == (
        "database error: file is not a database: a damaged database file. If it is "
        ".memstrata/index.db, 'memstrata rebuild' makes it anew from the files; if it is "
        "raw/sessions.db ('memstrata status' says so), move it aside and import the transcripts "
        "again ('memstrata ingest'), or restore a snapshot ('memstrata snapshot list')"
    )
