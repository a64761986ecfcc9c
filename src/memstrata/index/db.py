"""``.memstrata/index.db``: the derived index over topics and journal entries.

Disposable by design: the files are the truth, :meth:`IndexDB.open` deletes and recreates a
database whose schema version is not ours (rebuild, never migrate), and the facade refills it.
The index never reads workspace files itself; it is fed values (topics, parsed journals).

Tables: ``topics`` + ``topics_fts``, ``journal`` (one row per paragraph or bullet; Retain
bullets carry their fact kind and confidence) + ``journal_fts``, ``journal_held`` and
``topics_held`` (entries and topics whose text reads as an instruction to the model: kept out of
every recall arm), ``entities``/``mentions``, ``aliases`` (the names one entity goes by),
``links``, ``lineage`` (a topic's evidence), ``promoted`` (``memory/.promoted``: journal facts
sent through the gate), and ``stamps`` (file size/mtime per source, used only to notice changed
files).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import astuple
from pathlib import Path
from typing import Any

from memstrata.errors import InputError
from memstrata.fts import TOKENIZE, segment
from memstrata.journal.parse import ParsedJournal, entity_key, find_entities
from memstrata.journal.promoted import fact_digest
from memstrata.model import HeldEntry, Topic
from memstrata.redaction import redact_secrets
from memstrata.sqlite import (
    connect,
    disk_full,
    file_identity,
    immediate,
    is_disk_full,
    read_only_uri,
)

#: 9: FTS text is NFKC-normalised (see memstrata.fts); 10: ``topics_held``; 11: a mention
#: keeps an apostrophe inside its name (``@O'Brien`` was ``o``; see journal.parse.MENTION);
#: 12: meta.json times are read as ISO UTC, and a retain bullet that names someone and says
#: nothing is a problem, not a fact; 13: an ``@`` in code is no mention (journal.parse._CODE)
#: 14: entities are keyed by journal.parse.entity_key (case, accents, apostrophes folded); a
#: mention may follow a CJK character, ``@R&D`` is R&D and ``@types/node`` nobody
#: 15: ``aliases``: a people/ or entities/ topic titled "李娜 (Li Na)" makes its names one entity
#: 16: a Chinese mention ends at a word of 一 such as 一起 (``和@王伟一起`` names 王伟)
#: 17: Hangul, Thai, Lao, Myanmar and Khmer are indexed by character, as Chinese is (fts)
SCHEMA_VERSION = "17"
#: the namespaces whose topics name an entity by a title "Name (Other name)" (see topic_aliases)
ALIAS_NAMESPACES = ("people", "entities")
_ALIASED_TITLE = re.compile(r"\s*([^()]*[^\s()][^()]*)\(([^()]*[^\s()][^()]*)\)\s*")
#: the largest index a read-only process copies into memory (see IndexDB.open_in_memory)
SEED_MAX_BYTES = 128 * 1024 * 1024

_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE topics (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    namespace TEXT NOT NULL,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    detail TEXT NOT NULL,
    state TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    owner_agent TEXT NOT NULL,
    access_count INTEGER NOT NULL,
    kind TEXT NOT NULL,
    confidence REAL,
    observed TEXT NOT NULL,
    superseded_by TEXT NOT NULL
);
-- Newest first, ties by id: the order the temporal and entity arms want, so they stop after
-- their pool instead of sorting every topic in a time window or naming an entity.
CREATE INDEX topics_by_observed ON topics(observed DESC, id);
CREATE VIRTUAL TABLE topics_fts USING fts5(title, summary, detail, tokenize='{TOKENIZE}');
CREATE TABLE journal (
    rowid INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    day TEXT NOT NULL,
    line INTEGER NOT NULL,
    section TEXT NOT NULL,
    text TEXT NOT NULL,
    fact_kind TEXT,
    confidence REAL,
    -- a Retain fact's text digest, as memory/.promoted records it ('' for other entries)
    digest TEXT NOT NULL,
    UNIQUE (source, line)
);
CREATE INDEX journal_by_day ON journal(day);
CREATE TABLE journal_held (
    source TEXT NOT NULL,
    day TEXT NOT NULL,
    line INTEGER NOT NULL,
    text TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (source, line)
);
CREATE TABLE topics_held (
    id TEXT PRIMARY KEY,
    day TEXT NOT NULL,
    text TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE VIRTUAL TABLE journal_fts USING fts5(text, tokenize='{TOKENIZE}');
CREATE TABLE entities (key TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE mentions (
    entity TEXT NOT NULL, ref_kind TEXT NOT NULL, ref TEXT NOT NULL,
    PRIMARY KEY (entity, ref_kind, ref)
);
CREATE INDEX mentions_by_ref ON mentions(ref_kind, ref);
-- The entity keys one topic names as one entity (see topic_aliases): every key of a topic is
-- an alias of every other.
CREATE TABLE aliases (key TEXT NOT NULL, topic TEXT NOT NULL, PRIMARY KEY (key, topic));
CREATE INDEX aliases_by_topic ON aliases(topic);
CREATE TABLE links (src TEXT NOT NULL, dst TEXT NOT NULL, PRIMARY KEY (src, dst));
-- A topic's evidence (meta.json lineage): journal facts promoted into it, topics merged into it.
CREATE TABLE lineage (ref TEXT NOT NULL, topic TEXT NOT NULL, PRIMARY KEY (ref, topic));
CREATE INDEX lineage_by_topic ON lineage(topic);
-- memory/.promoted: the journal facts sent through the gate (source, text digest)
CREATE TABLE promoted (source TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (source, digest));
CREATE TABLE stamps (source TEXT PRIMARY KEY, stamp TEXT NOT NULL);
"""

