"""``snapshot prune``: remove all but the newest snapshots, which otherwise only accumulate.

Every autonomous garden run and every restore takes a snapshot, and each holds a whole copy of
``raw/sessions.db``: months of imported transcripts make that hundreds of megabytes a copy.
Nothing removes them but this, asked for by hand. What is never removed: the newest ``keep``
snapshots, and the two an unfinished restore names (the one it restores and the one holding the
state before it), which it needs to be finished or undone.

A snapshot is removed by renaming its folder to a hidden name first (``list`` passes hidden
folders over), then deleting it: a prune that is killed partway leaves no half snapshot that
lists as whole, and the next prune deletes what is left of it. Files a snapshot shares with
others (hard links to unchanged files) stay in those.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memstrata.errors import InputError
from memstrata.maintain.restore import pending_restore
from memstrata.maintain.snapshot import list_snapshots
from memstrata.maintain.state import GardenPaths

if TYPE_CHECKING:
    from memstrata.memory import Memory

#: the prefix of a snapshot folder being removed
_REMOVING = ".removing-"


@dataclass(frozen=True, slots=True)
class PruneResult:
    """What a prune removed (or would remove), and what it kept."""

    removed: tuple[str, ...]
    kept: tuple[str, ...]
    #: the bytes the removed snapshots held that no other snapshot shares
    freed_bytes: int
    dry_run: bool = False


def prune_snapshots(memory: Memory, keep: int, *, dry_run: bool = False) -> PruneResult:
    """Remove every snapshot but the newest ``keep`` (at least 1) and those an unfinished
    restore needs; oldest first, as :func:`list_snapshots` lists them."""
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 1:
        raise InputError(f"keep must be a whole number of at least 1, not {keep!r}")
    folder = GardenPaths(memory.workspace).snapshots
    with memory.lock.held():
        found = [info.id for info in list_snapshots(memory.workspace)]
        pending = pending_restore(memory.workspace)
        needed = {pending.snapshot, pending.safety_snapshot} if pending is not None else set()
        newest = set(found[-keep:])
        removed = [name for name in found if name not in newest and name not in needed]
        freed = sum(_own_bytes(folder / name) for name in removed)
        if not dry_run:
            for name in removed:
                hidden = folder / f"{_REMOVING}{name}"
                os.replace(folder / name, hidden)
            _delete_hidden(folder)
    kept = tuple(name for name in found if name not in removed)
    return PruneResult(tuple(removed), kept, freed, dry_run)


def _own_bytes(snapshot: Path) -> int:
    """The bytes of the files under ``snapshot`` that have no other name (hard link)."""
    total = 0
    for parent, _folders, names in os.walk(snapshot):
        for name in names:
            try:
                found = os.lstat(os.path.join(parent, name))
            except OSError:
                continue
            if found.st_nlink == 1:
                total += found.st_size
    return total


def _delete_hidden(folder: Path) -> None:
    """Delete every snapshot folder a prune renamed, this one's and a killed one's."""
    for path in folder.iterdir():
        if path.name.startswith(_REMOVING) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
