"""``run_tick``: zero-resident upkeep for agent hooks — do what is due, return fast when nothing is.

Due checks are lazy and stored in the workspace (``memory/.upkeep.json``)::

    {"version": 1, "garden": {"last": "…", "report": "…", "resume": "…"},
     "flush": {"raw_stamp": "…", "until": "…", "waiting": {"<session>": "<last turn>"},
               "flushed": {"<session>": "<last turn>"}},
     "index": {"stamp": "…", "last": "…"}}

- **idle flush**: a session whose last turn is 30 minutes old (``upkeep.idle_flush_minutes``) is
  recorded in the journal of that day — one line: what, how long, where its transcript is — so
  the day's log says it happened. Sessions older than the distill window are marked without a
  line. Looking is due only when ``raw/sessions.db`` changed or a waiting session went idle.
- **distill**: daily once it exists; it does not yet, so it is reported as skipped.
- **garden**: weekly (``upkeep.garden_every_days``), in propose mode, within the garden budget;
  a run that stopped at its budget (a resume point) goes on a day later, until one ends clean.
- **index**: the approximate vector index (``.memstrata/ann/*.ivf``, see
  :mod:`memstrata.recall.ann`) of every kind with ``recall.ann_min_vectors`` vectors is built,
  or rebuilt once stale or unusable, from the vectors already in ``.memstrata/index.db`` — no
  embedding model is loaded — and the files of kinds below the threshold are removed. Queries
  fill vectors lazily and never build the file, so without this a growing workspace would need
  ``memstrata rebuild``. Due when the index (or its WAL) changed since the last look, at most
  hourly (``INDEX_EVERY``): a build costs seconds at 100k rows and a file goes stale only after
  20 % more rows (4,000 at the threshold, 16 queries' worth of lazy embedding at the least), so
  an hour keeps it fresh while the look, ~0.2 s at 100k rows, stays rare. Skipped when
  embeddings are off (``embeddings.model = "none"``).

A tick that finds nothing due reads one small file and stats the raw database (and, once the
hour since the index's last look is up, the index); it never opens a database. Jobs run under a
non-blocking lock of the tick's own (``.memstrata/upkeep.lock``) and re-check what is due after
taking it, so two ticks at once never run the same job twice: the second finds the lock taken
and returns. Jobs that write take the workspace lock as well.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from memstrata.clock import parse_time, to_iso
from memstrata.config import UpkeepConfig
from memstrata.errors import LockTimeout, MemstrataError, RawStoreDamaged
from memstrata.journal.log import append_log
from memstrata.maintain.gardener import run_garden, run_time
from memstrata.maintain.state import GardenPaths, exclusive, read_state
from memstrata.sqlite import is_damage, read_only_uri
from memstrata.workspace.atomic import write_json_atomic
from memstrata.workspace.textfile import read_mending, read_text

if TYPE_CHECKING:
    from memstrata.memory import Memory

DISTILL_MISSING = "missing capability: distill is not built yet"
EMBEDDINGS_OFF = "embeddings are off: no vectors to index"
#: the index job looks at most this often (see the module docstring for why an hour)
INDEX_EVERY = timedelta(hours=1)
#: a garden run that stopped at its budget goes on after this, not a week later
GARDEN_RESUME_AFTER = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class JobResult:
    """What one job did in this tick."""

    name: str  # flush · distill · garden · index · tick
    status: str  # ran · not due · skipped · busy · failed
    detail: str = ""
    next_due: str = ""


@dataclass(frozen=True, slots=True)
class TickReport:
    """Every job's outcome; ``ran`` names the jobs that did work."""

    time: str
    jobs: tuple[JobResult, ...]

    @property
    def ran(self) -> tuple[str, ...]:
        return tuple(job.name for job in self.jobs if job.status == "ran")


@dataclass(frozen=True, slots=True)
class UpkeepState:
    """``memory/.upkeep.json``."""

    garden_last: str = ""
    garden_report: str = ""
    #: where the last garden run stopped at its budget ("" or "clean": it finished)
    garden_resume: str = ""
    raw_stamp: str = ""
    #: every session whose last turn is before this was handled
    flushed_until: str = ""
    waiting: dict[str, str] = field(default_factory=dict)
    flushed: dict[str, str] = field(default_factory=dict)
    #: ``file_stamp`` of the index at its last look, and when that was
    index_stamp: str = ""
    index_last: str = ""


def upkeep_path(memory: Memory) -> Path:
    return memory.workspace.memory_dir / ".upkeep.json"


