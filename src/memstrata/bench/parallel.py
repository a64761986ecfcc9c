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
from memstrata.errors import EmbedderFailed
from memstrata.providers.cache import CachedEmbedder
from memstrata.providers.embedder import Embedder, load_embedder
from memstrata.recall.turns import TurnWeights

_embedder: Embedder | None = None


def load_run_embedder(spec: str, cache: Path | None) -> Embedder | None:
    """The embedder a run names (``none``: lexical only), behind its cache.

    A spec that names no model we can load stops the run with :class:`EmbedderFailed`: where
    a workspace falls back to hashing, a benchmark would report another model's figures.
    """
    if spec == "none":
        return None
    if spec.startswith("openai:") and not spec.removeprefix("openai:").partition("@")[0].strip():
        raise EmbedderFailed(f"embedder {spec!r} names no model (openai:<model>@<base url>)")
    choice = load_embedder(spec)
    if choice.fallback_reason:
        cause = choice.fallback_reason.removesuffix("; using the hashing embedder")
        raise EmbedderFailed(f"{cause}; the benchmark stops rather than run another embedder")
    embedder = choice.embedder
    if cache is not None:
        embedder = CachedEmbedder(embedder, cache, cache_queries=False)
    return embedder


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
    _embedder = load_run_embedder(spec, cache)


def _score(
    corpus: Corpus, scorer: Scorer, weights: TurnWeights, through: str
) -> dict[str, MethodRun]:
    return score_corpus(corpus, scorer, _embedder, weights, through)
