"""Run a benchmark: per corpus a fresh workspace, memstrata and the FTS5 baseline side by side.

For each corpus (a conversation, a question's haystack) the harness creates a workspace in a
temporary folder, stores the sessions in its raw store with their real dates, and asks every
question of memstrata's own raw search (``Memory.rank_raw``, which embeds the turns lazily)
and of the plain FTS5 baseline. Scores go into per-category tallies; timings are per method.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memstrata.bench.corpus import Corpus, Question, ranked_keys
from memstrata.bench.fts5 import Fts5Baseline
from memstrata.bench.metrics import Tally, locomo_scores, longmemeval_scores, percentile
from memstrata.errors import EmbedderFailed
from memstrata.memory import Memory
from memstrata.model import Turn
from memstrata.providers.embedder import Embedder
from memstrata.recall.search import SESSION_TURN_POOL
from memstrata.recall.turns import TurnWeights
from memstrata.workspace.layout import init_workspace

DEPTH = 20
# Sessions are ranked over this many turns, as Memory.search_sessions does.
TURN_POOL = SESSION_TURN_POOL
# Items recalled per question through the injected path: the turn metrics read the first
# DEPTH, and a LongMemEval session ranks by its best turn among these.
RECALL_K = 30

Scorer = Callable[[list[str], set[str], str], dict[str, float]]


@dataclass(slots=True)
class MethodRun:
    """What one method scored and how long it took."""

    tally: Tally = field(default_factory=Tally)
    index_s: float = 0.0
    query_ms: list[float] = field(default_factory=list)

    def absorb(self, other: MethodRun) -> None:
        """Add ``other``'s questions and timings (another corpus of the same run)."""
        for category, rows in other.tally.rows.items():
            self.tally.rows.setdefault(category, []).extend(rows)
        self.index_s += other.index_s
        self.query_ms.extend(other.query_ms)

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
    """A fresh workspace holding one corpus, searched through ``Memory.rank_raw``: the same
    code path as ``memstrata search`` over raw turns (hybrid ranking, lazy turn vectors)."""

    name = "memstrata"

    def __init__(
        self, root: Path, corpus: Corpus, embedder: Embedder | None, weights: TurnWeights
    ) -> None:
        init_workspace(root)
        self.corpus = corpus
        self.weights = weights
        self.memory = Memory(root, embedder=embedder, embeddings=embedder is not None)
        for session, turns in corpus.sessions:
            self.memory.raw.upsert(session, turns)
        # Index the sessions and embed every turn now, so query timings are queries only.
        self.memory.embed_missing()
        _stop_without_embedder(self.memory)
        self.memory.rank_raw("warm up", 1, weights)

    def search(self, question: Question) -> dict[str, list[str]]:
        self.memory.clock = lambda: question.now
        turns, sessions = self.memory.rank_raw(question.text, TURN_POOL, self.weights)
        _stop_without_embedder(self.memory)
        sources = [item.source for item in turns]
        result = {"turn": ranked_keys(sources, self.corpus.keys["turn"])[:DEPTH]}
        if "session" in self.corpus.levels:
            result["session"] = [session for session, _ in sessions[:DEPTH]]
        return result

    def close(self) -> None:
        self.memory.close()


