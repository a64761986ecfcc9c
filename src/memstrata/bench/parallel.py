"""Corpora scored in worker processes: a benchmark's corpora are independent of each other.

Each worker loads the embedder once (from its spec: a model does not cross a process
boundary) and scores whole corpora; the parent puts the results back in corpus order, so the
report is the one a single process would print, timings aside. Workers are spawned, not
forked: a fork would copy whatever threads and SQLite handles the parent holds.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from memstrata.bench.corpus import Corpus
from memstrata.bench.harness import MethodRun, Scorer, score_corpus
from memstrata.providers.cache import CachedEmbedder
from memstrata.providers.embedder import Embedder, load_embedder
from memstrata.recall.turns import TurnWeights

_embedder: Embedder | None = None


def load_run_embedder(spec: str, cache: Path | None) -> tuple[Embedder | None, str]:
    """The embedder a run names (``none``: lexical only), behind its cache; and why it fell
    back to another, when it did."""
    if spec == "none":
        return None, ""
    choice = load_embedder(spec)
    embedder = choice.embedder
    if cache is not None:
        embedder = CachedEmbedder(embedder, cache, cache_queries=False)
    return embedder, choice.fallback_reason


def score_in_workers(
    corpora: Sequence[Corpus],
    scorer: Scorer,
    spec: str,
    cache: Path | None,
    weights: TurnWeights,
    through: str,
    jobs: int,
    on_corpus: Callable[[int, int], None] | None = None,
) -> list[dict[str, MethodRun]]:
    """:func:`~memstrata.bench.harness.score_corpus` of every corpus in ``jobs`` processes."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_start, initargs=(spec, cache)
    ) as pool:
        results = []
        tasks = [pool.submit(_score, corpus, scorer, weights, through) for corpus in corpora]
        for number, task in enumerate(tasks, start=1):
            results.append(task.result())
            if on_corpus is not None:
                on_corpus(number, len(corpora))
    return results


def _start(spec: str, cache: Path | None) -> None:
    global _embedder
    _embedder, _ = load_run_embedder(spec, cache)


def _score(
    corpus: Corpus, scorer: Scorer, weights: TurnWeights, through: str
) -> dict[str, MethodRun]:
    return score_corpus(corpus, scorer, _embedder, weights, through)
