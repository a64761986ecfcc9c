"""The lexical arm: FTS5 BM25 over wiki topics and journal entries in the derived index.

Topics and journal entries sit in two FTS5 tables, and a BM25 score is only comparable within
its table: its IDF, ``log((N − n + 0.5) / (n + 0.5))``, is the table's own, and FTS5 clamps it
to 1e-6 for a word in more than half of the rows, so in a wiki of one topic every word of it
weighs nothing (and in one of a few, most). :func:`table_scales` gives the factor that puts a
table's scores on one scale with the other's (the formula is in :mod:`memstrata.recall.hybrid`).
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from memstrata.fts import match_expression
from memstrata.model import TOPIC_STATES, SearchHit

LIVE_STATES = ("active", "conflict")

T = TypeVar("T")

# bm25 column weights: a hit in the title counts most, then the summary, then the detail.
_TOPIC_WEIGHTS = ", 5.0, 2.0, 1.0"
#: FTS5's BM25 k1: one phrase adds less than (k1 + 1)·idf to a row's score, however often it occurs
_K1 = 1.2
#: the IDF FTS5 gives a phrase in more than half of a table's rows
_CLAMPED_IDF = 1e-6
#: the quoted phrases of a :func:`~memstrata.fts.match_expression` (a phrase holds no lone quote)
_PHRASE = re.compile(r'"(?:[^"]|"")*"')
#: the FTS tables of the recall arms and the content tables they index row for row
_FTS_TABLES = {"topics_fts": "topics", "journal_fts": "journal"}


def search_topics(
    db: sqlite3.Connection, query: str, limit: int, include_archived: bool = False
) -> list[SearchHit]:
    """Topics matching ``query``, best first; archived and superseded ones only on request."""
    expression = match_expression(query)
    if expression is None or limit <= 0:
        return []
    states = TOPIC_STATES if include_archived else LIVE_STATES
    columns = "t.id, t.title, t.summary, t.state, t.updated"
    return [
        SearchHit(
            stratum="wiki",
            source=row["id"],
            text=row["summary"],
            score=-float(rank),
            time=row["updated"],
            title=row["title"],
            extra={"state": row["state"]},
        )
        for rank, row in best_topics(db, expression, states, limit, columns)
    ]


def search_journal(db: sqlite3.Connection, query: str, limit: int) -> list[SearchHit]:
    """Journal entries (paragraphs, bullets and Retain facts) matching ``query``, best first."""
    expression = match_expression(query)
    if expression is None or limit <= 0:
        return []
    hits = []
    for rank, row in best_journal(db, expression, limit):
        extra = {"day": row["day"]}
        if row["fact_kind"]:
            extra["kind"] = row["fact_kind"]
        if row["confidence"] is not None:
            extra["confidence"] = f"{row['confidence']:g}"
        hits.append(
            SearchHit(
                stratum="journal",
                source=f"{row['source']}#L{row['line']}",
                text=row["text"],
                score=-float(rank),
                time=row["day"],
                extra=extra,
            )
        )
    return hits


def best_topics(
    db: sqlite3.Connection,
    expression: str,
    states: Sequence[str],
    limit: int,
    columns: str,
) -> list[tuple[float, sqlite3.Row]]:
    """The ``limit`` best topics in ``states`` for the FTS ``expression``: ``(bm25, row)``
    with ``columns`` of ``topics t``, best first, ties by id."""
    marks = ", ".join("?" * len(states))
    ranks, cutoff = best_matches(db, "topics_fts", expression, 2 * limit, _TOPIC_WEIGHTS)
    rows = db.execute(
        f"SELECT {columns}, t.rowid AS fts_rowid FROM topics t"
        f" WHERE t.rowid IN (SELECT value FROM json_each(?)) AND t.state IN ({marks})",
        (rowid_list(ranks), *states),
    )
    best = exact_top(((ranks[row["fts_rowid"]], row["id"], row) for row in rows), limit, cutoff)
    if best is not None:
        return best
    # Too many of the best matches are in other states (or tie at the cut): rank every match.
    return [
        (row["rank"], row)
        for row in db.execute(
            f"SELECT {columns}, bm25(topics_fts{_TOPIC_WEIGHTS}) AS rank FROM topics_fts"
            f" JOIN topics t ON t.rowid = topics_fts.rowid"
            f" WHERE topics_fts MATCH ? AND t.state IN ({marks}) ORDER BY rank, t.id LIMIT ?",
            (expression, *states, limit),
        )
    ]


def best_journal(
    db: sqlite3.Connection, expression: str, limit: int
) -> list[tuple[float, sqlite3.Row]]:
    """The ``limit`` best journal entries for the FTS ``expression``: ``(bm25, row)``, best
    first, ties by source and line."""
    ranks, cutoff = best_matches(db, "journal_fts", expression, 2 * limit)
    rows = db.execute(
        "SELECT *, rowid AS fts_rowid FROM journal WHERE rowid IN (SELECT value FROM json_each(?))",
        (rowid_list(ranks),),
    )
    best = exact_top(
        ((ranks[row["fts_rowid"]], (row["source"], row["line"]), row) for row in rows),
        limit,
        cutoff,
    )
    if best is not None:
        return best
    return [
        (row["rank"], row)
        for row in db.execute(
            "SELECT j.*, bm25(journal_fts) AS rank FROM journal_fts"
            " JOIN journal j ON j.rowid = journal_fts.rowid"
            " WHERE journal_fts MATCH ? ORDER BY rank, j.source, j.line LIMIT ?",
            (expression, limit),
        )
    ]


def table_scales(db: sqlite3.Connection, expression: str) -> dict[str, float]:
    """For each FTS table of recall (``topics_fts``, ``journal_fts``), the factor that turns
    its bm25 for ``expression`` into a score comparable across the tables: ``C_s / ((k1 + 1) ·
    Σ_{q ∈ Q_s} idf_s(q))`` of :mod:`memstrata.recall.hybrid`; 0 for a table that holds no
    phrase of the query.

    One count per phrase and table, each about as costly as FTS5's own count of that
    phrase's rows for bm25.
    """
    phrases = list(dict.fromkeys(_PHRASE.findall(expression)))
    stats = {table: _phrase_rows(db, table, phrases) for table in _FTS_TABLES}
    rows = sum(total for total, _ in stats.values())
    held = {phrase: sum(hits[phrase] for _, hits in stats.values()) for phrase in phrases}
    weight = {phrase: math.log1p((rows - n + 0.5) / (n + 0.5)) for phrase, n in held.items()}
    query_weight = sum(weight.values())
    scales: dict[str, float] = {}
    for table, (total, hits) in stats.items():
        found = [phrase for phrase in phrases if hits[phrase]]
        reach = (_K1 + 1) * sum(_fts5_idf(total, hits[phrase]) for phrase in found)
        share = sum(weight[phrase] for phrase in found) / query_weight if query_weight else 0.0
        scales[table] = share / reach if reach else 0.0
    return scales


def _phrase_rows(
    db: sqlite3.Connection, table: str, phrases: Sequence[str]
) -> tuple[int, dict[str, int]]:
    """``(rows of the FTS table, {phrase: rows holding it})``."""
    total = db.execute(f"SELECT COUNT(*) FROM {_FTS_TABLES[table]}").fetchone()[0]
    hits = {
        phrase: db.execute(
            f"SELECT COUNT(*) FROM {table} WHERE {table} MATCH ?", (phrase,)
        ).fetchone()[0]
        for phrase in phrases
    }
    return total, hits


def _fts5_idf(rows: int, hits: int) -> float:
    """The IDF FTS5's bm25 gives a phrase held by ``hits`` of ``rows`` rows."""
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0 else _CLAMPED_IDF


