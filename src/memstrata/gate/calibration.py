"""The cosine above which two statements may be duplicates, calibrated per embedder.

One fixed threshold cannot serve every model. Mean cosines on the labelled pairs: duplicates
0.90 and unrelated pairs 0.70 under the multilingual USE, but 0.97 and 0.94 under e5; and no
model separates a paraphrase from its contradiction (0.89 under USE). Each value below was
measured with ``benchmarks/dedup.py`` on the labelled pairs of ``tests/gate/dedup_pairs.py``
(results in ``docs/benchmarks-dedup.md``): the highest threshold with the best duplicate recall
at precision ≥ 0.97 on the tuned two thirds, checked on the held-out third. The cosine is never
enough on its own: :func:`memstrata.gate.relation.relate` consults it only when one statement
adds words to the other, after checking that no number, date, name or negation differs.
"""

from __future__ import annotations

#: embedder name (``Embedder.name``) → calibrated duplicate threshold
DEDUP_THRESHOLDS: dict[str, float] = {
    "use-multilingual-v3": 0.96,
    "multilingual-e5-small-q4": 0.99,
    "hashing-256": 0.99,
}


def dedup_threshold(embedder_name: str) -> float | None:
    """The calibrated threshold for ``embedder_name``; ``None``: compare lexically only."""
    return DEDUP_THRESHOLDS.get(embedder_name)