class RecallRetriever:
    """The injected path: each turn a bullet of its day's journal, each question through
    ``Memory.recall`` (what ``memstrata recall`` and the context's recall channel return).

    A LongMemEval session ranks by its best recalled turn. Nothing is recorded as accessed,
    so every item is "unaccessed" and its age counts as it would for a fresh memory.
    """

    name = "memstrata"

    def __init__(
        self, root: Path, corpus: Corpus, embedder: Embedder | None, weights: TurnWeights
    ) -> None:
        init_workspace(root)
        self.corpus = corpus
        days: dict[str, list[Turn]] = {}
        for _, turns in corpus.sessions:
            for turn in turns:
                days.setdefault(turn.time[:10], []).append(turn)
        #: journal source (memory/<day>.md#L<n>) -> the turn's source (session#idx)
        self.turn_of: dict[str, str] = {}
        for day, turns in sorted(days.items()):
            lines = [f"# {day}", ""]
            for turn in turns:
                self.turn_of[f"memory/{day}.md#L{len(lines) + 1}"] = (
                    f"{turn.session_id}#{turn.index}"
                )
                lines.append("- " + " ".join(turn.text.split()))
            (root / "memory" / f"{day}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.memory = Memory(root, embedder=embedder, embeddings=embedder is not None)
        self.memory.rebuild()  # indexes and embeds every entry, so timings are queries only
        _stop_without_embedder(self.memory)

    def search(self, question: Question) -> dict[str, list[str]]:
        self.memory.clock = lambda: question.now
        result = self.memory.recall(
            question.text, k=RECALL_K, record_access=False, record_metric=False
        )
        _stop_without_embedder(self.memory)
        sources = [
            self.turn_of[item.source] for item in result.items if item.source in self.turn_of
        ]
        ranked = {"turn": ranked_keys(sources, self.corpus.keys["turn"])[:DEPTH]}
        if "session" in self.corpus.levels:
            sessions = [source.rpartition("#")[0] for source in sources]
            ranked["session"] = list(dict.fromkeys(sessions))[:DEPTH]
        return ranked

    def close(self) -> None:
        self.memory.close()


def _stop_without_embedder(memory: Memory) -> None:
    """A run names its embedder: scoring on without it (as reads do) would report figures
    that are not that embedder's."""
    if memory.embedder_failure:
        raise EmbedderFailed(f"{memory.embedder_failure}; the benchmark stops")


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


def score_corpus(
    corpus: Corpus,
    scorer: Scorer,
    embedder: Embedder | None,
    weights: TurnWeights,
    through: str = "raw",
) -> dict[str, MethodRun]:
    """Both methods on one corpus, in a workspace of its own that is removed after."""
    make_memstrata = {"raw": MemstrataRetriever, "recall": RecallRetriever}[through]
    runs = {"memstrata": MethodRun(), "fts5": MethodRun()}
    with tempfile.TemporaryDirectory(prefix="memstrata-bench-") as folder:
        started = time.perf_counter()
        memstrata = make_memstrata(Path(folder) / "ws", corpus, embedder, weights)
        runs["memstrata"].index_s += time.perf_counter() - started
        started = time.perf_counter()
        baseline = BaselineRetriever(corpus)
        runs["fts5"].index_s += time.perf_counter() - started
        try:
            for question in corpus.questions:
                for retriever in (memstrata, baseline):
                    run = runs[retriever.name]
                    started = time.perf_counter()
                    ranked = retriever.search(question)
                    run.query_ms.append((time.perf_counter() - started) * 1000)
                    scores: dict[str, float] = {}
                    # in the corpus's order of levels, so both methods list their keys alike
                    for level in corpus.levels:
                        scores.update(scorer(ranked[level], set(question.gold[level]), level))
                    run.tally.add(question.categories, scores)
        finally:
            memstrata.close()
            baseline.close()
    return runs


def run_benchmark(
    corpora: Sequence[Corpus],
    scorer: Scorer,
    embedder: Embedder | None,
    weights: TurnWeights | None = None,
    on_corpus: Callable[[int, int], None] | None = None,
    through: str = "raw",
    by_corpus: bool = False,
) -> dict[str, Any]:
    """Score memstrata and FTS5 on every question of every corpus; a block per method.

    ``through="raw"`` searches the turns as raw sessions (``memstrata search``),
    ``"recall"`` as journal entries through recall (:class:`RecallRetriever`). With
    ``by_corpus``, the report also scores each corpus alone (:func:`benchmark_report`).
    """
    weights = weights or TurnWeights()
    results = []
    for number, corpus in enumerate(corpora, start=1):
        results.append(score_corpus(corpus, scorer, embedder, weights, through))
        if on_corpus is not None:
            on_corpus(number, len(corpora))
    return benchmark_report(
        results, corpora, embedder.name if embedder else "none", weights, through, by_corpus
    )


def benchmark_report(
    results: Sequence[dict[str, MethodRun]],
    corpora: Sequence[Corpus],
    embedder_name: str,
    weights: TurnWeights,
    through: str,
    by_corpus: bool = False,
) -> dict[str, Any]:
    """One report from the runs of each corpus, in corpus order (so it does not depend on
    which process scored which corpus).

    With ``by_corpus`` it also holds ``corpora``: for each corpus id, each method's ``all``
    block over that corpus's questions alone (a LoCoMo conversation, a LongMemEval question),
    so a reader can see whether a figure holds across conversations or rests on a few.
    """
    runs = {"memstrata": MethodRun(), "fts5": MethodRun()}
    for result in results:
        for name, run in result.items():
            runs[name].absorb(run)
    report: dict[str, Any] = {name: run.report() for name, run in runs.items()}
    if by_corpus:
        report["corpora"] = {
            corpus.id: {
                name: run.tally.blocks().get("all", {"n": 0}) for name, run in result.items()
            }
            for corpus, result in zip(corpora, results, strict=True)
        }
    report["meta"] = {
        "corpora": len(corpora),
        "questions": sum(len(corpus.questions) for corpus in corpora),
        "embedder": embedder_name,
        "weights": asdict(weights),
        "through": through,
    }
    return report


def score_locomo(ranked: list[str], gold: set[str], level: str) -> dict[str, float]:
    return locomo_scores(ranked, gold)


def score_longmemeval(ranked: list[str], gold: set[str], level: str) -> dict[str, float]:
    return longmemeval_scores(ranked, gold, level)
