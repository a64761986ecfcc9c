"""``memory/ledger.jsonl``: one line per gardener step, with what it needs to be undone.

Each line says when, in which run and phase, what was done to which topics and why, and for every
topic its fingerprint before and after and its whole state before (``null`` for a topic the step
created). Undoing a step restores those states — or archives what the step created; nothing is
ever deleted — and is itself a line of the ledger. A step can be undone only while its topics are
still as it left them.

    {"id": "g-…", "time": "…", "run": "r-…", "phase": "decay", "action": "archive",
     "mode": "autonomous", "topics": ["notes/x"], "why": "…", "key": "…", "proposal": "",
     "undoes": "", "skipped": [],
     "changes": [{"topic": "notes/x", "op": "archive", "before": {"summary": "…",
                  "detail": "", "meta": {…}}, "before_hash": "…", "after_hash": "…"}]}

A line that is no step (a hand edit, a line a crash cut short) is skipped and named by its
number, as ``memory/metrics.jsonl``'s are: the steps around it can still be listed and undone. A
last line without its final newline is the remains of an append a crash cut short; it is passed
over unnamed, and the next append cuts it off.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from memstrata.errors import InputError
from memstrata.maintain.steps import Step, TopicChange, fingerprint_of, preview_of
from memstrata.model import Topic
from memstrata.wiki.store import meta_from_dict, meta_to_dict
from memstrata.wiki.text import title_of
from memstrata.workspace.atomic import append_line

#: where the ledger is, as messages name it
LEDGER = "memory/ledger.jsonl"


@dataclass(frozen=True, slots=True)
class LedgerChange:
    """What one step did to one topic."""

    topic: str
    op: str
    before: dict[str, Any] | None
    before_hash: str
    after_hash: str


@dataclass(frozen=True, slots=True)
class LedgerRecord:
    """One line of the ledger: one step."""

    id: str
    time: str
    run: str
    phase: str
    action: str
    mode: str
    topics: tuple[str, ...]
    why: str
    key: str
    changes: tuple[LedgerChange, ...]
    proposal: str = ""
    undoes: str = ""
    #: topics a crash recovery found changed by someone else, and so left as they were
    skipped: tuple[str, ...] = ()


def step_id(run_id: str, step: Step) -> str:
    """``g-`` and 10 hex of the run and what the step does: the same in a replay of the run."""
    digest = hashlib.sha256(f"{run_id}\x00{step.key}\x00{step.undoes}".encode()).hexdigest()
    return f"g-{digest[:10]}"


def record_for(step: Step, run_id: str, mode: str, time: str) -> LedgerRecord:
    """The ledger line for ``step`` (before it is applied)."""
    return LedgerRecord(
        id=step_id(run_id, step),
        time=time,
        run=run_id,
        phase=step.phase,
        action=step.action,
        mode=mode,
        topics=step.topics,
        why=step.why,
        key=step.key,
        changes=tuple(_ledger_change(change) for change in step.changes),
        proposal=step.proposal,
        undoes=step.undoes,
    )


def _ledger_change(change: TopicChange) -> LedgerChange:
    before = None
    if change.before is not None:
        topic = change.before
        before = {
            "summary": topic.summary,
            "detail": topic.detail,
            "meta": meta_to_dict(topic.meta),
        }
    return LedgerChange(change.topic_id, change.op, before, change.before_hash, change.after_hash)


def record_to_dict(record: LedgerRecord) -> dict[str, Any]:
    value = asdict(record)
    value["topics"] = list(record.topics)
    value["skipped"] = list(record.skipped)
    return value


def record_from_dict(value: dict[str, Any]) -> LedgerRecord:
    changes = tuple(LedgerChange(**change) for change in value.pop("changes", ()))
    return LedgerRecord(
        changes=changes,
        topics=tuple(value.pop("topics", ())),
        skipped=tuple(value.pop("skipped", ())),
        **value,
    )


def append_record(path: Path, record: LedgerRecord) -> None:
    """Add one line; the caller holds the workspace lock."""
    line = json.dumps(record_to_dict(record), ensure_ascii=False, sort_keys=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    append_line(path, line)


@dataclass(frozen=True, slots=True)
class SkippedLine:
    """A line of the ledger that is no step, and why."""

    number: int
    problem: str

    def __str__(self) -> str:
        return f"{LEDGER}:{self.number}: not a ledger line ({self.problem}); skipped"


@dataclass(frozen=True, slots=True)
class LedgerScan:
    """The ledger as read: every step, oldest first, and the lines that are none."""

    records: tuple[LedgerRecord, ...]
    skipped: tuple[SkippedLine, ...]


def scan_ledger(path: Path) -> LedgerScan:
    """Every step, and every line that is none (see the module docstring)."""
    if not path.exists():
        return LedgerScan((), ())
    data = path.read_bytes()
    lines = data.split(b"\n")
    records: list[LedgerRecord] = []
    skipped: list[SkippedLine] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            records.append(_record_of(raw))
        except (ValueError, TypeError, AttributeError) as error:
            if number == len(lines):  # no newline after it: a torn append
                break
            skipped.append(SkippedLine(number, str(error) or type(error).__name__))
    return LedgerScan(tuple(records), tuple(skipped))


def read_ledger(path: Path) -> list[LedgerRecord]:
    """Every step, oldest first; lines that are none are skipped (:func:`scan_ledger` names
    them)."""
    return list(scan_ledger(path).records)


def _record_of(raw: bytes) -> LedgerRecord:
    """The step a line holds; raises ``ValueError`` (or ``TypeError``) saying why it holds none."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 at byte {error.start + 1}") from error
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"a JSON {type(value).__name__}, not an object")
    record = record_from_dict(value)
    if not isinstance(record.id, str) or not all(
        isinstance(name, str) for name in (*record.topics, *(c.topic for c in record.changes))
    ):
        raise ValueError("an id or a topic that is not text")
    return record