def read_upkeep(path: Path) -> UpkeepState:
    if not path.exists():
        return UpkeepState()
    try:
        data = json.loads(read_text(path))
        garden, flush = data.get("garden", {}), data.get("flush", {})
        index = data.get("index", {})
        return UpkeepState(
            garden_last=str(garden.get("last", "")),
            garden_report=str(garden.get("report", "")),
            garden_resume=str(garden.get("resume", "")),
            raw_stamp=str(flush.get("raw_stamp", "")),
            flushed_until=str(flush.get("until", "")),
            waiting=dict(flush.get("waiting", {})),
            flushed=dict(flush.get("flushed", {})),
            index_stamp=str(index.get("stamp", "")),
            index_last=str(index.get("last", "")),
        )
    except (ValueError, AttributeError, TypeError):
        return UpkeepState()  # a damaged due-check file only makes jobs due again


def write_upkeep(path: Path, state: UpkeepState) -> None:
    write_json_atomic(
        path,
        {
            "version": 1,
            "garden": {
                "last": state.garden_last,
                "report": state.garden_report,
                "resume": state.garden_resume,
            },
            "flush": {
                "raw_stamp": state.raw_stamp,
                "until": state.flushed_until,
                "waiting": state.waiting,
                "flushed": state.flushed,
            },
            "index": {"stamp": state.index_stamp, "last": state.index_last},
        },
    )


def file_stamp(db: Path) -> str:
    """Size and mtime of a database and its WAL: cheap evidence that it changed.

    An empty WAL counts as none: a reader opening the database creates one.
    """
    parts = []
    for path in (db, Path(f"{db}-wal")):
        try:
            info = path.stat()
        except FileNotFoundError:
            parts.append("-")
            continue
        parts.append(f"{info.st_size}:{info.st_mtime_ns}" if info.st_size else "-")
    return "|".join(parts)


def index_next(state: UpkeepState) -> datetime | None:
    """When the index job may look again (``None``: it never looked)."""
    last = parse_time(state.index_last)
    return last + INDEX_EVERY if last else None


def due_jobs(
    state: UpkeepState, now: datetime, config: UpkeepConfig, stamp: str, index_stamp: str = ""
) -> dict[str, tuple[bool, str]]:
    """For flush, garden and index: (due now?, when next due) — pure.

    ``index_stamp`` is the index's ``file_stamp``, or the stored one while the hour since its
    last look is not up (the caller need not stat the index then).
    """
    idle = timedelta(minutes=config.idle_flush_minutes)
    last_garden = parse_time(state.garden_last)
    garden_next = last_garden + garden_interval(state, config) if last_garden else now
    idle_at = [when + idle for when in map(parse_time, state.waiting.values()) if when]
    flush_next = min(idle_at) if idle_at else None
    flush_due = stamp != state.raw_stamp or (flush_next is not None and flush_next <= now)
    look_next = index_next(state)
    index_waits = look_next is not None and look_next > now
    return {
        "flush": (flush_due, to_iso(flush_next) if flush_next else ""),
        "garden": (garden_next <= now, to_iso(garden_next)),
        "index": (
            index_stamp != state.index_stamp and not index_waits,
            to_iso(look_next) if look_next and index_waits else "",
        ),
    }


def garden_interval(state: UpkeepState, config: UpkeepConfig) -> timedelta:
    """A week after a run that finished; a day after one that stopped at its budget."""
    if state.garden_resume in ("", "clean"):
        return timedelta(days=config.garden_every_days)
    return GARDEN_RESUME_AFTER


def with_garden_runs(memory: Memory, state: UpkeepState) -> UpkeepState:
    """``state`` with a garden run made since by hand (``memstrata garden``) counted as the
    last: the next is due a week after it (a day, if it stopped at its budget), not at once.
    A run that changed nothing leaves no record (:mod:`memstrata.maintain.gardener`); the tick
    after it runs the garden again, which changes nothing either."""
    try:
        garden = read_state(GardenPaths(memory.workspace).state)
    except MemstrataError:  # a state the gardener will name on its next run
        return state
    ran = run_time(garden.last_run)
    last = parse_time(state.garden_last)
    if ran is None or (last is not None and last >= ran):
        return state
    return replace(
        state,
        garden_last=to_iso(ran),
        garden_report=garden.last_report or state.garden_report,
        garden_resume=garden.resume_point,
    )


