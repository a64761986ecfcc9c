"""The OpenAI-compatible client against a real HTTP server on the loopback address."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import numpy as np
import pytest

from memstrata.providers.hashing import HashingEmbedder
from memstrata.providers.openai import EmbeddingEndpointError, OpenAIEmbedder


class _EmbeddingsHandler(BaseHTTPRequestHandler):
    """Answers like an OpenAI server, embedding with the hashing embedder (out of order)."""

    requests: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        if body["model"] == "broken":
            self.send_response(500)
            self.end_headers()
            return
        rows = HashingEmbedder(16).embed(body["input"]) * 3.0  # not normalised on purpose
        data = [{"index": i, "embedding": row.tolist()} for i, row in enumerate(rows)]
        payload = json.dumps({"data": list(reversed(data))}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    _EmbeddingsHandler.requests = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _EmbeddingsHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_openai_embedder_returns_normalised_rows_in_input_order(server):
    embedder = OpenAIEmbedder(server, "tiny", api_key="sk-test", batch_size=2)

    rows = embedder.embed(["alpha", "beta", "gamma"])

    expected = HashingEmbedder(16).embed(["alpha", "beta", "gamma"])
    assert rows.shape == (3, 16)
    assert np.allclose(rows, expected, atol=1e-5)
    assert embedder.dim == 16
    assert [r["path"] for r in _EmbeddingsHandler.requests] == ["/v1/embeddings"] * 2
    assert _EmbeddingsHandler.requests[0]["auth"] == "Bearer sk-test"


def test_openai_embedder_asks_the_endpoint_for_its_dimension(server):
    assert OpenAIEmbedder(server, "tiny").dim == 16


def test_openai_embedder_reports_a_failing_endpoint(server):
    with pytest.raises(EmbeddingEndpointError, match="HTTP 500"):
        OpenAIEmbedder(server, "broken").embed(["x"])


def test_openai_embedder_reports_an_unreachable_endpoint():
    embedder = OpenAIEmbedder("http://127.0.0.1:9/v1", "tiny", timeout_s=2)
    with pytest.raises(EmbeddingEndpointError, match=r"127\.0\.0\.1:9"):
        embedder.embed(["x"])
