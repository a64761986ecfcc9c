"""Crash-safe file writes: temp file in the same folder, fsync, ``os.replace``, fsync the folder.

A reader sees either the old file or the new one, never a half-written one, even if the process
is killed mid-write. A replaced file keeps its permission bits; a new one gets what the umask
leaves of 0666, like any file a program creates.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from memstrata.errors import InputError, LockTimeout, WorkspaceReadOnly

T = TypeVar("T")

#: how often :func:`update_shared_file` reads a file again after another writer rewrote it
SHARED_FILE_ATTEMPTS = 20
#: after a rename, the replaced file is watched for late appends: until it was still for this
#: many checks, this far apart, and at most this many checks (~50 ms)
REPLACED_FILE_QUIET = 3
REPLACED_FILE_PAUSE_S = 0.002
REPLACED_FILE_CHECKS = 25


def write_atomic(
    path: Path, data: str | bytes, *, mode_of: Path | None = None, through_link: bool = False
) -> None:
    """Replace ``path`` with ``data`` atomically (UTF-8 for text); ``mode_of`` names a file
    whose mode it takes (a backup of a private file is as private), else it keeps its own.

    A symbolic link at ``path`` is replaced by the file, unless ``through_link``: then the file
    it points to is replaced and the link stays (a harness's settings kept in a dotfiles
    repository). Workspace files never write through: a link in a cloned workspace would
    otherwise let a topic write land anywhere the user can write.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if through_link and path.is_symlink():
        path = Path(os.path.realpath(path))
    with atomic_writer(path, mode_of=mode_of) as handle:
        handle.write(payload)