def run_tick(memory: Memory, now: datetime | None = None) -> TickReport:
    """Run the upkeep that is due; return at once when nothing is."""
    now = now or memory.clock()
    path = upkeep_path(memory)
    state = with_garden_runs(memory, read_upkeep(path))
    stamp = file_stamp(memory.workspace.raw_db)
    due = due_jobs(state, now, memory.config.upkeep, stamp, _index_stamp(memory, state, now))
    distill = JobResult("distill", "skipped", DISTILL_MISSING)
    if not any(is_due for is_due, _next in due.values()):
        return TickReport(
            to_iso(now),
            (
                JobResult("flush", "not due", next_due=due["flush"][1]),
                distill,
                JobResult("garden", "not due", next_due=due["garden"][1]),
                _index_not_due(memory, due["index"][1]),
            ),
        )
    try:
        with exclusive(memory.workspace.state_dir / "upkeep.lock", "a tick"):
            return _run_due(memory, path, now, distill)
    except LockTimeout:
        return TickReport(to_iso(now), (JobResult("tick", "busy", "another tick is running"),))


def _run_due(memory: Memory, path: Path, now: datetime, distill: JobResult) -> TickReport:
    # Re-read under the lock: a tick that just finished may have done the work.
    state = with_garden_runs(memory, read_upkeep(path))
    stamp = file_stamp(memory.workspace.raw_db)
    due = due_jobs(state, now, memory.config.upkeep, stamp, _index_stamp(memory, state, now))
    jobs: list[JobResult] = []
    if due["flush"][0]:
        result, state = _flush(memory, state, stamp, now)
        write_upkeep(path, state)
        jobs.append(result)
    else:
        jobs.append(JobResult("flush", "not due", next_due=due["flush"][1]))
    jobs.append(distill)
    if due["garden"][0]:
        try:
            report = run_garden(memory, now=now)
        except LockTimeout:
            jobs.append(JobResult("garden", "busy", "a garden run is going on elsewhere"))
        except MemstrataError as error:
            jobs.append(JobResult("garden", "failed", str(error)))
        else:
            state = replace(
                state,
                garden_last=to_iso(now),
                garden_report=report.path or state.garden_report,
                garden_resume=report.resume_point,
            )
            write_upkeep(path, state)
            detail = f"{report.tally}; resume point {report.resume_point}"
            every = garden_interval(state, memory.config.upkeep)
            jobs.append(JobResult("garden", "ran", detail, to_iso(now + every)))
    else:
        jobs.append(JobResult("garden", "not due", next_due=due["garden"][1]))
    if due["index"][0]:
        result, state = _index(memory, read_upkeep(path), now)
        write_upkeep(path, state)
        jobs.append(result)
    else:
        jobs.append(_index_not_due(memory, due["index"][1]))
    return TickReport(to_iso(now), tuple(jobs))


def _embeddings_off(memory: Memory) -> bool:
    return memory.config.embeddings.model == "none"


def _index_stamp(memory: Memory, state: UpkeepState, now: datetime) -> str:
    """The index's stamp if the index job may look now, else the stored one (no stat)."""
    look_next = index_next(state)
    if _embeddings_off(memory) or (look_next is not None and look_next > now):
        return state.index_stamp
    return file_stamp(memory.workspace.index_db)


def _index_not_due(memory: Memory, next_due: str) -> JobResult:
    if _embeddings_off(memory):
        return JobResult("index", "skipped", EMBEDDINGS_OFF)
    return JobResult("index", "not due", next_due=next_due)


def _index(memory: Memory, state: UpkeepState, now: datetime) -> tuple[JobResult, UpkeepState]:
    """Build, refresh or remove side files from the stored vectors; never raise.

    A failure is looked at again after ``INDEX_EVERY``: the stamp is kept, so it stays due.
    """
    next_due = to_iso(now + INDEX_EVERY)
    index_db = memory.workspace.index_db
    try:
        with memory.lock.held():
            changes = _refresh_side_files(memory) if index_db.exists() else []
    except LockTimeout:
        return JobResult("index", "busy", "the workspace lock is held elsewhere"), state
    # Derived data must never fail the hook that ticks: any error is a report, not a raise.
    except Exception as error:
        failed = JobResult("index", "failed", f"{type(error).__name__}: {error}", next_due)
        return failed, replace(state, index_last=to_iso(now))
    detail = "; ".join(changes) if changes else "approximate vector index up to date"
    # Stamped after the work: recording a side file's token writes to the index itself.
    state = replace(state, index_stamp=file_stamp(index_db), index_last=to_iso(now))
    return JobResult("index", "ran", detail, next_due), state


