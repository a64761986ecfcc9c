"""The OpenAI-compatible client against a real HTTP server on the loopback address."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from memstrata.providers.hashing import HashingEmbedder
from memstrata.providers.openai import EmbeddingEndpointError, OpenAIEmbedder
from tests.providers.fake_endpoint import FakeEmbeddings, serving


@pytest.fixture
def server() -> Iterator[str]:
    with serving() as url:
        yield url


def test_openai_embedder_returns_normalised_rows_in_input_order(server):
    embedder = OpenAIEmbedder(server, "tiny", api_key="sk-test", batch_size=2)

    rows = embedder.embed(["alpha", "beta", "gamma"])

    expected = HashingEmbedder(16).embed(["alpha", "beta", "gamma"])
    assert rows.shape == (3, 16)
    assert np.allclose(rows, expected, atol=1e-5)
    assert embedder.dim == 16
    assert [r["path"] for r in FakeEmbeddings.requests] == ["/v1/embeddings"] * 2
    assert FakeEmbeddings.requests[0]["auth"] == "Bearer sk-test"


def test_openai_embedder_asks_the_endpoint_for_its_dimension(server):
    assert OpenAIEmbedder(server, "tiny").dim == 16


def test_openai_embedder_reports_a_failing_endpoint(server):
    with pytest.raises(EmbeddingEndpointError, match="HTTP 500"):
        OpenAIEmbedder(server, "broken").embed(["x"])


def test_openai_embedder_reports_an_unreachable_endpoint():
    embedder = OpenAIEmbedder("http://127.0.0.1:9/v1", "tiny", timeout_s=2)
    with pytest.raises(EmbeddingEndpointError, match=r"127\.0\.0\.1:9"):
        embedder.embed(["x"])
