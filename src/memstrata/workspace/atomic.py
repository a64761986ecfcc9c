"""Crash-safe file writes: temp file in the same folder, fsync, ``os.replace``, fsync the folder.

A reader sees either the old file or the new one, never a half-written one, even if the process
is killed mid-write.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from memstrata.errors import WorkspaceReadOnly


def write_atomic(path: Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` atomically (UTF-8 for text)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_writer(path) as handle:
        handle.write(payload)


@contextmanager
def atomic_writer(path: Path) -> Iterator[BinaryIO]:
    """A binary handle whose content replaces ``path`` atomically when the block ends (for
    files written piece by piece, such as a vector side file too big to hold twice in memory);
    an exception leaves ``path`` as it was and no temp file behind."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        raise WorkspaceReadOnly(f"{path}: cannot write ({error.strerror})") from error
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def write_json_atomic(path: Path, value: Any) -> None:
    """Write ``value`` as stable, human-readable JSON (sorted keys, trailing newline)."""
    write_atomic(path, json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def append_line(path: Path, line: str) -> None:
    """Append one line durably. A torn last line (a writer killed mid-append) is cut off first.

    Callers hold the workspace lock, so a last line without its newline can only be the
    remains of a crashed append; the write-ahead intent that caused it re-appends it whole.
    """
    payload = (line.rstrip("\n") + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        raise WorkspaceReadOnly(f"{path}: cannot write ({error.strerror})") from error
    try:
        size = os.fstat(fd).st_size
        if size:
            end = _end_of_last_full_line(fd, size)
            if end != size:
                os.ftruncate(fd, end)
            size = end
        os.pwrite(fd, payload, size)
        os.fsync(fd)
    finally:
        os.close(fd)


def _end_of_last_full_line(fd: int, size: int) -> int:
    """Offset just after the last newline in the file (0 when there is none)."""
    position = size
    while position > 0:
        start = max(0, position - 4096)
        chunk = os.pread(fd, position - start, start)
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            return start + newline + 1
        position = start
    return 0


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort where directories cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
