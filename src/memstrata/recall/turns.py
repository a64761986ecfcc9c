"""Hybrid search over raw turns: content arms, then context arms, fused by weight.

Content: lexical (FTS5 BM25) and semantic (cosine) scores, each min-max scaled over its own
candidates (x̂; 0 for a non-candidate), combined as c(t) = w_lex · lex̂(t) + w_sem · coŝ(t).
Context: a turn is often the answer to the turn before it (or is answered by the next one), and
a question's words are often spread over one conversation, so

    s(t) = c(t) · (1 + w_exp · [t narrates an experience])
           + w_nb · max(c(t−1), c(t+1)) + w_ses · bm25̂(session(t))
    score(t) = s(t) outside W,  (s(t) + 0.5) · (1 + w_tmp) inside W

with bm25̂ the session-level BM25 (:mod:`memstrata.recall.sessions`) scaled over sessions, W
the time windows the query names (:mod:`memstrata.recall.temporal`); a turn that tells what its
speaker did (:mod:`memstrata.recall.narration`) has its content score raised, so that boost
never lifts a turn the query does not match. A named time is a strong constraint on the
candidates some arm found (w_tmp = 3: a turn inside it counts four times, after a head start
of 0.5 that min-max scaling would otherwise deny the weakest match), yet a turn just outside
it, such as "I fixed my bike last weekend" told on Monday, keeps its place among the rest.
The semantic hits are computed once by the caller (:func:`semantic_hits`) and serve turns and
sessions alike.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from memstrata.clock import parse_time
from memstrata.providers.embedder import Vectors
from memstrata.recall.fusion import normalise_scores, rank_items, weighted_score_fusion
from memstrata.recall.lexical import score_turns
from memstrata.recall.narration import narrates_experience
from memstrata.recall.semantic import VectorIndex
from memstrata.recall.temporal import TimeWindow

# A turn tells its story early; reading at most this much of each candidate keeps a pasted log
# or a tool output of megabytes from costing the query (1 in 300 LongMemEval user turns is longer).
NARRATION_CHARS = 4000


@dataclass(frozen=True, slots=True)
class TurnWeights:
    """How much each arm counts, and how many candidates each arm contributes."""

    lexical: float = 1.0
    neighbour: float = 0.4
    semantic: float = 0.7
    pool: int = 200
    #: how much a session's 2nd, 3rd … best turn add when sessions are ranked
    session_decay: float = 0.5
    #: a turn inherits this share of its session's (scaled) session-level BM25
    session: float = 0.4
    #: a candidate whose time falls in a window named by the query has ``temporal_lift``
    #: added to its score, then the sum multiplied by 1 + ``temporal``
    temporal: float = 3.0
    temporal_lift: float = 0.5
    #: a candidate that narrates its speaker's own past ("I went with Sarah") has its content
    #: score raised by this share
    experience: float = 0.8
    #: weight of a session's own (scaled) BM25 when sessions are ranked
    session_rank: float = 1.0
    #: weight of a session's best (scaled) turn cosine when sessions are ranked
    session_dense: float = 2.0
    #: for that arm the query vector moves toward the mean vector of the best turns found
    #: (Rocchio pseudo-relevance feedback): this much of it, from this many turns
    feedback: float = 0.5
    feedback_turns: int = 3
    #: the session BM25 arm adds this share of a BM25 over words of those same best turns
    #: (:mod:`memstrata.recall.expansion`), the heaviest this many
    expansion: float = 0.3
    expansion_terms: int = 10
    #: turns before a turn embedded with it (see :func:`~memstrata.recall.semantic.turn_passages`)
    context: int = 1


@dataclass(frozen=True, slots=True)
class RankedTurn:
    """A turn's place in a hybrid ranking: ``source`` is ``session#idx``."""

    source: str
    score: float
    arms: tuple[str, ...]
    #: the part of ``score`` the experience boost added (sessions are ranked without it)
    boost: float = 0.0


