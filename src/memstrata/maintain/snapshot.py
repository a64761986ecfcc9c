"""Snapshots: a copy of the canonical files and the raw database, taken before autonomous work.

``.memstrata/snapshots/<id>/`` holds ``memstrata.toml``, ``MEMORY.md``, ``prompt/``, ``memory/``
(file by file; a file unchanged since the previous snapshot is a hard link to that snapshot's
copy) and ``raw/sessions.db`` (through SQLite's online backup API, so a database being written
is copied consistently), plus ``manifest.json``, which names every canonical file with its
SHA-256. A snapshot is assembled in a hidden folder and renamed into place, so a killed snapshot
never lists as one.

Restoring one is :mod:`memstrata.maintain.restore`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memstrata.clock import to_iso
from memstrata.errors import InputError
from memstrata.maintain.state import GardenPaths
from memstrata.sqlite import read_only_uri
from memstrata.workspace.atomic import write_json_atomic
from memstrata.workspace.layout import Workspace
from memstrata.workspace.textfile import read_text

if TYPE_CHECKING:
    from memstrata.memory import Memory

CANONICAL = ("memstrata.toml", "MEMORY.md", "prompt", "memory")
RAW = "raw/sessions.db"
MANIFEST = "manifest.json"
#: what every manifest holds, and of which type; newer ones add ``contents`` (path → SHA-256)
#: and ``raw_bytes``
_MANIFEST_FIELDS: dict[str, type] = {
    "id": str,
    "time": str,
    "reason": str,
    "files": int,
    "bytes": int,
    "path": str,
}


@dataclass(frozen=True, slots=True)
class SnapshotInfo:
    """One snapshot: when, why, and how much it holds."""

    id: str
    time: str
    reason: str
    files: int
    bytes: int
    path: str
    #: why the snapshot cannot be restored (its manifest does not parse), or empty
    damaged: str = ""


def canonical_files(root: Path) -> Iterator[str]:
    """Relative paths of every canonical file under ``root`` (the raw database aside)."""
    for name in CANONICAL:
        path = root / name
        if path.is_file():
            yield name
        elif path.is_dir():
            for folder, _dirs, files in os.walk(path):
                for file_name in files:
                    full = Path(folder) / file_name
                    if full.is_file() and not full.is_symlink():
                        yield full.relative_to(root).as_posix()


def take_snapshot(memory: Memory, reason: str, now: datetime) -> SnapshotInfo:
    """Copy the canonical files and the raw database into a new snapshot (after finishing an
    interrupted restore: a snapshot of half of one would be no state the workspace ever had)."""
    # restore takes its own safety snapshot through this module: imported here, not at the top
    from memstrata.maintain.restore import finish_interrupted_restore

    with memory.lock.held():
        finish_interrupted_restore(memory, now)
        return take_snapshot_as_is(memory, reason, now)


def take_snapshot_as_is(memory: Memory, reason: str, now: datetime) -> SnapshotInfo:
    """:func:`take_snapshot` of the workspace as it is, an interrupted restore left unfinished
    (a restore takes its safety snapshot so)."""
    workspace = memory.workspace
    folder = GardenPaths(workspace).snapshots
    with memory.lock.held():
        folder.mkdir(parents=True, exist_ok=True)
        for leftover in folder.glob(".*.partial"):
            shutil.rmtree(leftover, ignore_errors=True)  # a killed snapshot, never listed
        snapshot_id = _unique_id(folder, "snap-" + to_iso(now).replace("-", "").replace(":", ""))
        partial = folder / f".{snapshot_id}.partial"
        earlier = [info for info in list_snapshots(workspace) if not info.damaged]
        previous = folder / earlier[-1].id if earlier else None
        known = manifest_contents(previous) if previous is not None else {}
        contents: dict[str, str] = {}
        total = 0
        for relative in canonical_files(workspace.root):
            target = partial / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            linked = _place(workspace.root / relative, target, previous, relative)
            total += target.stat().st_size
            known_digest = known.get(relative) if linked else None
            contents[relative] = known_digest or file_digest(target)
        files, raw_bytes = len(contents), None
        if workspace.raw_db.exists():
            target = partial / RAW
            target.parent.mkdir(parents=True, exist_ok=True)
            backup_database(workspace.raw_db, target)
            raw_bytes = target.stat().st_size
            files += 1
            total += raw_bytes
        info = SnapshotInfo(
            snapshot_id, to_iso(now), reason, files, total, workspace.relative(folder / snapshot_id)
        )
        write_json_atomic(partial / MANIFEST, _manifest(info, contents, raw_bytes))
        os.rename(partial, folder / snapshot_id)
    return info


def _place(source: Path, target: Path, previous: Path | None, relative: str) -> bool:
    """Copy ``source``, or hard-link the previous snapshot's copy when the file is unchanged
    (then say so: ``True``).

    Snapshot files are never written after they are made, so sharing them between snapshots
    is safe; a file counts as unchanged when its size and mtime match the copy's (``copy2``
    keeps the mtime), as rsync's ``--link-dest`` does.
    """
    info = source.stat()
    if previous is not None:
        earlier = previous / relative
        try:
            seen = earlier.stat()
            if (seen.st_size, seen.st_mtime_ns) == (info.st_size, info.st_mtime_ns):
                os.link(earlier, target)
                return True
        except OSError:
            pass  # not there, or no hard links on this file system: copy
    shutil.copy2(source, target)
    return False


def list_snapshots(workspace: Workspace) -> list[SnapshotInfo]:
    """Every complete snapshot, oldest first; one whose manifest does not parse says why in
    ``damaged``."""
    folder = GardenPaths(workspace).snapshots
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        manifest = path / MANIFEST
        if path.name.startswith(".") or not manifest.is_file():
            continue
        data, problem = _read_manifest(manifest)
        if problem:
            found.append(SnapshotInfo(path.name, "", "", 0, 0, workspace.relative(path), problem))
            continue
        found.append(SnapshotInfo(**{name: data[name] for name in _MANIFEST_FIELDS}))
    return found


def _read_manifest(path: Path) -> tuple[dict[str, object], str]:
    """The manifest's fields, or why they cannot be read."""
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        return {}, f"{MANIFEST} line {error.lineno}: {error.msg}"
    except (InputError, ValueError) as error:
        return {}, f"{MANIFEST}: {error}"
    if not isinstance(data, dict):
        return {}, f"{MANIFEST}: not a JSON object"
    for name, kind in {**_MANIFEST_FIELDS, "raw_bytes": int}.items():
        value = data.get(name)
        if name == "raw_bytes" and value is None:
            continue
        if not isinstance(value, kind) or isinstance(value, bool):
            return {}, f"{MANIFEST}: {name!r} is missing or not a {kind.__name__}"
    contents = data.get("contents", {})
    if not isinstance(contents, dict) or not all(
        isinstance(digest, str) for digest in contents.values()
    ):
        return {}, f"{MANIFEST}: 'contents' is not an object of file digests"
    return data, ""


