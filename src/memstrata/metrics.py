"""``memory/metrics.jsonl``: what each context and recall put in front of the model.

One JSON line per event, so that silent degradation shows: bytes per channel, the share of the
turn's input that memory took (when the caller says how big the turn was), hits and trims.
Appends are single ``O_APPEND`` writes (atomic for a line this size), so concurrent hooks never
interleave; a torn line from a crash is skipped by the reader.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from memstrata.clock import parse_time


def append_metric(path: Path, record: dict[str, Any]) -> None:
    """Append one event; failures to record are not worth failing the caller for."""
    line = (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError:
        return
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def read_metrics(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    records = []
    for line in path.read_bytes().decode("utf-8", errors="replace").splitlines():
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            records.append(value)
    return records


@dataclass(slots=True)
class MetricsSummary:
    """Totals over a window of days."""

    days: int
    contexts: int = 0
    recalls: int = 0
    recall_hits: int = 0
    empty_recalls: int = 0
    trims: int = 0
    mean_bytes: dict[str, float] = field(default_factory=dict)
    mean_injection_share: float | None = None
    max_injection_share: float | None = None


def summarise(records: Iterable[dict[str, Any]], now: datetime, days: int) -> MetricsSummary:
    """Summarise the events of the last ``days`` days before ``now``."""
    start = now - timedelta(days=days)
    summary = MetricsSummary(days)
    totals: dict[str, float] = {}
    shares: list[float] = []
    for record in records:
        moment = parse_time(record.get("time"))
        if moment is None or moment < start or moment > now:
            continue
        if record.get("event") == "context":
            summary.contexts += 1
            for channel, size in record.get("bytes", {}).items():
                totals[channel] = totals.get(channel, 0.0) + float(size)
            summary.trims += sum(len(v) for v in record.get("trimmed", {}).values())
            if isinstance(record.get("share"), int | float):
                shares.append(float(record["share"]))
        elif record.get("event") == "recall":
            summary.recalls += 1
            hits = int(record.get("hits", 0))
            summary.recall_hits += hits
            summary.empty_recalls += hits == 0
    if summary.contexts:
        summary.mean_bytes = {
            channel: round(total / summary.contexts, 1) for channel, total in sorted(totals.items())
        }
    if shares:
        summary.mean_injection_share = round(sum(shares) / len(shares), 4)
        summary.max_injection_share = round(max(shares), 4)
    return summary
