"""The neighbour arm of recall: a journal entry next to one that matches the query.

A day's log is written in order, so the entry after a question is often its answer, and the
line after "deployed the billing canary" often what came of it; neither need share a word
with the query. As in the raw-turn ranking (:mod:`memstrata.recall.turns`), an entry earns a
share of its best neighbour's content score::

    neighbour(e) = w_nb · max(c(e−1), c(e+1))    (w_nb = 0.4, c = lex̂ + 0.5·coŝ)

where e−1 and e+1 are the entries just before and after e in its file, when they are in e's
section. Typed ``## Retain`` facts neither lend nor earn: each stands on its own. Only
candidates (entries an arm found) earn: bringing in neighbours that match nothing would inject
whatever happens to be logged around a match.

Measured through ``benchmarks/retrieval.py --through recall`` (each turn of a conversation a
bullet of its day's journal): LoCoMo recall@5 / @10 0.558 / 0.636 → 0.620 / 0.703; LongMemEval,
whose journal holds the user's side only and several conversations a day, turn recall_all@5
0.68 → 0.62 and @10 0.76 → 0.78, sessions unchanged (docs/benchmarks-retrieval.md).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping

NEIGHBOUR_WEIGHT = 0.4

# The entries just before and after each lender in its file, when in the lender's section
# and not typed facts: two lookups on UNIQUE (source, line) per lender.
_NEIGHBOURS = """
SELECT l.value ->> '$[3]' AS lender, j.source, j.line
FROM json_each(?) AS l
JOIN journal j ON j.rowid IN (
    (SELECT rowid FROM journal WHERE source = l.value ->> '$[0]' AND line < l.value ->> '$[1]'
     ORDER BY line DESC LIMIT 1),
    (SELECT rowid FROM journal WHERE source = l.value ->> '$[0]' AND line > l.value ->> '$[1]'
     ORDER BY line LIMIT 1))
WHERE j.section = l.value ->> '$[2]' AND j.fact_kind IS NULL
"""

# The lenders' own rows: a typed fact lends nothing, and its section says whose neighbours.
_LENDERS = """
SELECT l.value ->> '$[2]' AS source, j.section FROM json_each(?) AS l
JOIN journal j ON j.source = l.value ->> '$[0]' AND j.line = l.value ->> '$[1]'
WHERE j.fact_kind IS NULL
"""


def neighbour_scores(
    db: sqlite3.Connection, content: Mapping[str, float], weight: float = NEIGHBOUR_WEIGHT
) -> dict[str, float]:
    """``{source: w_nb · best lender's score}`` for each journal entry of ``content``
    (``{source: content score}``; other sources are ignored) next to another one there."""
    lenders = [
        [path, int(line), source]
        for source, score in content.items()
        if score > 0.0
        for path, mark, line in [source.rpartition("#L")]
        if mark and line.isdecimal()
    ]
    if not lenders or weight <= 0.0:
        return {}
    sections = {
        row["source"]: row["section"] for row in db.execute(_LENDERS, (json.dumps(lenders),))
    }
    located = [
        [path, line, sections[source], source]
        for path, line, source in lenders
        if source in sections
    ]
    earned: dict[str, float] = {}
    for row in db.execute(_NEIGHBOURS, (json.dumps(located),)):
        source = f"{row['source']}#L{row['line']}"
        score = weight * content[row["lender"]]
        if source in content and score > earned.get(source, 0.0):
            earned[source] = score
    return earned
