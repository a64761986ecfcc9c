"""The semantic arm: vectors kept in SQLite, searched exactly with numpy (approximately above a
size threshold, see :mod:`memstrata.recall.ann`).

Vectors live in a ``vectors`` table of the derived index (``kind`` = ``turn``, ``topic`` or
``fact``; ``ref`` = the item's id), tagged with the embedder's name and width: rows of another
embedder, or of another width under the same name (a model swapped behind it), are ignored, and
filled again by the next embedding of the backlog (a query's share, or rebuild). ``dim`` stands
before the ``vector`` blob in a row, so checking it reads no blob. Exact search is a
matrix-vector product over L2-normalised float32 rows (cosine), ~1 ms at 10k rows and
~15-25 ms at 100k on this class of machine; loading the rows costs far more (~25 µs a row), so
a reload fetches only the rows it does not hold yet (:meth:`VectorIndex.reload`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from memstrata.index.db import VECTOR_SCHEMA
from memstrata.providers.blas import blas_threads
from memstrata.providers.embedder import Vectors, row_dots
from memstrata.recall.ann import IvfView

#: rows fetched per ``rowid IN (…)`` statement (SQLite's default limit is 32766 parameters)
FETCH_CHUNK = 500


def ensure_vector_table(db: sqlite3.Connection) -> None:
    db.execute(VECTOR_SCHEMA)


def put_vectors(
    db: sqlite3.Connection, kind: str, embedder: str, items: Iterable[tuple[str, Vectors]]
) -> int:
    """Insert or replace vectors for ``(kind, ref)``; the caller holds the write transaction.

    A replaced row gets a new rowid, which is how readers tell a changed vector from a kept one.
    """
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


def live_rows(
    db: sqlite3.Connection, kind: str, embedder: str | None = None, dim: int = 0
) -> tuple[np.ndarray, list[str]]:
    """``(rowids, refs)`` of every vector of ``kind`` (of one ``embedder`` at width ``dim``
    when given). Without an embedder it reads the primary key's covering index alone (~0.15 s
    at 100k rows, vs ~2-4 s for the vectors themselves); with one, it also reads each row's
    embedder and dim columns (not its blob)."""
    if embedder is None:
        rows = db.execute("SELECT rowid, ref FROM vectors WHERE kind = ?", (kind,)).fetchall()
    else:
        rows = db.execute(
            "SELECT rowid, ref FROM vectors WHERE kind = ? AND embedder = ? AND dim = ?",
            (kind, embedder, dim),
        ).fetchall()
    rowids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
    return rowids, [row[1] for row in rows]


def stored_vectors(
    db: sqlite3.Connection, kind: str, embedder: str, dim: int, refs: Sequence[str]
) -> Vectors:
    """The stored vectors of those ``refs`` that have one from ``embedder`` at width ``dim``, a
    row each (in no particular order): a few rows read by key, whether or not search runs on a
    side file."""
    if not refs:
        return np.zeros((0, 0), dtype=np.float32)
    marks = ",".join("?" * len(refs))
    rows = db.execute(
        f"SELECT vector FROM vectors WHERE kind = ? AND embedder = ? AND dim = ?"
        f" AND ref IN ({marks})",
        (kind, embedder, dim, *refs),
    ).fetchall()
    if not rows:
        return np.zeros((0, 0), dtype=np.float32)
    matrix = np.frombuffer(b"".join(row[0] for row in rows), dtype=np.float32)
    return matrix.reshape(len(rows), dim)


_EMPTY_ROWIDS = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class VectorIndex:
    """Ids and their unit vectors, one row each, searched exactly; plus, above the size
    threshold, an approximate index over the rows it does not hold."""

    refs: tuple[str, ...]
    matrix: Vectors
    #: each row's rowid in the ``vectors`` table (empty when built from rows in memory)
    rowids: np.ndarray = field(default_factory=lambda: _EMPTY_ROWIDS)
    approximate: IvfView | None = None

    @classmethod
    def load(cls, db: sqlite3.Connection, kind: str, embedder: str, dim: int) -> VectorIndex:
        """Every vector of ``kind`` made by ``embedder`` at width ``dim``."""
        return cls.reload(None, db, kind, embedder, dim, live_rows(db, kind)[0])

    @classmethod
    def reload(
        cls,
        held: VectorIndex | None,
        db: sqlite3.Connection,
        kind: str,
        embedder: str,
        dim: int,
        wanted: np.ndarray,
    ) -> VectorIndex:
        """The rows of ``kind`` whose rowids are in ``wanted`` (rows of another embedder or
        width are skipped), keeping what ``held`` already has and fetching only the rest."""
        wanted = np.unique(wanted)
        # an empty index has no width to stack new rows on, one of another width none to
        # keep: start afresh
        if (
            held is not None
            and held.refs
            and len(held.rowids) == len(held.refs)
            and held.matrix.shape[1] == dim
        ):
            kept = np.isin(held.rowids, wanted)
            missing = np.setdiff1d(wanted, held.rowids, assume_unique=True)
        else:
            held, kept, missing = None, np.zeros(0, dtype=bool), wanted
        if held is not None and kept.all() and not len(missing):
            return cls(held.refs, held.matrix, held.rowids)
        rowids, refs, matrix = _fetch(db, kind, embedder, dim, missing)
        if held is not None and kept.all():  # only additions: one copy, no mask
            rowids = np.concatenate([held.rowids, rowids])
            refs = [*held.refs, *refs]
            matrix = np.concatenate([held.matrix, matrix.reshape(-1, held.matrix.shape[1])])
        elif held is not None and kept.any():
            rowids = np.concatenate([held.rowids[kept], rowids])
            refs = [ref for ref, keep in zip(held.refs, kept.tolist(), strict=True) if keep] + refs
            matrix = np.concatenate([held.matrix[kept], matrix.reshape(-1, held.matrix.shape[1])])
        if not refs:
            return cls((), np.zeros((0, 0), dtype=np.float32))
        return cls(tuple(refs), matrix, rowids)

    @classmethod
    def from_rows(cls, refs: Sequence[str], matrix: Vectors) -> VectorIndex:
        return cls(tuple(refs), np.ascontiguousarray(matrix, dtype=np.float32))

    def __len__(self) -> int:
        return len(self.refs) + (len(self.approximate) if self.approximate is not None else 0)

    def search(self, query: Vectors, limit: int) -> list[tuple[str, float]]:
        """The ``limit`` refs most similar to ``query`` (cosine), best first, ties by ref.

        On one BLAS thread: a matrix-vector product is query-sized work (see
        :mod:`memstrata.providers.blas`)."""
        with blas_threads(1):
            hits = self._search_exact(query, limit)
            if self.approximate is None:
                return hits
            hits += self.approximate.search(query, limit)
        return sorted(hits, key=lambda hit: (-hit[1], hit[0]))[: max(limit, 0)]

    def _search_exact(self, query: Vectors, limit: int) -> list[tuple[str, float]]:
        if not self.refs or limit <= 0:
            return []
        scores = self.matrix @ np.asarray(query, dtype=np.float32).reshape(-1)
        limit = min(limit, len(self.refs))
        top = np.argpartition(-scores, limit - 1)[:limit]
        exact = row_dots(self.matrix[top], query)
        hits = [
            (self.refs[i], float(score))
            for i, score in zip(top.tolist(), exact.tolist(), strict=True)
        ]
        return sorted(hits, key=lambda hit: (-hit[1], hit[0]))


def _fetch(
    db: sqlite3.Connection, kind: str, embedder: str, dim: int, rowids: np.ndarray
) -> tuple[np.ndarray, list[str], Vectors]:
    """Rows by rowid, filled into one preallocated matrix (no second copy of the blobs)."""
    found: list[int] = []
    refs: list[str] = []
    matrix: Vectors | None = None
    ids = rowids.tolist()
    for start in range(0, len(ids), FETCH_CHUNK):
        chunk = ids[start : start + FETCH_CHUNK]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            f"SELECT rowid, ref, vector FROM vectors WHERE rowid IN ({marks})"
            " AND kind = ? AND embedder = ? AND dim = ?",
            (*chunk, kind, embedder, dim),
        ).fetchall()
        for rowid, ref, blob in rows:
            if matrix is None:
                matrix = np.empty((len(ids), dim), dtype=np.float32)
            matrix[len(found)] = np.frombuffer(blob, dtype=np.float32)
            found.append(rowid)
            refs.append(ref)
    if matrix is None:
        return _EMPTY_ROWIDS, [], np.zeros((0, 0), dtype=np.float32)
    matrix = matrix[: len(found)]
    if len(found) < 0.9 * len(ids):
        matrix = matrix.copy()  # most ids were another embedder's (or width's): no slack kept
    return np.asarray(found, dtype=np.int64), refs, matrix


def turn_passages(texts: Sequence[str], context: int) -> list[str]:
    """The text to embed for each turn of one session: the turn after up to ``context`` turns
    before it, so a short answer ("yes, last May!") carries what it answers.
    """
    return [
        "\n".join(texts[max(0, i - context) : i + 1]) if context else text
        for i, text in enumerate(texts)
    ]
