"""``raw/sessions.db``: every imported session and turn, searchable, never injected.

This database is canonical (it is the only copy of the transcripts we imported), so its schema is
versioned with ``PRAGMA user_version`` and only ever extended. Turn text is also indexed in a
contentless FTS5 table (``turns_fts``, rowid = ``turns.id``) holding the CJK-segmented text.

The store only grows: a stored turn is replaced only by a version of it that holds at least as
much (see :meth:`RawStore.upsert`), so what one file put in, no other file takes out. That is what
lets an import mark (a file's path, size and mtime) vouch that an unchanged file has nothing left
to give.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memstrata.errors import InputError
from memstrata.fts import TOKENIZE, match_expression, segment
from memstrata.model import SearchHit, Session, Turn
from memstrata.sqlite import connect, file_identity, immediate

#: 2: import marks written by schema 1 are dropped once. Back then a shorter copy of a session
#: could replace stored turns by cut-down ones, and the mark of the full file kept it from being
#: read again; without the marks every file is read once more, which restores what was lost.
SCHEMA_VERSION = 2

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    harness TEXT NOT NULL,
    agent TEXT NOT NULL,
    started TEXT NOT NULL DEFAULT '',
    ended TEXT NOT NULL DEFAULT '',
    source_path TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    idx INTEGER NOT NULL,
    role TEXT NOT NULL,
    time TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    tool_calls TEXT NOT NULL DEFAULT '[]',
    UNIQUE (session_id, idx)
);
CREATE INDEX IF NOT EXISTS turns_by_time ON turns(time);
CREATE VIRTUAL TABLE IF NOT EXISTS turns_fts USING fts5(body, content='', tokenize='{TOKENIZE}');
CREATE TABLE IF NOT EXISTS imports (
    source_path TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class UpsertCounts:
    """What one upsert changed: new turns, turns that grew (a response still being written)."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    #: turns this copy holds less of than the store (an older or cut-short copy): left as stored
    kept: int = 0


@dataclass(frozen=True, slots=True)
class ImportMark:
    """A file imported in full: its size and mtime then, and the format it was read as."""

    size: int
    mtime_ns: int
    format: str


