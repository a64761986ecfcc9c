"""Restoring a snapshot (:mod:`memstrata.maintain.snapshot`), whole even when killed partway.

Restoring takes a snapshot of the present first (so a restore can itself be undone), then makes
the canonical files equal to the snapshot's — except the append-only records (the ledger, reports
and metrics), which keep their history and gain a line saying what was restored — and rebuilds the
index from the files. A snapshot whose files no longer match its manifest (one deleted, edited
or added by hand since) is refused before anything changes: restoring it would delete or
overwrite live files with what was never the workspace. A manifest that does not parse lists as
damaged and is never restored or linked from.

A file that is a symbolic link to a file is written through it: the link stays, and what it
points to gets the snapshot's text. A damaged raw database is no obstacle: the safety snapshot
keeps it byte for byte, and the snapshot's database takes its place.

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

import json
import os
import re
import secrets
import shutil
import sqlite3
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memstrata.clock import to_iso
from memstrata.errors import InputError
from memstrata.maintain.ledger import LedgerRecord, append_record, scan_ledger
from memstrata.maintain.snapshot import (
    RAW,
    backup_database,
    canonical_files,
    file_digest,
    is_snapshot,
    is_sound_file,
    kept_on_restore,
    manifest_contents,
    raw_damage,
    take_snapshot_as_is,
    verify_snapshot,
)
from memstrata.maintain.state import GardenPaths
from memstrata.sqlite import is_damage
from memstrata.workspace.atomic import fsync_dir, write_atomic, write_json_atomic
from memstrata.workspace.layout import Workspace
from memstrata.workspace.textfile import read_text

if TYPE_CHECKING:
    from memstrata.memory import Memory

#: in ``.memstrata/``: the restore under way, from its first change to its last
RESTORE_MARKER = "restore.json"
#: the temp file :func:`~memstrata.workspace.atomic.write_atomic` writes beside a file first
_WRITE_TEMP = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")


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


def restore_snapshot(
    memory: Memory, snapshot_id: str, now: datetime, dry_run: bool = False
) -> RestoreResult:
    """Make the canonical files (and the raw database) what they were in ``snapshot_id``; finish
    the restore of it instead when one was interrupted."""
    workspace = memory.workspace
    paths = GardenPaths(workspace)
    if not isinstance(snapshot_id, str):
        raise InputError(f"a snapshot id is text (snap-…), not {type(snapshot_id).__name__}")
    if not is_snapshot(paths.snapshots, snapshot_id):
        raise InputError(
            f"no snapshot {snapshot_id!r} in {paths.snapshots} "
            "('memstrata snapshot list' shows them)"
        )
    with memory.lock.held():
        pending = pending_restore(workspace)
        if pending is not None and pending.snapshot == snapshot_id:
            return _restore(memory, pending, now, resumed=True, dry_run=dry_run)
        verify_snapshot(paths.snapshots / snapshot_id, snapshot_id)
        if dry_run:
            written, removed = _differences(paths.snapshots / snapshot_id, workspace.root)
            has_raw = (paths.snapshots / snapshot_id / RAW).is_file()
            return RestoreResult(snapshot_id, "", written, removed, has_raw, dry_run=True)
        reason = f"before restoring {snapshot_id}"
        if pending is not None:
            reason += " (an interrupted restore had left the workspace part one, part another)"
        safety = take_snapshot_as_is(memory, reason, now, keep_damaged_raw=True)
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
        if not is_snapshot(GardenPaths(memory.workspace).snapshots, pending.snapshot):
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
        verify_snapshot(source, snapshot_id, _cannot_finish(pending))
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
            edits = take_snapshot_as_is(
                memory, reason + " changed since", now, keep_damaged_raw=True
            ).id
    if has_raw and not pending.raw_done:
        _put_raw_back(source, workspace)
        _write_pending(workspace, replace(pending, raw_done=True))
    for rel in written:
        target = workspace.root / rel
        # a link to a file is written through (a MEMORY.md kept in a dotfiles repository); a
        # link to nothing is replaced by the file, never followed out of the workspace
        through = target.is_symlink() and target.is_file()
        write_atomic(target, (source / rel).read_bytes(), through_link=through)
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


def _put_raw_back(source: Path, workspace: Workspace) -> None:
    """Put the snapshot's raw database in place of the workspace's: through SQLite's backup
    API, or byte for byte when the snapshot kept it damaged. A damaged database in the
    workspace (the safety snapshot holds its bytes) is removed first: SQLite cannot write over
    one it cannot read."""
    raw = workspace.raw_db
    workspace.raw_dir.mkdir(parents=True, exist_ok=True)
    if raw_damage(source):
        temp = raw.with_name(f".{raw.name}.{secrets.token_hex(4)}.tmp")
        try:
            shutil.copyfile(source / RAW, temp)
            _remove_database(raw)
            os.replace(temp, raw)
        finally:
            temp.unlink(missing_ok=True)
        fsync_dir(raw.parent)
        return
    try:
        backup_database(source / RAW, raw, frozen=True)
    except sqlite3.DatabaseError as error:
        if not is_damage(error) or is_sound_file(raw):
            raise
        _remove_database(raw)
        backup_database(source / RAW, raw, frozen=True)


def _remove_database(database: Path) -> None:
    """Remove a SQLite database with its side files (a -wal left behind would be read into the
    file that takes its place)."""
    for suffix in ("-wal", "-shm", "-journal", ""):
        database.with_name(database.name + suffix).unlink(missing_ok=True)


def _differences(source: Path, root: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The files a restore of ``source`` writes and removes (the append-only records aside)."""
    wanted = {rel for rel in canonical_files(source) if not kept_on_restore(rel)}
    present = {rel for rel in canonical_files(root) if not kept_on_restore(rel)}
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
        rel: file_digest(workspace.root / rel)
        for rel in canonical_files(workspace.root)
        if not kept_on_restore(rel) and not _WRITE_TEMP.match(Path(rel).name)
    }
    return sorted(
        rel
        for rel in {*present, *after, *earlier}
        if not kept_on_restore(rel) and present.get(rel) not in (after.get(rel), earlier.get(rel))
    )


def _digests(snapshot: Path) -> dict[str, str]:
    """Each canonical file's SHA-256, from the manifest (or the files, for an old snapshot)."""
    return manifest_contents(snapshot) or {
        rel: file_digest(snapshot / rel) for rel in canonical_files(snapshot)
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
    """Whether a line of the ledger has ``record_id`` (a line that is no step is skipped: only
    ours is looked for)."""
    return any(record.id == record_id for record in scan_ledger(ledger).records)


def _cannot_finish(pending: PendingRestore) -> str:
    return (
        "its interrupted restore cannot be finished; "
        f"'memstrata snapshot restore {pending.safety_snapshot}' goes back to the state before it"
    )
