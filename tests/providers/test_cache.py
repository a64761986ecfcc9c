"""The embedding cache: a second embed of the same text reads SQLite, not the model."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memstrata.providers.cache import CachedEmbedder
from memstrata.providers.embedder import Vectors
from memstrata.providers.hashing import HashingEmbedder


class CountingEmbedder(HashingEmbedder):
    """A real hashing embedder that counts the texts it was asked to embed."""

    def __init__(self) -> None:
        super().__init__(32)
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        self.embedded.extend(texts)
        return super().embed(texts, query=query)


def test_cached_embedder_embeds_each_text_once_across_instances(tmp_path):
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, tmp_path / "cache.db")
    first = cache.embed(["one", "two"])
    cache.close()

    again = CachedEmbedder(inner, tmp_path / "cache.db")
    second = again.embed(["two", "three", "one"])

    assert inner.embedded == ["one", "two", "three"]
    assert np.array_equal(second[0], first[1])
    assert np.array_equal(second[2], first[0])


def test_cached_embedder_keeps_queries_apart_from_passages(tmp_path):
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, tmp_path / "cache.db")

    cache.embed(["same text"])
    cache.embed(["same text"], query=True)

    assert inner.embedded == ["same text", "same text"]
