"""Retrieval metrics and their aggregation into per-category blocks.

LoCoMo (paper protocol): evidence recall@k = |evidence ∩ top-k| / |evidence|; hit@k = 1 when any
evidence is in the top k. LongMemEval (official script): recall_any@k (any gold in top k),
recall_all@k (every gold in top k) and ndcg_any@k with binary relevance, where
DCG = rel_1 + Σ_{i≥2} rel_i / log2(i) over the top k, divided by the ideal DCG.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

KS = (5, 10, 20)


def recall_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    """Share of ``gold`` found in the first ``k`` of ``ranked``."""
    if not gold:
        return 0.0
    return len(gold.intersection(ranked[:k])) / len(gold)


def hit_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    return 1.0 if gold.intersection(ranked[:k]) else 0.0


def recall_all_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    return 1.0 if gold and gold.issubset(ranked[:k]) else 0.0


def ndcg_any_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    """Binary-relevance NDCG@k as the LongMemEval script computes it."""
    actual = _dcg([1.0 if doc in gold else 0.0 for doc in ranked[:k]])
    ideal = _dcg([1.0] * min(len(gold), k))
    return actual / ideal if ideal else 0.0


def _dcg(relevances: Sequence[float]) -> float:
    if not relevances:
        return 0.0
    return relevances[0] + sum(rel / math.log2(i) for i, rel in enumerate(relevances[1:], 2))


def locomo_scores(ranked: Sequence[str], gold: set[str]) -> dict[str, float]:
    scores = {f"recall@{k}": recall_at(ranked, gold, k) for k in KS}
    scores.update({f"hit@{k}": hit_at(ranked, gold, k) for k in KS})
    return scores


def longmemeval_scores(ranked: Sequence[str], gold: set[str], level: str) -> dict[str, float]:
    scores: dict[str, float] = {}
    for k in KS:
        scores[f"{level}_recall_all@{k}"] = recall_all_at(ranked, gold, k)
        scores[f"{level}_recall_any@{k}"] = hit_at(ranked, gold, k)
        scores[f"{level}_ndcg_any@{k}"] = ndcg_any_at(ranked, gold, k)
    return scores


@dataclass(slots=True)
class Tally:
    """Per-question scores grouped by category; :meth:`blocks` averages them."""

    rows: dict[str, list[Mapping[str, float]]] = field(default_factory=dict)

    def add(self, categories: Iterable[str], scores: Mapping[str, float]) -> None:
        for category in categories:
            self.rows.setdefault(category, []).append(scores)

    def blocks(self) -> dict[str, dict[str, float]]:
        """``{category: {"n": count, metric: mean}}``, categories in :func:`category_order`."""
        result: dict[str, dict[str, float]] = {}
        for category in sorted(self.rows, key=category_order):
            rows = self.rows[category]
            block: dict[str, float] = {"n": len(rows)}
            for metric in rows[0]:
                block[metric] = round(sum(row[metric] for row in rows) / len(rows), 4)
            result[category] = block
        return result


def category_order(category: str) -> tuple[int, list[tuple[int, str]]]:
    """Sort key: ``all``, then ranges of categories (LoCoMo's ``1-4``), then the rest with
    numbers compared as numbers (``2`` before ``10``)."""
    rank = 0 if category == "all" else 1 if re.fullmatch(r"\d+-\d+", category) else 2
    parts = re.split(r"(\d+)", category)
    return rank, [(int(part), "") if part.isdigit() else (-1, part) for part in parts if part]


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile (nearest rank) of ``values``; 0 when there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))
    return ordered[index]


def latency_summary(seconds: Sequence[float]) -> dict[str, float]:
    """Timings in seconds as milliseconds: nearest-rank p50 and p95, max, mean and count."""
    millis = [value * 1000 for value in seconds]
    return {
        "p50_ms": round(percentile(millis, 0.50), 1),
        "p95_ms": round(percentile(millis, 0.95), 1),
        "max_ms": round(max(millis, default=0.0), 1),
        "mean_ms": round(sum(millis) / len(millis), 1) if millis else 0.0,
        "n": len(millis),
    }
