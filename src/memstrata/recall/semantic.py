"""The semantic arm: vectors kept in SQLite, searched exactly with numpy.

Vectors live in a ``vectors`` table of the derived index (``kind`` = ``turn``, ``topic`` or
``fact``; ``ref`` = the item's id), tagged with the embedder's name: rows of another embedder
are ignored, so changing embedder means re-embedding on rebuild. Search is an exact
matrix-vector product over L2-normalised float32 rows (cosine), ~1 ms at 10k rows and
~15-25 ms at 100k on this class of machine; an approximate index only pays above that.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from memstrata.index.db import VECTOR_SCHEMA
from memstrata.providers.embedder import Vectors


def ensure_vector_table(db: sqlite3.Connection) -> None:
    db.execute(VECTOR_SCHEMA)


def put_vectors(
    db: sqlite3.Connection, kind: str, embedder: str, items: Iterable[tuple[str, Vectors]]
) -> int:
    """Insert or replace vectors for ``(kind, ref)``; the caller holds the write transaction."""
    count = 0
    for ref, vector in items:
        row = np.asarray(vector, dtype=np.float32)
        db.execute(
            "INSERT OR REPLACE INTO vectors (kind, ref, embedder, dim, vector)"
            " VALUES (?, ?, ?, ?, ?)",
            (kind, ref, embedder, int(row.shape[-1]), row.tobytes()),
        )
        count += 1
    return count


@dataclass(frozen=True, slots=True)
class VectorIndex:
    """Ids and their unit vectors, one row each; exact cosine search."""

    refs: tuple[str, ...]
    matrix: Vectors

    @classmethod
    def load(cls, db: sqlite3.Connection, kind: str, embedder: str) -> VectorIndex:
        """Every vector of ``kind`` made by ``embedder``, in ref order."""
        rows = db.execute(
            "SELECT ref, dim, vector FROM vectors WHERE kind = ? AND embedder = ? ORDER BY ref",
            (kind, embedder),
        ).fetchall()
        if not rows:
            return cls((), np.zeros((0, 0), dtype=np.float32))
        dim = rows[0][1]
        matrix = np.frombuffer(b"".join(row[2] for row in rows), dtype=np.float32)
        return cls(tuple(row[0] for row in rows), matrix.reshape(len(rows), dim))

    @classmethod
    def from_rows(cls, refs: Sequence[str], matrix: Vectors) -> VectorIndex:
        return cls(tuple(refs), np.ascontiguousarray(matrix, dtype=np.float32))

    def __len__(self) -> int:
        return len(self.refs)

    def search(self, query: Vectors, limit: int) -> list[tuple[str, float]]:
        """The ``limit`` refs most similar to ``query`` (cosine), best first, ties by ref."""
        if not self.refs or limit <= 0:
            return []
        scores = self.matrix @ np.asarray(query, dtype=np.float32).reshape(-1)
        limit = min(limit, len(self.refs))
        top = np.argpartition(-scores, limit - 1)[:limit]
        order = sorted(top.tolist(), key=lambda i: (-float(scores[i]), self.refs[i]))
        return [(self.refs[i], float(scores[i])) for i in order]

    def scores_for(self, query: Vectors) -> dict[str, float]:
        """Cosine of ``query`` with every row (for re-scoring a candidate set)."""
        if not self.refs:
            return {}
        scores = self.matrix @ np.asarray(query, dtype=np.float32).reshape(-1)
        return dict(zip(self.refs, scores.tolist(), strict=True))


def turn_passages(texts: Sequence[str], context: int) -> list[str]:
    """The text to embed for each turn of one session: the turn after up to ``context`` turns
    before it, so a short answer ("yes, last May!") carries what it answers.
    """
    return [
        "\n".join(texts[max(0, i - context) : i + 1]) if context else text
        for i, text in enumerate(texts)
    ]
