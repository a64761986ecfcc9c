"""Items picked by time, kind or entity alone, newest first: no words are matched here.

Two readers use it. A recall whose filters narrow (``--since``, ``--until``, ``--kind``,
``--entity``) and whose query has no word to match lists the newest items the filters let
through (:func:`filtered_items`), and :func:`listing_note` says how many more there are. The
temporal arm takes what lies in a query's time windows (:func:`items_in_windows`), which is
also the whole answer to a question that names a time and nothing else. Pure apart from
reading the connection given.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from memstrata.fts import content_terms, match_expression
from memstrata.model import RecallItem
from memstrata.recall.entity import name_forms
from memstrata.recall.filters import (
    RecallFilters,
    day_after_start,
    narrows,
    newest_first,
    next_day,
    passes,
    recency,
    topic_states,
    within,
)
from memstrata.recall.items import (
    POOL,
    TOPIC_COLUMNS,
    TOPIC_KIND,
    journal_item,
    left_out,
    topic_item,
    with_entities,
)
from memstrata.recall.lexical import best_journal, best_topics
from memstrata.recall.mentions import entity_aliases, mentioning
from memstrata.recall.temporal import TimeWindow

#: with filters and no word to match, recall counts this many items at most for its note on
#: how many more pass (:func:`listing_note`)
LISTING_MAX = 1000


def lists_filtered(query: str, filters: RecallFilters) -> bool:
    """Whether a recall lists what its filters let through: they narrow, and the query has no
    word to match."""
    return narrows(filters) and not content_terms(query)


def filtered_items(db: sqlite3.Connection, filters: RecallFilters, limit: int) -> list[RecallItem]:
    """The ``limit`` newest items that ``filters`` let through and recall may show (no
    promoted fact or upkeep note), whatever they say: what a recall with no word to match
    lists. Items come with their entities only under an entity filter."""
    items = _filtered(db, filters, topic_states(filters), max(POOL, limit))
    hidden = left_out(db, [item.source for item in items if item.stratum == "journal"])
    return [item for item in items if item.source not in hidden][:limit]


def listing_note(db: sqlite3.Connection, query: str, filters: RecallFilters, shown: int) -> str:
    """What a recall that listed ``shown`` items its filters let through (no word to match)
    left out: "N more items pass the filters; raise k to list them", or "" when it listed all.

    Counted up to :data:`LISTING_MAX` items ("over N more" beyond).
    """
    if shown < filters.k or not lists_filtered(query, filters):
        return ""
    passing = len(filtered_items(db, filters, LISTING_MAX + 1))
    if passing <= shown:
        return ""
    if passing > LISTING_MAX:
        return f"over {LISTING_MAX - shown} more items pass the filters; raise k to list them"
    if passing - shown == 1:
        return "1 more item passes the filters; raise k to list it"
    return f"{passing - shown} more items pass the filters; raise k to list them"


def _filtered(
    db: sqlite3.Connection, filters: RecallFilters, states: tuple[str, ...], limit: int
) -> list[RecallItem]:
    """The ``limit`` newest items that pass ``filters``, whatever they say.

    Time and kind are asked of SQL; an entity is found where recall finds it otherwise (its
    mentions by any of its names, and its name's words, which find a page titled for it), then
    every item is checked by :func:`passes`, the one definition of passing.
    """
    aliases = entity_aliases(db, filters.entity)
    if filters.entity:
        name = filters.entity.lstrip("@")
        items = mentioning(db, sorted({*name_forms(name), *aliases}), states, limit)
        expression = match_expression(name)
        if expression is not None:
            items += [topic_item(row) for _, row in best_topics(
                db, expression, states, limit, TOPIC_COLUMNS)]  # fmt: skip
            items += [journal_item(row) for _, row in best_journal(db, expression, limit)]
    else:
        items = _topics_within(db, filters, states, limit) + _entries_within(db, filters, limit)
    items = list(dict((item.source, item) for item in items).values())
    if filters.entity:
        items = with_entities(db, items)  # what passes reads for the entity
    items = [item for item in items if passes(item, filters, aliases)]
    newest_first(items)
    return items[:limit]


def _topics_within(
    db: sqlite3.Connection, filters: RecallFilters, states: tuple[str, ...], limit: int
) -> list[RecallItem]:
    clauses, values = [f"t.state IN ({', '.join('?' * len(states))})"], list(states)
    if filters.since:
        clauses.append("t.observed >= ?")
        values.append(filters.since)
    if filters.until:
        clauses.append("t.observed < ?")
        values.append(filters.until)
    if filters.kind:
        clauses.append(f"{TOPIC_KIND} = ?")
        values.append(filters.kind)
    rows = db.execute(
        f"SELECT {TOPIC_COLUMNS} FROM topics t INDEXED BY topics_by_observed"
        f" WHERE {' AND '.join(clauses)} ORDER BY t.observed DESC, t.id LIMIT ?",
        (*values, limit),
    )
    return [topic_item(row) for row in rows]


def _entries_within(db: sqlite3.Connection, filters: RecallFilters, limit: int) -> list[RecallItem]:
    clauses, values = ["1"], []
    if filters.since:
        clauses.append("day >= ?")
        values.append(filters.since[:10])
    if filters.until:
        clauses.append("day < ?")
        values.append(day_after_start(filters.until))
    if filters.kind == "note":
        clauses.append("fact_kind IS NULL")
    elif filters.kind:
        clauses.append("fact_kind = ?")
        values.append(filters.kind)
    rows = db.execute(
        f"SELECT * FROM journal WHERE {' AND '.join(clauses)} ORDER BY day DESC, source, line",
        values,
    )
    return _newest_entries(rows, filters.since, filters.until, limit)


def items_in_windows(
    db: sqlite3.Connection, windows: Sequence[TimeWindow], states: tuple[str, ...]
) -> list[RecallItem]:
    """What the temporal arm finds: for each window, the ``POOL`` newest topics in ``states``
    observed inside it and its journal entries (:func:`_entries_in`); newest first, an item
    in two windows twice."""
    items: list[RecallItem] = []
    marks = ", ".join("?" * len(states))
    for window in windows:
        start, end = window.start_iso, window.end_iso
        items += [
            topic_item(row)
            for row in db.execute(
                f"SELECT {TOPIC_COLUMNS} FROM topics t INDEXED BY topics_by_observed"
                f" WHERE observed >= ? AND observed < ? AND state IN ({marks})"
                " ORDER BY observed DESC, id LIMIT ?",
                (start, end, *states, POOL),
            )
        ]
        items += _entries_in(db, window)
    items.sort(key=lambda item: (item.time, item.source), reverse=True)
    return items


def items_in_time(
    db: sqlite3.Connection, windows: Sequence[TimeWindow], include_archived: bool = False
) -> list[RecallItem]:
    """What the temporal arm finds for ``windows``: topics observed and journal entries
    written inside them, newest first, a later line of a day after an earlier one (archived
    and superseded topics only on request)."""
    states = topic_states(RecallFilters(include_archived=include_archived))
    found: dict[str, RecallItem] = {}
    for item in items_in_windows(db, windows, states):
        found.setdefault(item.source, item)
    return sorted(found.values(), key=recency, reverse=True)


def _entries_in(db: sqlite3.Connection, window: TimeWindow) -> list[RecallItem]:
    """The journal entries inside ``window`` (:func:`_newest_entries`), ``POOL`` or more."""
    start, end = window.start_iso, window.end_iso
    rows = db.execute(
        "SELECT * FROM journal WHERE day >= ? AND day < ? ORDER BY day DESC, source, line",
        (start[:10], end[:10] if end[11:] == "00:00:00Z" else next_day(end)),
    )
    return _newest_entries(rows, start, end, POOL)


def _newest_entries(
    rows: Iterable[sqlite3.Row], since: str, until: str, limit: int
) -> list[RecallItem]:
    """The entries of ``rows`` (journal rows, newest day first) from ``since`` up to
    ``until``, whole days until there are ``limit``. Each is at its own time, so a line that
    opens with its time of day ("02:00 …") is inside "last night" (18:00 to 06:00) only when
    that time is; and a day is not cut, as its lines need not be in the order of their times
    (the newest of a long day may be its last line, or any)."""
    found: list[RecallItem] = []
    day = ""
    for row in rows:
        if len(found) >= limit and row["day"] != day:
            break
        day = row["day"]
        item = journal_item(row)
        if within(item, since, until):
            found.append(item)
    return found
