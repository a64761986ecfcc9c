"""Applying a step: under the workspace lock, only if its topics are still as planned; crash-safe.

The gardener plans from what it read; others keep writing while it runs. So each step is applied
holding the workspace lock and only if every topic it touches still has the fingerprint it was
planned from — otherwise the step is left for the next run and nothing is overwritten.

A step spans several topics, so it is made crash-safe like a topic write: a write-ahead intent
(``memory/.garden/step.json``) holding every new state and the ledger line is written first, then
each topic is written (each write crash-safe on its own), then the ledger line is appended and
the intent removed. :func:`complete_pending_step` rolls a killed step forward: a topic already in
its new state is left, one still in its old state is written, and one someone else changed in
between is left as it is and named in the ledger line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from memstrata.errors import TopicNotFound
from memstrata.maintain.ledger import (
    LedgerRecord,
    append_record,
    last_record_id,
    record_from_dict,
    record_to_dict,
)
from memstrata.maintain.steps import ACTOR, Step, fingerprint_of, meta_fields
from memstrata.model import Topic
from memstrata.wiki.store import TopicStore, meta_from_dict, meta_to_dict
from memstrata.workspace.atomic import write_json_atomic
from memstrata.workspace.lock import WorkspaceLock
from memstrata.workspace.textfile import read_text


@dataclass(frozen=True, slots=True)
class Applied:
    """The step is done: its ledger line and the topics as they now are."""

    record: LedgerRecord
    topics: tuple[Topic, ...]


@dataclass(frozen=True, slots=True)
class Stale:
    """The step was not applied: a topic changed since it was planned, or cannot be written."""

    topic_id: str
    reason: str


def read_topic(store: TopicStore, topic_id: str) -> Topic | None:
    try:
        return store.get(topic_id)
    except TopicNotFound:
        return None


def apply_step(
    store: TopicStore,
    lock: WorkspaceLock,
    ledger: Path,
    intent: Path,
    step: Step,
    record: LedgerRecord,
) -> Applied | Stale:
    """Apply ``step`` if its topics still hash as planned; append ``record`` to the ledger."""
    with lock.held():
        for change in step.changes:
            current = read_topic(store, change.topic_id)
            if fingerprint_of(current) != change.before_hash:
                return Stale(change.topic_id, "changed since the gardener read it")
            problem = _cap_problem(store, change.summary, change.detail)
            if problem:
                return Stale(change.topic_id, problem)
        payload = {
            "record": record_to_dict(record),
            "changes": [
                {
                    "topic": change.topic_id,
                    "summary": change.summary,
                    "detail": change.detail,
                    "meta": meta_to_dict(change.meta),
                    "op": change.op,
                    "before_hash": change.before_hash,
                    "after_hash": change.after_hash,
                }
                for change in step.changes
            ],
        }
        write_json_atomic(intent, payload)
        done = _roll_forward(store, ledger, payload)
        intent.unlink()
    return Applied(done.record, done.topics)


def complete_pending_step(
    store: TopicStore, lock: WorkspaceLock, ledger: Path, intent: Path
) -> LedgerRecord | None:
    """Finish a step a killed gardener left half done; return its ledger line."""
    if not intent.exists():
        return None
    with lock.held():
        try:
            payload = json.loads(read_text(intent))
        except ValueError:
            intent.unlink()  # torn before any topic was written: nothing to finish
            return None
        done = _roll_forward(store, ledger, payload)
        intent.unlink()
    return done.record


def _roll_forward(store: TopicStore, ledger: Path, payload: dict[str, Any]) -> Applied:
    record = record_from_dict(dict(payload["record"]))
    skipped: list[str] = []
    topics: list[Topic] = []
    for change in payload["changes"]:
        current = read_topic(store, change["topic"])
        now_hash = fingerprint_of(current)
        if now_hash == change["after_hash"] and current is not None:
            topics.append(current)
            continue
        if now_hash != change["before_hash"]:
            skipped.append(change["topic"])  # someone wrote it after a crash: theirs stands
            continue
        meta = meta_from_dict(change["meta"], "memory/.garden/step.json")
        written = store.write(
            change["topic"],
            change["summary"],
            change["detail"],
            actor=ACTOR,
            reason=f"{record.id}: {record.why}",
            state=meta.state,
            meta_changes=meta_fields(meta),
            op=change["op"],
        )
        topics.append(written.topic)
    record = replace(record, skipped=tuple(skipped))
    if last_record_id(ledger) != record.id:
        append_record(ledger, record)
    return Applied(record, tuple(topics))


def _cap_problem(store: TopicStore, summary: str, detail: str) -> str:
    limits = store.limits
    if not summary.strip():
        return "its summary would be empty"
    if len(summary) > limits.summary_max_chars:
        return f"its summary is over the {limits.summary_max_chars}-char cap; split it first"
    if len(detail) > limits.detail_max_chars:
        return f"its detail is over the {limits.detail_max_chars}-char cap"
    return ""