# Vectors of topics, journal entries and raw turns (see memstrata.recall.semantic).
VECTOR_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    kind TEXT NOT NULL,
    ref TEXT NOT NULL,
    embedder TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (kind, ref)
)
"""
# One FTS5 document per raw session (see memstrata.recall.sessions).
SESSION_SCHEMA = f"""
CREATE VIRTUAL TABLE IF NOT EXISTS raw_sessions_fts
USING fts5(session_id UNINDEXED, body, tokenize='{TOKENIZE}')
"""

CONTENT_TABLES = (
    "topics",
    "journal",
    "journal_held",
    "topics_held",
    "entities",
    "mentions",
    "aliases",
    "links",
    "lineage",
    "promoted",
)


class IndexDB:
    """The derived index. Writers hold the workspace lock; SQLite WAL lets readers run."""

    def __init__(self, db: sqlite3.Connection, path: Path, recreated: bool) -> None:
        self.db = db
        self.path = path
        #: True when the file was missing or of another schema version and was made anew.
        self.recreated = recreated
        #: the file this connection reads (see :func:`~memstrata.sqlite.file_identity`)
        self.identity = file_identity(path)

    @classmethod
    def open_in_memory(cls, seed: Path | None = None) -> IndexDB:
        """A throw-away index for a workspace we cannot write, to be filled from the files.

        It starts as a copy of ``seed`` (the workspace's own index, read as it is on disk) when
        that is sound, of this schema and at most :data:`SEED_MAX_BYTES`: its stored vectors
        then serve the semantic arm, where a read-only process keeps no new ones, and filling
        it reads only what changed since. Otherwise it starts empty.
        """
        db = connect(Path(":memory:"))
        if seed is not None and _seeded(db, seed):
            return cls(db, Path(":memory:"), recreated=True)
        db.close()
        db = connect(Path(":memory:"))
        _create_schema(db)
        return cls(db, Path(":memory:"), recreated=True)

    @classmethod
    def open_sound(cls, path: Path) -> IndexDB | None:
        """Open the index only if it is there, sound and of this schema version; ``None``
        otherwise (nothing is created or replaced: the caller does not hold the lock)."""
        if not path.is_file():
            return None
        db = None
        try:
            db = connect(path)
            if _schema_version(db) == SCHEMA_VERSION and _complete(db):
                return cls(db, path, recreated=False)
        except (sqlite3.DatabaseError, InputError):
            pass
        if db is not None:
            db.close()
        return None

    @classmethod
    def open(cls, path: Path) -> IndexDB:
        """Open the index, recreating it when missing, damaged or of another schema version."""
        recreated = False
        try:
            db = connect(path)
            version = _schema_version(db)
            if version == SCHEMA_VERSION and not _complete(db):
                version = None  # a table dropped by hand or a tool: rebuilt like a damaged file
        except (sqlite3.DatabaseError, InputError) as error:
            if is_disk_full(error):
                raise disk_full(path, error) from error
            version, db = None, None
        if version != SCHEMA_VERSION:
            if db is not None:
                db.close()
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            db = connect(path)
            _create_schema(db)
            recreated = True
        return cls(db, path, recreated)

    def close(self) -> None:
        self.db.close()

    # -- stamps --------------------------------------------------------------------------------

    def stamps(self, prefix: str) -> dict[str, str]:
        """Stamps of every source starting with ``prefix`` (``topic:`` or ``journal:``)."""
        rows = self.db.execute(
            "SELECT source, stamp FROM stamps WHERE source >= ? AND source < ?",
            (prefix, prefix + "\uffff"),
        )
        return {row["source"]: row["stamp"] for row in rows}

    # -- topics --------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with immediate(self.db):
            self.db.execute(
                "INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = ?",
                (key, value, value),
            )

    def put_topic(self, topic: Topic, stamp: str) -> None:
        """Insert or replace one topic with its mentions and links."""
        self.put_topics([(topic, stamp)])

    def put_topics(self, batch: Iterable[tuple[Topic, str]]) -> list[HeldEntry]:
        """Insert or replace many topics in one transaction; return those held out of recall."""
        held: list[HeldEntry] = []
        with immediate(self.db):
            for topic, stamp in batch:
                entry = self._put_topic(topic, stamp)
                if entry is not None:
                    held.append(entry)
        return held

    def _put_topic(self, topic: Topic, stamp: str) -> HeldEntry | None:
        """Index one topic, or hold it: like a journal entry, a topic can be written without
        the gate (``topic write``, an editor, an agent with file access), and one whose title
        or summary reads as an instruction to the model is kept out of every recall arm."""
        # Hand-written files may hold secrets: the index never stores them.
        summary = redact_secrets(topic.summary).text
        detail = redact_secrets(topic.detail).text
        self._delete_topic(topic.id)
        reason = topic_held_reason(topic.title, summary)
        if reason:
            held = HeldEntry(topic.id, topic.meta.updated[:10], summary, reason)
            self.db.execute("INSERT INTO topics_held VALUES (?, ?, ?, ?)", astuple(held))
            self._set_stamp(f"topic:{topic.id}", stamp)
            return held
        cursor = self.db.execute(
            "INSERT INTO topics (id, namespace, title, summary, detail, state, created,"
            " updated, owner_agent, access_count, kind, confidence, observed, superseded_by)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                topic.id,
                topic.namespace,
                topic.title,
                summary,
                detail,
                topic.meta.state,
                topic.meta.created,
                topic.meta.updated,
                topic.meta.owner_agent,
                topic.meta.access_count,
                topic.meta.kind,
                topic.meta.confidence,
                topic.meta.observed or topic.meta.created,
                topic.meta.superseded_by,
            ),
        )
        self.db.execute(
            "INSERT INTO topics_fts (rowid, title, summary, detail) VALUES (?, ?, ?, ?)",
            (
                cursor.lastrowid,
                segment(topic.title),
                segment(summary),
                segment(detail),
            ),
        )
        names = [*topic.meta.entities, *find_entities(f"{topic.summary}\n{topic.detail}")]
        if topic.namespace == "entities":
            names.insert(0, topic.title)
        self._put_mentions(names, "topic", topic.id)
        for key in topic_aliases(topic):
            self.db.execute("INSERT OR IGNORE INTO aliases VALUES (?, ?)", (key, topic.id))
        for dst in topic.meta.links:
            self.db.execute("INSERT OR IGNORE INTO links VALUES (?, ?)", (topic.id, dst))
        for ref in topic.meta.lineage:
            self.db.execute("INSERT OR IGNORE INTO lineage VALUES (?, ?)", (ref, topic.id))
        self._set_stamp(f"topic:{topic.id}", stamp)
        return None

    def delete_topic(self, topic_id: str) -> None:
        with immediate(self.db):
            self._delete_topic(topic_id)
            self.db.execute("DELETE FROM stamps WHERE source = ?", (f"topic:{topic_id}",))

    def _delete_topic(self, topic_id: str) -> None:
        self.db.execute("DELETE FROM topics_held WHERE id = ?", (topic_id,))
        self.db.execute("DELETE FROM aliases WHERE topic = ?", (topic_id,))
        row = self.db.execute("SELECT rowid FROM topics WHERE id = ?", (topic_id,)).fetchone()
        if row is None:
            return
        self.db.execute("DELETE FROM topics_fts WHERE rowid = ?", (row["rowid"],))
        self.db.execute("DELETE FROM vectors WHERE kind = 'topic' AND ref = ?", (topic_id,))
        self.db.execute("DELETE FROM topics WHERE rowid = ?", (row["rowid"],))
        self.db.execute("DELETE FROM mentions WHERE ref_kind = 'topic' AND ref = ?", (topic_id,))
        self.db.execute("DELETE FROM links WHERE src = ?", (topic_id,))
        self.db.execute("DELETE FROM lineage WHERE topic = ?", (topic_id,))

    # -- journal -------------------------------------------------------------------------------

    def put_journal(self, source: str, parsed: ParsedJournal, stamp: str) -> list[HeldEntry]:
        """Replace every row of one journal file; return the entries held out of recall.

        The journal bypasses the gate (any agent, hook or hand may write it), yet its entries
        are recalled into the prompt. An entry that reads as an instruction to the model
        (:func:`~memstrata.injection.detect_injection`) is therefore held: kept in
        ``journal_held`` with the reason, never in the tables the recall arms read.
        """
        facts = {fact.line: fact for fact in parsed.facts}
        held: list[HeldEntry] = []
        with immediate(self.db):
            # A log call re-indexes its whole day: entries screened before keep their verdict.
            screened = dict(
                self.db.execute(
                    "SELECT text, '' FROM journal WHERE source = ?"
                    " UNION ALL SELECT text, reason FROM journal_held WHERE source = ?",
                    (source, source),
                ).fetchall()
            )
            self._delete_journal(source)
            for entry in parsed.entries:
                fact = facts.get(entry.line)
                text = redact_secrets(fact.text if fact else entry.text).text
                reason = screened[text] if text in screened else held_reason(text)
                if reason:
                    held.append(HeldEntry(entry.source, entry.day, text, reason))
                    self.db.execute(
                        "INSERT INTO journal_held VALUES (?, ?, ?, ?, ?)",
                        (source, entry.day, entry.line, text, reason),
                    )
                    continue
                cursor = self.db.execute(
                    "INSERT INTO journal (source, day, line, section, text, fact_kind, confidence,"
                    " digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        source,
                        entry.day,
                        entry.line,
                        entry.section,
                        text,
                        fact.kind if fact else None,
                        fact.confidence if fact else None,
                        fact_digest(fact.text) if fact else "",
                    ),
                )
                self.db.execute(
                    "INSERT INTO journal_fts (rowid, text) VALUES (?, ?)",
                    (cursor.lastrowid, segment(text)),
                )
                self._put_mentions(find_entities(entry.text), "journal", entry.source)
            self._set_stamp(f"journal:{source}", stamp)
        return held

    def put_promoted(self, promoted: Iterable[tuple[str, str]], stamp: str) -> None:
        """Replace the record of promoted journal facts (``memory/.promoted``)."""
        with immediate(self.db):
            self.db.execute("DELETE FROM promoted")
            self.db.executemany("INSERT OR IGNORE INTO promoted VALUES (?, ?)", sorted(promoted))
            self._set_stamp("promoted:", stamp)

    def held(self) -> list[HeldEntry]:
        """Journal entries held out of recall, oldest day first, then topics held, by id."""
        entries = [
            HeldEntry(f"{row['source']}#L{row['line']}", row["day"], row["text"], row["reason"])
            for row in self.db.execute("SELECT * FROM journal_held ORDER BY day, source, line")
        ]
        return entries + [
            HeldEntry(row["id"], row["day"], row["text"], row["reason"])
            for row in self.db.execute("SELECT * FROM topics_held ORDER BY id")
        ]

    def held_topic(self, topic_id: str) -> str:
        """Why ``topic_id`` is held out of recall ("" when it is not)."""
        row = self.db.execute("SELECT reason FROM topics_held WHERE id = ?", (topic_id,)).fetchone()
        return row["reason"] if row else ""

    def delete_journal(self, source: str) -> None:
        with immediate(self.db):
            self._delete_journal(source)
            self.db.execute("DELETE FROM stamps WHERE source = ?", (f"journal:{source}",))

    def _delete_journal(self, source: str) -> None:
        self.db.execute(
            "DELETE FROM journal_fts WHERE rowid IN (SELECT rowid FROM journal WHERE source = ?)",
            (source,),
        )
        self.db.execute("DELETE FROM journal WHERE source = ?", (source,))
        self.db.execute("DELETE FROM journal_held WHERE source = ?", (source,))
        self.db.execute(
            "DELETE FROM vectors WHERE kind = 'fact' AND ref LIKE ? ESCAPE '\\'",
            (_like_prefix(source + "#L"),),
        )
        self.db.execute(
            "DELETE FROM mentions WHERE ref_kind = 'journal'"
            " AND (ref = ? OR ref LIKE ? ESCAPE '\\')",
            (source, _like_prefix(source + "#")),
        )

    # -- shared --------------------------------------------------------------------------------

    def _put_mentions(self, names: list[str] | tuple[str, ...], ref_kind: str, ref: str) -> None:
        for name in dict.fromkeys(names):
            key = entity_key(name)
            self.db.execute("INSERT OR IGNORE INTO entities VALUES (?, ?)", (key, name))
            self.db.execute("INSERT OR IGNORE INTO mentions VALUES (?, ?, ?)", (key, ref_kind, ref))

    def _set_stamp(self, source: str, stamp: str) -> None:
        self.db.execute(
            "INSERT INTO stamps VALUES (?, ?) ON CONFLICT (source) DO UPDATE SET stamp = ?",
            (source, stamp, stamp),
        )

    def prune_entities(self) -> None:
        """Drop entities no longer mentioned anywhere."""
        with immediate(self.db):
            self.db.execute("DELETE FROM entities WHERE key NOT IN (SELECT entity FROM mentions)")

    def counts(self) -> dict[str, int]:
        result: dict[str, int] = {}
        for table in ("topics", "journal", "entities", "links"):
            result[table] = self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        result["facts"] = self.db.execute(
            "SELECT COUNT(*) FROM journal WHERE fact_kind IS NOT NULL"
        ).fetchone()[0]
        result["held"] = sum(
            self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("journal_held", "topics_held")
        )
        return result

    def dump(self) -> dict[str, list[Any]]:
        """Every content row, in a stable order (what 'identical index' means in tests)."""
        result: dict[str, list[Any]] = {}
        orders = {
            "topics": "id",
            "journal": "source, line",
            "journal_held": "source, line",
            "topics_held": "id",
            "entities": "key",
            "mentions": "entity, ref_kind, ref",
            "aliases": "key, topic",
            "links": "src, dst",
            "lineage": "ref, topic",
            "promoted": "source, digest",
        }
        for table in CONTENT_TABLES:
            rows = self.db.execute(f"SELECT * FROM {table} ORDER BY {orders[table]}").fetchall()
            result[table] = [
                json.dumps({k: v for k, v in dict(row).items() if k != "rowid"}, sort_keys=True)
                for row in rows
            ]
        return result


def topic_aliases(topic: Topic) -> list[str]:
    """The entity keys a topic names as one entity: a topic in ``people/`` or ``entities/``
    titled ``Name (Other name)``, in either order, both parts non-empty, gives both names and
    its slug ("李娜 (Li Na)" at ``people/li-na``: ``李娜``, ``li na``). Any other topic, or a
    title of one name, gives none ("Release plan (2025)" in ``projects/`` is no entity)."""
    match = _ALIASED_TITLE.fullmatch(topic.title)
    if topic.namespace not in ALIAS_NAMESPACES or match is None:
        return []
    names = (match[1], match[2], topic.id.rpartition("/")[2])
    keys = sorted({key for key in map(entity_key, names) if key})
    return keys if len(keys) > 1 else []


def topic_held_reason(title: str, summary: str) -> str:
    """Why a topic must stay out of recall and the Index: its title or summary (with secrets
    redacted, as the index keeps it), what would be injected, reads as an instruction to the
    model ("" when it may be recalled)."""
    return held_reason(f"{title}\n{summary}")


def held_reason(text: str) -> str:
    """Why a journal entry or topic must stay out of recall ("" when it may be recalled)."""
    from memstrata.injection import detect_injection  # its rules cost ~40 ms to import

    verdict = detect_injection(text)
    return "; ".join(verdict.reasons) if verdict.is_injection else ""


def _create_schema(db: sqlite3.Connection) -> None:
    with immediate(db):
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(VECTOR_SCHEMA)
        db.execute(SESSION_SCHEMA)
        db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))


#: every table and index the schemas create (read from them, so a new one is checked too)
_OBJECTS = frozenset(
    re.findall(
        r"CREATE (?:VIRTUAL )?(?:TABLE|INDEX) (?:IF NOT EXISTS )?(\w+)",
        _SCHEMA + VECTOR_SCHEMA + SESSION_SCHEMA,
    )
)


def _seeded(db: sqlite3.Connection, seed: Path) -> bool:
    """Copy ``seed`` into ``db`` if it is a sound index of this schema, small enough to hold in
    memory; whether it was."""
    try:
        if seed.stat().st_size > SEED_MAX_BYTES:
            return False
    except OSError:
        return False
    # Read-only with SQLite's locks first: another user may be writing a workspace that only
    # this process cannot write. Immutable (no locks, no -wal) only where that cannot open,
    # a read-only mount, on which nobody writes.
    for uri in (read_only_uri(seed), read_only_uri(seed, immutable=True)):
        try:
            source = sqlite3.connect(uri, uri=True)
        except sqlite3.DatabaseError:
            continue
        try:
            source.backup(db)
            return _schema_version(db) == SCHEMA_VERSION and _complete(db)
        except sqlite3.DatabaseError:
            continue
        finally:
            source.close()
    return False


def _complete(db: sqlite3.Connection) -> bool:
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    return names >= _OBJECTS


def _schema_version(db: sqlite3.Connection) -> str | None:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] if row else None


def _like_prefix(prefix: str) -> str:
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"
