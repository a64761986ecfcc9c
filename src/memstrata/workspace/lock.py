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
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from memstrata.errors import LockTimeout, WorkspaceReadOnly

#: how long a read waits for the lock before it goes on without its upkeep (a refresh from
#: the files, a few embeddings): a write holds it for milliseconds, a rebuild for minutes
READ_WAIT_S = 1.0


class WorkspaceLock:
    """An inter-process, intra-process re-entrant exclusive lock on one file."""

    def __init__(self, path: Path, timeout_s: float = 30.0) -> None:
        self.path = path
        self.timeout_s = timeout_s
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None
        #: ``time.monotonic()`` of the last attempt that found the lock busy
        self._missed_at = float("-inf")

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock for the duration of the ``with`` block (waiting up to ``timeout_s``,
        then :class:`~memstrata.errors.LockTimeout`)."""
        with self._holding(None) as held:
            assert held  # waiting raised, or it is held
            yield

    def attempt(self, timeout_s: float) -> AbstractContextManager[bool]:
        """Hold the lock for the ``with`` block if it can be had within ``timeout_s``: yields
        whether it is held. For a read's upkeep (a refresh, a few embeddings), which may be
        skipped while another process changes the workspace: waiting out a rebuild or a long
        import would hold the read up for minutes."""
        # A read attempts several times (the index, the refresh, the embeddings): once one
        # found the lock busy, the next ones within as long only try, not wait again.
        if time.monotonic() - self._missed_at < timeout_s:
            timeout_s = 0.0
        return self._holding(timeout_s)

    @contextmanager
    def _holding(self, timeout_s: float | None) -> Iterator[bool]:
        """Held (re-entrantly) for the block: yields True; False when ``timeout_s`` is given
        and ran out (None: :attr:`timeout_s`, then :class:`LockTimeout`)."""
        with self._thread_lock:
            if self._depth == 0:
                try:
                    self._fd = self._acquire(timeout_s)
                except LockTimeout:
                    if timeout_s is None:
                        raise
                    self._missed_at = time.monotonic()
                    yield False
                    return
            self._depth += 1
            try:
                yield True
            finally:
                self._depth -= 1
                if self._depth == 0 and self._fd is not None:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
                    os.close(self._fd)
                    self._fd = None

    def _acquire(self, timeout_s: float | None = None) -> int:
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
        timeout_s = self.timeout_s if timeout_s is None else timeout_s
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeout(
                        f"{self.path}: another memstrata process held the workspace lock for "
                        f"{timeout_s:.0f}s"
                    ) from None
                time.sleep(0.005)
