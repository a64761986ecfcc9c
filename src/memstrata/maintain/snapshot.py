"""Snapshots: a copy of the canonical files and the raw database, taken before autonomous work.

``.memstrata/snapshots/<id>/`` holds ``memstrata.toml``, ``MEMORY.md``, ``prompt/``, ``memory/``
(file by file; a file unchanged since the previous snapshot is a hard link to that snapshot's
copy) and ``raw/sessions.db`` (through SQLite's online backup API, so a database being written
is copied consistently), plus ``manifest.json``, which names every canonical file with its
SHA-256. A snapshot is assembled in a hidden folder and renamed into place, so a killed snapshot
never lists as one.

Restoring takes a snapshot of the present first (so a restore can itself be undone), then makes
the canonical files equal to the snapshot's — except the append-only records (the ledger, reports
and metrics), which keep their history and gain a line saying what was restored — and rebuilds the
index from the files. A snapshot whose files no longer match its manifest (one deleted,
edited or added by hand since) is refused before anything changes: restoring it would delete or
overwrite live files with what was never the workspace. A manifest that does not parse lists as
damaged and is never restored or linked from.

A restore replaces files one by one, so it is made whole like a gardener step: once the safety
snapshot is taken, ``.memstrata/restore.json`` names the snapshot being restored and the safety
snapshot (written atomically), and it is removed only after the last file, the ledger line and the
index rebuild. A restore killed in between leaves it behind; :func:`interrupted_restore` says so,
and the next restore of that snapshot — or the next snapshot taken — finishes it (every step
is safe to repeat, and no second safety snapshot is taken). Before finishing, a file that is
neither as it was before the restore nor as the snapshot has it (someone wrote it after the
kill) is kept: the present is snapshotted first. Restoring another snapshot instead (the safety
snapshot: going back) is a restore like any other.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memstrata.clock import to_iso
from memstrata.errors import InputError
from memstrata.maintain.ledger import LedgerRecord, append_record
from memstrata.maintain.state import GardenPaths
from memstrata.sqlite import read_only_uri
from memstrata.workspace.atomic import write_atomic, write_json_atomic
from memstrata.workspace.layout import Workspace
from memstrata.workspace.textfile import read_text

if TYPE_CHECKING:
    from memstrata.memory import Memory

CANONICAL = ("memstrata.toml", "MEMORY.md", "prompt", "memory")
RAW = "raw/sessions.db"
#: append-only records: a restore keeps them (and adds to them)
KEPT_ON_RESTORE = ("memory/ledger.jsonl", "memory/reports/", "memory/metrics.jsonl")
MANIFEST = "manifest.json"
#: in ``.memstrata/``: the restore under way, from its first change to its last
RESTORE_MARKER = "restore.json"
#: the temp file :func:`~memstrata.workspace.atomic.write_atomic` writes beside a file first
_WRITE_TEMP = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")
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


@dataclass(frozen=True, slots=True)
class RestoreResult:
    """What a restore changed, and the snapshot that holds the state before it."""

    snapshot: str
    safety_snapshot: str
    written: tuple[str, ...]
    removed: tuple[str, ...]
    raw_restored: bool
    dry_run: bool = False
    #: this finished a restore of the same snapshot that had been interrupted (killed) partway
    resumed: bool = False
    #: a snapshot of the workspace as it was found, taken before finishing an interrupted restore
    #: because files had changed since the interruption (empty when none had)
    edits_snapshot: str = ""


@dataclass(frozen=True, slots=True)
class PendingRestore:
    """A restore that began and has not finished: the snapshot, and the one of the state before."""

    snapshot: str
    safety_snapshot: str
    time: str
    #: why ``.memstrata/restore.json`` cannot be read (then nothing else is known), or empty
    problem: str = ""
    #: the raw database's size and mtime (and its ``-wal``'s) just before it was replaced
    raw_before: tuple[int | None, ...] = ()
    raw_done: bool = False

    @property
    def message(self) -> str:
        """What to tell a person, with the commands that make the workspace whole again."""
        if self.problem:
            return (
                f"an interrupted snapshot restore left .memstrata/{RESTORE_MARKER}, which cannot "
                f"be read ({self.problem}): the workspace may be part one snapshot, part another; "
                "'memstrata snapshot restore ID' makes it whole ('memstrata snapshot list' shows "
                "them)"
            )
        return (
            f"a restore of snapshot {self.snapshot} was interrupted ({self.time}): the workspace "
            f"is part {self.snapshot}, part what it was before; "
            f"'memstrata snapshot restore {self.snapshot}' finishes it, "
            f"'memstrata snapshot restore {self.safety_snapshot}' goes back"
        )


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
    with memory.lock.held():
        finish_interrupted_restore(memory, now)
        return _take(memory, reason, now)


def _take(memory: Memory, reason: str, now: datetime) -> SnapshotInfo:
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
        known = _contents(previous) if previous is not None else {}
        contents: dict[str, str] = {}
        total = 0
        for relative in canonical_files(workspace.root):
            target = partial / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            linked = _place(workspace.root / relative, target, previous, relative)
            total += target.stat().st_size
            known_digest = known.get(relative) if linked else None
            contents[relative] = known_digest or _digest(target)
        files, raw_bytes = len(contents), None
        if workspace.raw_db.exists():
            target = partial / RAW
            target.parent.mkdir(parents=True, exist_ok=True)
            _backup(workspace.raw_db, target)
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


def _contents(snapshot: Path) -> dict[str, str]:
    """The file digests a sound manifest records (none for a snapshot made before they were)."""
    data, problem = _read_manifest(snapshot / MANIFEST)
    contents = data.get("contents", {}) if not problem else {}
    return dict(contents) if isinstance(contents, dict) else {}


def restore_snapshot(
    memory: Memory, snapshot_id: str, now: datetime, dry_run: bool = False
) -> RestoreResult:
    """Make the canonical files (and the raw database) what they were in ``snapshot_id``; finish
    the restore of it instead when one was interrupted."""
    workspace = memory.workspace
    paths = GardenPaths(workspace)
    if not isinstance(snapshot_id, str):
        raise InputError(f"a snapshot id is text (snap-…), not {type(snapshot_id).__name__}")
    if not _is_snapshot(paths.snapshots, snapshot_id):
        raise InputError(
            f"no snapshot {snapshot_id!r} in {paths.snapshots} "
            "('memstrata snapshot list' shows them)"
        )
    with memory.lock.held():
        pending = pending_restore(workspace)
        if pending is not None and pending.snapshot == snapshot_id:
            return _restore(memory, pending, now, resumed=True, dry_run=dry_run)
        _verify(paths.snapshots / snapshot_id, snapshot_id)
        if dry_run:
            written, removed = _differences(paths.snapshots / snapshot_id, workspace.root)
            has_raw = (paths.snapshots / snapshot_id / RAW).is_file()
            return RestoreResult(snapshot_id, "", written, removed, has_raw, dry_run=True)
        reason = f"before restoring {snapshot_id}"
        if pending is not None:
            reason += " (an interrupted restore had left the workspace part one, part another)"
        safety = _take(memory, reason, now)
        begun = PendingRestore(snapshot_id, safety.id, to_iso(now), raw_before=_raw_stat(workspace))
        _write_pending(workspace, begun)
        return _restore(memory, begun, now, resumed=False)


def finish_interrupted_restore(memory: Memory, now: datetime) -> RestoreResult | None:
    """Finish the restore a killed process left half done, if one did (see the module
    docstring); raise :class:`InputError` when it cannot be finished, saying how to go back.

    It rebuilds the index: call it where a command begins, not from a sync or a rebuild."""
    with memory.lock.held():
        pending = pending_restore(memory.workspace)
        if pending is None:
            return None
        if pending.problem:
            raise InputError(pending.message)
        if not _is_snapshot(GardenPaths(memory.workspace).snapshots, pending.snapshot):
            raise InputError(
                f"a restore of snapshot {pending.snapshot} was interrupted, and the snapshot is "
                f"gone; 'memstrata snapshot restore {pending.safety_snapshot}' goes back"
            )
        return _restore(memory, pending, now, resumed=True)


def pending_restore(workspace: Workspace) -> PendingRestore | None:
    """The restore under way or interrupted, from ``.memstrata/restore.json``; ``None`` when
    there is none."""
    path = workspace.state_dir / RESTORE_MARKER
    if not path.exists():
        return None
    try:
        data = json.loads(read_text(path))
        fields = (data["snapshot"], data["safety_snapshot"], data["time"])
        raw_before = tuple(data.get("raw_before", ()))
        raw_done = data.get("raw_done", False)
    except json.JSONDecodeError as error:
        return PendingRestore("", "", "", f"line {error.lineno}: {error.msg}")
    except (InputError, ValueError, KeyError, TypeError, AttributeError) as error:
        return PendingRestore("", "", "", str(error) or type(error).__name__)
    if not all(isinstance(field, str) and field for field in fields) or not isinstance(
        raw_done, bool
    ):
        return PendingRestore("", "", "", "a field is missing or not of its type")
    return PendingRestore(*fields, raw_before=raw_before, raw_done=raw_done)


def interrupted_restore(workspace: Workspace) -> str | None:
    """What to tell of a restore that was killed before it finished, or ``None`` (for
    ``status``: cheap, reads one small file, takes no lock)."""
    pending = pending_restore(workspace)
    return pending.message if pending is not None else None


def _restore(
    memory: Memory, pending: PendingRestore, now: datetime, *, resumed: bool, dry_run: bool = False
) -> RestoreResult:
    """Make the workspace equal to ``pending.snapshot`` in steps that are each safe to repeat;
    ``resumed``: ``pending`` was left by a restore that did not finish."""
    workspace = memory.workspace
    paths = GardenPaths(workspace)
    snapshot_id, safety = pending.snapshot, pending.safety_snapshot
    source = paths.snapshots / snapshot_id
    if resumed:
        _verify(source, snapshot_id, _cannot_finish(pending))
    written, removed = _differences(source, workspace.root)
    has_raw = (source / RAW).is_file()
    if dry_run:
        return RestoreResult(snapshot_id, safety, written, removed, has_raw, True, resumed)
    edits = ""
    if resumed:
        changed = _changed_since(workspace, source, paths.snapshots / safety)
        if has_raw and not pending.raw_done and _raw_stat(workspace) != pending.raw_before:
            changed.append(RAW)
        if changed:
            more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
            reason = f"found after an interrupted restore of {snapshot_id}: {changed[0]}{more}"
            edits = _take(memory, reason + " changed since", now).id
    if has_raw and not pending.raw_done:
        workspace.raw_dir.mkdir(parents=True, exist_ok=True)
        _backup(source / RAW, workspace.raw_db, frozen=True)
        _write_pending(workspace, replace(pending, raw_done=True))
    for rel in written:
        write_atomic(workspace.root / rel, (source / rel).read_bytes())
    for rel in removed:
        (workspace.root / rel).unlink(missing_ok=True)
    record_id = f"g-restore-{safety.removeprefix('snap-')}"
    if not _in_ledger(paths.ledger, record_id):  # a restore killed after its line has one
        append_record(
            paths.ledger,
            LedgerRecord(
                id=record_id,
                time=to_iso(now),
                run="",
                phase="restore",
                action="restore",
                mode="",
                topics=(),
                why=f"restored {snapshot_id}; the state before is {safety}",
                key="",
                changes=(),
            ),
        )
    memory.rebuild()
    (workspace.state_dir / RESTORE_MARKER).unlink()
    return RestoreResult(
        snapshot_id, safety, written, removed, has_raw, resumed=resumed, edits_snapshot=edits
    )


def _differences(source: Path, root: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The files a restore of ``source`` writes and removes (the append-only records aside)."""
    wanted = {rel for rel in canonical_files(source) if not _kept(rel)}
    present = {rel for rel in canonical_files(root) if not _kept(rel)}
    written = tuple(
        sorted(
            rel
            for rel in wanted
            if rel not in present or (source / rel).read_bytes() != (root / rel).read_bytes()
        )
    )
    return written, tuple(sorted(present - wanted))


