"""Snapshots: a copy of the canonical files and the raw database, taken before autonomous work.

``.memstrata/snapshots/<id>/`` holds ``memstrata.toml``, ``MEMORY.md``, ``prompt/``, ``memory/``
(file by file; a file unchanged since the previous snapshot is a hard link to that snapshot's
copy) and ``raw/sessions.db`` (through SQLite's online backup API, so a database being written
is copied consistently), plus ``manifest.json``, which names every canonical file with its
SHA-256. A snapshot is assembled in a hidden folder and renamed into place, so a killed snapshot
never lists as one.

A file counts as unchanged when its size, mtime, inode and inode change time (ctime) are what
the previous manifest recorded: ``cp -p``, ``touch -r`` or ``rsync -a`` can set a changed file's
mtime back, but not its ctime. ``memory/metrics.jsonl``, which hooks append to in place without
the workspace lock, is copied every time: an append through another name could otherwise change
every snapshot that shares it. A symbolic link counts as the file or folder it points to, as
memstrata reads it (a ``MEMORY.md`` kept in a dotfiles repository); a restore writes back
through it. A raw database SQLite finds damaged stops a snapshot taken by hand or before a
garden run, naming the file and what to do; the safety snapshot of a restore keeps it byte for
byte instead (its manifest says so), so the restore that mends it can still be undone.

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
from memstrata.errors import DiskFull, InputError, RawStoreDamaged
from memstrata.maintain.state import GardenPaths
from memstrata.sqlite import is_damage, is_disk_full, read_only_uri
from memstrata.workspace.atomic import write_json_atomic
from memstrata.workspace.layout import Workspace
from memstrata.workspace.textfile import read_text

if TYPE_CHECKING:
    from memstrata.memory import Memory

CANONICAL = ("memstrata.toml", "MEMORY.md", "prompt", "memory")
RAW = "raw/sessions.db"
MANIFEST = "manifest.json"
#: append-only records: a restore keeps them (and adds to them), so it neither writes them nor
#: checks a snapshot's copies of them
KEPT_ON_RESTORE = ("memory/ledger.jsonl", "memory/reports/", "memory/metrics.jsonl")
#: appended to in place by hooks that hold no lock (and so cannot first break a hard link, as
#: :func:`~memstrata.workspace.atomic.append_line` does): each snapshot has its own copy
NEVER_SHARED = ("memory/metrics.jsonl",)
#: what every manifest holds, and of which type; newer ones add ``contents`` (path → SHA-256),
#: ``stamps`` (path → size, mtime, ctime, inode), ``raw_bytes``, and for a raw database kept
#: damaged ``raw_damaged`` (why) and ``raw_sha256``
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
    """Relative paths of every canonical file under ``root`` (the raw database aside).

    A symbolic link counts as the file or folder it points to, as memstrata reads it; a link
    to nothing is no file, and a linked folder is left out where following it would walk in a
    circle or into the workspace itself (a link to a folder above, or to ``.memstrata/``).
    """
    top = Path(os.path.realpath(root))
    for name in CANONICAL:
        path = root / name
        if path.is_file():
            yield name
        elif path.is_dir():
            reals: dict[str, Path] = {}
            for folder, dirs, files in os.walk(path, followlinks=True):
                real = reals[folder] = Path(os.path.realpath(folder))
                if folder != str(path) and _walks_back(folder, real, reals, top):
                    dirs.clear()
                    continue
                for file_name in files:
                    full = Path(folder) / file_name
                    if full.is_file():
                        yield full.relative_to(root).as_posix()


def _walks_back(folder: str, real: Path, reals: dict[str, Path], top: Path) -> bool:
    """Whether a folder reached through a link leads back: to a folder it lies in, to the
    workspace or above it, or into its ``.memstrata/``."""
    if top.is_relative_to(real) or real.is_relative_to(top / ".memstrata"):
        return True
    above = os.path.dirname(folder)
    while above in reals:
        if reals[above] == real:
            return True
        above = os.path.dirname(above)
    return False


def take_snapshot(memory: Memory, reason: str, now: datetime) -> SnapshotInfo:
    """Copy the canonical files and the raw database into a new snapshot (after finishing an
    interrupted restore: a snapshot of half of one would be no state the workspace ever had)."""
    # restore takes its own safety snapshot through this module: imported here, not at the top
    from memstrata.maintain.restore import finish_interrupted_restore

    with memory.lock.held():
        finish_interrupted_restore(memory, now)
        return take_snapshot_as_is(memory, reason, now)


def take_snapshot_as_is(
    memory: Memory, reason: str, now: datetime, *, keep_damaged_raw: bool = False
) -> SnapshotInfo:
    """:func:`take_snapshot` of the workspace as it is, an interrupted restore left unfinished
    (a restore takes its safety snapshot so, with ``keep_damaged_raw``: a raw database SQLite
    finds damaged is copied byte for byte, not refused)."""
    workspace = memory.workspace
    folder = GardenPaths(workspace).snapshots
    with memory.lock.held():
        folder.mkdir(parents=True, exist_ok=True)
        for leftover in folder.glob(".*.partial"):
            shutil.rmtree(leftover, ignore_errors=True)  # a killed snapshot, never listed
        snapshot_id = _unique_id(folder, "snap-" + to_iso(now).replace("-", "").replace(":", ""))
        partial = folder / f".{snapshot_id}.partial"
        try:
            partial.mkdir()
            info = _assemble(workspace, partial, snapshot_id, reason, now, keep_damaged_raw)
        except BaseException as error:
            shutil.rmtree(partial, ignore_errors=True)
            if isinstance(error, (OSError, sqlite3.DatabaseError)) and is_disk_full(error):
                # A copy's error names the file copied from (shutil's way), which reads as
                # though that canonical file were at fault: name the snapshot that had no room.
                raise DiskFull(
                    f"{folder / snapshot_id}: the disk is full, so no snapshot was taken; "
                    "free some space and try again"
                ) from error
            raise
        os.rename(partial, folder / snapshot_id)
    return info


def _assemble(
    workspace: Workspace,
    partial: Path,
    snapshot_id: str,
    reason: str,
    now: datetime,
    keep_damaged_raw: bool,
) -> SnapshotInfo:
    """Copy (or share) every file into ``partial`` and write its manifest.

    A file changed in the same tick of the file system's clock as the snapshot began may change
    again within that tick, after it was copied, and keep its size, mtime and ctime: its stamp
    is not recorded, so the next snapshot copies it (git's "racily clean" files). The tick is
    read off the file system itself: the time ``partial`` was made.
    """
    settled_before = partial.stat().st_mtime_ns
    earlier = [info for info in list_snapshots(workspace) if not info.damaged]
    previous = GardenPaths(workspace).snapshots / earlier[-1].id if earlier else None
    # read once: a sound manifest (list_snapshots checked it) gives both
    seen = _read_manifest(previous / MANIFEST)[0] if previous is not None else {}
    known, known_stamps = _contents_of(seen), _stamps_of(seen)
    contents: dict[str, str] = {}
    stamps: dict[str, list[int]] = {}
    total = 0
    for relative in canonical_files(workspace.root):
        source, target = workspace.root / relative, partial / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        stamp = _stamp(source)
        shared = (
            previous is not None
            and relative not in NEVER_SHARED
            and relative in known
            and known_stamps.get(relative) == stamp
            and _link(previous / relative, target)
        )
        if not shared:
            shutil.copy2(source, target)
        contents[relative] = known[relative] if shared else file_digest(target)
        if stamp[2] < settled_before:
            stamps[relative] = stamp
        total += target.stat().st_size
    files = len(contents)
    raw: dict[str, object] = {}
    if workspace.raw_db.exists():
        target = partial / RAW
        target.parent.mkdir(parents=True, exist_ok=True)
        damage = _copy_raw(workspace.raw_db, target, keep_damaged_raw)
        raw["raw_bytes"] = target.stat().st_size
        if damage:
            raw.update(raw_damaged=damage, raw_sha256=file_digest(target))
            reason += f" ({RAW} kept byte for byte: {damage})"
        files += 1
        total += target.stat().st_size
    info = SnapshotInfo(
        snapshot_id,
        to_iso(now),
        reason,
        files,
        total,
        workspace.relative(GardenPaths(workspace).snapshots / snapshot_id),
    )
    manifest: dict[str, object] = {name: getattr(info, name) for name in _MANIFEST_FIELDS}
    manifest.update(contents=dict(sorted(contents.items())), stamps=dict(sorted(stamps.items())))
    write_json_atomic(partial / MANIFEST, {**manifest, **raw})
    return info


def _stamp(path: Path) -> list[int]:
    """Size, mtime, ctime and inode of the file ``path`` names (links followed): whatever
    writes it changes one of them, the ctime even when the mtime is set back."""
    info = path.stat()
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


def _link(earlier: Path, target: Path) -> bool:
    """Share the previous snapshot's copy (snapshot files are never written after they are
    made); ``False`` when it is gone or the file system has no hard links."""
    try:
        os.link(earlier, target)
    except OSError:
        return False
    return True


def _copy_raw(source: Path, target: Path, keep_damaged: bool) -> str:
    """Back the raw database up into ``target``; when SQLite finds it damaged, copy its bytes as
    they are and return why (``keep_damaged``) or raise :class:`RawStoreDamaged`."""
    try:
        backup_database(source, target)
        return ""
    except sqlite3.DatabaseError as error:
        if not is_damage(error):
            raise
        problem = f"not a usable SQLite database ({error})"
    target.unlink(missing_ok=True)
    if not keep_damaged:
        raise RawStoreDamaged(source, f"{problem}, so no snapshot can be taken")
    shutil.copyfile(source, target)
    return problem


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
    optional = {"raw_bytes": int, "raw_damaged": str, "raw_sha256": str}
    for name, kind in {**_MANIFEST_FIELDS, **optional}.items():
        value = data.get(name)
        if name in optional and value is None:
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
    return _contents_of(data) if not problem else {}


def _contents_of(data: dict[str, object]) -> dict[str, str]:
    contents = data.get("contents", {})
    return dict(contents) if isinstance(contents, dict) else {}


def _stamps_of(data: dict[str, object]) -> dict[str, list[int]]:
    """The file stamps a manifest records (none when it records none, or none it can use:
    then every file is copied anew)."""
    stamps = data.get("stamps")
    if not isinstance(stamps, dict):
        return {}
    return {
        relative: stamp
        for relative, stamp in stamps.items()
        if isinstance(stamp, list) and len(stamp) == 4 and all(type(n) is int for n in stamp)
    }


def raw_damage(snapshot: Path) -> str:
    """Why the snapshot's raw database was kept damaged (copied byte for byte), or empty."""
    data, problem = _read_manifest(snapshot / MANIFEST)
    damage = data.get("raw_damaged") if not problem else None
    return damage if isinstance(damage, str) else ""


