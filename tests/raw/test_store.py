"""The raw store only grows: a stored turn is replaced only by the same turn grown, and another
conversation under a stored session id is stored apart, never over it."""

import hashlib
import json
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from memstrata.model import Session, Turn
from memstrata.raw.importers.turns import cap_text
from memstrata.raw.store import RawStore

SESSION = Session(
    "jsonl:s-1", "jsonl", "jsonl:default:main", "", "", "/chats/route.jsonl", "Zeppelin route"
)
#: a response longer than an importer keeps (MAX_TURN_CHARS)
LONG = "We write: Hamburg to Oslo by zeppelin, then on to Tromsø. " * 500


def _turn(text: str, calls: int = 0, index: int = 0, role: str = "assistant") -> Turn:
    tool_calls = json.dumps([{"input": f"route-{n}.md", "name": "Write"} for n in range(calls)])
    return Turn(SESSION.id, index, role, "2025-11-27T10:00:00Z", text, tool_calls)


@pytest.mark.parametrize(
    ("stored", "incoming", "outcome"),
    [
        # a response still being written grows: more text, or a tool call appended
        (_turn("I will write"), _turn("I will write the route."), "updated"),
        (_turn("I will write the route."), _turn("I will write the route.", calls=1), "updated"),
        # an older or cut-short copy of the same turn holds less: the stored one stays
        (_turn("I will write the route."), _turn("I will write"), "kept"),
        (_turn("I will write the route.", calls=2), _turn("I will write the route.", 1), "kept"),
        (_turn("I will write the route."), _turn("I will write the route."), "unchanged"),
        # a text cut at the cap counts by what it kept, and a copy that cut more holds more
        (_turn(LONG[:900]), _turn(cap_text(LONG)), "updated"),
        (_turn(cap_text(LONG)), _turn(cap_text(LONG + "Back by rail.")), "updated"),
        (_turn(cap_text(LONG + "Back by rail.")), _turn(cap_text(LONG)), "kept"),
        (_turn(cap_text(LONG)), _turn(LONG[:900]), "kept"),
        # a text that only says those words goes by what it says
        (
            _turn("We write … [truncated 5 chars]"),
            _turn("We write … [truncated 5 chars]!"),
            "updated",
        ),
    ],
)
def test_a_stored_turn_is_replaced_only_by_the_same_turn_grown(
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
    assert reopened.db.execute("PRAGMA user_version").fetchone()[0] == 5


@pytest.mark.parametrize(
    ("stored", "incoming"),
    [
        # a text that neither starts with the stored one nor is its start
        (_turn("I will write the route."), _turn("Another conversation, and a longer turn.")),
        (_turn("I will write the route."), _turn("I will fly")),  # shorter, not its start
        # the same words said by someone else
        (_turn("I will write the route."), _turn("I will write the route.", role="user")),
        # tool calls that are not the stored ones grown, or more text with a call fewer
        (_turn("I will", calls=1), _turn("I will write the route.")),
        (_turn("I will", calls=1), replace(_turn("I will", calls=1), tool_calls='[{"x": 1}]')),
        # two texts cut at the cap that kept another start
        (_turn(cap_text(LONG)), _turn(cap_text("Rome. " + LONG))),
    ],
)
def test_a_turn_that_is_not_the_stored_one_grown_is_another_conversation_stored_apart(
    tmp_path: Path, stored: Turn, incoming: Turn
):
    store = RawStore(tmp_path / "sessions.db")
    store.upsert(SESSION, [stored, _turn("thanks", index=1, role="user")])

    counts = store.upsert(replace(SESSION, title="Another"), [incoming])

    assert counts.session_id.startswith(f"{SESSION.id}~")
    assert (counts.added, counts.updated, counts.kept) == (1, 0, 0)
    assert store.turns(SESSION.id) == [stored, _turn("thanks", index=1, role="user")]
    assert store.turns(counts.session_id) == [replace(incoming, session_id=counts.session_id)]
    titles = {session.id: session.title for session in store.sessions()}
    assert titles == {SESSION.id: "Zeppelin route", counts.session_id: "Another"}


def test_a_conversation_stored_apart_is_found_again_as_it_grows_and_the_first_keeps_its_id(
    tmp_path: Path,
):
    store = RawStore(tmp_path / "sessions.db")
    first = [_turn("Plan the zeppelin route.", role="user"), _turn("Hamburg to Oslo.", index=1)]
    other = [_turn("Book the hangar.", role="user"), _turn("Booked", index=1)]
    third = [_turn("Where is the mast?", role="user")]
    store.upsert(SESSION, first)
    apart = store.upsert(SESSION, other).session_id

    grown = store.upsert(SESSION, [other[0], _turn("Booked for Friday.", index=1)])
    longer = store.upsert(SESSION, [*other, _turn("thanks", index=2, role="user")])
    behind = store.upsert(SESSION, other[:1])
    again = store.upsert(SESSION, first)
    another = store.upsert(SESSION, third)

    assert [c.session_id for c in (grown, longer, behind, again)] == [
        apart,
        apart,
        apart,
        SESSION.id,
    ]
    assert (grown.updated, longer.added, longer.kept, behind.unchanged) == (1, 1, 1, 1)
    assert again.unchanged == 2
    assert another.session_id not in (SESSION.id, apart)
    assert [turn.text for turn in store.turns(apart)] == [
        "Book the hangar.",
        "Booked for Friday.",
        "thanks",
    ]
    assert [turn.text for turn in store.turns(SESSION.id)] == [turn.text for turn in first]
    hits = {hit.source for hit in store.search("zeppelin hangar mast")}
    assert hits == {f"{SESSION.id}#0", f"{apart}#0", f"{another.session_id}#0"}


def test_the_id_apart_comes_from_the_file_name_and_the_first_turn(tmp_path: Path):
    stores = [RawStore(tmp_path / f"{n}.db") for n in range(2)]
    other = [_turn("Book the hangar.", role="user")]
    rewritten = [_turn("Book the mast.", role="user")]  # same file name, first role and time
    key = hashlib.sha256(b"route.jsonl\nuser\n2025-11-27T10:00:00Z").hexdigest()[:8]
    for store in stores:
        store.upsert(SESSION, [_turn("Plan the zeppelin route.", role="user")])
        moved = replace(SESSION, source_path="/elsewhere/route.jsonl")
        assert store.upsert(moved, other).session_id == f"{SESSION.id}~{key}"
        assert store.upsert(SESSION, rewritten).session_id == f"{SESSION.id}~{key}-2"
    assert stores[0].sessions() == stores[1].sessions()


#: what a memstrata of raw schema 2 created
_SCHEMA_2 = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, harness TEXT NOT NULL, agent TEXT NOT NULL,
    started TEXT NOT NULL DEFAULT '', ended TEXT NOT NULL DEFAULT '',
    source_path TEXT NOT NULL DEFAULT '', title TEXT NOT NULL DEFAULT '');