def _refresh_side_files(memory: Memory) -> list[str]:
    # Imported here: numpy and the recall modules would slow every no-op tick.
    from memstrata.recall.ann import AnnSettings
    from memstrata.recall.vector_cache import refresh_side_files
    from memstrata.sqlite import connect

    ann = AnnSettings(memory.workspace.ann_dir, memory.config.recall.ann_min_vectors)
    index = connect(memory.workspace.index_db)
    try:
        return refresh_side_files(index, ann)
    finally:
        index.close()


def _flush(
    memory: Memory, state: UpkeepState, stamp: str, now: datetime
) -> tuple[JobResult, UpkeepState]:
    """Record sessions that went idle in the journal; remember those still going."""
    config = memory.config.upkeep
    idle = timedelta(minutes=config.idle_flush_minutes)
    window = timedelta(days=config.distill_window_days)
    waiting: dict[str, str] = {}
    flushed = dict(state.flushed)
    handled: list[str] = []
    lines = 0
    try:
        rows = _sessions_since(memory.workspace.raw_db, state.flushed_until)
    except RawStoreDamaged as error:
        # the stamp is not kept: flush stays due, and runs once the database is usable again
        return JobResult("flush", "failed", f"raw/sessions.db: {error.reason}"), state
    except LockTimeout as error:  # busy or a full disk: the same, without calling it damaged
        return JobResult("flush", "busy", str(error)), state
    for row in rows:
        session_id, last = row["id"], row["last"]
        if flushed.get(session_id) == last:
            continue
        when = parse_time(last)
        if when is None:
            continue
        if when + idle > now:
            waiting[session_id] = last
            continue
        if now - when <= window:
            _journal_session(memory, row, when)
            lines += 1
        flushed[session_id] = last
        handled.append(last)
    until = min(waiting.values()) if waiting else max([state.flushed_until, *handled])
    flushed = {key: value for key, value in flushed.items() if value >= until}
    state = replace(state, raw_stamp=stamp, flushed_until=until, waiting=waiting, flushed=flushed)
    if lines:
        memory.sync()
    detail = (
        f"{lines} idle session{'s' if lines != 1 else ''} recorded in the journal; "
        f"{len(waiting)} still active"
    )
    next_due = min((parse_time(v) for v in waiting.values()), default=None)
    return JobResult("flush", "ran", detail, to_iso(next_due + idle) if next_due else ""), state


def _sessions_since(raw_db: Path, since: str) -> list[sqlite3.Row]:
    """The sessions with a turn at or after ``since``; :class:`RawStoreDamaged` when the
    database is no SQLite database (none at all, or one without tables yet, holds none)."""
    if not raw_db.exists():
        return []
    connection = sqlite3.connect(read_only_uri(raw_db), uri=True)
    connection.row_factory = sqlite3.Row
    try:
        return connection.execute(
            "SELECT s.id, s.harness, s.agent, s.title, COUNT(t.id) AS turns,"
            " MIN(t.time) AS first, MAX(t.time) AS last"
            " FROM sessions s JOIN turns t ON t.session_id = s.id WHERE t.time != ''"
            " GROUP BY s.id HAVING MAX(t.time) >= ? ORDER BY last, s.id",
            (since,),
        ).fetchall()
    except sqlite3.DatabaseError as error:
        if "no such table" in str(error):
            return []
        if not is_damage(error):  # busy, or a full disk: the file is sound, so not "damaged"
            raise LockTimeout(
                f"{raw_db}: could not be read now ({error}); the flush waits for the next tick"
            ) from error
        raise RawStoreDamaged(raw_db, f"not a usable raw sessions database ({error})") from error
    finally:
        connection.close()


def _journal_session(memory: Memory, row: sqlite3.Row, when: datetime) -> None:
    name = row["title"] or row["id"]
    text = (
        f"Session “{name}” ({row['harness']}, agent {row['agent']}) went idle after "
        f"{row['turns']} turns ({row['first']} – {row['last']}); transcript: raw/sessions.db "
        f"session {row['id']}."
    )
    journal = memory.workspace.journal_path(when.date().isoformat())
    with memory.lock.held():
        # The line says all it is from the session's rows: found in the day, it was written
        # (a lost or damaged memory/.upkeep.json makes every recent session due again).
        if journal.is_file() and " ".join(text.split()) in read_mending(journal)[0]:
            return
        append_log(journal, text, when)