def _changed_since(workspace: Workspace, source: Path, before: Path) -> list[str]:
    """Files that are neither as the snapshot has them nor as they were before the restore
    began: written by someone after it was interrupted. A safety snapshot that is gone leaves
    nothing to tell them by, so every file not yet restored counts. The temp file of a write
    the kill cut short is no one's work: the restore removes it, unasked."""
    after, earlier = _digests(source), _digests(before) if before.is_dir() else {}
    present = {
        rel: _digest(workspace.root / rel)
        for rel in canonical_files(workspace.root)
        if not _kept(rel) and not _WRITE_TEMP.match(Path(rel).name)
    }
    return sorted(
        rel
        for rel in {*present, *after, *earlier}
        if not _kept(rel) and present.get(rel) not in (after.get(rel), earlier.get(rel))
    )


def _digests(snapshot: Path) -> dict[str, str]:
    """Each canonical file's SHA-256, from the manifest (or the files, for an old snapshot)."""
    return _contents(snapshot) or {
        rel: _digest(snapshot / rel) for rel in canonical_files(snapshot)
    }


def _raw_stat(workspace: Workspace) -> tuple[int | None, ...]:
    """Size and mtime of the raw database and its ``-wal``: any write changes one of them."""
    found: list[int | None] = []
    for path in (workspace.raw_db, workspace.raw_db.with_name(workspace.raw_db.name + "-wal")):
        try:
            info = path.stat()
            found += [info.st_size, info.st_mtime_ns]
        except FileNotFoundError:
            found += [None, None]
    return tuple(found)


