"""Opening SQLite the one way memstrata uses it: WAL, a busy timeout, explicit transactions."""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memstrata.errors import DiskFull, InputError, WorkspaceReadOnly

#: a database file's identity: (device, inode), or None when there is no such file
FileIdentity = tuple[int, int] | None

BUSY_TIMEOUT_MS = 30_000
#: SQLite's extended code for a -shm file that could not be grown (no name in :mod:`sqlite3`)
_SQLITE_IOERR_SHMSIZE = getattr(sqlite3, "SQLITE_IOERR_SHMSIZE", 4874)


def read_only_uri(path: Path, *, immutable: bool = False) -> str:
    """A ``file:`` URI opening ``path`` read-only (``immutable``: without locks or -wal/-shm).

    The path is percent-encoded: pasted in as it is, a ``#`` or ``?`` in a folder name ends the
    path early (SQLite then opens, or creates, some other file) and a ``%`` is decoded.
    """
    query = "mode=ro&immutable=1" if immutable else "mode=ro"
    return f"{path.absolute().as_uri()}?{query}"


def connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    """Open ``path`` in autocommit mode (we issue ``BEGIN IMMEDIATE`` ourselves) with WAL.

    ``readonly`` opens the file immutable: no -wal/-shm files are needed, so it works on a
    read-only mount; the caller must not expect writes by others to show up.
    """
    try:
        if readonly:
            connection = sqlite3.connect(
                read_only_uri(path, immutable=True),
                uri=True,
                isolation_level=None,
                check_same_thread=False,
            )
        else:
            if str(path) != ":memory:":
                path.parent.mkdir(parents=True, exist_ok=True)
                # SQLite creates a database 0644 whatever the umask, and its -wal and -shm
                # files after it: made here first, a group-shared workspace stays writable.
                os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o666))
            connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not readonly:
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = NORMAL")
    except OSError as error:
        if is_disk_full(error):
            raise disk_full(path, error) from error
        raise WorkspaceReadOnly(f"{path}: cannot open ({error.strerror})") from error
    except sqlite3.DatabaseError as error:
        message = str(error)
        if is_disk_full(error):
            raise disk_full(path, error) from error
        if "readonly" in message or "unable to open" in message:
            raise WorkspaceReadOnly(f"{path}: cannot open for writing ({message})") from error
        raise InputError(f"{path}: not a usable SQLite database ({message})") from error
    connection.row_factory = sqlite3.Row
    return connection


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` says the disk is full (SQLite's words, or the OS's ENOSPC): a file
    that failed so is sound, never to be taken for damaged and set aside."""
    if isinstance(error, OSError):
        return error.errno in (errno.ENOSPC, errno.EDQUOT)
    # SQLite says "disk I/O error" when it cannot grow the -shm file of a WAL database, which
    # only a full disk refuses: read as some other failure, a sound file would be named
    # damaged (and the derived index deleted to be made anew, on a disk with no room for it).
    code = getattr(error, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_FULL, _SQLITE_IOERR_SHMSIZE) or "disk is full" in str(error)


def is_damage(error: BaseException) -> bool:
    """Whether ``error`` says a database file is damaged (SQLite's "malformed" or "not a
    database"), as opposed to busy, full or read-only."""
    code = getattr(error, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "malformed" in str(error)


def database_error_message(error: sqlite3.DatabaseError) -> str:
    """The one line a user reads for a database error no call could mend, with what to do when
    it is damage. The error does not say which file it came from, so the line names both, each
    with its own mend: the derived index is made anew from the files (reads do so themselves;
    other commands do not), while the raw database holds the only copy of what was imported.
    Callers that know the file raise an error naming it instead."""
    if is_disk_full(error):
        return f"the disk is full ({error}): free some space and try again"
    if is_damage(error):
        return (
            f"database error: {error}: a damaged database file. If it is .memstrata/index.db, "
            "'memstrata rebuild' makes it anew from the files; if it is raw/sessions.db "
            "('memstrata status' says so), move it aside and import the transcripts again "
            "('memstrata ingest'), or restore a snapshot ('memstrata snapshot list')"
        )
    return f"database error: {error}"


def is_sound(db: sqlite3.Connection) -> bool:
    """Whether SQLite's own check finds ``db``'s file well formed (it reads every page: for an
    error path, not for every open)."""
    try:
        return db.execute("PRAGMA quick_check(1)").fetchone()[0] == "ok"
    except sqlite3.DatabaseError:
        return False


def disk_full(path: Path, error: BaseException) -> DiskFull:
    """The error that says so, naming the file that could not grow."""
    return DiskFull(f"{path}: the disk is full ({error}); free some space and try again")


@contextmanager
def immediate(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction that takes the write lock up front (no upgrade deadlocks)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def file_identity(path: Path) -> FileIdentity:
    """Which file ``path`` names now: an open connection keeps reading a file that another
    process deleted and made anew (a rebuild, a snapshot restore), so callers compare."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return (info.st_dev, info.st_ino)
