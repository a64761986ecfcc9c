"""Session-level BM25 ranks inside FTS5 first and reads session ids for the best rows only; the
result is exactly the plain ``ORDER BY bm25, session_id`` ranking, ties at the cut included."""

from __future__ import annotations

import random
import sqlite3

import pytest

from memstrata.fts import match_expression
from memstrata.recall.sessions import ensure_session_table, put_sessions, score_sessions

WORDS = "coffee tea oat milk flat white deploy canary billing staging rollback tulip soil".split()


def _plain(index: sqlite3.Connection, query: str, limit: int) -> list[tuple[str, float]]:
    rows = index.execute(
        "SELECT session_id, bm25(raw_sessions_fts) AS rank FROM raw_sessions_fts"
        " WHERE raw_sessions_fts MATCH ? ORDER BY rank, session_id LIMIT ?",
        (match_expression(query), limit),
    ).fetchall()
    return [(session, -float(rank)) for session, rank in rows]


def _index(documents: list[tuple[str, str]]) -> sqlite3.Connection:
    index = sqlite3.connect(":memory:")
    ensure_session_table(index)
    put_sessions(index, documents)
    return index


@pytest.mark.parametrize("limit", [1, 3, 10, 500])
def test_the_ranking_is_the_plain_bm25_ranking(limit):
    draw = random.Random(7)
    documents = [
        (f"s{n:03d}", " ".join(draw.choices(WORDS, k=draw.randint(3, 30)))) for n in range(300)
    ]
    index = _index(documents)
    for query in ("oat milk", "deploy the canary to staging", "tulip", "coffee tea milk"):
        assert list(score_sessions(index, query, limit).items()) == _plain(index, query, limit)


def test_sessions_tied_at_the_cut_are_taken_in_id_order():
    # every session says the same: all tie, so the cut is decided by the session id
    index = _index([(f"s{n:02d}", "flat white with oat milk") for n in reversed(range(40))])
    assert list(score_sessions(index, "oat milk", 5)) == ["s00", "s01", "s02", "s03", "s04"]
    assert list(score_sessions(index, "oat milk", 5).items()) == _plain(index, "oat milk", 5)
