"""A workspace in a folder whose name holds ``#``, ``?`` or ``%``: SQLite opens the right file.

SQLite opens a read-only or immutable database through a ``file:`` URI, in which ``#`` and ``?``
end the path and ``%`` starts an escape. Pasted into a URI as it is, ``~/notes #2/raw/sessions.db``
named ``~/notes `` instead: a snapshot backed up an empty database it had just created there, and
restoring that snapshot would have emptied the raw stratum.
"""

from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.maintain.restore import restore_snapshot
from memstrata.maintain.snapshot import take_snapshot
from memstrata.maintain.tick import run_tick
from memstrata.model import Session, Turn
from memstrata.raw.store import RawStore
from memstrata.workspace.layout import init_workspace
from tests.maintain.messy import NOW, ago

ODD_NAMES = ["notes #2", "what?now", "50%25 done"]


def _workspace_with_a_session(parent: Path, name: str) -> Path:
    root = parent / name / "ws"
    init_workspace(root)
    with Memory(root, clock=lambda: NOW) as memory:
        memory.raw.upsert(
            Session(
                "s-1", "codex", "codex:me:main", ago(0.1), ago(0.05), "x.jsonl", "Fix the login"
            ),
            [
                Turn("s-1", 0, "user", ago(0.1), "the login test is flaky"),
                Turn("s-1", 1, "assistant", ago(0.05), "fixed the clock in it"),
            ],
        )
    return root


def _turns(database: Path) -> int:
    store = RawStore(database, readonly=True)
    try:
        return store.counts()["turns"]
    finally:
        store.db.close()


@pytest.mark.parametrize("name", ODD_NAMES)
def test_a_snapshot_holds_the_workspaces_own_raw_database_and_nothing_appears_beside_it(
    tmp_path: Path, name: str
):
    root = _workspace_with_a_session(tmp_path, name)
    beside = sorted(path.name for path in root.parent.parent.iterdir())

    with Memory(root, clock=lambda: NOW) as memory:
        info = take_snapshot(memory, "by hand", NOW)
        memory.raw.upsert(
            Session("s-2", "codex", "codex:me:main", ago(1), ago(1), "y.jsonl"),
            [Turn("s-2", 0, "user", ago(1), "later")],
        )
        restore_snapshot(memory, info.id, NOW)

    assert _turns(root / info.path / "raw" / "sessions.db") == 2
    assert _turns(root / "raw" / "sessions.db") == 2  # the session added after it, gone again
    assert sorted(path.name for path in root.parent.parent.iterdir()) == beside


@pytest.mark.parametrize("name", ODD_NAMES)
def test_tick_flushes_an_idle_session_of_such_a_workspace_to_the_journal(tmp_path: Path, name: str):
    root = _workspace_with_a_session(tmp_path, name)
    with Memory(root, clock=lambda: NOW) as memory:
        run_tick(memory, NOW)  # an hour after the last turn
    assert "Fix the login" in (root / "memory" / "2025-11-27.md").read_text()


@pytest.mark.parametrize("name", ODD_NAMES)
def test_the_raw_database_opens_read_only_there(tmp_path: Path, name: str):
    root = _workspace_with_a_session(tmp_path, name)
    assert _turns(root / "raw" / "sessions.db") == 2
