"""Session-level lexical search: one FTS5 document per raw session (its turns joined).

Terms of a question are often spread over several turns of one conversation ("the trip" in one
turn, "how many days" in another); BM25 over the joined session finds it where no single turn
matches well. The table lives in the derived index and is rebuilt from the raw store.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from memstrata.fts import match_expression, segment
from memstrata.index.db import SESSION_SCHEMA, IndexDB
from memstrata.raw.store import RawStore
from memstrata.recall.lexical import best_matches, exact_top, rowid_list
from memstrata.sqlite import immediate


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
    # Rank inside FTS first: reading the session id of every match (an UNINDEXED column, so a
    # read of the stored row) cost more than the ranking itself (20 vs 7 ms at 16k sessions).
    ranks, cutoff = best_matches(db, "raw_sessions_fts", expression, 2 * limit)
    found = db.execute(
        "SELECT rowid, session_id FROM raw_sessions_fts"
        " WHERE rowid IN (SELECT value FROM json_each(?))",
        (rowid_list(ranks),),
    ).fetchall()
    best = exact_top(((ranks[rowid], session, session) for rowid, session in found), limit, cutoff)
    if best is not None:
        return {session: -float(rank) for rank, session in best}
    rows = db.execute(
        "SELECT session_id, bm25(raw_sessions_fts) AS rank FROM raw_sessions_fts"
        " WHERE raw_sessions_fts MATCH ? ORDER BY rank, session_id LIMIT ?",
        (expression, limit),
    ).fetchall()
    return {row[0]: -float(row[1]) for row in rows}


def sync_session_documents(index: IndexDB, raw: RawStore) -> int:
    """Re-index the joined text of every raw session whose turns changed; return how many.

    A session's stamp is its turn count and total text length, kept in the index's stamps.
    The caller holds the workspace lock.
    """
    known = index.stamps("session:")
    rows = raw.db.execute(
        "SELECT session_id, COUNT(*) AS n, SUM(LENGTH(text)) AS size FROM turns GROUP BY session_id"
    ).fetchall()
    stamps = {row["session_id"]: f"{row['n']}:{row['size']}" for row in rows}
    changed = [sid for sid, stamp in stamps.items() if known.get(f"session:{sid}") != stamp]
    with immediate(index.db):
        for session_id in changed:
            text = "\n".join(turn.text for turn in raw.turns(session_id))
            put_sessions(index.db, [(session_id, text)])
            index.db.execute(
                "INSERT INTO stamps VALUES (?, ?) ON CONFLICT (source) DO UPDATE"
                " SET stamp = excluded.stamp",
                (f"session:{session_id}", stamps[session_id]),
            )
    return len(changed)