def last_record_id(path: Path) -> str:
    """The id of the last whole line (cheap: reads the file's tail)."""
    if not path.exists():
        return ""
    with path.open("rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(max(0, size - 65536))
        tail = handle.read().decode("utf-8", errors="replace")
    for line in reversed(tail.split("\n")):
        if line.strip():
            try:
                return str(json.loads(line).get("id", ""))
            except json.JSONDecodeError:
                continue  # a torn last line
    return ""


def find_record(
    records: Sequence[LedgerRecord], record_id: str, skipped: Sequence[SkippedLine] = ()
) -> LedgerRecord:
    """The step ``record_id``; the error for one not there names the lines that were skipped
    (it may be on one of them)."""
    for record in records:
        if record.id == record_id:
            return record
    unread = ""
    if skipped:
        first, more = skipped[0], len(skipped) - 1
        others = f" (and {more} more line{'s' if more > 1 else ''})" if more else ""
        unread = (
            f"; {LEDGER}:{first.number} is no ledger line ({first.problem}){others}: "
            "the step may be on it"
        )
    raise InputError(
        f"no step {record_id!r} in {LEDGER} ('memstrata ledger show' lists them){unread}"
    )


def topic_from_state(topic_id: str, state: dict[str, Any]) -> Topic:
    """A topic as a ledger line remembers it."""
    slug = topic_id.split("/", 1)[1]
    meta = meta_from_dict(state["meta"], f"memory/ledger.jsonl ({topic_id})")
    return Topic(
        topic_id, title_of(state["summary"], slug), state["summary"], state["detail"], meta
    )


def plan_undo(
    record: LedgerRecord,
    records: Sequence[LedgerRecord],
    current: Mapping[str, Topic | None],
    now: str,
) -> Step:
    """The step that reverses ``record``: before states back, created topics archived.

    Raises :class:`InputError` when the step was undone already or a topic changed since.
    """
    undone_by = [item.id for item in records if item.undoes == record.id]
    if undone_by:
        raise InputError(f"{record.id} was undone already (by {undone_by[0]})")
    changes: list[TopicChange] = []
    for change in record.changes:
        if change.topic in record.skipped:
            continue
        topic = current.get(change.topic)
        if fingerprint_of(topic) != change.after_hash or topic is None:
            later = [
                item.id
                for item in records[records.index(record) + 1 :]
                if any(other.topic == change.topic for other in item.changes)
            ]
            hint = f"undo {', '.join(reversed(later))} first" if later else "it was edited since"
            raise InputError(
                f"cannot undo {record.id}: {change.topic} is no longer as the step left it ({hint})"
            )
        if change.before is None:
            target = replace(topic.meta, state="archived", updated=now)
            changes.append(
                TopicChange(topic.id, topic, topic.summary, topic.detail, target, "archive")
            )
        else:
            before = topic_from_state(change.topic, change.before)
            changes.append(
                TopicChange(topic.id, topic, before.summary, before.detail, before.meta, "undo")
            )
    main = current.get(record.topics[0]) if record.topics else None
    return Step(
        phase="undo",
        action="undo",
        topics=record.topics,
        why=f"undo {record.id} ({record.action}: {record.why})",
        preview=preview_of(main) if main is not None else "",
        changes=tuple(changes),
        undoes=record.id,
    )