def kept_on_restore(relative: str) -> bool:
    """Whether a restore keeps the workspace's file at ``relative`` (see
    :data:`KEPT_ON_RESTORE`)."""
    return any(
        relative == kept or (kept.endswith("/") and relative.startswith(kept))
        for kept in KEPT_ON_RESTORE
    )


def is_snapshot(folder: Path, snapshot_id: str) -> bool:
    return (
        not snapshot_id.startswith(".")
        and "/" not in snapshot_id
        and (folder / snapshot_id / MANIFEST).is_file()
    )


def verify_snapshot(source: Path, snapshot_id: str, outcome: str = "nothing was restored") -> None:
    """Refuse a snapshot that is not what was taken: a damaged manifest, or files that differ
    from the digests it records (a snapshot from before digests is taken as it is). The records
    a restore keeps (:data:`KEPT_ON_RESTORE`) are not restored, so not checked either."""
    data, problem = _read_manifest(source / MANIFEST)
    if problem:
        raise InputError(f"snapshot {snapshot_id} is damaged ({problem}); {outcome}")
    recorded = data.get("contents")
    if not isinstance(recorded, dict):
        return
    recorded = {rel: digest for rel, digest in recorded.items() if not kept_on_restore(rel)}
    present = {rel for rel in canonical_files(source) if not kept_on_restore(rel)}
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
    elif raw_bytes is not None and (raw.stat().st_size != raw_bytes or not _as_taken(raw, data)):
        wrong.append(f"{RAW} differs")
    if wrong:
        shown = "; ".join(wrong[:5]) + (f"; and {len(wrong) - 5} more" if len(wrong) > 5 else "")
        raise InputError(
            f"snapshot {snapshot_id} no longer matches its {MANIFEST} ({shown}); {outcome} "
            "('memstrata snapshot list' shows the others)"
        )


def _as_taken(raw: Path, manifest: dict[str, object]) -> bool:
    """Whether a snapshot's raw database is as it was taken: sound, or, when it was kept
    damaged, byte for byte the copy its manifest records."""
    if manifest.get("raw_damaged"):
        return file_digest(raw) == manifest.get("raw_sha256")
    return is_sound_file(raw)


def is_sound_file(database: Path) -> bool:
    """Whether SQLite finds the file ``database`` well-formed (so restoring it cannot fail
    halfway)."""
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


def _unique_id(folder: Path, stem: str) -> str:
    candidate, number = stem, 2
    while (folder / candidate).exists():
        candidate = f"{stem}-{number}"
        number += 1
    return candidate
