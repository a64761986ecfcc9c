"""The plain baseline every memstrata figure stands beside: SQLite FTS5, porter, OR-ed words.

Documents go into an in-memory FTS5 table tokenised ``porter unicode61``; a query is every word
of the question, quoted and OR-ed (no stop-word list, no CJK handling), ranked by bm25.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


class Fts5Baseline:
    """One corpus in an in-memory FTS5 table."""

    name = "fts5"

    def __init__(self, documents: Sequence[tuple[str, str]]) -> None:
        self._ids = [doc_id for doc_id, _ in documents]
        self._db = sqlite3.connect(":memory:")
        self._db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='porter unicode61')")
        self._db.executemany(
            "INSERT INTO docs (rowid, body) VALUES (?, ?)",
            [(i, text) for i, (_, text) in enumerate(documents)],
        )

    def search(self, query: str, limit: int) -> list[str]:
        words = list(dict.fromkeys(word.lower() for word in _WORD.findall(query)))
        if not words:
            return []
        expression = " OR ".join('"' + word.replace('"', '""') + '"' for word in words)
        rows = self._db.execute(
            "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs), rowid LIMIT ?",
            (expression, limit),
        )
        return [self._ids[rowid] for (rowid,) in rows]

    def close(self) -> None:
        self._db.close()
