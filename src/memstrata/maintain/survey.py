"""Survey: what the workspace holds, what is new since the last run, and how cold each topic is.

The survey is the one read a run plans from. Topics are read from their files (the truth), use
from the access sidecar. *New* means updated after the last finished run; a first run takes the
200 most recently updated live topics, and each run after it 200 more of the older ones until
every topic has been in a scope (``backlog``): a wiki written before its first run is tended
whole, a few hundred topics a run.

Two clocks of coldness (ISO strings compare as times):

    last_use(t)      = max(updated, last recalled)              → 90-day archival, lessons
    last_activity(t) = max(updated, last recalled, last decayed) → 30-day importance steps
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from memstrata.clock import parse_time
from memstrata.model import TOPIC_STATES, Problem, Topic
from memstrata.recall.access import Access
from memstrata.sqlite import read_only_uri

if TYPE_CHECKING:
    from memstrata.memory import Memory

FIRST_RUN_SCOPE = 200
LIVE = "active"


@dataclass(frozen=True, slots=True)
class Survey:
    """Everything a run plans from, read once."""

    topics: dict[str, Topic]
    access: dict[str, Access]
    problems: tuple[Problem, ...]
    since: str
    scope: tuple[str, ...]
    #: the backlog cursor once this scope is tended (see :func:`scope_of`)
    backlog: str
    #: live topics older than the backlog cursor, still waiting for a scope
    waiting: int
    journal_days: int
    raw_sessions: int | None
    proposals_open: int

    def counts(self, topics: Mapping[str, Topic] | None = None) -> dict[str, int]:
        return counts_of((self.topics if topics is None else topics).values())


def survey_workspace(
    memory: Memory,
    since: str,
    first_run: bool,
    own: Collection[str] = (),
    backlog: str = "",
) -> Survey:
    """Read every topic, its use, and what the other stores offer."""
    listing = memory.topics.read_all()  # stray folders and unreadable files as problems
    proposals = memory.proposal_store.read_all("open")
    topics = {topic.id: topic for topic in listing.topics}
    access = memory.access.get(topics) if topics else {}
    scope, cursor, waiting = scope_of(topics.values(), since, first_run, own, backlog)
    return Survey(
        topics=topics,
        access=dict(access),
        problems=(*listing.problems, *proposals.problems),
        since=since,
        scope=scope,
        backlog=cursor,
        waiting=waiting,
        journal_days=len(memory.journal_paths()),
        raw_sessions=_count_sessions(memory),
        proposals_open=len(proposals.proposals),
    )


def scope_of(
    topics: Iterable[Topic],
    since: str,
    first_run: bool,
    own: Collection[str] = (),
    backlog: str = "",
) -> tuple[tuple[str, ...], str, int]:
    """Live topics new since ``since`` and up to 200 of the backlog, oldest first; a first run:
    the 200 most recent. Returns ``(scope, backlog cursor after it, topics still waiting)``.

    The backlog is the live topics older than the cursor ``backlog`` (``<updated> <id>`` of
    the oldest topic a scope has taken): the most recent 200 of them join this scope. A topic
    updated at the very second of ``since`` is new unless the last run wrote it (``own``):
    others may write in the second a run starts.
    """
    live = [topic for topic in topics if topic.meta.state == LIVE]
    live.sort(key=_cursor, reverse=True)
    if first_run:
        taken, older = live[:FIRST_RUN_SCOPE], live[FIRST_RUN_SCOPE:]
    else:
        taken = [
            topic
            for topic in live
            if topic.meta.updated > since or (topic.meta.updated == since and topic.id not in own)
        ]
        below = [topic for topic in live if backlog and _cursor(topic) < backlog]
        older = below[FIRST_RUN_SCOPE:]
        new = {topic.id for topic in taken}
        taken += [topic for topic in below[:FIRST_RUN_SCOPE] if topic.id not in new]
    cursor = min((_cursor(topic) for topic in taken), default="") if older else ""
    taken.sort(key=lambda topic: (topic.meta.updated, topic.id))
    return tuple(topic.id for topic in taken), cursor, len(older)


def _cursor(topic: Topic) -> str:
    return f"{topic.meta.updated} {topic.id}"


def counts_of(topics: Iterable[Topic]) -> dict[str, int]:
    found = Counter(topic.meta.state for topic in topics)
    return {state: found.get(state, 0) for state in TOPIC_STATES}


def last_use(topic: Topic, access: Access | None) -> str:
    return max(topic.meta.updated or topic.meta.created, access.last if access else "")


def last_activity(topic: Topic, access: Access | None) -> str:
    return max(last_use(topic, access), topic.meta.decayed)


def older_than(moment: str, now: datetime, days: float) -> bool:
    """``moment`` (ISO) lies more than ``days`` before ``now``; an unknown time never does."""
    when = parse_time(moment)
    return when is not None and now - when > timedelta(days=days)


def days_since(moment: str, now: datetime) -> int:
    when = parse_time(moment)
    return 0 if when is None else max(0, (now - when).days)


def _count_sessions(memory: Memory) -> int | None:
    """How many sessions ``raw/sessions.db`` holds; ``None`` without one SQLite can read.

    Read without a trace, as a dry run promises: a read-only connection to a WAL database makes
    its -wal and -shm when they are missing, and leaves them behind. Missing, no writer is at
    work (the last to close folds the -wal into the file and removes both), so the file alone
    holds every session and is read immutable; present, SQLite's locks read what a writer has
    committed. A -wal left without its -shm by a killed writer is not read: its sessions are
    counted once the next writer folds them in.
    """
    path = memory.workspace.raw_db
    if not path.exists():
        return None
    at_work = all(path.with_name(path.name + suffix).exists() for suffix in ("-wal", "-shm"))
    try:
        connection = sqlite3.connect(read_only_uri(path, immutable=not at_work), uri=True)
        try:
            return int(connection.execute("SELECT COUNT(*) FROM sessions").fetchone()[0])
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        return None
