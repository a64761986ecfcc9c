"""What passes a recall's hard filters: kind, entity, and a time span (``--since``/``--until``).

Pure functions on items. A topic is at its moment; a journal line at the time of day it opens
with ("10:05 …", as ``memstrata log`` writes it, UTC), else across its whole day, so a bound
inside a day keeps the day's untimed lines and cuts its timed ones where they fall.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import timedelta

from memstrata.clock import parse_time, to_iso
from memstrata.journal.parse import entity_key
from memstrata.model import RecallItem
from memstrata.recall.entity import name_forms

_WORDS = re.compile(r"[^\W_]+")
#: the time of day a journal line may open with ("10:05 …", "9:30 …")
_CLOCK = re.compile(r"(\d{1,2}):([0-5]\d)\b")


@dataclass(frozen=True, slots=True)
class RecallFilters:
    """Hard filters of one recall."""

    k: int = 10
    since: str = ""
    until: str = ""
    kind: str | None = None
    entity: str | None = None
    include_archived: bool = False
    include_superseded: bool = False


def narrows(filters: RecallFilters) -> bool:
    return bool(filters.kind or filters.entity or filters.since or filters.until)


def topic_states(filters: RecallFilters) -> tuple[str, ...]:
    """The topic states a recall with ``filters`` may show: live ones, and archived or
    superseded ones only when asked for (archived brings superseded with it)."""
    states = ["active", "conflict"]
    if filters.include_archived:
        states.append("archived")
    if filters.include_superseded or filters.include_archived:
        states.append("superseded")
    return tuple(states)


def passes(item: RecallItem, filters: RecallFilters, aliases: Collection[str] = ()) -> bool:
    """Whether ``item`` meets ``filters``; ``aliases`` are the other names of the filter's
    entity (:func:`memstrata.recall.mentions.entity_aliases`), any of which it may be about."""
    if filters.kind and item.kind != filters.kind:
        return False
    if filters.entity and not _about(item, {filters.entity.lstrip("@").casefold(), *aliases}):
        return False
    return within(item, filters.since, filters.until)


def within(item: RecallItem, since: str, until: str) -> bool:
    """Whether ``item`` lies in the span from ``since`` up to ``until`` (ISO times; an empty
    bound is open): at a moment inside it, or on a day that overlaps it."""
    if not (since or until):
        return True
    if not item.time:
        return not since
    start, end = _span(item)
    if since and (end <= since if start != end else start < since):
        return False
    return not (until and start >= until)


def line_time(day: str, text: str) -> str:
    """When a journal line of ``day`` happened: ``day`` at the time of day the line opens
    with ("10:05 …", as ``memstrata log`` writes, UTC) as an ISO time, else the day."""
    clock = _CLOCK.match(text)
    if clock and int(clock[1]) < 24:
        return f"{day}T{int(clock[1]):02d}:{clock[2]}:00Z"
    return day


def _span(item: RecallItem) -> tuple[str, str]:
    """When ``item`` happened, as ISO times ``(start, end)``: a topic's moment; a journal
    line's time of day when it opens with one, else its whole day."""
    time = item.time if "T" in item.time else line_time(item.time, item.content)
    if "T" in time:
        return time, time
    return day_start(time), day_start(next_day(day_start(time)))


def newest_first(items: list[RecallItem]) -> None:
    """Sort ``items`` newest first: by time, then (a journal day) by line, latest first."""
    items.sort(key=recency, reverse=True)


def recency(item: RecallItem) -> tuple[str, int, str]:
    """A key that orders items oldest first (:func:`newest_first` reverses it)."""
    return _span(item)[0], _line(item.source), item.source


def _line(source: str) -> int:
    _, mark, line = source.rpartition("#L")
    return int(line) if mark and line.isdecimal() else 0


def _about(item: RecallItem, names: Collection[str]) -> bool:
    """``item`` mentions the entity by one of its ``names`` (in any of its :func:`name_forms`),
    or is a topic named for it: its title holds a name's words in a row ("Ann Weber" for Ann,
    "李娜 (Li Na)" for Li Na or 李娜), or its slug is a name (``people/li-na``)."""
    mentioned = {entity_key(name) for name in item.entities}
    title = _WORDS.findall(item.title.casefold())
    slug = item.source.rpartition("/")[2]
    for wanted in names:
        if name_forms(wanted) & mentioned:
            return True
        name = _WORDS.findall(wanted.casefold())
        if item.stratum == "wiki" and name:
            if any(title[i : i + len(name)] == name for i in range(len(title))):
                return True
            if slug == "-".join(name):
                return True
    return False


def day_start(time: str) -> str:
    """A journal day is compared as the start of that day."""
    return time if "T" in time else f"{time}T00:00:00Z"


def day_after_start(until: str) -> str:
    """The first day not before ``until``: a journal day is its start, kept when earlier."""
    day = until[:10]
    return day if until[11:] in ("", "00:00:00Z") else next_day(until)


def next_day(iso: str) -> str:
    moment = parse_time(iso)
    return to_iso(moment + timedelta(days=1))[:10] if moment else iso[:10]
