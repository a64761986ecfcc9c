"""Recall items read from the derived index: topic and journal rows as :class:`RecallItem`.

Every arm of recall, and every listing of it, hands on items made here, so a topic reads the
same way (its kind, its time, its summary without the title line) whichever arm found it.
Entities are filled in last (:func:`with_entities`), for the few items that are shown or
filtered on, not for every candidate. :func:`left_out` says which journal entries recall
never shows (promoted facts, upkeep notes). Pure apart from reading the connection given.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import replace

from memstrata.journal.parse import UPKEEP, find_entities
from memstrata.model import RecallItem
from memstrata.recall.filters import line_time

#: how many items each arm hands to the fusion
POOL = 50
#: a topic's kind when it has none of its own, by its namespace
KIND_OF_NAMESPACE = {
    "world": "world", "experiences": "experience", "opinions": "opinion",
    "observations": "observation", "entities": "world", "lessons": "observation",
}  # fmt: skip
#: the columns recall reads from ``topics`` (never ``detail``: long, and never recalled)
TOPIC_COLUMNS = "t.id, t.namespace, t.title, t.summary, t.state, t.kind, t.observed, t.updated"
#: a topic's kind in SQL, as :func:`topic_item` reads it: its own, else its namespace's
TOPIC_KIND = (
    "CASE WHEN t.kind != '' THEN t.kind "
    + " ".join(f"WHEN t.namespace = '{ns}' THEN '{kind}'" for ns, kind in KIND_OF_NAMESPACE.items())
    + " ELSE 'world' END"
)
#: ids per ``IN (...)`` list, under SQLite's default limit of bound parameters
CHUNK = 400


def topic_item(row: sqlite3.Row) -> RecallItem:
    """A topic row (:data:`TOPIC_COLUMNS`) as an item, without its entities."""
    kind = row["kind"] or KIND_OF_NAMESPACE.get(row["namespace"], "world")
    return RecallItem(
        stratum="wiki",
        kind=kind,
        time=row["observed"] or row["updated"],
        entities=(),
        content=_body(row["summary"]),
        source=row["id"],
        score=0.0,
        arms=(),
        state=row["state"],
        title=row["title"],
    )


def journal_item(row: sqlite3.Row) -> RecallItem:
    """A journal row as an item, at its time of day when it opens with one, without its
    entities."""
    return RecallItem(
        stratum="journal",
        kind=row["fact_kind"] or "note",
        time=line_time(row["day"], row["text"]),
        entities=(),
        content=row["text"],
        source=f"{row['source']}#L{row['line']}",
        score=0.0,
        arms=(),
    )


def _body(summary: str) -> str:
    """The summary without its leading ``# title`` line (the title travels separately)."""
    lines = summary.strip().splitlines()
    if lines and lines[0].startswith("#"):
        lines = lines[1:]
    return "\n".join(lines).strip() or summary.strip()


def with_entities(db: sqlite3.Connection, items: Sequence[RecallItem]) -> list[RecallItem]:
    """``items`` with their entities: a topic's (sorted by key) read in one query per chunk,
    a journal entry's found in its text."""
    ids = list(dict.fromkeys(item.source for item in items if item.stratum == "wiki"))
    names: dict[str, list[str]] = {}
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        rows = db.execute(
            "SELECT m.ref, e.name FROM mentions m JOIN entities e ON e.key = m.entity"
            f" WHERE m.ref_kind = 'topic' AND m.ref IN ({', '.join('?' * len(chunk))})"
            " ORDER BY m.ref, e.key",
            chunk,
        )
        for ref, name in rows:
            names.setdefault(ref, []).append(name)
    return [
        replace(
            item,
            entities=tuple(names.get(item.source, ()))
            if item.stratum == "wiki"
            else find_entities(item.content),
        )
        for item in items
    ]


def items_for_sources(db: sqlite3.Connection, sources: Sequence[str]) -> dict[str, RecallItem]:
    """Load items by source, two queries in all (one per stratum); unknown sources are left out.

    Items come without their entities (:func:`with_entities`).
    """
    found: dict[str, RecallItem] = {}
    topic_ids = [source for source in sources if "#L" not in source]
    for start in range(0, len(topic_ids), CHUNK):
        chunk = topic_ids[start : start + CHUNK]
        rows = db.execute(
            f"SELECT {TOPIC_COLUMNS} FROM topics t WHERE id IN ({', '.join('?' * len(chunk))})",
            chunk,
        )
        found.update((row["id"], topic_item(row)) for row in rows)
    for row in journal_rows(db, sources):
        item = journal_item(row)
        found[item.source] = item
    return found


def journal_rows(db: sqlite3.Connection, sources: Sequence[str]) -> list[sqlite3.Row]:
    """The journal rows of sources ``<file>#L<line>``, one index lookup each (unparsable
    sources are skipped)."""
    lines = _journal_lines(sources)
    found: list[sqlite3.Row] = []
    for start in range(0, len(lines), CHUNK):
        chunk = lines[start : start + CHUNK]
        pairs = ", ".join("(?, ?)" for _ in chunk)
        # joined, not ``(source, line) IN (VALUES …)``, which SQLite answers by a full scan
        found += db.execute(
            f"SELECT j.* FROM (VALUES {pairs}) v CROSS JOIN journal j"
            " ON j.source = v.column1 AND j.line = v.column2",
            [value for pair in chunk for value in pair],
        ).fetchall()
    return found


def _journal_lines(sources: Sequence[str]) -> list[tuple[str, int]]:
    """``(file, line)`` of each journal source ``<file>#L<line>``; others are skipped."""
    lines = []
    for source in sources:
        path, mark, line = source.rpartition("#L")
        if mark and line.isdecimal():
            lines.append((path, int(line)))
    return lines


def left_out(db: sqlite3.Connection, sources: Sequence[str]) -> set[str]:
    """The journal entries among ``sources`` that recall leaves out.

    - **Promoted facts:** a fact that a topic has taken in. It counts when ``memory/.promoted``
      records this very text from this file (at any line: lines move when notes are logged
      above ``## Retain``) and a topic's lineage names that record. That topic speaks for the
      fact in whatever state the wiki now holds it (merged, superseded, in conflict): the
      journal line would be the same knowledge twice, or stale.
    - **Upkeep notes:** entries in a day's ``## Upkeep`` section, memstrata's own notes on its
      upkeep (the gardener's summary and health line): about the memory, not knowledge.
    """
    lines = _journal_lines(sources)
    if not lines:
        return set()
    rows = db.execute(
        "SELECT j.source || '#L' || j.line FROM json_each(?) AS v"
        " JOIN journal j ON j.source = json_extract(v.value, '$[0]')"
        " AND j.line = json_extract(v.value, '$[1]')"
        " WHERE j.section = ? COLLATE NOCASE"
        # the records of this file (a range of the primary key: <file>#L…) with this text
        " OR (j.digest != '' AND EXISTS (SELECT 1 FROM promoted p"
        " JOIN lineage l ON l.ref = p.source WHERE p.source > j.source || '#L'"
        " AND p.source < j.source || '#M' AND p.digest = j.digest))",
        (json.dumps(lines), UPKEEP),
    )
    return {source for (source,) in rows}
