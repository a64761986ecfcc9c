"""The workspace lock: one mutation at a time across processes.

``flock`` on ``.memstrata/lock``: the kernel releases it when the holder dies, so a killed
process never leaves the workspace locked. Re-entrant within a process so that composed
operations (a write that updates the index) do not deadlock on themselves.
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memstrata.errors import LockTimeout, WorkspaceReadOnly


class WorkspaceLock:
    """An inter-process, intra-process re-entrant exclusive lock on one file."""

    def __init__(self, path: Path, timeout_s: float = 30.0) -> None:
        self.path = path
        self.timeout_s = timeout_s
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock for the duration of the ``with`` block."""
        with self._thread_lock:
            if self._depth == 0:
                self._fd = self._acquire()
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0 and self._fd is not None:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
                    os.close(self._fd)
                    self._fd = None

    def _acquire(self) -> int:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(
                self.path, os.O_RDWR | os.O_CREAT, 0o666
            )  # the umask decides, as for any file
        except OSError as error:
            if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            raise WorkspaceReadOnly(
                f"{self.path}: cannot take the workspace lock ({error.strerror})"
            ) from error
        deadline = time.monotonic() + self.timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeout(
                        f"{self.path}: another memstrata process held the workspace lock for "
                        f"{self.timeout_s:.0f}s"
                    ) from None
                time.sleep(0.005)
