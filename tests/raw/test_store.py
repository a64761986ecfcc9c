"""The raw store only grows: a stored turn is replaced only by a version that holds as much."""

import json
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from memstrata.model import Session, Turn
from memstrata.raw.store import RawStore

SESSION = Session("jsonl:s-1", "jsonl", "jsonl:default:main", "", "", "", "Zeppelin route")


def _turn(text: str, calls: int = 0) -> Turn:
    tool_calls = json.dumps([{"input": f"route-{n}.md", "name": "Write"} for n in range(calls)])
    return Turn(SESSION.id, 0, "assistant", "2025-11-27T10:00:00Z", text, tool_calls)


@pytest.mark.parametrize(
    ("stored", "incoming", "outcome"),
    [
        # a response still being written grows: more text, or a tool call appended
        (_turn("I will write"), _turn("I will write the route."), "updated"),
        (_turn("I will write the route."), _turn("I will write the route.", calls=1), "updated"),
        # an older or cut-short copy of the same turn holds less: the stored one stays
        (_turn("I will write the route."), _turn("I will write"), "kept"),
        (_turn("I will write the route.", calls=2), _turn("I will write the route.", 1), "kept"),
        # more text but a tool call fewer still loses something
        (_turn("I will write", calls=1), _turn("I will write the route."), "kept"),
        (_turn("I will write the route."), _turn("I will write the route."), "unchanged"),
    ],
)
def test_a_stored_turn_is_replaced_only_by_one_that_holds_as_much(
    tmp_path: Path, stored: Turn, incoming: Turn, outcome: str
):
    store = RawStore(tmp_path / "sessions.db")
    store.upsert(SESSION, [stored])
    counts = store.upsert(SESSION, [incoming])
    assert {"updated": counts.updated, "kept": counts.kept, "unchanged": counts.unchanged} == {
        name: int(name == outcome) for name in ("updated", "kept", "unchanged")
    }
    expected = incoming if outcome == "updated" else stored
    assert store.turns(SESSION.id) == [expected]
    assert [hit.text for hit in store.search("write")] == [expected.text]


def test_a_copy_behind_the_store_leaves_the_session_title_alone(tmp_path: Path):
    store = RawStore(tmp_path / "sessions.db")
    two = [_turn("I will write the route."), Turn(SESSION.id, 1, "user", "", "thanks", "[]")]
    store.upsert(SESSION, two)
    store.upsert(replace(SESSION, title="I will write"), two[:1])
    assert [session.title for session in store.sessions()] == ["Zeppelin route"]
    store.upsert(replace(SESSION, title="Zeppelin route v2"), two)
    assert [session.title for session in store.sessions()] == ["Zeppelin route v2"]


def test_opening_a_schema_1_store_forgets_its_import_marks_and_keeps_its_turns(tmp_path: Path):
    path = tmp_path / "sessions.db"
    store = RawStore(path)
    store.upsert(SESSION, [_turn("I will write the route.")])
    store.set_import_mark("/transcripts/route.jsonl", "jsonl", 120, 1)
    store.close()
    # What a memstrata of schema 1 left behind.
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA user_version = 1")
    reopened = RawStore(path)
    assert reopened.import_mark("/transcripts/route.jsonl") is None
    assert reopened.turns(SESSION.id) == [_turn("I will write the route.")]
    assert reopened.db.execute("PRAGMA user_version").fetchone()[0] == 2
