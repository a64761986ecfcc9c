"""An embedder whose every failure is an :class:`~memstrata.errors.EmbedderFailed`.

Models and endpoints fail in their own ways (a refused connection, an HTTP 500, a JSON body
with strings for numbers, a model swapped behind the same name with another width). Callers
should not know them all: behind this wrapper an embedder either returns ``(len(texts), dim)``
finite float32 rows or raises the one error the reads know how to fall back from.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memstrata.errors import EmbedderFailed
from memstrata.providers.embedder import Embedder, Vectors


class GuardedEmbedder:
    """``inner`` with its failures and malformed answers raised as ``EmbedderFailed``."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._dim: int | None = None

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        """The width of the first answer, kept: a model that later answers in another width
        (swapped behind the same name) fails instead of corrupting the stored vectors."""
        if self._dim is None:
            try:
                self._dim = int(self.inner.dim)
            except Exception as error:  # an endpoint asked for its width can fail like any call
                raise EmbedderFailed(f"embedder {self.name} failed: {_one_line(error)}") from error
        return self._dim

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        width = self.dim
        try:
            rows = np.asarray(self.inner.embed(texts, query=query), dtype=np.float32)
        except Exception as error:  # any model or endpoint failure: named in the message
            raise EmbedderFailed(f"embedder {self.name} failed: {_one_line(error)}") from error
        if rows.shape != (len(texts), width):
            raise EmbedderFailed(
                f"embedder {self.name} returned rows of shape {rows.shape} for {len(texts)} "
                f"texts of width {width}"
            )
        if not np.isfinite(rows).all():
            raise EmbedderFailed(f"embedder {self.name} returned numbers that are not finite")
        return rows


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:299] + "…"
