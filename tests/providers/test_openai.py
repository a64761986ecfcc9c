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


def test_rows_of_different_widths_are_named_as_such(server):
    FakeEmbeddings.mode = "ragged"
    with pytest.raises(EmbeddingEndpointError) as raised:
        OpenAIEmbedder(server, "tiny").embed(["a", "b"])
    assert str(raised.value).endswith("vectors of different widths or kinds (15, 16)")


def test_openai_embedder_reports_an_unreachable_endpoint():
    embedder = OpenAIEmbedder("http://127.0.0.1:9/v1", "tiny", timeout_s=2)
    with pytest.raises(EmbeddingEndpointError, match=r"127\.0\.0\.1:9"):
        embedder.embed(["x"])


def test_the_name_holds_the_endpoint_so_two_servers_never_share_vectors(server):
    here = OpenAIEmbedder(server, "tiny")
    elsewhere = OpenAIEmbedder(server.replace("/v1", "/other/v1/"), "tiny")

    assert here.name == f"openai:tiny@{server.removeprefix('http://')}"
    assert elsewhere.name == f"openai:tiny@{server.removeprefix('http://')[:-3]}/other/v1"


@pytest.mark.parametrize(
    ("base_url", "label"),
    [
        ("https://api.openai.com/v1", "api.openai.com/v1"),
        ("http://127.0.0.1:11434/v1/", "127.0.0.1:11434/v1"),
        ("https://bob:s3cret@vllm.example:8000/v1", "vllm.example:8000/v1"),
        ("http://[::1]:8080/v1", "[::1]:8080/v1"),
    ],
)
def test_the_name_leaves_out_the_scheme_and_any_password(base_url: str, label: str):
    assert OpenAIEmbedder(base_url, "m").name == f"openai:m@{label}"


def test_an_endpoint_that_wants_a_key_gets_it_as_a_bearer_token(server):
    FakeEmbeddings.required_key = "sk-fake-123"

    rows = OpenAIEmbedder(server, "tiny", api_key="sk-fake-123").embed(["alpha"])

    with pytest.raises(EmbeddingEndpointError, match="HTTP 401"):
        OpenAIEmbedder(server, "tiny").embed(["alpha"])
    assert rows.shape == (1, 16)
    assert [r["auth"] for r in FakeEmbeddings.requests] == ["Bearer sk-fake-123", None]


def test_an_endpoint_that_does_not_answer_fails_after_the_timeout(server):
    FakeEmbeddings.mode = "hang"  # answers only when the server stops, a minute at most

    with pytest.raises(EmbeddingEndpointError, match="timed out"):
        OpenAIEmbedder(server, "tiny", timeout_s=0.3).embed(["alpha"])


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("strings", "vectors that are not numbers"),
        ("overflow", "numbers that are not finite"),
        ("zeros", "only zero vectors, which point nowhere"),
        ("empty", "vectors of no numbers (width 0)"),
        ("same-index", "the vectors' indexes are not 0 to 1, one each"),
    ],
)
def test_an_answer_that_holds_no_embeddings_is_an_endpoint_error_saying_what_is_wrong(
    server, mode: str, said: str
):
    FakeEmbeddings.mode = mode
    with pytest.raises(EmbeddingEndpointError) as raised:
        OpenAIEmbedder(server, "tiny").embed(["alpha", "beta"])
    assert str(raised.value) == f"{server}/embeddings: {said}"


def test_numbers_past_float32_are_scaled_into_unit_rows_not_infinities(server):
    FakeEmbeddings.mode = "huge"

    rows = OpenAIEmbedder(server, "tiny").embed(["alpha", "beta"])

    assert np.allclose(rows, HashingEmbedder(16).embed(["alpha", "beta"]), atol=1e-5)