def _write_pending(workspace: Workspace, pending: PendingRestore) -> None:
    workspace.state_dir.mkdir(parents=True, exist_ok=True)
    write_json_atomic(
        workspace.state_dir / RESTORE_MARKER,
        {
            "snapshot": pending.snapshot,
            "safety_snapshot": pending.safety_snapshot,
            "time": pending.time,
            "raw_before": list(pending.raw_before),
            "raw_done": pending.raw_done,
        },
    )


def _in_ledger(ledger: Path, record_id: str) -> bool:
    """Whether a line of the ledger has ``record_id`` (a line that does not parse is skipped:
    only ours is looked for)."""
    if not ledger.exists():
        return False
    for line in read_text(ledger).splitlines():
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and value.get("id") == record_id:
            return True
    return False


def _cannot_finish(pending: PendingRestore) -> str:
    return (
        "its interrupted restore cannot be finished; "
        f"'memstrata snapshot restore {pending.safety_snapshot}' goes back to the state before it"
    )


def _is_snapshot(folder: Path, snapshot_id: str) -> bool:
    return (
        not snapshot_id.startswith(".")
        and "/" not in snapshot_id
        and (folder / snapshot_id / MANIFEST).is_file()
    )


def _verify(source: Path, snapshot_id: str, outcome: str = "nothing was restored") -> None:
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
        if _digest(source / rel) != recorded[rel]
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


def _digest(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _kept(relative: str) -> bool:
    return any(
        relative == kept or (kept.endswith("/") and relative.startswith(kept))
        for kept in KEPT_ON_RESTORE
    )


def _backup(source: Path, target: Path, *, frozen: bool = False) -> None:
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
