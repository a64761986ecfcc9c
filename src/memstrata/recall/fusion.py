"""Combining ranked lists from different arms or strata whose scores are not comparable."""

from __future__ import annotations

from collections.abc import Sequence

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


def _with_score(hit: SearchHit, score: float) -> SearchHit:
    return SearchHit(
        hit.stratum, hit.source, hit.text, round(score, 6), hit.time, hit.title, hit.extra
    )
