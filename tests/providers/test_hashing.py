"""The hashing embedder: deterministic, normalised, and closer for shared words."""

from __future__ import annotations

import numpy as np

from memstrata.providers.embedder import Embedder, load_embedder
from memstrata.providers.hashing import HashingEmbedder


def test_hashing_embedder_is_deterministic_and_normalised():
    first = HashingEmbedder().embed(["the billing service timed out", "我喜欢咖啡"])
    second = HashingEmbedder().embed(["the billing service timed out", "我喜欢咖啡"])

    assert first.dtype == np.float32
    assert first.shape == (2, 256)
    assert np.array_equal(first, second)
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0)


def test_hashing_embedder_puts_texts_sharing_words_closer():
    query, near, far = HashingEmbedder().embed(
        ["coffee with milk", "I drink coffee with oat milk", "the deploy failed on friday"]
    )
    assert query @ near > query @ far


def test_hashing_embedder_handles_chinese_and_empty_input():
    embedder = HashingEmbedder(64)
    query, near, far = embedder.embed(["咖啡", "我喜欢喝咖啡", "今天下雨"])

    assert query @ near > query @ far
    assert embedder.embed([]).shape == (0, 64)
    assert np.all(embedder.embed([""]) == 0.0)


def test_hashing_embedder_satisfies_the_embedder_protocol():
    assert isinstance(HashingEmbedder(), Embedder)


def test_an_unknown_embedder_falls_back_to_hashing_and_says_so():
    choice = load_embedder("no-such-model")

    assert choice.is_fallback
    assert "no-such-model" in choice.fallback_reason
    assert choice.embedder.name.startswith("hashing")


def test_the_hashing_embedder_by_name_is_not_a_fallback():
    assert not load_embedder("hashing").is_fallback
