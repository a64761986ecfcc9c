"""``ledger undo``: reverse one gardener step, itself as a step with its own ledger line."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from memstrata.clock import to_iso
from memstrata.errors import InputError
from memstrata.maintain.apply import Stale, apply_step, complete_pending_step, read_topic
from memstrata.maintain.ledger import find_record, plan_undo, record_for, scan_ledger
from memstrata.maintain.state import GardenPaths

if TYPE_CHECKING:
    from memstrata.memory import Memory


@dataclass(frozen=True, slots=True)
class UndoResult:
    """The step undone, the ledger line of the undo, and what it restored or archived."""

    undone: str
    step: str
    restored: tuple[str, ...]
    archived: tuple[str, ...]
    dry_run: bool = False
    #: lines of the ledger that are no step, passed over (``memory/ledger.jsonl:N: …``)
    skipped: tuple[str, ...] = ()


def undo_step(memory: Memory, step_id: str, now: datetime, dry_run: bool = False) -> UndoResult:
    """Restore the topics of ``step_id`` to their states before it (archiving those it made);
    lines of the ledger that are no step are passed over, and named."""
    paths = GardenPaths(memory.workspace)
    if not dry_run:
        complete_pending_step(memory.topics, memory.lock, paths.ledger, paths.intent)
    scan = scan_ledger(paths.ledger)
    records, skipped = list(scan.records), tuple(str(line) for line in scan.skipped)
    record = find_record(records, step_id, scan.skipped)
    if record.action == "restore":
        raise InputError(
            f"{step_id} is a snapshot restore: restore the snapshot it names "
            "instead ('memstrata snapshot restore ID')"
        )
    current = {change.topic: read_topic(memory.topics, change.topic) for change in record.changes}
    step = plan_undo(record, records, current, to_iso(now))
    restored = tuple(c.topic_id for c in step.changes if c.op == "undo")
    archived = tuple(c.topic_id for c in step.changes if c.op == "archive")
    if dry_run:
        return UndoResult(step_id, "", restored, archived, True, skipped)
    undo = record_for(step, f"undo-{step_id}", "", to_iso(now))
    outcome = apply_step(memory.topics, memory.lock, paths.ledger, paths.intent, step, undo)
    if isinstance(outcome, Stale):
        raise InputError(f"cannot undo {step_id}: {outcome.topic_id} {outcome.reason}; try again")
    memory.sync()
    return UndoResult(step_id, outcome.record.id, restored, archived, skipped=skipped)
