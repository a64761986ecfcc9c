"""Session-level lexical search: one FTS5 document per raw session (its turns joined).

Terms of a question are often spread over several turns of one conversation ("the trip" in one
turn, "how many days" in another); BM25 over the joined session finds it where no single turn
matches well. The table lives in the derived index and is rebuilt from the raw store.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from memstrata.fts import match_expression, segment
from memstrata.index.db import SESSION_SCHEMA


def ensure_session_table(db: sqlite3.Connection) -> None:
    db.execute(SESSION_SCHEMA)


def put_sessions(db: sqlite3.Connection, sessions: Iterable[tuple[str, str]]) -> int:
    """Replace each ``(session_id, joined text)``; the caller holds the write transaction."""
    count = 0
    for session_id, text in sessions:
        db.execute("DELETE FROM raw_sessions_fts WHERE session_id = ?", (session_id,))
        db.execute(
            "INSERT INTO raw_sessions_fts (session_id, body) VALUES (?, ?)",
            (session_id, segment(text)),
        )
        count += 1
    return count


def score_sessions(db: sqlite3.Connection, query: str, limit: int) -> dict[str, float]:
    """BM25 of whole sessions for ``query``: ``{session_id: score}``, higher is better."""
    expression = match_expression(query)
    if expression is None or limit <= 0:
        return {}
    rows = db.execute(
        "SELECT session_id, bm25(raw_sessions_fts) AS rank FROM raw_sessions_fts"
        " WHERE raw_sessions_fts MATCH ? ORDER BY rank, session_id LIMIT ?",
        (expression, limit),
    ).fetchall()
    return {row[0]: -float(row[1]) for row in rows}
