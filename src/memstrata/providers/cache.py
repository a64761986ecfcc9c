"""A content-addressed cache of embeddings in SQLite, wrapping any embedder.

Keyed by (embedder name, query flag, SHA-256 of the text), so unchanged texts are never
re-embedded on rebuild and a different embedder never reads another's vectors. The cache is
derived data: deleting it only costs time.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memstrata.providers.embedder import Embedder, Vectors
from memstrata.sqlite import is_disk_full

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    embedder TEXT NOT NULL, is_query INTEGER NOT NULL, digest BLOB NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (embedder, is_query, digest)
) WITHOUT ROWID
"""


def _open(path: Path) -> sqlite3.Connection:
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o666))  # the umask decides, not SQLite
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA busy_timeout = 30000")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(_SCHEMA)
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


def _set_aside(path: Path) -> Path:
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    os.replace(path, path.with_name(f"{path.name}.damaged"))
    return path


class CachedEmbedder:
    """Embed through ``inner``, remembering every row in the SQLite file at ``path``."""

    def __init__(
        self, inner: Embedder, path: Path, batch_size: int = 64, cache_queries: bool = True
    ) -> None:
        self.inner = inner
        self.batch_size = batch_size
        #: False: queries always go to the model (so timings include embedding them)
        self.cache_queries = cache_queries
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = _open(path)
        except sqlite3.DatabaseError as error:
            if "readonly" in str(error) or "unable to open" in str(error) or is_disk_full(error):
                raise
            # Only a cache: a damaged one is begun anew (set aside for whoever wants to look).
            self._db = _open(_set_aside(path))

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def close(self) -> None:
        self._db.close()

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        if query and not self.cache_queries:
            return self.inner.embed(texts, query=True)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        digests = [hashlib.sha256(text.encode("utf-8")).digest() for text in texts]
        found = self._lookup(digests, query)
        missing = [i for i, digest in enumerate(digests) if digest not in found]
        for i, digest in enumerate(digests):
            if digest in found:
                out[i] = found[digest]
        for start in range(0, len(missing), self.batch_size):
            chunk = missing[start : start + self.batch_size]
            rows = self.inner.embed([texts[i] for i in chunk], query=query)
            self._db.execute("BEGIN")
            for i, row in zip(chunk, rows, strict=True):
                out[i] = row
                self._db.execute(
                    "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)",
                    (self.name, int(query), digests[i], row.astype(np.float32).tobytes()),
                )
            self._db.execute("COMMIT")
        return out

    def _lookup(self, digests: list[bytes], query: bool) -> dict[bytes, Vectors]:
        found: dict[bytes, Vectors] = {}
        unique = list(dict.fromkeys(digests))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT digest, vector FROM vectors WHERE embedder = ? AND is_query = ?"
                f" AND digest IN ({marks})",
                (self.name, int(query), *chunk),
            )
            for digest, blob in rows:
                found[digest] = np.frombuffer(blob, dtype=np.float32)
        return found
