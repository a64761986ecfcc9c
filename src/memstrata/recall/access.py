"""The access sidecar: how often and when each item was recalled, kept outside the index.

``.memstrata/access.db`` is separate from ``index.db`` so that a rebuild (which deletes and
recreates the index) keeps the use history that recall ranking and the gardener's decay rely on.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memstrata.sqlite import connect, immediate

_SCHEMA = """
CREATE TABLE IF NOT EXISTS access (
    source TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    last TEXT NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class Access:
    """How often an item was recalled and when last."""

    count: int
    last: str


class AccessLog:
    """Read and record accesses; a workspace we cannot write records nothing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = connect(self.path)
            self._db.execute(_SCHEMA)
        return self._db

    def get(self, sources: Iterable[str]) -> dict[str, Access]:
        keys = list(dict.fromkeys(sources))
        if not keys or not self.path.exists():
            return {}
        db = self._open()
        found: dict[str, Access] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = db.execute(
                f"SELECT source, count, last FROM access WHERE source IN ({marks})", chunk
            )
            for row in rows:
                found[row["source"]] = Access(row["count"], row["last"])
        return found

    def record(self, sources: Iterable[str], when: str) -> None:
        keys = list(dict.fromkeys(sources))
        if not keys:
            return
        db = self._open()
        with immediate(db):
            db.executemany(
                "INSERT INTO access (source, count, last) VALUES (?, 1, ?)"
                " ON CONFLICT (source) DO UPDATE SET count = count + 1, last = excluded.last",
                [(key, when) for key in keys],
            )

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