CREATE TABLE turns (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id),
    idx INTEGER NOT NULL, role TEXT NOT NULL, time TEXT NOT NULL DEFAULT '', text TEXT NOT NULL,
    tool_calls TEXT NOT NULL DEFAULT '[]', UNIQUE (session_id, idx));
CREATE INDEX turns_by_time ON turns(time);
CREATE VIRTUAL TABLE turns_fts USING fts5(body, content='',
    tokenize='porter unicode61 remove_diacritics 2');
CREATE TABLE imports (source_path TEXT PRIMARY KEY, format TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL);
PRAGMA user_version = 2;
"""


def test_a_schema_2_store_is_indexed_anew_once_and_keeps_its_turns_and_import_marks(
    tmp_path: Path,
):
    path = tmp_path / "sessions.db"
    texts = ["Ann orders a ｆｌａｔ ｗｈｉｔｅ.", "ＡＮＮ pays."]
    with closing(sqlite3.connect(path)) as db:
        db.executescript(_SCHEMA_2)
        db.execute(
            "INSERT INTO sessions (id, harness, agent) VALUES (?, 'jsonl', 'a')", (SESSION.id,)
        )
        for index, text in enumerate(texts):
            db.execute(
                "INSERT INTO turns (id, session_id, idx, role, text) VALUES (?, ?, ?, 'user', ?)",
                (index + 1, SESSION.id, index, text),
            )
            # schema 2 indexed the text as it was: no CJK here, so segment() left it alone
            db.execute("INSERT INTO turns_fts (rowid, body) VALUES (?, ?)", (index + 1, text))
        db.execute("INSERT INTO imports VALUES ('/chats/route.jsonl', 'jsonl', 120, 1)")
        db.commit()

    store = RawStore(path)
    grown = store.upsert(SESSION, [replace(_turn(texts[0] + " Oat milk."), role="user")])

    assert [turn.text for turn in store.turns(SESSION.id)] == [texts[0] + " Oat milk.", texts[1]]
    assert grown.session_id == SESSION.id
    assert store.import_mark("/chats/route.jsonl") is not None
    assert [hit.source for hit in store.search("flat white")] == [f"{SESSION.id}#0"]
    assert [hit.source for hit in store.search("ann")] == [f"{SESSION.id}#1", f"{SESSION.id}#0"]
    store.db.execute("CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, turns_fts, row)")
    terms = {row[0] for row in store.db.execute("SELECT term FROM temp.terms")}
    assert terms == {"ann", "order", "a", "flat", "white", "oat", "milk", "pai"}
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == 5


def test_a_schema_4_store_indexes_its_korean_and_thai_turns_by_character(tmp_path: Path):
    # schema 4 indexed Hangul and Thai runs as whole words: 커피 could not find 커피를
    path = tmp_path / "sessions.db"
    store = RawStore(path)
    store.upsert(SESSION, [_turn("나는 커피를 좋아해"), _turn("ประชุมเรื่องงบประมาณ", index=1)])
    store.db.execute("INSERT INTO turns_fts (turns_fts) VALUES ('delete-all')")
    for row in store.db.execute("SELECT id, text FROM turns").fetchall():
        store.db.execute("INSERT INTO turns_fts (rowid, body) VALUES (?, ?)", tuple(row))
    store.db.execute("PRAGMA user_version = 4")
    assert store.search("커피") == []
    store.close()

    reopened = RawStore(path)

    assert [hit.source for hit in reopened.search("커피")] == [f"{SESSION.id}#0"]
    assert [hit.source for hit in reopened.search("งบประมาณ")] == [f"{SESSION.id}#1"]
    reopened.close()
