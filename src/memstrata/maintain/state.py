"""Where the gardener keeps its files, and ``memory/.garden/state.json``: scope and resume point.

The state says since when topics count as new (the time of the last run that finished its work,
less the topics that run wrote itself at that very second) and, when a run ran out of budget
mid-phase, where the next one continues::

    {"version": 1, "since": "2025-11-27T10:00:00Z", "own": ["notes/kept"],
     "last_run": "r-20251127T100000Z", "last_report": "memory/reports/20251127T100000Z.md",
     "resume": {"phase": "decay", "after": "notes/old-thing"}, "notes": null}

``notes`` holds a run's ``## Upkeep`` lines from the moment its state is saved until they are in
the day's journal (``{"at": "2025-11-27T10:00:00+00:00", "lines": ["First garden run …",
"Memory health: …"]}``): a run whose notes could not all be written has the rest written by
the next run, and a run that failed before its state was saved wrote none to write twice.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memstrata.errors import LockTimeout, ParseError
from memstrata.sqlite import disk_full, is_disk_full
from memstrata.workspace.atomic import write_json_atomic
from memstrata.workspace.layout import Workspace
from memstrata.workspace.textfile import read_text


@dataclass(frozen=True, slots=True)
class GardenPaths:
    """The gardener's files in one workspace."""

    workspace: Workspace

    @property
    def folder(self) -> Path:
        return self.workspace.memory_dir / ".garden"

    @property
    def state(self) -> Path:
        return self.folder / "state.json"

    @property
    def intent(self) -> Path:
        return self.folder / "step.json"

    @property
    def ledger(self) -> Path:
        return self.workspace.memory_dir / "ledger.jsonl"

    @property
    def reports(self) -> Path:
        return self.workspace.memory_dir / "reports"

    @property
    def snapshots(self) -> Path:
        return self.workspace.state_dir / "snapshots"

    @property
    def run_lock(self) -> Path:
        return self.workspace.state_dir / "garden.lock"


@dataclass(frozen=True, slots=True)
class UpkeepNotes:
    """The lines a run owes the ``## Upkeep`` section of its day's journal."""

    #: the run's time, ISO 8601 with its offset: the day's file and each line's ``HH:MM``
    at: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GardenState:
    """What the last runs left for the next one."""

    since: str = ""
    #: topics the run that set ``since`` wrote at that second: its own work, not news
    own: tuple[str, ...] = ()
    last_run: str = ""
    last_report: str = ""
    resume_phase: str = ""
    resume_after: str = ""
    #: ``<updated> <id>`` of the oldest topic surveyed so far, while older live topics wait
    #: for a run (a first run takes the 200 most recent, each run after it 200 more); ""
    #: when every topic has been in a run's scope
    backlog: str = ""
    #: the last run's notes while they are not (all) in the journal yet
    notes: UpkeepNotes | None = None

    @property
    def first_run(self) -> bool:
        return not self.last_run

    @property
    def resume_point(self) -> str:
        """``decay after notes/x``, ``decay`` (from its start) or ``clean``."""
        if not self.resume_phase:
            return "clean"
        return (
            f"{self.resume_phase} after {self.resume_after}"
            if self.resume_after
            else (f"{self.resume_phase} from its start")
        )


def read_state(path: Path) -> GardenState:
    if not path.exists():
        return GardenState()
    try:
        data = json.loads(read_text(path))
        resume = data.get("resume") or {}
        return GardenState(
            since=str(data.get("since", "")),
            own=tuple(str(item) for item in data.get("own", ())),
            last_run=str(data.get("last_run", "")),
            last_report=str(data.get("last_report", "")),
            resume_phase=str(resume.get("phase", "")),
            resume_after=str(resume.get("after", "")),
            backlog=str(data.get("backlog", "")),
            notes=_read_notes(data.get("notes")),
        )
    except (ValueError, AttributeError, TypeError) as error:
        raise ParseError(path, None, f"not a garden state file: {error}") from error


def _read_notes(data: object) -> UpkeepNotes | None:
    if data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("lines"), list):
        raise ValueError("notes must be {'at': time, 'lines': [text, ...]}")
    at = str(data.get("at", ""))
    datetime.fromisoformat(at)  # a time the notes can be dated by, or a ValueError now
    return UpkeepNotes(at, tuple(str(line) for line in data["lines"]))


def write_state(path: Path, state: GardenState) -> None:
    """Save ``state``; a full disk is a :class:`~memstrata.errors.DiskFull` naming the file."""
    resume = (
        {"phase": state.resume_phase, "after": state.resume_after} if state.resume_phase else None
    )
    notes = {"at": state.notes.at, "lines": list(state.notes.lines)} if state.notes else None
    with disk_full_named(path):
        write_json_atomic(
            path,
            {
                "version": 1,
                "since": state.since,
                "own": list(state.own),
                "last_run": state.last_run,
                "last_report": state.last_report,
                "resume": resume,
                "backlog": state.backlog,
                "notes": notes,
            },
        )


@contextmanager
def disk_full_named(path: Path) -> Iterator[None]:
    """Say a full disk met while writing ``path`` as a :class:`~memstrata.errors.DiskFull` that
    names it: ``os.write`` and ``fsync`` raise ENOSPC without a file name."""
    try:
        yield
    except OSError as error:
        if is_disk_full(error):
            raise disk_full(path, error) from error
        raise


@contextmanager
def exclusive(path: Path, what: str) -> Iterator[None]:
    """Hold a non-blocking ``flock`` on ``path``; raise :class:`LockTimeout` if it is taken."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)  # the umask decides, as for any file
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LockTimeout(f"{path}: {what} is already running in another process") from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
