"""Combining ranked lists from different arms or strata whose scores are not comparable."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memstrata.model import SearchHit

RRF_K = 60


def reciprocal_rank_fusion(
    lists: Sequence[Sequence[SearchHit]], limit: int, k: int = RRF_K
) -> list[SearchHit]:
    """Merge ranked lists by reciprocal rank fusion.

    score(d) = Σ_lists 1 / (k + rank_list(d)), ranks counted from 1, k = 60 (Cormack et al.).
    A hit keeps its first-seen fields and gets the fused score; ties break on source for a
    deterministic order.
    """
    scores: dict[tuple[str, str], float] = {}
    first: dict[tuple[str, str], SearchHit] = {}
    for hits in lists:
        for rank, hit in enumerate(hits, start=1):
            key = (hit.stratum, hit.source)
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
            first.setdefault(key, hit)
    ordered = sorted(scores, key=lambda key: (-scores[key], key))
    return [_with_score(first[key], scores[key]) for key in ordered[:limit]]


def weighted_rrf(
    ranked: Mapping[str, Sequence[str]], weights: Mapping[str, float], k: int = RRF_K
) -> dict[str, float]:
    """Weighted reciprocal rank fusion of arms' ranked ids.

    score(d) = Σ_arms w_arm / (k + rank_arm(d)), ranks from 1; an arm without a weight counts 1.
    """
    scores: dict[str, float] = {}
    for arm, ids in ranked.items():
        weight = weights.get(arm, 1.0)
        for rank, item in enumerate(ids, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return scores


def normalise_scores(scores: Mapping[str, float]) -> dict[str, float]:
    """Min-max scale an arm's scores to [0, 1] (all equal → 1), so arms can be added."""
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    if high <= low:
        return dict.fromkeys(scores, 1.0)
    return {item: (value - low) / (high - low) for item, value in scores.items()}


def weighted_score_fusion(
    arms: Mapping[str, Mapping[str, float]], weights: Mapping[str, float]
) -> dict[str, float]:
    """Convex combination of min-max normalised arm scores.

    score(d) = Σ_arms w_arm · (s_arm(d) − min_arm) / (max_arm − min_arm); an item an arm did not
    return scores 0 in that arm.
    """
    fused: dict[str, float] = {}
    for arm, scores in arms.items():
        weight = weights.get(arm, 1.0)
        if weight == 0.0:
            continue
        for item, value in normalise_scores(scores).items():
            fused[item] = fused.get(item, 0.0) + weight * value
    return fused


def rank_items(scores: Mapping[str, float], limit: int | None = None) -> list[str]:
    """Ids by descending score, ties broken by id so the order is deterministic."""
    ordered = sorted(scores, key=lambda item: (-scores[item], item))
    return ordered if limit is None else ordered[:limit]


def _with_score(hit: SearchHit, score: float) -> SearchHit:
    return SearchHit(
        hit.stratum, hit.source, hit.text, round(score, 6), hit.time, hit.title, hit.extra
    )
