"""``memstrata search`` over topics and the journal ranks inside FTS5 first and reads only the
best rows; the hits are exactly the plain ``JOIN … ORDER BY bm25`` ranking, including when most
of the best matches are archived (the state filter cuts into the top) or tie at the cut."""

from __future__ import annotations

import random

import pytest

from memstrata.fts import match_expression
from memstrata.index.db import IndexDB
from memstrata.journal.parse import parse_journal
from memstrata.model import Topic, TopicMeta
from memstrata.recall.lexical import LIVE_STATES, search_journal, search_topics

WORDS = "coffee tea oat milk flat white deploy canary billing staging rollback tulip soil".split()


def _topic(number: int, draw: random.Random) -> Topic:
    when = f"2025-{1 + number % 12:02d}-01T09:00:00Z"
    # the best "oat milk" topics are mostly archived: numbers below 40 say it most
    state = "archived" if number < 40 and number % 4 else "active"
    summary = "oat milk " * 3 if number < 40 else " ".join(draw.choices(WORDS, k=12))
    meta = TopicMeta(state=state, created=when, updated=when, observed=when)
    return Topic(f"notes/t{number:03d}", f"T{number}", f"# T{number}\n{summary}", "", meta)


@pytest.fixture(scope="module")
def index() -> IndexDB:
    draw = random.Random(11)
    opened = IndexDB.open_in_memory()
    opened.put_topics((_topic(number, draw), "stamp") for number in range(300))
    for day in range(1, 29):
        source = f"memory/2025-10-{day:02d}.md"
        bullets = "\n".join(f"- 1{n}:00 " + " ".join(draw.choices(WORDS, k=6)) for n in range(5))
        opened.put_journal(source, parse_journal(f"# x\n\n{bullets}\n", source, "2025-10-01"), "s")
    return opened


def _plain_topics(index: IndexDB, query: str, limit: int, states: tuple[str, ...]) -> list:
    marks = ", ".join("?" * len(states))
    rows = index.db.execute(
        "SELECT t.id, bm25(topics_fts, 5.0, 2.0, 1.0) AS rank FROM topics_fts"
        " JOIN topics t ON t.rowid = topics_fts.rowid"
        f" WHERE topics_fts MATCH ? AND t.state IN ({marks}) ORDER BY rank, t.id LIMIT ?",
        (match_expression(query), *states, limit),
    )
    return [(row[0], -float(row[1])) for row in rows]


def _plain_journal(index: IndexDB, query: str, limit: int) -> list:
    rows = index.db.execute(
        "SELECT j.source, j.line, bm25(journal_fts) AS rank FROM journal_fts"
        " JOIN journal j ON j.rowid = journal_fts.rowid"
        " WHERE journal_fts MATCH ? ORDER BY rank, j.source, j.line LIMIT ?",
        (match_expression(query), limit),
    )
    return [(f"{row[0]}#L{row[1]}", -float(row[2])) for row in rows]


@pytest.mark.parametrize("limit", [1, 5, 30, 1000])
@pytest.mark.parametrize("query", ["oat milk", "deploy the canary", "tulip soil", "coffee"])
def test_topic_hits_are_the_plain_ranking_live_or_not(index, query, limit):
    every = ("active", "conflict", "superseded", "archived")
    live = [(hit.source, hit.score) for hit in search_topics(index.db, query, limit)]
    assert live == _plain_topics(index, query, limit, LIVE_STATES)
    everything = search_topics(index.db, query, limit, include_archived=True)
    assert [(hit.source, hit.score) for hit in everything] == _plain_topics(
        index, query, limit, every
    )


def test_archived_topics_never_reach_a_live_search(index):
    hits = search_topics(index.db, "oat milk", 20)
    assert len(hits) == 20 and {hit.extra["state"] for hit in hits} == {"active"}


@pytest.mark.parametrize("limit", [1, 5, 30, 1000])
def test_journal_hits_are_the_plain_ranking(index, limit):
    for query in ("oat milk", "billing staging rollback", "tea"):
        hits = [(hit.source, hit.score) for hit in search_journal(index.db, query, limit)]
        assert hits == _plain_journal(index, query, limit)