def manifest_contents(snapshot: Path) -> dict[str, str]:
    """The file digests a sound manifest records (none for a snapshot made before they were)."""
    data, problem = _read_manifest(snapshot / MANIFEST)
    contents = data.get("contents", {}) if not problem else {}
    return dict(contents) if isinstance(contents, dict) else {}


def is_snapshot(folder: Path, snapshot_id: str) -> bool:
    return (
        not snapshot_id.startswith(".")
        and "/" not in snapshot_id
        and (folder / snapshot_id / MANIFEST).is_file()
    )


def verify_snapshot(source: Path, snapshot_id: str, outcome: str = "nothing was restored") -> None:
    """Refuse a snapshot that is not what was taken: a damaged manifest, or files that differ
    from the digests it records (a snapshot from before digests is taken as it is)."""
    data, problem = _read_manifest(source / MANIFEST)
    if problem:
        raise InputError(f"snapshot {snapshot_id} is damaged ({problem}); {outcome}")
    recorded = data.get("contents")
    if not isinstance(recorded, dict):
        return
    present = set(canonical_files(source))
    wrong = [f"{rel} is missing" for rel in sorted(set(recorded) - present)]
    wrong += [f"{rel} was not in it" for rel in sorted(present - set(recorded))]
    wrong += [
        f"{rel} differs"
        for rel in sorted(present & set(recorded))
        if file_digest(source / rel) != recorded[rel]
    ]
    raw = source / RAW
    raw_bytes = data.get("raw_bytes")
    if raw_bytes is None and raw.exists():
        wrong.append(f"{RAW} was not in it")
    elif raw_bytes is not None and not raw.is_file():
        wrong.append(f"{RAW} is missing")
    elif raw_bytes is not None and (raw.stat().st_size != raw_bytes or not _sound(raw)):
        wrong.append(f"{RAW} differs")
    if wrong:
        shown = "; ".join(wrong[:5]) + (f"; and {len(wrong) - 5} more" if len(wrong) > 5 else "")
        raise InputError(
            f"snapshot {snapshot_id} no longer matches its {MANIFEST} ({shown}); {outcome} "
            "('memstrata snapshot list' shows the others)"
        )


def _sound(database: Path) -> bool:
    """Whether SQLite finds ``database`` well-formed (so restoring it cannot fail halfway)."""
    try:
        connection = sqlite3.connect(read_only_uri(database, immutable=True), uri=True)
        try:
            return connection.execute("PRAGMA quick_check").fetchone() == ("ok",)
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        return False


def file_digest(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def backup_database(source: Path, target: Path, *, frozen: bool = False) -> None:
    """Copy a SQLite database consistently, even while others write to it (``frozen``: a
    snapshot's copy, which nobody writes, read as immutable so SQLite leaves no -wal or -shm
    beside it)."""
    src = sqlite3.connect(read_only_uri(source, immutable=frozen), uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _manifest(
    info: SnapshotInfo, contents: dict[str, str], raw_bytes: int | None
) -> dict[str, object]:
    manifest: dict[str, object] = {name: getattr(info, name) for name in _MANIFEST_FIELDS}
    manifest["contents"] = dict(sorted(contents.items()))
    if raw_bytes is not None:
        manifest["raw_bytes"] = raw_bytes
    return manifest


def _unique_id(folder: Path, stem: str) -> str:
    candidate, number = stem, 2
    while (folder / candidate).exists():
        candidate = f"{stem}-{number}"
        number += 1
    return candidate
