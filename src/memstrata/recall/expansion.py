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

import json
import math
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence

from memstrata.fts import STOP_WORDS, TOKENIZE, query_terms
from memstrata.recall.fusion import normalise_scores
from memstrata.recall.sessions import score_sessions


def expansion_terms(
    index: sqlite3.Connection,
    raw: sqlite3.Connection,
    query: str,
    feedback: Sequence[str],
    count: int,
) -> list[str]:
    """The ``count`` words that best extend ``query``, drawn from the turns ``feedback``
    (``session#idx`` sources, best first); the heaviest first, ties by the word.

    Words are compared by their FTS stem ("deliveries" is the question's "delivery"), and each
    stem is looked up once in the session index's vocabulary; a word is returned as first
    written in the feedback, so the expansion query stems it the same way."""
    if count <= 0 or not feedback:
        return []
    texts = [_candidate_words(text) for text in _turn_texts(raw, feedback)]
    question = query_terms(query, drop_stop_words=False)
    stems = _stems({word for words in texts for word in words} | set(question))
    asked = {stems[word] for word in question if word in stems}
    holding: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for words in texts:
        held = {stems[word] for word in words if word in stems} - asked
        holding.update(held)
        for word in words:
            surface.setdefault(stems.get(word, ""), word)
    sessions, frequency = _session_frequencies(index, sorted(holding))
    weights = {
        stem: turns * math.log(sessions / frequency[stem])
        for stem, turns in holding.items()
        # a word only the feedback holds can find nothing new
        if frequency.get(stem, 0) > turns
    }
    ranked = sorted(
        (surface[stem] for stem in weights if weights[stem] > 0),
        key=lambda word: (-weights[stems[word]], word),
    )
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


def _candidate_words(text: str) -> list[str]:
    """Alphabetic words of three characters or more, stop words left out, in order."""
    return [
        word
        for word in query_terms(text, drop_stop_words=False)
        if len(word) > 2 and word.replace("'", "").isalpha() and word not in STOP_WORDS
    ]


def _stems(words: set[str]) -> dict[str, str]:
    """Each word's stem as the FTS tokenizer makes it (a throwaway in-memory table)."""
    ordered = sorted(words)
    db = sqlite3.connect(":memory:")
    try:
        db.execute(f"CREATE VIRTUAL TABLE w USING fts5(word, tokenize='{TOKENIZE}')")
        db.executemany("INSERT INTO w (rowid, word) VALUES (?, ?)", enumerate(ordered, 1))
        db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(w, instance)")
        # a word of several tokens ("domino's") goes by its first
        rows = db.execute("SELECT doc, term FROM v WHERE offset = 0")
        return {ordered[row - 1]: term for row, term in rows}
    finally:
        db.close()


def _session_frequencies(
    index: sqlite3.Connection, stems: Sequence[str]
) -> tuple[int, dict[str, int]]:
    """How many sessions the index holds, and how many of them hold each stem."""
    index.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_sessions_vocab"
        " USING fts5vocab(main, raw_sessions_fts, row)"
    )
    # FTS5's own per-document table: counting the FTS table itself reads every document
    sessions = index.execute("SELECT count(*) FROM raw_sessions_fts_docsize").fetchone()[0]
    rows = index.execute(
        "SELECT term, doc FROM temp.raw_sessions_vocab"
        " WHERE term IN (SELECT value FROM json_each(?))",
        (json.dumps(list(stems)),),
    )
    return sessions, {term: doc for term, doc in rows}


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
