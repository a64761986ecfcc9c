"""Lexical pseudo-relevance feedback: words of the best turns found, added to a session query.

A question names a category ("food delivery services", "magazine subscriptions"); the sessions
that answer it often name only instances ("Domino's", "The New Yorker"), and the best turns found
for the question carry those instances' neighbours. RM3-style expansion takes the words that
are frequent in the feedback turns and rare in the store:

    weight(w) = df_F(w) · log(N / df(w))

with df_F(w) the number of feedback turns holding w, N the number of sessions and df(w) the
sessions holding w. A word held by no session beyond the feedback (df ≤ df_F) is left out: it
would only find again what was found. The ``count`` heaviest words not in the question form a
second BM25 query over sessions, added to the first as

    score(s) = bm25̂(q, s) + λ · bm25̂(expansion, s)

(x̂: min-max scaled over sessions). Words are alphabetic (an inner apostrophe allowed: "Domino's"),
at least three characters, not stop words; CJK text is not expanded (its terms are character
bigrams, too ambiguous out of context).
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence

from memstrata.fts import STOP_WORDS, match_expression, query_terms
from memstrata.recall.fusion import normalise_scores
from memstrata.recall.sessions import score_sessions

#: words of the feedback turns considered (by how many turns hold them), before idf is looked up
CANDIDATES = 40


def expansion_terms(
    index: sqlite3.Connection,
    raw: sqlite3.Connection,
    query: str,
    feedback: Sequence[str],
    count: int,
) -> list[str]:
    """The ``count`` words that best extend ``query``, drawn from the turns ``feedback``
    (``session#idx`` sources, best first); the heaviest first, ties by the word."""
    if count <= 0 or not feedback:
        return []
    asked = set(query_terms(query, drop_stop_words=False))
    holding: Counter[str] = Counter()
    for text in _turn_texts(raw, feedback):
        holding.update(
            {
                word
                for word in query_terms(text, drop_stop_words=False)
                if len(word) > 2 and word.replace("'", "").isalpha() and word not in STOP_WORDS
            }
            - asked
        )
    sessions = index.execute("SELECT count(*) FROM raw_sessions_fts").fetchone()[0]
    weights: dict[str, float] = {}
    for word, turns in sorted(holding.items(), key=lambda item: (-item[1], item[0]))[:CANDIDATES]:
        expression = match_expression(word)
        if expression is None:
            continue
        df = index.execute(
            "SELECT count(*) FROM raw_sessions_fts WHERE raw_sessions_fts MATCH ?", (expression,)
        ).fetchone()[0]
        if df > turns:  # a word only the feedback holds can find nothing new
            weights[word] = turns * math.log(sessions / df)
    ranked = sorted((word for word in weights if weights[word] > 0), key=lambda w: (-weights[w], w))
    return ranked[:count]


def expanded_session_scores(
    index: sqlite3.Connection,
    session_scores: Mapping[str, float],
    terms: Sequence[str],
    weight: float,
    limit: int,
) -> dict[str, float]:
    """The sessions' scaled BM25 for the question plus ``weight`` times their scaled BM25 for
    ``terms`` (the question's scores unchanged when there is nothing to add)."""
    extra = score_sessions(index, " ".join(terms), limit) if terms and weight else {}
    if not extra:
        return dict(session_scores)
    base, more = normalise_scores(session_scores), normalise_scores(extra)
    return {
        session: base.get(session, 0.0) + weight * more.get(session, 0.0)
        for session in sorted(set(base) | set(more))
    }


def _turn_texts(raw: sqlite3.Connection, sources: Sequence[str]) -> list[str]:
    texts = []
    for source in sources:
        session, _, index = source.rpartition("#")
        row = raw.execute(
            "SELECT text FROM turns WHERE session_id = ? AND idx = ?", (session, int(index))
        ).fetchone()
        if row is not None:
            texts.append(row[0])
    return texts
