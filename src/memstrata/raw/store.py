"""``raw/sessions.db``: every imported session and turn, searchable, never injected.

This database is canonical (it is the only copy of the transcripts we imported), so its schema is
versioned with ``PRAGMA user_version`` and only ever extended. Turn text is also indexed in a
contentless FTS5 table (``turns_fts``, rowid = ``turns.id``) holding the text as
:func:`~memstrata.fts.segment` prepares it.

The store only grows: what one file put in, no other file takes out. That is what lets an import
mark (a file's path, size and mtime) vouch that an unchanged file has nothing left to give. A
session imported again is matched turn by turn (same ``idx``) with what is stored under its id,
and each turn it shares is one of:

* the same turn, grown: same role, its text starts with the stored text and its tool calls with
  the stored calls (a response still being written, a file that grew). It replaces the stored
  turn. A text cut at :data:`~memstrata.raw.importers.turns.MAX_TURN_CHARS` counts by what it
  kept: two cut copies keep the same start and the one that cut more holds more.
* the same turn, behind: the stored turn grown from it (an older or cut-short copy). It is kept
  out and counted as ``kept``.
* another turn: a different role, or a text (or list of calls) that neither starts with the
  stored one nor is its start, or more text with fewer calls. No importer turns a turn into that
  as its file grows (they are prefix-stable, see :mod:`memstrata.raw.importers`), so the copy is
  another conversation under the same session id: another file, a fork of a resumed session, a
  rewritten file.

A session with any other turn is stored apart, whole, as ``<id>~<key>`` with ``fork_of = <id>``:
``<key>`` is 8 hex digits of the SHA-256 of its file's name and its first turn's role and time
(``-2``, ``-3`` … after it when that id is taken), so it comes from the file and nothing written
later changes it. Importing it again (grown, cut short or unchanged) finds it by the same test
among the sessions of that id and those stored apart from it, the stored one of that id first,
then in the order they were stored. Which of two conversations keeps the plain id is the order
they were first imported in.

A session's agent key is the one its first import gave it, until an import names an agent
(``--agent``): then the sessions that import stores move to that key, an unchanged file's
included (its mark records the agent named, so a file marked under another is read again).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from memstrata.errors import InputError, LockTimeout, RawStoreDamaged
from memstrata.fts import TOKENIZE, match_expression, segment
from memstrata.model import SearchHit, Session, Turn
from memstrata.raw.importers.turns import split_cap
from memstrata.sqlite import connect, disk_full, file_identity, immediate, is_disk_full

#: 2: import marks written by schema 1 are dropped once. Back then a shorter copy of a session
#: could replace stored turns by cut-down ones, and the mark of the full file kept it from being
#: read again; without the marks every file is read once more, which restores what was lost.
#: 3: ``sessions.fork_of`` (a conversation stored apart from another of the same session id), and
#: ``turns_fts`` indexed again from the stored turns, its text now NFKC-normalised.
#: 4: ``imports.agent``, the agent key an import named (``''``: none, the default's).
#: 5: ``turns_fts`` indexed again: Hangul, Thai, Lao, Myanmar and Khmer by character (fts).
SCHEMA_VERSION = 5

#: SQLite's primary codes (the low byte of an extended one) for a database another connection
#: holds: busy past the timeout, or locked
_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    harness TEXT NOT NULL,
    agent TEXT NOT NULL,
    started TEXT NOT NULL DEFAULT '',
    ended TEXT NOT NULL DEFAULT '',
    source_path TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    fork_of TEXT NOT NULL DEFAULT ''
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
    mtime_ns INTEGER NOT NULL,
    agent TEXT NOT NULL DEFAULT ''
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
    #: the id the session is stored under: its own, or ``<id>~<key>`` when its id holds another
    #: conversation (see the module docstring)
    session_id: str = ""
    #: the agent key the session had before this upsert moved it to the one named (else "")
    agent_was: str = ""


@dataclass(frozen=True, slots=True)
class ImportMark:
    """A file imported in full: its size and mtime then, and the format it was read as."""

    size: int
    mtime_ns: int
    format: str
    #: the agent key the import named ("": none)
    agent: str = ""


#: How a turn compares with the stored turn of its session and index (see the module docstring).
_Order = Literal["same", "more", "less", "other"]


class RawStore:
    """The raw tier. Writes run in ``BEGIN IMMEDIATE`` transactions; readers never block them."""

    def __init__(self, path: Path, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self.db = connect(path, readonly=readonly)
        #: the file this connection reads (see :func:`~memstrata.sqlite.file_identity`)
        self.identity = file_identity(path)
        self._schema_version()
        if readonly:
            return
        with immediate(self.db):
            # Read again under the write lock: another process may have upgraded the file since.
            version = self._schema_version()
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            _upgrade(self.db, version)
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _schema_version(self) -> int:
        version: int = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise InputError(
                f"{self.path}: written by a newer memstrata (schema {version} > {SCHEMA_VERSION})"
            )
        return version

    def close(self) -> None:
        self.db.close()

    # -- writing -------------------------------------------------------------------------------

    def upsert(
        self, session: Session, turns: Iterable[Turn], agent_named: bool = False
    ) -> UpsertCounts:
        """Store a session and its turns; a stored turn is replaced only by the same turn grown.
        With ``agent_named`` (the import named an agent) a stored session takes the agent key
        of ``session``; else it keeps its own.

        The session goes where every turn it shares with the stored ones is the same turn (as
        stored, grown or behind), else apart under a new id (see the module docstring). There a
        grown turn replaces the stored one and one behind is kept out, counted as ``kept``. A
        copy that is behind the store (a turn kept out, or fewer turns than stored) leaves the
        session's title alone too.
        """
        added = updated = unchanged = kept = 0
        incoming = tuple(turns)
        with immediate(self.db):
            target, existing = self._place(session, incoming)
            changes: list[tuple[Turn, sqlite3.Row | None]] = []
            for turn in incoming:
                row = existing.get(turn.index)
                order = "more" if row is None else _compare_turn(turn, row)
                if order == "more":
                    changes.append((turn, row))
                elif order == "same":
                    unchanged += 1
                else:
                    kept += 1
            is_behind = kept > 0 or len(incoming) < len(existing)
            fork_of = session.id if target != session.id else ""
            stored = self.db.execute(
                "SELECT agent FROM sessions WHERE id = ?", (target,)
            ).fetchone()
            agent_was = (
                stored["agent"]
                if agent_named and stored is not None and stored["agent"] != session.agent
                else ""
            )
            self._upsert_session(replace(session, id=target), is_behind, fork_of, agent_named)
            for turn, row in changes:
                if row is None:
                    cursor = self.db.execute(
                        "INSERT INTO turns (session_id, idx, role, time, text, tool_calls)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (target, turn.index, turn.role, turn.time, turn.text, turn.tool_calls),
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
        return UpsertCounts(added, updated, unchanged, kept, target, agent_was)

    def _place(
        self, session: Session, incoming: tuple[Turn, ...]
    ) -> tuple[str, dict[int, sqlite3.Row]]:
        """The id to store ``incoming`` under and the turns stored there, by index: the first of
        the session's id and those stored apart from it that holds no other turn; else a new id."""
        family = self.db.execute(
            "SELECT id FROM sessions WHERE id = ? OR fork_of = ? ORDER BY id != ?, rowid",
            (session.id, session.id, session.id),
        ).fetchall()
        for (candidate,) in family:
            existing = {
                row["idx"]: row
                for row in self.db.execute(
                    "SELECT id, idx, role, time, text, tool_calls FROM turns WHERE session_id = ?",
                    (candidate,),
                )
            }
            shared = (turn for turn in incoming if turn.index in existing)
            if all(_compare_turn(turn, existing[turn.index]) != "other" for turn in shared):
                return candidate, existing
        if not family:
            return session.id, {}
        return self._fork_id(session, incoming), {}

    def _fork_id(self, session: Session, incoming: tuple[Turn, ...]) -> str:
        """``<id>~<key>`` for another conversation under ``session.id`` (see the module
        docstring); ``-2``, ``-3`` … after it while that id is taken."""
        first = incoming[0] if incoming else None
        basis = "\n".join(
            (
                Path(session.source_path).name,
                first.role if first else "",
                first.time if first else "",
            )
        )
        stem = f"{session.id}~{hashlib.sha256(basis.encode()).hexdigest()[:8]}"
        candidate, number = stem, 1
        while self.db.execute("SELECT 1 FROM sessions WHERE id = ?", (candidate,)).fetchone():
            number += 1
            candidate = f"{stem}-{number}"
        return candidate

    def _upsert_session(
        self, session: Session, keep_title: bool, fork_of: str, agent_named: bool
    ) -> None:
        self.db.execute(
            """
            INSERT INTO sessions (id, harness, agent, started, ended, source_path, title, fork_of)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                started = CASE WHEN excluded.started != '' AND
                    (sessions.started = '' OR excluded.started < sessions.started)
                    THEN excluded.started ELSE sessions.started END,
                ended = MAX(sessions.ended, excluded.ended),
                agent = CASE WHEN ? THEN excluded.agent ELSE sessions.agent END,
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
                fork_of,
                agent_named,
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
            "SELECT size, mtime_ns, format, agent FROM imports WHERE source_path = ?",
            (source_path,),
        ).fetchone()
        if row is None:
            return None
        return ImportMark(row["size"], row["mtime_ns"], row["format"], row["agent"])

    def set_import_mark(
        self, source_path: str, format_name: str, size: int, mtime_ns: int, agent: str = ""
    ) -> None:
        with immediate(self.db):
            self.db.execute(
                "INSERT INTO imports (source_path, format, size, mtime_ns, agent)"
                " VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (source_path) DO UPDATE SET format = excluded.format,"
                " size = excluded.size, mtime_ns = excluded.mtime_ns, agent = excluded.agent",
                (source_path, format_name, size, mtime_ns, agent),
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


def _compare_turn(turn: Turn, row: sqlite3.Row) -> _Order:
    """How ``turn`` compares with the stored ``row`` of its index: the ``same`` turn as stored,
    the same turn grown (``more``: replaces it), the same turn ``less`` grown (kept out), or
    ``other`` (another conversation). A turn that differs in its time alone is ``more``: a
    turn is the same by what it says, and the copy at hand brings its time."""
    if turn.role != row["role"]:
        return "other"
    orders = {
        _compare_text(turn.text, row["text"]),
        _compare_calls(turn.tool_calls, row["tool_calls"]),
    }
    if "other" in orders or {"more", "less"} <= orders:
        return "other"
    if "more" in orders or "less" in orders:
        return "more" if "more" in orders else "less"
    return "same" if turn.time == row["time"] else "more"


def _compare_text(text: str, stored: str) -> _Order:
    """Does ``text`` start with ``stored`` (``more``), or is it its start (``less``)? Two texts cut
    at the cap that kept the same start: the one that cut more is ``more``."""
    if text == stored:
        return "same"
    if text.startswith(stored):
        return "more"
    if stored.startswith(text):
        return "less"
    kept, cut = split_cap(text)
    stored_kept, stored_cut = split_cap(stored)
    if cut is not None and stored_cut is not None and kept == stored_kept:
        return "more" if cut > stored_cut else "less"
    return "other"


def _compare_calls(tool_calls: str, stored: str) -> _Order:
    """Does the list ``tool_calls`` start with the ``stored`` list, or is it its start?"""
    calls, stored_calls = _calls(tool_calls), _calls(stored)
    if calls == stored_calls:
        return "same"
    if calls[: len(stored_calls)] == stored_calls:
        return "more"
    if stored_calls[: len(calls)] == calls:
        return "less"
    return "other"


def _calls(tool_calls: str) -> list[object]:
    try:
        calls = json.loads(tool_calls)
    except json.JSONDecodeError:
        return []
    return calls if isinstance(calls, list) else []


def _upgrade(db: sqlite3.Connection, version: int) -> None:
    """Extend a store of schema ``version`` to this one; the caller holds the write lock."""
    columns = {row["name"] for row in db.execute("PRAGMA table_info(sessions)")}
    if "fork_of" not in columns:
        db.execute("ALTER TABLE sessions ADD COLUMN fork_of TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE INDEX IF NOT EXISTS sessions_by_fork ON sessions(fork_of)")
    if "agent" not in {row["name"] for row in db.execute("PRAGMA table_info(imports)")}:
        db.execute("ALTER TABLE imports ADD COLUMN agent TEXT NOT NULL DEFAULT ''")
    if version == 1:
        db.execute("DELETE FROM imports")
    if version < 5:
        # What turns_fts holds is segment() of each text as it was then; a contentless table
        # can only forget a row by being given the same tokens, so it is indexed anew, whole.
        db.execute("INSERT INTO turns_fts (turns_fts) VALUES ('delete-all')")
        rows = db.execute("SELECT id, text FROM turns")
        db.executemany(
            "INSERT INTO turns_fts (rowid, body) VALUES (?, ?)",
            ((row["id"], segment(row["text"])) for row in rows),
        )


def open_raw_store(path: Path, readonly: bool = False) -> RawStore:
    """Open (creating if needed) the raw store; a damaged file is a clear error, not a trace."""
    try:
        return RawStore(path, readonly)
    except sqlite3.DatabaseError as error:
        # Only damage is named so, with its advice to move the file aside: the file is the only
        # copy of what was imported, and a full disk or a busy writer leaves it sound.
        if is_disk_full(error):
            raise disk_full(path, error) from error
        if (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF in _BUSY:
            raise LockTimeout(
                f"{path}: another process kept the raw sessions database busy ({error}); "
                "nothing was changed: try again when it is done"
            ) from error
        raise RawStoreDamaged(path, f"not a usable raw sessions database ({error})") from error
    except InputError as error:  # not SQLite at all, as connect() found
        problem = str(error).removeprefix(f"{path}: ")
        raise RawStoreDamaged(path, problem) from error
