"""The raw-search pipeline: one query through every arm, to ranked turns and ranked sessions.

``Memory.rank_raw`` (``memstrata search`` over raw turns, and the retrieval benchmarks) keeps the
I/O of opening stores and syncing the session documents; this module runs the arms in order:

1. semantic hits of the query over the turn vectors (lazily filled, exact or IVF);
2. session-level BM25 and the time windows the query names;
3. the hybrid turn ranking (:func:`~memstrata.recall.turns.rank_turns`);
4. when sessions are wanted, feedback from the best turns: the dense session arm's hits for a
   query vector moved toward them (:func:`~memstrata.recall.turns.feedback_query`) and the
   session BM25 extended by their words (:mod:`memstrata.recall.expansion`), then
   :func:`~memstrata.recall.turns.rank_sessions`.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from memstrata.fts import query_terms
from memstrata.recall.expansion import expanded_session_scores, expansion_terms
from memstrata.recall.long_query import semantic_text
from memstrata.recall.semantic import stored_vectors
from memstrata.recall.sessions import score_sessions
from memstrata.recall.temporal import find_time_windows
from memstrata.recall.turns import (
    RankedTurn,
    TurnWeights,
    feedback_query,
    rank_sessions,
    rank_turns,
    semantic_hits,
)
from memstrata.recall.vector_cache import VectorCache

RankedSessions = list[tuple[str, float]]


def rank_raw(
    index: sqlite3.Connection,
    raw: sqlite3.Connection,
    cache: VectorCache | None,
    query: str,
    limit: int,
    now: datetime,
    weights: TurnWeights | None = None,
    *,
    sessions: bool = True,
) -> tuple[list[RankedTurn], RankedSessions]:
    """``(turns best first, [(session id, score)] best first)`` for ``query``; no sessions (and
    no work for them) when ``sessions`` is false, nothing for a query without a word."""
    if not query_terms(query):
        return [], []
    weights = weights or TurnWeights()
    semantic: dict[str, float] = {}
    if cache is not None:
        vectors = cache.turns(index, raw, weights.context)
        query_vector = cache.embedder.embed([semantic_text(query)], query=True)[0]
        semantic = semantic_hits(vectors, query_vector, weights.pool)
    session_scores = score_sessions(index, query, weights.pool)
    turns = rank_turns(
        raw,
        query,
        limit,
        semantic=semantic,
        weights=weights,
        session_scores=session_scores,
        windows=find_time_windows(query, now),
    )
    if not sessions:
        return turns, []
    top = [turn.source for turn in turns[: weights.feedback_turns]]
    if cache is not None and semantic and weights.feedback and top:
        embedder = cache.embedder
        rows = stored_vectors(index, "turn", embedder.name, embedder.dim, top)
        moved = feedback_query(query_vector, rows, weights.feedback)
        semantic = semantic_hits(vectors, moved, weights.pool)
    if weights.expansion and top:
        terms = expansion_terms(index, raw, query, top, weights.expansion_terms)
        session_scores = expanded_session_scores(
            index, session_scores, terms, weights.expansion, weights.pool
        )
    return turns, rank_sessions(turns, weights, session_scores, semantic)
