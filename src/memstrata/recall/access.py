"""The access sidecar: how often and when each item was recalled, kept outside the index.

``.memstrata/access.db`` is separate from ``index.db`` so that a rebuild (which deletes and
recreates the index) keeps the use history that recall ranking and the gardener's decay rely on.

A topic is keyed by its id. A journal entry is cited by its line (``memory/<day>.md#L6``), but
lines move (``log`` writes above a day's ``## Retain`` section, a person edits the file), so
its counts are keyed by its file and a digest of its text: they follow the entry, and a line
that now holds another entry does not inherit them.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memstrata.errors import InputError, WorkspaceReadOnly
from memstrata.sqlite import connect, immediate, is_disk_full

_SCHEMA = """
CREATE TABLE IF NOT EXISTS access (
    source TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    last TEXT NOT NULL
)
"""


_JOURNAL_LINE = re.compile(r"^(?P<file>.+)#L(?P<line>\d+)$")


def access_keys(index: sqlite3.Connection, sources: Iterable[str]) -> dict[str, str]:
    """Each source's key in the access log: a topic id as it is; a journal line as
    ``<file>#<digest of its text>`` (a line the index does not hold keeps its own name)."""
    keys: dict[str, str] = {}
    for source in dict.fromkeys(sources):
        keys[source] = source
        match = _JOURNAL_LINE.match(source)
        if match is None:
            continue
        row = index.execute(
            "SELECT text FROM journal WHERE source = ? AND line = ?",
            (match["file"], int(match["line"])),
        ).fetchone()
        if row is not None:
            keys[source] = journal_key(match["file"], row[0])
    return keys


def item_keys(items: Iterable[tuple[str, str]]) -> dict[str, str]:
    """:func:`access_keys` of items whose text is in hand, ``(source, text)`` as recall read
    them from the index: the same keys, without reading each journal line again."""
    keys: dict[str, str] = {}
    for source, text in items:
        match = _JOURNAL_LINE.match(source)
        keys[source] = source if match is None else journal_key(match["file"], text)
    return keys


def journal_key(file: str, text: str) -> str:
    """The access-log key of the journal entry ``text`` in ``file``."""
    return f"{file}#{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}"


@dataclass(frozen=True, slots=True)
class Access:
    """How often an item was recalled and when last."""

    count: int
    last: str


class AccessLog:
    """Read and record accesses; a workspace we cannot write records nothing.

    The counts only rank and decay, so they never stop a recall: a file we may not write is
    read as it is, and a damaged one is set aside (``access.db.damaged``, for whoever wants
    to look) and begun anew, which :attr:`note` says.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._read_only = False
        #: what happened to a file that could not be used as it was ("" when nothing did)
        self.note = ""

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                self._db = connect(self.path)
                self._db.execute(_SCHEMA)
            except (WorkspaceReadOnly, InputError, sqlite3.DatabaseError) as error:
                self._db = self._reopen(error)
        return self._db

    def _reopen(self, error: Exception) -> sqlite3.Connection:
        if is_disk_full(error):
            raise error  # a sound file on a full disk: nothing to set aside
        if self._db is not None:
            self._db.close()
            self._db = None
        if isinstance(error, WorkspaceReadOnly) or "readonly" in str(error):
            self._read_only = True
            return connect(self.path, readonly=True)
        try:
            return self._begin_anew(error)
        except OSError:  # cannot even set it aside: read nothing, record nothing
            self._read_only = True
            self.note = f"{self.path} is damaged ({error}); recall goes on without counts"
            db = connect(Path(":memory:"))
            db.execute(_SCHEMA)
            return db

    def _begin_anew(self, error: Exception) -> sqlite3.Connection:
        aside = self.path.with_name(f"{self.path.name}.damaged")
        for suffix in ("-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        os.replace(self.path, aside)
        self.note = (
            f"{self.path} was damaged ({error}); set aside as {aside.name}, counts begin anew"
        )
        db = connect(self.path)
        db.execute(_SCHEMA)
        return db

    def get(self, sources: Iterable[str]) -> dict[str, Access]:
        keys = list(dict.fromkeys(sources))
        if not keys or not self.path.exists():
            return {}
        try:
            db = self._open()
        except WorkspaceReadOnly:
            return {}  # not even readable: no counts, the recall goes on
        found: dict[str, Access] = {}
        try:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                rows = db.execute(
                    f"SELECT source, count, last FROM access WHERE source IN ({marks})", chunk
                )
                for row in rows:
                    found[row["source"]] = Access(row["count"], row["last"])
        except sqlite3.DatabaseError:
            return {}  # damaged under a read-only mount: no counts, the recall goes on
        return found

    def record(self, sources: Iterable[str], when: str) -> None:
        keys = list(dict.fromkeys(sources))
        if not keys:
            return
        db = self._open()
        if self._read_only:
            return
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