def best_matches(
    db: sqlite3.Connection, table: str, expression: str, limit: int, weights: str = ""
) -> tuple[dict[int, float], float | None]:
    """The ``limit`` best rows of the FTS5 ``table`` for ``expression``, ranked in the FTS
    table alone: ``({rowid: bm25}, cutoff)``, bm25 lower is better.

    ``cutoff`` is the worst bm25 returned when there may be more matches (``None`` when these
    are all of them): rows left out rank no better than it. Joining only these rows to their
    content table, instead of every match of a common word, halves the cost of a query.
    """
    rows = db.execute(
        f"SELECT rowid, bm25({table}{weights}) FROM {table} WHERE {table} MATCH ?"
        " ORDER BY 2 LIMIT ?",
        (expression, limit),
    ).fetchall()
    cutoff = rows[-1][1] if len(rows) == limit else None
    return {rowid: rank for rowid, rank in rows}, cutoff


def exact_top(
    candidates: Iterable[tuple[float, Any, T]], limit: int, cutoff: float | None
) -> list[tuple[float, T]] | None:
    """The ``limit`` best ``(bm25, tie, item)`` candidates — rows of :func:`best_matches` that
    passed the caller's filters — as ``(bm25, item)``, ranked by bm25 then ``tie``; ``None``
    when they may not be the best of all matches (:func:`is_exact_cut`), so the caller must
    rank every match instead."""
    best = sorted(candidates, key=lambda candidate: (candidate[0], candidate[1]))[:limit]
    if not is_exact_cut([rank for rank, _, _ in best], limit, cutoff):
        return None
    return [(rank, item) for rank, _, item in best]


