"""A throwaway copy of what ``promote`` reads and writes, for ``promote --dry-run``.

A dry run must say what the real run will do, and the real run judges each fact against the
wiki as the facts above it left it ("Ann drinks tea", "Ann no longer drinks tea", then "Ann
drinks tea" again: admitted, superseded, superseded). Previewing fact by fact against the wiki
as it is cannot know that; the real promotion, run on a copy, can, with no second path to keep
in step with the gate. The copy holds the settings, the journal days and ``.promoted``, the
topics, the proposals and the write intents, and the index (through SQLite's backup API, so
nothing is read again or embedded anew); the approximate vector side files are linked, as a
query only reads them. The rest of ``memory/`` (the gardener's ledger and reports, metrics) is
never read by a promotion and is left out.

A topic's ``summary.md``, ``detail.md`` and ``meta.json`` are hard links where the file system
allows (else copies): memstrata only ever replaces them (a temp file renamed over the name,
which leaves the original alone), and a link costs a small part of a copy (at 5,000 topics, a
copy of them took 7 s more on a disk where creating a file takes 0.7 ms). What is appended to
in place (``history.jsonl``, the journal, ``.promoted``) is always copied.

The copy must be of one moment (a topic written while it is copied would be half old, half
new), yet holding the workspace lock for all of it would keep every writer waiting for seconds
in a large workspace. So the files are copied without the lock, each with the stamp it had
before (size, mtime, ctime, inode); then, under the lock, the sources are only looked at again,
and what changed, came or went since is brought in step before the index is copied. The lock
is held for a walk of stamps and the few files another process wrote meanwhile.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, closing, suppress
from pathlib import Path

from memstrata.journal.promoted import PROMOTED_FILE
from memstrata.model import Problem
from memstrata.wiki.store import DETAIL, META, SUMMARY
from memstrata.workspace.layout import Workspace

#: the folders of ``memory/`` a promotion reads or writes, beside the journal days
_FOLDERS = ("topics", "proposals", ".pending")
#: files written only by replacing them whole (see the module docstring): linked, not copied
_REPLACED_WHOLE = frozenset({SUMMARY, DETAIL, META})

#: what tells that a file was written since it was copied
_Stamp = tuple[int, int, int, int]


def copy_for_rehearsal(
    workspace: Workspace,
    index: sqlite3.Connection,
    folder: Path,
    lock: AbstractContextManager[object],
) -> tuple[Workspace, list[Problem]]:
    """Lay out in ``folder`` a workspace holding what a promotion in ``workspace`` reads,
    with ``index`` (its open index) copied; return it and a problem for each file that could
    not be copied (the rehearsal goes on without it). ``lock`` (the workspace lock, entered
    once) is held only to bring the copy in step and copy the index: the copy is of the
    moment it was held."""
    copy = Workspace(folder)
    for name in _FOLDERS:  # the folders themselves, even empty, as the workspace has them
        if (workspace.memory_dir / name).is_dir():
            (copy.memory_dir / name).mkdir(parents=True)
    copy.memory_dir.mkdir(parents=True, exist_ok=True)
    copier = _Copier(workspace.root, copy.root)
    copier.bring_in_step()
    with lock:
        copier.bring_in_step()
        copy.state_dir.mkdir()
        with closing(sqlite3.connect(copy.index_db)) as target:
            index.backup(target)
    if workspace.ann_dir.is_dir():
        # Without them the nearest topics of a large workspace are searched exactly, and may
        # differ from those the real run finds (where no link can be made, they may).
        with suppress(OSError):
            copy.ann_dir.symlink_to(workspace.ann_dir, target_is_directory=True)
    problems = [
        Problem(workspace.relative(workspace.root / path), None, f"left out of the dry run: {why}")
        for path, why in sorted(copier.failed.items())
    ]
    return copy, problems


class _Copier:
    """Copies what a promotion reads from one workspace root to another, and on each later
    call only what changed, came or went since the call before."""

    def __init__(self, source: Path, target: Path) -> None:
        self.source, self.target = source, target
        #: relative path → the stamp the source had when it was copied
        self.copied: dict[str, _Stamp] = {}
        #: relative path → why it could not be read or copied (the last call's)
        self.failed: dict[str, str] = {}

    def bring_in_step(self) -> None:
        self.failed = {}
        found: dict[str, _Stamp] = {}
        for relative, stamp in self._sources():
            found[relative] = stamp
            if self.copied.get(relative) != stamp:
                self._copy(relative, stamp)
        for relative in sorted(set(self.copied) - set(found)):
            self._remove(relative)  # gone since: so goes its copy

    def _remove(self, relative: str) -> None:
        """Remove the copy of a file, and the folders it leaves empty (a topic folder without
        files would read as a damaged topic)."""
        with suppress(FileNotFoundError):
            (self.target / relative).unlink()
        del self.copied[relative]
        memory = self.target / "memory"
        for folder in (self.target / relative).parents:
            if folder == memory or not folder.is_relative_to(memory):
                break
            try:
                folder.rmdir()
            except OSError:  # not empty (or not there): the folders above are not either
                break

    def _sources(self) -> Iterator[tuple[str, _Stamp]]:
        """Each file a promotion reads, relative to the root, with its stamp (links followed:
        a linked topic folder is read as the real run reads it). Plain strings and
        ``os.scandir``: the second walk is done holding the lock, over every topic file."""
        memory = self.source / "memory"
        yield from self._stamped("memstrata.toml")
        days = sorted(path.name for path in memory.glob("*.md"))
        for name in [*days, PROMOTED_FILE]:
            yield from self._stamped(f"memory/{name}", missing_ok=True)
        for name in _FOLDERS:
            if (memory / name).exists():
                yield from self._walk(f"memory/{name}", set())

    def _stamped(self, relative: str, missing_ok: bool = False) -> Iterator[tuple[str, _Stamp]]:
        try:
            info = os.stat(f"{self.source}/{relative}")
        except FileNotFoundError:
            if not missing_ok:
                self.failed[relative] = "it went away while it was being copied"
            return
        except OSError as error:
            self.failed[relative] = error.strerror or str(error)
            return
        yield relative, (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)

    def _walk(self, relative: str, seen: set[tuple[int, int]]) -> Iterator[tuple[str, _Stamp]]:
        """The files under the folder ``relative`` with their stamps, in name order; a folder
        reached again through a link is walked once."""
        try:
            info = os.stat(f"{self.source}/{relative}")
            if (info.st_dev, info.st_ino) in seen:
                return
            seen.add((info.st_dev, info.st_ino))
            with os.scandir(f"{self.source}/{relative}") as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as error:
            if not isinstance(error, FileNotFoundError):  # else: gone since it was listed
                self.failed[relative] = error.strerror or str(error)
            return
        for entry in entries:
            inner = f"{relative}/{entry.name}"
            try:
                is_folder = entry.is_dir()  # through a link, as the real run reads it
            except OSError:
                is_folder = False
            if is_folder:
                yield from self._walk(inner, seen)
            else:
                yield from self._stamped(inner)

    def _copy(self, relative: str, stamp: _Stamp) -> None:
        source, target = self.source / relative, self.target / relative
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with suppress(FileNotFoundError):
                target.unlink()  # never written through: it may be a link to the source
            if source.name in _REPLACED_WHOLE:
                with suppress(OSError):  # another file system, or links not allowed: copied
                    os.link(source, target)
                    # a link changes the file's ctime: its stamp is the one the link left
                    info = target.stat()
                    linked = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
                    self.copied[relative] = linked
                    return
            # Timestamps kept (copy2): the index's stamps (size and mtime) then match, and the
            # copy's first refresh reads nothing again.
            shutil.copy2(source, target)
        except OSError as error:
            self.failed[relative] = error.strerror or str(error)
            self.copied.pop(relative, None)
            return
        self.copied[relative] = stamp
