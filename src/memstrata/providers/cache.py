"""A content-addressed cache of embeddings in SQLite, wrapping any embedder.

Keyed by (embedder name, query flag, SHA-256 of the text), so unchanged texts are never
re-embedded on rebuild and a different embedder never reads another's vectors. A row of another
width than the embedder's (a model swapped behind the same name) counts as missing: it is
embedded again and replaced. The cache is derived data: deleting it only costs time.

A file someone names (``memstrata bench --embed-cache``) is used only when it is an embedding
cache, or new in a folder that exists: anything else is an :class:`~memstrata.errors.InputError`
and the file is left as it was. A workspace's own cache (``owned``) that is damaged, or not a
cache, is set aside (``embeddings.db.damaged``, for whoever wants to look) and begun anew, and
:attr:`CachedEmbedder.note` says so.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memstrata.errors import InputError
from memstrata.providers.embedder import Embedder, Vectors
from memstrata.sqlite import disk_full, is_damage, is_disk_full

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    embedder TEXT NOT NULL, is_query INTEGER NOT NULL, digest BLOB NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (embedder, is_query, digest)
) WITHOUT ROWID
"""
_COLUMNS = ("embedder", "is_query", "digest", "vector")


class NotACache(Exception):
    """The file is a database, or something else, that memstrata did not make as a cache."""


def _open(path: Path) -> sqlite3.Connection:
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o666))  # the umask decides, not SQLite
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA busy_timeout = 30000")
        # Looked at before anything is written: WAL mode would change another file's header.
        _check_tables(db)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(_SCHEMA)
    except (sqlite3.DatabaseError, NotACache):
        db.close()
        raise
    return db


def _check_tables(db: sqlite3.Connection) -> None:
    """Raise ``NotACache`` unless the file is empty or holds just the cache's table."""
    tables = [
        row[0]
        for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not row[0].startswith("sqlite_")  # SQLite's own (statistics, sequences)
    ]
    if not tables:
        return
    if tables != ["vectors"]:
        names = sorted(tables)
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        raise NotACache(f"a database with tables {', '.join(names[:3])}{more}")
    columns = tuple(row[1] for row in db.execute("PRAGMA table_info(vectors)"))
    if columns != _COLUMNS:
        raise NotACache(f"a database whose vectors table has columns {', '.join(columns)}")


def _set_aside(path: Path) -> Path:
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    aside = path.with_name(f"{path.name}.damaged")
    os.replace(path, aside)
    return aside


class CachedEmbedder:
    """Embed through ``inner``, remembering every row in the SQLite file at ``path``.

    ``owned``: the file is the caller's own (a workspace's ``.memstrata/embeddings.db``): its
    folder is made when missing, and a file that is no cache is set aside instead of refused.
    """

    def __init__(
        self,
        inner: Embedder,
        path: Path,
        batch_size: int = 64,
        cache_queries: bool = True,
        *,
        owned: bool = False,
    ) -> None:
        self.inner = inner
        self.batch_size = batch_size
        #: False: queries always go to the model (so timings include embedding them)
        self.cache_queries = cache_queries
        #: what opening the file did that a reader should know ("" when nothing)
        self.note = ""
        if owned:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.parent.is_dir():
            raise InputError(f"{path}: no folder {path.parent} to keep an embedding cache in")
        try:
            self._db = _open(path)
        except (sqlite3.DatabaseError, NotACache) as error:
            if isinstance(error, sqlite3.DatabaseError) and is_disk_full(error):
                raise disk_full(path, error) from error  # named: the file is sound
            if isinstance(error, sqlite3.DatabaseError) and not is_damage(error):
                raise  # busy, read-only: the file may be fine
            why = str(error) if isinstance(error, NotACache) else f"SQLite: {error}"
            if not owned:
                raise InputError(f"{path} is not an embedding cache ({why})") from error
            # Only a cache: a damaged one is begun anew (set aside for whoever wants to look).
            aside = _set_aside(path)
            self._db = _open(path)
            self.note = (
                f"{path} was not a usable embedding cache ({why}); set aside as {aside.name},"
                " embeddings are computed anew"
            )

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
        width = self.dim
        out = np.zeros((len(texts), width), dtype=np.float32)
        digests = [hashlib.sha256(text.encode("utf-8")).digest() for text in texts]
        found = self._lookup(digests, query, width)
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

    def _lookup(self, digests: list[bytes], query: bool, width: int) -> dict[bytes, Vectors]:
        """The cached rows of ``width`` floats; a row of another width is left out (missing)."""
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
                if len(blob) == 4 * width:
                    found[digest] = np.frombuffer(blob, dtype=np.float32)
        return found
