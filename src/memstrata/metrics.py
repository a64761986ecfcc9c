"""``memory/metrics.jsonl``: what each context and recall put in front of the model.

One JSON line per event, so that silent degradation shows: bytes per channel, the share of the
turn's input that memory took (when the caller says how big the turn was), hits and trims.
Appends are single ``O_APPEND`` writes (atomic for a line this size), so concurrent hooks never
interleave. The file is hand-editable: a line that is not an event of the shape written here (a
torn line from a crash, a typo) is skipped by the reader and counted, with the first one's number.
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
from memstrata.errors import InputError

MAX_DAYS = 36_500  # a century: older than any workspace, and far from datetime's limits
# Beyond 2**53 a float no longer counts bytes exactly; such a number is a typo, and keeping
# numbers below it keeps every sum finite (strict JSON) and every integer printable.
MAX_NUMBER = 2**53


def append_metric(path: Path, record: dict[str, Any]) -> None:
    """Append one event; failures to record are not worth failing the caller for."""
    line = (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)  # the umask decides
    except OSError:
        return
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


@dataclass(frozen=True, slots=True)
class MetricLine:
    """One non-blank line of the file: its number (from 1) and its JSON object, if it holds one."""

    number: int
    record: dict[str, Any] | None


def read_metrics(path: Path) -> list[MetricLine]:
    """Every non-blank line of ``path``; one that is no JSON object has ``record`` ``None``."""
    if not path.exists():
        return []
    text = path.read_bytes().decode("utf-8", errors="replace")
    # split on "\n" alone: the writer leaves U+2028 and friends raw inside strings
    lines = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            lines.append(MetricLine(number, parse_record(line)))
    return lines


def parse_record(line: str) -> dict[str, Any] | None:
    """The JSON object on ``line``; ``None`` for anything else."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, an integer too long, nesting too deep
        return None
    return value if isinstance(value, dict) else None


@dataclass(frozen=True, slots=True)
class MetricEvent:
    """One well-formed ``context`` or ``recall`` record, as the summary counts it."""

    event: str
    time: datetime
    hits: int = 0
    bytes_by_channel: dict[str, float] = field(default_factory=dict)
    trims: int = 0
    share: float | None = None


def parse_event(record: dict[str, Any]) -> MetricEvent | None:
    """``record`` as an event; ``None`` when it is no event of the shape :func:`append_metric`
    is given (a field the summary does not read is not checked)."""
    moment = _moment(record.get("time"))
    event = record.get("event")
    if moment is None or event not in ("context", "recall"):
        return None
    hits = _count(record["hits"]) if "hits" in record else 0
    if event == "recall":
        return None if hits is None else MetricEvent("recall", moment, hits)
    sizes = _sizes(record.get("bytes", {}))
    trims = _trims(record.get("trimmed", {}))
    omitted = _omitted(record.get("omitted", {}))
    share = _share(record["share"]) if "share" in record else None
    if hits is None or sizes is None or trims is None or omitted is None:
        return None
    if "share" in record and share is None:
        return None
    return MetricEvent("context", moment, hits, sizes, trims + omitted, share)


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str | int | float):
        return None
    try:
        return parse_time(value)
    except (OverflowError, ValueError):  # a valid ISO time whose UTC lies past year 9999 or 1
        return None


def _number(value: object) -> float | None:
    """A number from 0 to MAX_NUMBER (so finite; a bool is no number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value <= MAX_NUMBER else None  # NaN fails both comparisons


def _count(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= MAX_NUMBER else None


def _sizes(value: object) -> dict[str, float] | None:
    """Bytes per channel, from ``{channel: bytes}``."""
    if not isinstance(value, dict):
        return None
    sizes = {}
    for channel, size in value.items():
        number = _number(size)
        if number is None:
            return None
        sizes[channel] = number
    return sizes


def _trims(value: object) -> int | None:
    """How many items were trimmed, from ``{channel: [source, ...]}``."""
    if not isinstance(value, dict):
        return None
    trimmed = list(value.values())
    if not all(isinstance(items, list) for items in trimmed):
        return None
    if not all(isinstance(source, str) for items in trimmed for source in items):
        return None
    return sum(len(items) for items in trimmed)


def _omitted(value: object) -> int | None:
    """How many items a channel left out before packing, from ``{channel: count}`` (the
    Index's "+N more topics"): trims too, only counted rather than listed."""
    if not isinstance(value, dict):
        return None
    counts = [_count(count) for count in value.values()]
    return None if None in counts else sum(c for c in counts if c is not None)


def _share(value: object) -> float | None:
    """At most 1: the turn's input holds the injection."""
    number = _number(value)
    return number if number is not None and number <= 1 else None


@dataclass(slots=True)
class MetricsSummary:
    """Totals over a window of days.

    ``recall_hits`` counts the hits of ``recall`` events and of the recall each ``context``
    ran (``context_hits`` of them). ``empty_recalls`` counts ``recall`` events alone: a context
    record holds 0 hits both when it had no query and when its recall found nothing.
    ``skipped_lines`` counts the lines of the whole file that are no event (see the module).
    """

    days: int
    contexts: int = 0
    recalls: int = 0
    recall_hits: int = 0
    context_hits: int = 0
    empty_recalls: int = 0
    trims: int = 0
    mean_bytes: dict[str, float] = field(default_factory=dict)
    mean_injection_share: float | None = None
    max_injection_share: float | None = None
    skipped_lines: int = 0
    first_skipped_line: int | None = None


def summarise(lines: Iterable[MetricLine], now: datetime, days: int) -> MetricsSummary:
    """Summarise the events of the last ``days`` days before ``now`` (1 to :data:`MAX_DAYS`)."""
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise InputError(
            f"days must be a whole number from 1 to {MAX_DAYS} (a century), not {days!r}"
        )
    start = now - timedelta(days=days)
    summary = MetricsSummary(days)
    totals: dict[str, float] = {}
    shares: list[float] = []
    for line in lines:
        event = None if line.record is None else parse_event(line.record)
        if event is None:
            summary.skipped_lines += 1
            if summary.first_skipped_line is None:
                summary.first_skipped_line = line.number
            continue
        if event.time < start or event.time > now:
            continue
        summary.recall_hits += event.hits
        if event.event == "recall":
            summary.recalls += 1
            summary.empty_recalls += event.hits == 0
            continue
        summary.contexts += 1
        summary.context_hits += event.hits
        for channel, size in event.bytes_by_channel.items():
            totals[channel] = totals.get(channel, 0.0) + size
        summary.trims += event.trims
        if event.share is not None:
            shares.append(event.share)
    if summary.contexts:
        summary.mean_bytes = {
            channel: round(total / summary.contexts, 1) for channel, total in sorted(totals.items())
        }
    if shares:
        summary.mean_injection_share = round(sum(shares) / len(shares), 4)
        summary.max_injection_share = round(max(shares), 4)
    return summary