def rank_turns(
    db: sqlite3.Connection,
    query: str,
    limit: int,
    *,
    semantic: Mapping[str, float] | None = None,
    weights: TurnWeights | None = None,
    session_scores: dict[str, float] | None = None,
    windows: Sequence[TimeWindow] = (),
    since: str = "",
    until: str = "",
) -> list[RankedTurn]:
    """The ``limit`` best turns for ``query`` in the raw store ``db``, best first.

    ``semantic`` maps turn sources to their cosine with the query (:func:`semantic_hits`); time
    bounds for it are the caller's to apply.
    """
    weights = weights or TurnWeights()
    arms: dict[str, dict[str, float]] = {}
    arms["lexical"] = normalise_scores(score_turns(db, query, weights.pool, since, until))
    if semantic and weights.semantic:
        arms["semantic"] = normalise_scores(semantic)
    content = weighted_score_fusion(
        arms, {"lexical": weights.lexical, "semantic": weights.semantic}
    )
    if weights.neighbour:
        arms["neighbour"] = _neighbour_scores(content)
    # One read of every candidate's opening: a neighbour past a session's end names no turn,
    # and a turn with no text (a bare tool call) has nothing to show, though its vector
    # carries the turn before it.
    heads = dict(
        _turn_column(
            db,
            sorted({source for scores in arms.values() for source in scores}),
            f"substr(t.text, 1, {NARRATION_CHARS})",
        )
    )
    shown = {source for source, head in heads.items() if head.strip()}
    for arm, scores in arms.items():
        arms[arm] = {source: score for source, score in scores.items() if source in shown}
    content = {source: score for source, score in content.items() if source in shown}
    # The context arms below only ever score turns a content arm or a neighbour found.
    candidates = sorted(shown)
    if session_scores and weights.session:
        arms["session"] = _session_prior(candidates, normalise_scores(session_scores))
    if windows and weights.temporal:
        arms["temporal"] = _in_windows(db, candidates, windows)
    if weights.experience:
        arms["experience"] = {
            source: score
            for source, score in content.items()
            if score > 0.0 and narrates_experience(heads[source])
        }
    fused = dict(content)
    for arm in ("neighbour", "session", "experience"):
        weight = getattr(weights, arm)
        for source, score in arms.get(arm, {}).items():
            fused[source] = fused.get(source, 0.0) + weight * score
    # A time the question names is a strong constraint on what it matches: a turn inside it
    # gets a small head start (min-max scaling puts the weakest match at 0, which no factor
    # would lift), and then counts 1 + w_tmp times.
    factor = dict.fromkeys(arms.get("temporal", {}), 1.0 + weights.temporal)
    for source in factor:
        fused[source] = (fused.get(source, 0.0) + weights.temporal_lift) * factor[source]
    ranked = rank_items(fused, limit)
    return [
        RankedTurn(
            source,
            round(fused[source], 6),
            tuple(arm for arm, scores in arms.items() if _found_by(arm, scores, source)),
            round(
                weights.experience
                * arms.get("experience", {}).get(source, 0.0)
                * factor.get(source, 1.0),
                6,
            ),
        )
        for source in ranked
    ]


def _found_by(arm: str, scores: Mapping[str, float], source: str) -> bool:
    """A content arm found every turn it scored (min-max scaling puts its weakest match at 0,
    which still holds the query's word); a context arm, only those it gave something."""
    if arm in ("lexical", "semantic"):
        return source in scores
    return scores.get(source, 0.0) > 0.0


def semantic_hits(
    vectors: VectorIndex | None, query_vector: Vectors | None, pool: int
) -> dict[str, float]:
    """The ``pool`` turns most similar to the query: ``{session#idx: cosine}`` (empty without
    vectors)."""
    if vectors is None or query_vector is None or not len(vectors) or pool <= 0:
        return {}
    return dict(vectors.search(query_vector, pool))


def feedback_query(query_vector: Vectors, top_rows: Vectors, weight: float) -> Vectors:
    """Rocchio pseudo-relevance feedback: q' = (q + w · mean(top rows)) / ‖…‖.

    The best turns found carry words the question did not use ("Domino's", "Fresh Fusion" for
    "food delivery services"), so q' also finds a session whose only link to the question is
    one of those ("my weekends have been all about Uber Eats").
    """
    query = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    if not len(top_rows) or not weight:
        return query
    moved = query + weight * np.asarray(top_rows, dtype=np.float32).mean(axis=0)
    norm = float(np.linalg.norm(moved))
    return moved / norm if norm else query