def is_exact_cut(kept: Sequence[float], wanted: int, cutoff: float | None) -> bool:
    """Whether the best ``wanted`` rows kept from :func:`best_matches` (their bm25, best first,
    after filtering) are exactly the best ``wanted`` of all matches, ties included: true when
    nothing was left out, or when the last one kept ranks strictly better than the cutoff."""
    if cutoff is None:
        return True
    return len(kept) >= wanted and kept[wanted - 1] < cutoff


def rowid_list(ranks: dict[int, float]) -> str:
    """The rowids as a JSON array, for ``IN (SELECT value FROM json_each(?))``."""
    return json.dumps(list(ranks))


def score_turns(
    db: sqlite3.Connection, query: str, limit: int, since: str = "", until: str = ""
) -> dict[str, float]:
    """BM25 of raw turns (``sessions.db``) matching ``query``: ``{"session#idx": score}``.

    Scores are FTS5 bm25 negated (higher is better). ``since``/``until`` (ISO times) filter on
    the turn's time, both inclusive; an empty bound is open.
    """
    expression = match_expression(query)
    if expression is None or limit <= 0:
        return {}
    bounds, params = _time_bounds("t.time", since, until)
    ranks, cutoff = best_matches(db, "turns_fts", expression, 2 * limit)
    found = db.execute(
        "SELECT t.session_id, t.idx, t.id FROM turns t"
        f" WHERE t.id IN (SELECT value FROM json_each(?)) {bounds}",
        (rowid_list(ranks), *params),
    ).fetchall()
    best = exact_top(
        ((ranks[row[2]], row[2], f"{row[0]}#{row[1]}") for row in found), limit, cutoff
    )
    if best is not None:
        return {source: -float(rank) for rank, source in best}
    rows = db.execute(
        f"""
        SELECT t.session_id, t.idx, bm25(turns_fts) AS rank
        FROM turns_fts JOIN turns t ON t.id = turns_fts.rowid
        WHERE turns_fts MATCH ? {bounds}
        ORDER BY rank, t.id LIMIT ?
        """,
        (expression, *params, limit),
    ).fetchall()
    return {f"{row[0]}#{row[1]}": -float(row[2]) for row in rows}


def _time_bounds(column: str, since: str, until: str) -> tuple[str, list[str]]:
    clauses, params = [], []
    if since:
        clauses.append(f"AND {column} >= ?")
        params.append(since)
    if until:
        clauses.append(f"AND {column} <= ?")
        params.append(until)
    return " ".join(clauses), params
