"""The entity arm's lookups: which entities a query names, and the items that mention them.

:mod:`memstrata.recall.entity` reads the phrases of a query that could be names; here they are
looked up among the entity keys and aliases the index holds (a ``people/`` page titled
"李娜 (Li Na)" makes "li na" name ``@李娜``), and the newest topics and journal entries that
mention an entity are read. ``--entity`` uses the same lookups. Pure apart from reading the
connection given.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable, Sequence

from memstrata.model import RecallItem
from memstrata.recall.entity import name_forms, query_phrases
from memstrata.recall.items import (
    CHUNK,
    POOL,
    TOPIC_COLUMNS,
    journal_item,
    journal_rows,
    topic_item,
)

#: every key of a topic that holds one of the keys asked (aliases go both ways)
_ALIASES = (
    "SELECT b.key FROM aliases a JOIN aliases b ON b.topic = a.topic WHERE a.key IN ({marks})"
)
#: topics are walked newest first once mentions² ≥ this · topics (:func:`_mentioning_topics`)
_WALK_FACTOR = 25


def entity_keys(db: sqlite3.Connection, query: str) -> list[str]:
    """Entities the query names: the candidate phrases of :func:`query_phrases` that are keys,
    and their aliases (:func:`entity_aliases`)."""
    phrases = query_phrases(query)
    found = _lookup(db, "SELECT key FROM entities WHERE key IN ({marks})", phrases)
    return sorted(found | _lookup(db, _ALIASES, phrases))


def entity_aliases(db: sqlite3.Connection, entity: str | None) -> list[str]:
    """The names of ``entity`` (``--entity``, in any of its :func:`name_forms`) that a topic in
    ``people/`` or ``entities/`` gives it: ``李娜`` and ``li na`` for "Li Na", "li-na" or "李娜"
    when ``people/li-na`` is titled "李娜 (Li Na)" (:func:`memstrata.index.db.topic_aliases`)."""
    return sorted(_lookup(db, _ALIASES, name_forms(entity.lstrip("@")))) if entity else []


def _lookup(db: sqlite3.Connection, sql: str, keys: Iterable[str]) -> set[str]:
    """The first column of ``sql`` asked with ``keys`` in place of ``{marks}``, in chunks."""
    asked, found = sorted(set(keys)), set[str]()
    for start in range(0, len(asked), CHUNK):
        chunk = asked[start : start + CHUNK]
        found.update(
            row[0] for row in db.execute(sql.format(marks=", ".join("?" * len(chunk))), chunk)
        )
    return found


def mentioning(
    db: sqlite3.Connection, keys: Sequence[str], states: tuple[str, ...], limit: int = POOL
) -> list[RecallItem]:
    """The ``limit`` newest topics (in ``states``) and the ``limit`` newest journal entries
    that mention any of ``keys``, newest first, without their entities."""
    topics = _mentioning_topics(db, keys, states, limit)
    entries = _mentioning_entries(db, keys, limit)
    items = [topic_item(row) for row in topics] + [journal_item(row) for row in entries]
    items.sort(key=lambda item: (item.time, item.source), reverse=True)
    return items


def _mentioning_topics(
    db: sqlite3.Connection, keys: Sequence[str], states: tuple[str, ...], limit: int
) -> list[sqlite3.Row]:
    """The ``limit`` newest topics in ``states`` that mention any of ``keys`` (ties by id).

    Two plans for the same rows. From the mentions: every topic naming the entity is read and
    sorted, cost ∝ mentions. Walking ``topics_by_observed`` newest first until ``limit`` of them
    mention it: cost ∝ limit · topics / mentions. The walk wins once mentions² ≥ 25 · topics
    (measured: a mention costs about twice a walked topic); below that a rare name would make
    the walk read every topic. Counting stops at that threshold, so it stays cheap.
    """
    marks = ", ".join("?" * len(keys))
    state_marks = ", ".join("?" * len(states))
    # rowids only grow, so this over-counts topics after deletions; it only picks a plan
    topics = db.execute("SELECT COALESCE(MAX(rowid), 0) FROM topics").fetchone()[0]
    enough = math.isqrt(_WALK_FACTOR * topics) + 1
    mentions = db.execute(
        f"SELECT COUNT(*) FROM (SELECT 1 FROM mentions WHERE entity IN ({marks})"
        " AND ref_kind = 'topic' LIMIT ?)",
        (*keys, enough),
    ).fetchone()[0]
    if mentions >= enough:
        return db.execute(
            f"SELECT {TOPIC_COLUMNS} FROM topics t INDEXED BY topics_by_observed"
            f" WHERE t.state IN ({state_marks}) AND EXISTS (SELECT 1 FROM mentions m"
            f" WHERE m.entity IN ({marks}) AND m.ref_kind = 'topic' AND m.ref = t.id)"
            " ORDER BY t.observed DESC, t.id LIMIT ?",
            (*states, *keys, limit),
        ).fetchall()
    # CROSS JOIN keeps the mentions as the outer loop (the planner could pick the walk here)
    return db.execute(
        f"SELECT DISTINCT {TOPIC_COLUMNS} FROM mentions m CROSS JOIN topics t ON t.id = m.ref"
        f" WHERE m.ref_kind = 'topic' AND m.entity IN ({marks}) AND t.state IN ({state_marks})"
        " ORDER BY t.observed DESC, t.id LIMIT ?",
        (*keys, *states, limit),
    ).fetchall()


def _mentioning_entries(
    db: sqlite3.Connection, keys: Sequence[str], limit: int
) -> list[sqlite3.Row]:
    """The ``limit`` newest journal entries that mention any of ``keys`` (ties by source, line).

    Read from the entity's mentions, then looked up by (source, line): joining the journal to
    the mentions on ``source || '#L' || line`` walked every entry of the journal.
    """
    marks = ", ".join("?" * len(keys))
    refs = db.execute(
        f"SELECT ref FROM mentions WHERE entity IN ({marks}) AND ref_kind = 'journal'", keys
    )
    wanted = list(dict.fromkeys(ref for (ref,) in refs))
    rows = {f"{row['source']}#L{row['line']}": row for row in journal_rows(db, wanted)}
    entries = [rows[ref] for ref in wanted if ref in rows]
    # ORDER BY day DESC, source, line (sorts are stable; str order is SQLite's BINARY order)
    entries.sort(key=lambda row: (row["source"], row["line"]))
    entries.sort(key=lambda row: row["day"], reverse=True)
    return entries[:limit]