def _session_prior(candidates: Sequence[str], sessions: dict[str, float]) -> dict[str, float]:
    """Every candidate turn gets its session's scaled score."""
    prior = {}
    for source in candidates:
        score = sessions.get(source.rpartition("#")[0], 0.0)
        if score > 0.0:
            prior[source] = score
    return prior


def _in_windows(
    db: sqlite3.Connection, candidates: Sequence[str], windows: Sequence[TimeWindow]
) -> dict[str, float]:
    """Candidates whose turn time lies in one of ``windows``."""
    inside = {}
    for source, time in _turn_column(db, candidates, "t.time"):
        moment = parse_time(time)
        if moment is not None and any(window.contains(moment) for window in windows):
            inside[source] = 1.0
    return inside


def _turn_column(
    db: sqlite3.Connection, sources: Sequence[str], expression: str
) -> list[tuple[str, str]]:
    """``(source, value of expression over its row t)`` for each source that names a stored
    turn."""
    rows = db.execute(
        f"""
        SELECT t.session_id, t.idx, {expression} FROM json_each(?) AS j JOIN turns t
        ON t.session_id = json_extract(j.value, '$[0]') AND t.idx = json_extract(j.value, '$[1]')
        """,
        (json.dumps([[s, int(i)] for s, _, i in (source.rpartition("#") for source in sources)]),),
    )
    return [(f"{session}#{index}", value) for session, index, value in rows]


def _neighbour_scores(lexical: dict[str, float]) -> dict[str, float]:
    """Each turn next to a lexical candidate gets that candidate's (best) score."""
    result: dict[str, float] = {}
    for source, score in lexical.items():
        session, _, index = source.rpartition("#")
        position = int(index)
        for other in (position - 1, position + 1):
            key = f"{session}#{other}"
            if score > result.get(key, 0.0):
                result[key] = score
    return result


def rank_sessions(
    turns: Sequence[RankedTurn],
    weights: TurnWeights | None = None,
    session_scores: Mapping[str, float] | None = None,
    semantic: Mapping[str, float] | None = None,
) -> list[tuple[str, float]]:
    """Sessions ranked by three session-level arms, each min-max scaled over sessions (x̂):

        score(s) = found̂(s) + w_rank · bm25̂(s) + w_dense · best̂(s)

    found(s) = Σ_i decay^i · score(turn_i) over the session's ranked turns, best first (a
    session whose several turns match outranks one lucky turn), each score without its
    experience boost (that picks the turn which answers within a conversation; which
    conversation is about the question is a matter of what its turns say); bm25 is the session's
    own BM25 over its joined text (``Memory.rank_raw`` passes it extended by words of the best
    turns, :mod:`memstrata.recall.expansion`); best(s) is the highest cosine of one of its turns
    with the query. The dense arm matters where a session's evidence is one aside in a long
    conversation about something else ("by the way, Uber Eats saved my weekend"): no word of the
    question is in it, so neither BM25 sees it, but one turn of it means the same thing.
    ``Memory.rank_raw`` passes the hits of a query moved toward the best turns
    (:func:`feedback_query`), which reach such asides better than the question alone.
    """
    weights = weights or TurnWeights()
    by_session: dict[str, list[float]] = {}
    for turn in turns:
        by_session.setdefault(turn.source.rpartition("#")[0], []).append(turn.score - turn.boost)
    found = {
        session: sum(
            score * weights.session_decay**i for i, score in enumerate(sorted(values, reverse=True))
        )
        for session, values in by_session.items()
    }
    best: dict[str, float] = {}
    for source, cosine in (semantic or {}).items():
        session = source.rpartition("#")[0]
        best[session] = max(best.get(session, -1.0), cosine)
    scores = weighted_score_fusion(
        {"found": found, "bm25": dict(session_scores or {}), "dense": best},
        {"found": 1.0, "bm25": weights.session_rank, "dense": weights.session_dense},
    )
    return [(session, scores[session]) for session in rank_items(scores)]