class RawStore:
    """The raw tier. Writes run in ``BEGIN IMMEDIATE`` transactions; readers never block them."""

    def __init__(self, path: Path, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self.db = connect(path, readonly=readonly)
        #: the file this connection reads (see :func:`~memstrata.sqlite.file_identity`)
        self.identity = file_identity(path)
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise InputError(
                f"{path}: written by a newer memstrata (schema {version} > {SCHEMA_VERSION})"
            )
        if readonly:
            return
        with immediate(self.db):
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            if version == 1:
                self.db.execute("DELETE FROM imports")
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    # -- writing -------------------------------------------------------------------------------

    def upsert(self, session: Session, turns: Iterable[Turn]) -> UpsertCounts:
        """Store a session and its turns; a stored turn is replaced only by one holding as much.

        A turn that differs from the stored one replaces it when its text is at least as long and
        it lists at least as many tool calls: a response still being written only grows. One that
        holds less is an older or cut-short copy of the same turn (a truncated file, a backup) and
        is kept out, counted as ``kept``. A copy that is behind the store (a turn kept out, or
        fewer turns than stored) leaves the session's title alone too.
        """
        added = updated = unchanged = kept = 0
        incoming = tuple(turns)
        with immediate(self.db):
            existing = {
                row["idx"]: row
                for row in self.db.execute(
                    "SELECT id, idx, role, time, text, tool_calls FROM turns WHERE session_id = ?",
                    (session.id,),
                )
            }
            changes: list[tuple[Turn, sqlite3.Row | None]] = []
            for turn in incoming:
                row = existing.get(turn.index)
                if row is None or _holds_more(turn, row):
                    changes.append((turn, row))
                elif _is_stored(turn, row):
                    unchanged += 1
                else:
                    kept += 1
            is_behind = kept > 0 or len(incoming) < len(existing)
            self._upsert_session(session, keep_title=is_behind)
            for turn, row in changes:
                if row is None:
                    cursor = self.db.execute(
                        "INSERT INTO turns (session_id, idx, role, time, text, tool_calls)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (session.id, turn.index, turn.role, turn.time, turn.text, turn.tool_calls),
                    )
                    self._index_text(cursor.lastrowid, turn.text)
                    added += 1
                else:
                    self._unindex_text(row["id"], row["text"])
                    self.db.execute(
                        "UPDATE turns SET role = ?, time = ?, text = ?, tool_calls = ?"
                        " WHERE id = ?",
                        (turn.role, turn.time, turn.text, turn.tool_calls, row["id"]),
                    )
                    self._index_text(row["id"], turn.text)
                    updated += 1
        return UpsertCounts(added, updated, unchanged, kept)

    def _upsert_session(self, session: Session, keep_title: bool) -> None:
        self.db.execute(
            """
            INSERT INTO sessions (id, harness, agent, started, ended, source_path, title)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                started = CASE WHEN excluded.started != '' AND
                    (sessions.started = '' OR excluded.started < sessions.started)
                    THEN excluded.started ELSE sessions.started END,
                ended = MAX(sessions.ended, excluded.ended),
                title = CASE WHEN excluded.title != '' AND (sessions.title = '' OR NOT ?)
                    THEN excluded.title ELSE sessions.title END
            """,
            (
                session.id,
                session.harness,
                session.agent,
                session.started,
                session.ended,
                session.source_path,
                session.title,
                keep_title,
            ),
        )

    def _index_text(self, rowid: int | None, text: str) -> None:
        self.db.execute("INSERT INTO turns_fts (rowid, body) VALUES (?, ?)", (rowid, segment(text)))

    def _unindex_text(self, rowid: int, text: str) -> None:
        self.db.execute(
            "INSERT INTO turns_fts (turns_fts, rowid, body) VALUES ('delete', ?, ?)",
            (rowid, segment(text)),
        )

    def import_mark(self, source_path: str) -> ImportMark | None:
        """What ``source_path`` was when it was last imported in full, and in which format."""
        row = self.db.execute(
            "SELECT size, mtime_ns, format FROM imports WHERE source_path = ?", (source_path,)
        ).fetchone()
        return ImportMark(row["size"], row["mtime_ns"], row["format"]) if row else None

    def set_import_mark(self, source_path: str, format_name: str, size: int, mtime_ns: int) -> None:
        with immediate(self.db):
            self.db.execute(
                "INSERT INTO imports (source_path, format, size, mtime_ns) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (source_path) DO UPDATE SET format = excluded.format,"
                " size = excluded.size, mtime_ns = excluded.mtime_ns",
                (source_path, format_name, size, mtime_ns),
            )

    # -- reading -------------------------------------------------------------------------------

    def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        """BM25 over turn text; every hit is labelled raw and cites its session turn."""
        expression = match_expression(query)
        if expression is None:
            return []
        rows = self.db.execute(
            """
            SELECT t.session_id, t.idx, t.role, t.time, t.text, s.harness, s.agent,
                   bm25(turns_fts) AS rank
            FROM turns_fts JOIN turns t ON t.id = turns_fts.rowid
            JOIN sessions s ON s.id = t.session_id
            WHERE turns_fts MATCH ? ORDER BY rank, t.id LIMIT ?
            """,
            (expression, limit),
        ).fetchall()
        return [
            SearchHit(
                stratum="raw",
                source=f"{row['session_id']}#{row['idx']}",
                text=row["text"],
                score=-float(row["rank"]),
                time=row["time"],
                title=row["role"],
                extra={"agent": row["agent"], "harness": row["harness"]},
            )
            for row in rows
        ]

    def hit(self, source: str, score: float, arms: Sequence[str] = ()) -> SearchHit | None:
        """The turn ``<session id>#<index>`` as a search hit labelled raw (``None`` if absent)."""
        session_id, _, index = source.rpartition("#")
        if not index.isdigit():
            return None
        row = self.db.execute(
            "SELECT t.role, t.time, t.text, s.agent, s.harness FROM turns t"
            " JOIN sessions s ON s.id = t.session_id WHERE t.session_id = ? AND t.idx = ?",
            (session_id, int(index)),
        ).fetchone()
        if row is None:
            return None
        return SearchHit(
            stratum="raw",
            source=source,
            text=row["text"],
            score=score,
            time=row["time"],
            title=row["role"],
            extra={"agent": row["agent"], "harness": row["harness"], "arms": ",".join(arms)},
        )

    def session_hit(
        self, session_id: str, score: float, best_turn: str | None = None
    ) -> SearchHit | None:
        """The session ``session_id`` as a search hit labelled raw: its text is ``best_turn``'s
        (``session#idx``, why it was found), else its first turn's; ``None`` if absent."""
        row = self.db.execute(
            "SELECT s.started, s.title, s.agent, s.harness, COUNT(t.id) AS turns FROM sessions s"
            " LEFT JOIN turns t ON t.session_id = s.id WHERE s.id = ? GROUP BY s.id",
            (session_id,),
        ).fetchone()
        if row is None:
            return None
        _, _, index = (best_turn or "").rpartition("#")
        text = self.db.execute(
            "SELECT idx, text FROM turns WHERE session_id = ? ORDER BY idx != ?, idx LIMIT 1",
            (session_id, int(index) if index.isdigit() else -1),
        ).fetchone()
        return SearchHit(
            stratum="raw",
            source=session_id,
            text=text["text"] if text else "",
            score=score,
            time=row["started"],
            title=row["title"],
            extra={
                "agent": row["agent"],
                "harness": row["harness"],
                "turns": str(row["turns"]),
                "best_turn": f"{session_id}#{text['idx']}" if text else "",
            },
        )

    def sessions(self) -> list[Session]:
        rows = self.db.execute("SELECT * FROM sessions ORDER BY started, id").fetchall()
        return [
            Session(
                r["id"],
                r["harness"],
                r["agent"],
                r["started"],
                r["ended"],
                r["source_path"],
                r["title"],
            )
            for r in rows
        ]

    def turns(self, session_id: str) -> list[Turn]:
        rows = self.db.execute(
            "SELECT * FROM turns WHERE session_id = ? ORDER BY idx", (session_id,)
        ).fetchall()
        return [
            Turn(r["session_id"], r["idx"], r["role"], r["time"], r["text"], r["tool_calls"])
            for r in rows
        ]

    def counts(self) -> dict[str, int]:
        sessions = self.db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
        turns = self.db.execute("SELECT COUNT(*) FROM turns").fetchone()[0]
        return {"sessions": sessions, "turns": turns}


def _is_stored(turn: Turn, row: sqlite3.Row) -> bool:
    stored = (row["role"], row["time"], row["text"], row["tool_calls"])
    return stored == (turn.role, turn.time, turn.text, turn.tool_calls)


def _holds_more(turn: Turn, row: sqlite3.Row) -> bool:
    """Is ``turn`` a change to the stored ``row`` that loses nothing (no shorter text, no fewer
    tool calls)? A differing prefix of the same turn always loses something."""
    if _is_stored(turn, row):
        return False
    has_text = len(turn.text) >= len(row["text"])
    return has_text and _call_count(turn.tool_calls) >= _call_count(row["tool_calls"])


def _call_count(tool_calls: str) -> int:
    try:
        calls = json.loads(tool_calls)
    except json.JSONDecodeError:
        return 0
    return len(calls) if isinstance(calls, list) else 0


def open_raw_store(path: Path, readonly: bool = False) -> RawStore:
    """Open (creating if needed) the raw store; a damaged file is a clear error, not a trace."""
    try:
        return RawStore(path, readonly)
    except sqlite3.DatabaseError as error:
        raise InputError(f"{path}: not a usable raw sessions database ({error})") from error
