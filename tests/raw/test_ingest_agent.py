"""The agent key of an imported session: the first import's, until an import names another;
and one session read from two files counts once."""

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from memstrata import Memory
from memstrata.raw.importers import default_agent
from memstrata.raw.store import SCHEMA_VERSION, open_raw_store
from tests.cli.process import run
from tests.raw.test_ingest_reimport import SESSION, _route_session


def _agents(memory: Memory) -> dict[str, str]:
    return {session.id: session.agent for session in memory.raw.sessions()}


def _transcript(tmp_path: Path) -> Path:
    path = tmp_path / "s-1.jsonl"
    path.write_text("".join(_route_session()))
    return path


def test_an_unchanged_file_imported_again_under_another_agent_moves_its_session(
    memory: Memory, tmp_path: Path
):
    path = _transcript(tmp_path)
    memory.ingest([path], agent="claude-code:me:main")

    report = memory.ingest([path], agent="claude-code:me:reviewer")

    assert report.skipped_unchanged == 0
    assert report.agents_changed == {SESSION: "claude-code:me:main"}
    assert report.turns_added == 0
    assert _agents(memory) == {SESSION: "claude-code:me:reviewer"}
    again = memory.ingest([path], agent="claude-code:me:reviewer")
    assert again.skipped_unchanged == 1 and again.agents_changed == {}


def test_an_import_naming_no_agent_keeps_the_key_a_named_import_gave(
    memory: Memory, tmp_path: Path
):
    # the stop hook imports after each answer and names no agent unless installed with one
    path = _transcript(tmp_path)
    memory.ingest([path], agent="claude-code:me:reviewer")
    with path.open("a") as grown:
        grown.write(_route_session()[0].replace('"u0"', '"u9"'))

    report = memory.ingest([path])

    assert report.turns_added == 1 and report.agents_changed == {}
    assert _agents(memory) == {SESSION: "claude-code:me:reviewer"}


def test_the_default_key_is_the_login_names_when_no_import_named_one(
    memory: Memory, tmp_path: Path
):
    memory.ingest([_transcript(tmp_path)])
    assert _agents(memory) == {SESSION: default_agent("claude-code")}


def test_one_session_held_by_two_files_counts_once(memory: Memory, tmp_path: Path):
    path = _transcript(tmp_path)
    copy = tmp_path / "backup" / path.name
    copy.parent.mkdir()
    shutil.copy(path, copy)

    report = memory.ingest([path, copy])

    assert (report.files, report.sessions) == (2, 1)


def test_the_cli_says_which_sessions_moved_and_from_which_key(workspace: Path, tmp_path: Path):
    path = _transcript(tmp_path)
    first = run("-w", str(workspace), "ingest", str(path), "--agent", "claude-code:me:main")
    assert first.returncode == 0, first.stderr

    moved = run("-w", str(workspace), "ingest", str(path), "--agent", "claude-code:me:reviewer")

    assert moved.returncode == 0, moved.stderr
    assert "1 session moved to the agent key named (they had claude-code:me:main)" in moved.stdout


def test_a_schema_3_store_gains_the_agent_of_its_import_marks(tmp_path: Path):
    path = tmp_path / "sessions.db"
    store = open_raw_store(path)
    store.set_import_mark("/chats/route.jsonl", "claude-code", 120, 1)
    store.close()
    with closing(sqlite3.connect(path)) as db:
        db.execute("ALTER TABLE imports DROP COLUMN agent")
        db.execute("PRAGMA user_version = 3")
        db.commit()

    reopened = open_raw_store(path)

    mark = reopened.import_mark("/chats/route.jsonl")
    assert mark is not None and (mark.size, mark.agent) == (120, "")
    assert reopened.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    reopened.close()