@contextmanager
def atomic_writer(path: Path, *, mode_of: Path | None = None) -> Iterator[BinaryIO]:
    """A binary handle whose content replaces ``path`` atomically when the block ends (for
    files written piece by piece, such as a vector side file too big to hold twice in memory);
    an exception leaves ``path`` as it was and no temp file behind."""
    fd, temp = _open_temp(path, mode_of)
    try:
        with _named(path), os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def write_json_atomic(path: Path, value: Any) -> None:
    """Write ``value`` as stable, human-readable JSON (sorted keys, trailing newline)."""
    write_atomic(path, json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def update_shared_file(path: Path, change: Callable[[bytes | None], tuple[bytes, T]]) -> T:
    """Write ``change(old)`` to a file other programs append to without our lock; return the
    second item of the change that was written.

    ``change`` gets the file's bytes (``None`` when it is missing) and returns its new bytes.
    New bytes that only add whole lines at the end are appended in place, in one write: an
    append by someone else is never at risk, and neither are the lines already there. Any other
    change is a temp file renamed over the file, but only while the file is still the one read
    (same inode, read bytes unchanged); bytes appended to it meanwhile are copied to the end of
    the new file. A missing file is created without replacing one made meanwhile. Whenever the
    file changed otherwise since it was read, it is read again and ``change`` called again.
    A file with other names (hard links: a snapshot's copy) is never appended to in place, which
    would change it under every name: it is replaced.

    Left open: a writer that opened the file before the rename and writes into it only after
    it has stayed still for a few milliseconds (or keeps it open, as a log tail does) still
    writes into the replaced file. Appending writers open, write and close within
    microseconds; the replaced file is watched that long for one descheduled between the two.
    """
    for _ in range(SHARED_FILE_ATTEMPTS):
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            data, result = change(None)
            if create_atomic(path, data):
                return result
            continue
        except PermissionError as error:
            raise InputError(f"{path}: cannot read ({error.strerror})") from error
        try:
            old = _read_range(fd, 0)
            data, result = change(old)
            if _only_adds_lines(old, data) and not _has_other_names(fd):
                written = _append_if_unchanged(path, fd, len(old), data[len(old) :])
            else:
                written = _replace_keeping_appends(path, fd, old, data)
        finally:
            os.close(fd)
        if written:
            return result
    raise LockTimeout(
        f"{path}: rewritten by another program on each of {SHARED_FILE_ATTEMPTS} tries; "
        "nothing was written"
    )


def create_atomic(path: Path, data: bytes) -> bool:
    """Create ``path`` holding ``data`` whole; ``False``, writing nothing, when it exists."""
    temp = _write_temp(path, data)
    try:
        try:
            # A hard link appears whole and, unlike a rename, never replaces what is there.
            os.link(temp, path)
        except FileExistsError:
            return False
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
                raise
            # A file system without hard links: a rename keeps the file whole, at the price of
            # a race with a writer that creates the same file in the same instant.
            if path.exists():
                return False
            os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    fsync_dir(path.parent)
    return True


def append_line(path: Path, line: str) -> None:
    """Append one line durably, first ending or cutting a last line that has no newline.

    Callers hold the workspace lock, so such a line is either one a person saved without a final
    newline (many editors do), which gets its newline, or the remains of an append killed
    mid-write, which is cut off: the write-ahead intent that caused it re-appends it whole. A
    torn line is one that is not valid UTF-8, holds the zero bytes a crash can leave, or, in a
    file of JSON lines (the line appended is JSON), does not parse. Other formats (such as
    ``.promoted``) keep a line of text, as their readers skip one they cannot use.

    A file with other names (hard links: a snapshot's copy, when a snapshot is opened as a
    workspace through the library) is not changed in place, which would change it under every
    name: the file is replaced by one holding the new line, and the other names keep the old.
    """
    payload = (line.rstrip("\n") + "\n").encode("utf-8")
    try:
        # 0666 leaves the mode to the umask, as for any new file.
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as error:
        _raise_if_refused(error, path)
        raise
    try:
        size = keep = os.fstat(fd).st_size
        if size:
            end = _end_of_last_full_line(fd, size)
            if end != size:
                if _is_whole_line(os.pread(fd, size - end, end), like=line):
                    payload = b"\n" + payload
                else:
                    keep = end
        if _has_other_names(fd):
            whole = _read_range(fd, 0, keep) + payload
        else:
            with _named(path):
                try:
                    if keep != size:
                        os.ftruncate(fd, keep)
                    # pwrite may write part of the line and say so only by its count (a disk
                    # filling up): the rest is written, or the part cut off again
                    done = 0
                    while done < len(payload):
                        done += _wrote(os.pwrite(fd, payload[done:], keep + done))
                    os.fsync(fd)
                except OSError:
                    with suppress(OSError):
                        os.ftruncate(fd, keep)
                    raise
            return
    finally:
        os.close(fd)
    write_atomic(path, whole)


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


def _open_temp(path: Path, mode_of: Path | None = None) -> tuple[int, Path]:
    """A new, empty temp file beside ``path`` with the mode of ``mode_of``, else the mode
    ``path`` has, else the one a new file gets."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode: int | None = None
        for source in (mode_of, path):
            if source is None:
                continue
            try:
                mode = stat.S_IMODE(os.stat(source).st_mode)
                break
            except FileNotFoundError:
                continue
        while True:
            # os.urandom, not the secrets module, whose import costs every prompt hook ~4 ms
            temp = path.parent / f".{path.name}.{os.urandom(4).hex()}.tmp"
            try:
                # A new file gets 0666 less the umask from the kernel itself: reading the umask
                # means setting it (os.umask), which races with other threads creating files.
                # A replacement starts private and gets the old mode below, never wider.
                fd = os.open(
                    temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else 0o600
                )
                break
            except FileExistsError:
                continue
    except OSError as error:
        _raise_if_refused(error, path)
        raise
    if mode is not None:
        # A file system without Unix modes (FAT, some network mounts) has none to keep.
        with suppress(OSError):
            os.fchmod(fd, mode)
    return fd, temp


def _write_temp(path: Path, data: bytes) -> Path:
    """A temp file beside ``path`` holding ``data``, on disk (fsync'd); none left on failure."""
    fd, temp = _open_temp(path)
    try:
        with _named(path), os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


@contextmanager
def _named(path: Path) -> Iterator[None]:
    """Name ``path`` in a full disk's error: ``write`` and ``fsync`` raise ENOSPC without a
    file name, and a bare "No space left on device" leaves the user guessing which file (and
    which disk) it was. It stays an :class:`OSError`, so every caller handles it as before."""
    try:
        yield
    except OSError as error:
        if error.filename is None and error.errno in (errno.ENOSPC, errno.EDQUOT):
            raise OSError(error.errno, error.strerror, str(path)) from error
        raise


def _raise_if_refused(error: OSError, path: Path) -> None:
    """Turn a refused write into :class:`WorkspaceReadOnly`; leave any other error alone."""
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        raise WorkspaceReadOnly(f"{path}: cannot write ({error.strerror})") from error


def _append_if_unchanged(path: Path, fd: int, size: int, data: bytes) -> bool:
    """Append ``data`` if ``path`` is still the file open as ``fd`` and still ``size`` long."""
    try:
        out = os.open(path, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        return False
    except OSError as error:
        _raise_if_refused(error, path)
        raise
    try:
        now = os.fstat(out)
        if not _same_file(now, os.fstat(fd)) or now.st_size != size:
            return False  # someone wrote since we read: our line may belong elsewhere now
        with _named(path):
            _append_whole(out, size, data)
    finally:
        os.close(out)
    return True


def _append_whole(fd: int, size: int, data: bytes) -> None:
    """Append ``data`` to the file open (``O_APPEND``) as ``fd``, ``size`` long before, durably
    or not at all: a disk that fills part-way takes a short write without complaint, and the
    part would stay as a line cut short (a fact of half its words). It is cut off again, unless
    someone else appended after it meanwhile (their line is not ours to cut)."""
    done = 0
    try:
        while done < len(data):
            done += _wrote(os.write(fd, data[done:]))
        os.fsync(fd)
    except OSError:
        with suppress(OSError):
            if os.fstat(fd).st_size == size + done:
                os.ftruncate(fd, size)
        raise


def _wrote(count: int) -> int:
    """``count`` bytes were written; none at all is a full disk that said nothing."""
    if count <= 0:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return count


def _replace_keeping_appends(path: Path, fd: int, old: bytes, data: bytes) -> bool:
    """Rename ``data`` over ``path`` if it still starts with ``old``, then copy what was
    appended to the replaced file (open as ``fd``) meanwhile to the end of the new one."""
    temp = _write_temp(path, data)
    try:
        # As late as possible: a rewrite after this check and before the rename is lost.
        if not (_is_same_path(path, fd) and _read_range(fd, 0, len(old)) == old):
            temp.unlink()
            return False
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    copied, quiet = len(old), 0
    # A writer that opened the file before the rename may write into it a moment later (an
    # `echo >>` descheduled between its open and its write): watch the replaced file until it
    # stays still for a few checks, copying what arrives. No one can open it by name any more.
    for _ in range(REPLACED_FILE_CHECKS):
        late = _read_range(fd, copied)
        if late:
            if not _append_bytes(path, late):
                return True  # deleted since: those lines went with the file, as they would have
            copied, quiet = copied + len(late), 0
        else:
            quiet += 1
            if quiet >= REPLACED_FILE_QUIET:
                break
        time.sleep(REPLACED_FILE_PAUSE_S)
    return True


def _append_bytes(path: Path, data: bytes) -> bool:
    """Append ``data`` to ``path`` durably; ``False`` when the file is gone."""
    try:
        out = os.open(path, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        return False
    try:
        with _named(path):
            _write_all(out, data)
            os.fsync(out)
    finally:
        os.close(out)
    return True


def _only_adds_lines(old: bytes, new: bytes) -> bool:
    """Whether ``new`` is ``old`` with whole lines added at its end."""
    at_line_start = not old or old.endswith(b"\n")
    return at_line_start and len(new) > len(old) and new.startswith(old) and new.endswith(b"\n")


def _has_other_names(fd: int) -> bool:
    """Whether the file open as ``fd`` has hard links besides the name it was opened by."""
    return os.fstat(fd).st_nlink > 1


def _is_same_path(path: Path, fd: int) -> bool:
    try:
        return _same_file(os.stat(path), os.fstat(fd))
    except FileNotFoundError:
        return False


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _read_range(fd: int, start: int, stop: int | None = None) -> bytes:
    """Bytes ``start`` to ``stop`` (the end when ``None``) of the file open as ``fd``."""
    chunks: list[bytes] = []
    position = start
    while stop is None or position < stop:
        want = 1 << 20 if stop is None else min(1 << 20, stop - position)
        chunk = os.pread(fd, want, position)
        if not chunk:
            break
        chunks.append(chunk)
        position += len(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` (one write unless the disk fills or a signal cuts it short)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _is_whole_line(tail: bytes, like: str) -> bool:
    """Whether ``tail``, a last line without its newline, is a whole line of a file of ``like``."""
    try:
        text = tail.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return False  # cut inside a character
    if "\0" in text or not text.strip():
        return False
    return _parses_as_json(text) if _parses_as_json(like) else True


def _parses_as_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


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
