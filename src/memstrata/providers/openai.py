"""Any OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, Ollama, vLLM, llama.cpp server).

Standard library only (``urllib``). The API key, when needed, is passed in by the caller
(:func:`~memstrata.providers.embedder.load_embedder` reads it from the environment variable
``[embeddings] api_key_env`` names), never stored nor shown. Rows are re-normalised: not every
server does. ``name`` holds the endpoint as well as the model, so two servers serving a model
under one name never share cached or indexed vectors.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence

import numpy as np

from memstrata.providers.embedder import Vectors, normalise_rows

#: seconds a request may wait for the endpoint: a read embeds its query on the way to an answer
DEFAULT_TIMEOUT_S = 10.0


class EmbeddingEndpointError(RuntimeError):
    """The endpoint failed or answered something that is not an embeddings response."""


class OpenAIEmbedder:
    """POST ``{base_url}/embeddings`` with ``{"model", "input"}``; batches of ``batch_size``."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str = "",
        dim: int | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        batch_size: int = 64,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.batch_size = batch_size
        self._dim = dim

    @property
    def name(self) -> str:
        """``openai:<model>@<host>[:<port>]<path>``: the base URL without its scheme (and
        without any user or password in it, which must not reach the index or a note)."""
        return f"openai:{self.model}@{endpoint_label(self.base_url)}"

    @property
    def dim(self) -> int:
        """The vector size; asked of the endpoint once (embedding one word) when not given."""
        if self._dim is None:
            self._dim = int(self._post(["dimension probe"]).shape[1])
        return self._dim

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [
            self._post(list(texts[start : start + self.batch_size]))
            for start in range(0, len(texts), self.batch_size)
        ]
        rows = np.vstack(parts)
        self._dim = int(rows.shape[1])
        return rows

    def _post(self, batch: list[str]) -> Vectors:
        body = json.dumps({"model": self.model, "input": batch}).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            f"{self.base_url}/embeddings", data=body, headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                payload = json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            raise EmbeddingEndpointError(
                f"{self.base_url}/embeddings: HTTP {error.code} {error.reason}"
            ) from error
        except (urllib.error.URLError, TimeoutError, OSError) as error:
            raise EmbeddingEndpointError(f"{self.base_url}/embeddings: {error}") from error
        except json.JSONDecodeError as error:
            raise EmbeddingEndpointError(f"{self.base_url}/embeddings: not JSON") from error
        where = f"{self.base_url}/embeddings"
        try:
            items = sorted(payload["data"], key=lambda item: item.get("index", 0))
            rows = [item["embedding"] for item in items]
        except (KeyError, TypeError, AttributeError) as error:
            raise EmbeddingEndpointError(f"{where}: no 'data[].embedding' in the answer") from error
        if len(rows) != len(batch):
            raise EmbeddingEndpointError(f"{where}: {len(rows)} vectors for {len(batch)} texts")
        if [item.get("index", place) for place, item in enumerate(items)] != list(range(len(rows))):
            # sorting by a repeated or missing index would pair texts with others' vectors
            raise EmbeddingEndpointError(
                f"{where}: the vectors' indexes are not 0 to {len(rows) - 1}, one each"
            )
        widths = sorted({len(row) if isinstance(row, list) else -1 for row in rows})
        if len(widths) > 1 or widths[:1] == [-1]:
            shown = ", ".join("not a list" if width < 0 else str(width) for width in widths)
            raise EmbeddingEndpointError(f"{where}: vectors of different widths or kinds ({shown})")
        if widths == [0]:
            raise EmbeddingEndpointError(f"{where}: vectors of no numbers (width 0)")
        return _checked_rows(rows, where)


def _checked_rows(rows: list[list[object]], where: str) -> Vectors:
    """``rows`` normalised, once they are finite numbers and not all zero.

    A row of strings, an overflow (``1e400`` is read as infinity) or a batch of zero vectors
    (no direction, so every text is as near as every other) is no embedding: it is refused
    here, before normalising would turn it into NaNs (and numpy's warning on stderr)."""
    try:
        matrix = np.asarray(rows, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise EmbeddingEndpointError(f"{where}: vectors that are not numbers") from error
    if matrix.ndim != 2:
        raise EmbeddingEndpointError(f"{where}: vectors that are not lists of numbers")
    if not np.isfinite(matrix).all():
        raise EmbeddingEndpointError(f"{where}: numbers that are not finite")
    largest = np.abs(matrix).max(axis=1, keepdims=True)
    if not largest.any():
        raise EmbeddingEndpointError(f"{where}: only zero vectors, which point nowhere")
    # scaled to at most 1 first: a finite 1e39 is past float32, and squaring 1e200 overflows
    largest[largest == 0.0] = 1.0
    return normalise_rows(matrix / largest)


def endpoint_label(base_url: str) -> str:
    """``base_url`` as ``host[:port]/path``: no scheme, no credentials, no trailing slash."""
    parts = urllib.parse.urlsplit(base_url)
    host = parts.hostname or ""
    if ":" in host:  # IPv6
        host = f"[{host}]"
    try:
        if parts.port is not None:
            host += f":{parts.port}"
    except ValueError:  # a port that is no number: the request will say so
        host = parts.netloc.rpartition("@")[2]
    return f"{host}{parts.path}".rstrip("/")
