"""Run a benchmark: per corpus a fresh workspace, memstrata and the FTS5 baseline side by side.

For each corpus (a conversation, a question's haystack) the harness creates a workspace in a
temporary folder, stores the sessions in its raw store with their real dates, embeds the turns
into the derived index, and asks every question of memstrata's hybrid turn search and of the
plain FTS5 baseline. Scores go into per-category tallies; timings are per method.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memstrata.bench.corpus import Corpus, Question, ranked_keys
from memstrata.bench.fts5 import Fts5Baseline
from memstrata.bench.metrics import Tally, locomo_scores, longmemeval_scores, percentile
from memstrata.providers.embedder import Embedder
from memstrata.raw.store import RawStore
from memstrata.recall.semantic import (
    VectorIndex,
    ensure_vector_table,
    put_vectors,
    turn_passages,
)
from memstrata.recall.sessions import ensure_session_table, put_sessions, score_sessions
from memstrata.recall.temporal import find_time_windows
from memstrata.recall.turns import TurnWeights, rank_sessions, rank_turns
from memstrata.sqlite import connect, immediate
from memstrata.workspace.layout import init_workspace

DEPTH = 20
# memstrata ranks turns; sessions are ranked by their best turn, so look deeper for them.
TURN_POOL = 300

Scorer = Callable[[list[str], set[str], str], dict[str, float]]


@dataclass(slots=True)
class MethodRun:
    """What one method scored and how long it took."""

    tally: Tally = field(default_factory=Tally)
    index_s: float = 0.0
    query_ms: list[float] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        blocks: dict[str, Any] = dict(self.tally.blocks())
        blocks["timings"] = {
            "index_s": round(self.index_s, 3),
            "query_ms_p50": round(percentile(self.query_ms, 0.5), 3),
            "query_ms_p95": round(percentile(self.query_ms, 0.95), 3),
            "queries": len(self.query_ms),
        }
        return blocks


class MemstrataRetriever:
    """A fresh workspace holding one corpus, searched with memstrata's hybrid turn ranking."""

    name = "memstrata"

    def __init__(
        self, root: Path, corpus: Corpus, embedder: Embedder | None, weights: TurnWeights
    ) -> None:
        workspace = init_workspace(root)
        self.corpus = corpus
        self.embedder = embedder
        self.weights = weights
        self.store = RawStore(workspace.raw_db)
        for session, turns in corpus.sessions:
            self.store.upsert(session, turns)
        self.vectors: VectorIndex | None = None
        self.index = connect(workspace.index_db)
        ensure_session_table(self.index)
        with immediate(self.index):
            put_sessions(
                self.index,
                ((s.id, "\n".join(t.text for t in turns)) for s, turns in corpus.sessions),
            )
        if embedder is not None:
            ensure_vector_table(self.index)
            turns = [turn for _, session_turns in corpus.sessions for turn in session_turns]
            passages = [
                passage
                for _, session_turns in corpus.sessions
                for passage in turn_passages([t.text for t in session_turns], weights.context)
            ]
            rows = embedder.embed(passages)
            with immediate(self.index):
                put_vectors(
                    self.index,
                    "turn",
                    embedder.name,
                    (
                        (f"{t.session_id}#{t.index}", row)
                        for t, row in zip(turns, rows, strict=True)
                    ),
                )
            self.vectors = VectorIndex.load(self.index, "turn", embedder.name)

    def search(self, question: Question) -> dict[str, list[str]]:
        windows = find_time_windows(question.text, question.now)
        text = question.text
        query_vector = None
        if self.embedder is not None:
            query_vector = self.embedder.embed([question.text], query=True)[0]
        session_scores = score_sessions(self.index, text, self.weights.pool)
        ranked = rank_turns(
            self.store.db,
            text,
            TURN_POOL,
            vectors=self.vectors,
            query_vector=query_vector,
            weights=self.weights,
            session_scores=session_scores,
            windows=windows,
        )
        sources = [item.source for item in ranked]
        result = {"turn": ranked_keys(sources, self.corpus.keys["turn"])[:DEPTH]}
        if "session" in self.corpus.levels:
            sessions = rank_sessions(ranked, self.weights.session_decay, session_scores)
            result["session"] = [session for session, _ in sessions[:DEPTH]]
        return result

    def close(self) -> None:
        self.store.close()
        self.index.close()


class BaselineRetriever:
    """The FTS5 baseline over the benchmark's own documents, one table per level."""

    name = "fts5"

    def __init__(self, corpus: Corpus) -> None:
        self.tables = {level: Fts5Baseline(docs) for level, docs in corpus.baseline_docs.items()}

    def search(self, question: Question) -> dict[str, list[str]]:
        return {level: table.search(question.text, DEPTH) for level, table in self.tables.items()}

    def close(self) -> None:
        for table in self.tables.values():
            table.close()


def run_benchmark(
    corpora: Sequence[Corpus],
    scorer: Scorer,
    embedder: Embedder | None,
    weights: TurnWeights | None = None,
    on_corpus: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Score memstrata and FTS5 on every question of every corpus; a block per method."""
    weights = weights or TurnWeights()
    runs = {"memstrata": MethodRun(), "fts5": MethodRun()}
    questions = 0
    for number, corpus in enumerate(corpora, start=1):
        with tempfile.TemporaryDirectory(prefix="memstrata-bench-") as folder:
            started = time.perf_counter()
            memstrata = MemstrataRetriever(Path(folder) / "ws", corpus, embedder, weights)
            runs["memstrata"].index_s += time.perf_counter() - started
            started = time.perf_counter()
            baseline = BaselineRetriever(corpus)
            runs["fts5"].index_s += time.perf_counter() - started
            try:
                for question in corpus.questions:
                    questions += 1
                    for retriever in (memstrata, baseline):
                        run = runs[retriever.name]
                        started = time.perf_counter()
                        ranked = retriever.search(question)
                        run.query_ms.append((time.perf_counter() - started) * 1000)
                        scores: dict[str, float] = {}
                        for level, ids in ranked.items():
                            scores.update(scorer(ids, set(question.gold[level]), level))
                        run.tally.add(question.categories, scores)
            finally:
                memstrata.close()
                baseline.close()
        if on_corpus is not None:
            on_corpus(number, len(corpora))
    report: dict[str, Any] = {name: run.report() for name, run in runs.items()}
    report["meta"] = {
        "corpora": len(corpora),
        "questions": questions,
        "embedder": embedder.name if embedder is not None else "none",
        "weights": {
            "lexical": weights.lexical,
            "neighbour": weights.neighbour,
            "semantic": weights.semantic,
            "pool": weights.pool,
            "session_decay": weights.session_decay,
            "session": weights.session,
            "temporal": weights.temporal,
            "context": weights.context,
        },
    }
    return report


def score_locomo(ranked: list[str], gold: set[str], level: str) -> dict[str, float]:
    return locomo_scores(ranked, gold)


def score_longmemeval(ranked: list[str], gold: set[str], level: str) -> dict[str, float]:
    return longmemeval_scores(ranked, gold, level)
