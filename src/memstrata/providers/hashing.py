"""A deterministic hashing embedder: for tests, and a last resort that says so.

Each word (casefolded, CJK split into characters and bigrams) and each character trigram of a
word is hashed (BLAKE2b, so the same on every platform and run) to a signed bucket; the row is
the L2-normalised sum. Texts sharing words land near each other; there is no notion of meaning.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from memstrata.providers.embedder import Vectors, normalise_rows

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(f"[{_CJK}]|[^\\W_]+", re.UNICODE)
_IS_CJK = re.compile(f"[{_CJK}]")


class HashingEmbedder:
    """Bag of hashed words and trigrams; ``name`` says it is not a model."""

    def __init__(self, dim: int = 256) -> None:
        self._dim = dim

    @property
    def name(self) -> str:
        return f"hashing-{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        rows = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in zip(rows, texts, strict=True):
            for feature, weight in _features(text):
                digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                sign = 1.0 if value & 1 else -1.0
                row[(value >> 1) % self._dim] += sign * weight
        return normalise_rows(rows)


def _features(text: str) -> list[tuple[str, float]]:
    words = [word.casefold() for word in _WORD.findall(text)]
    features: list[tuple[str, float]] = []
    for position, word in enumerate(words):
        features.append(("w:" + word, 1.0))
        if _IS_CJK.match(word):
            if position + 1 < len(words) and _IS_CJK.match(words[position + 1]):
                features.append(("b:" + word + words[position + 1], 1.0))
            continue
        padded = f"<{word}>"
        features.extend(("t:" + padded[i : i + 3], 0.3) for i in range(len(padded) - 2))
    return features
