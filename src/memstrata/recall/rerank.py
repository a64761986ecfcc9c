"""Re-ranking fused scores by recency and use; demoting what nobody has recalled in 90 days.

    final(d) = fused(d) · (1 + w_rec · 2^(−age_days(d) / half_life_days))
                        · (1 + w_use · log2(1 + access_count(d)) / 10)
                        · (stale_factor if last access (or, never accessed, the item's own
                           time) is more than stale_days before now, else 1)

Recency and use only reorder what the arms found; they never bring in an item on their own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from memstrata.clock import parse_time


@dataclass(frozen=True, slots=True)
class Usage:
    """What re-ranking needs to know about an item besides its score."""

    time: str = ""
    access_count: int = 0
    last_access: str = ""


@dataclass(frozen=True, slots=True)
class RerankWeights:
    recency: float = 0.2
    half_life_days: float = 90.0
    use: float = 0.1
    stale_days: float = 90.0
    stale_factor: float = 0.5


def rerank(
    scores: Mapping[str, float],
    usage: Mapping[str, Usage],
    now: datetime,
    weights: RerankWeights | None = None,
) -> dict[str, float]:
    """Scores adjusted by the formula in the module docstring (items without usage: as is)."""
    weights = weights or RerankWeights()
    result: dict[str, float] = {}
    for item, score in scores.items():
        info = usage.get(item)
        if info is None:
            result[item] = score
            continue
        factor = 1.0
        moment = parse_time(info.time)
        if moment is not None:
            age_days = max(0.0, (now - moment).total_seconds() / 86400)
            factor *= 1.0 + weights.recency * 2.0 ** (-age_days / weights.half_life_days)
        factor *= 1.0 + weights.use * math.log2(1 + max(0, info.access_count)) / 10
        if is_stale(info, now, weights.stale_days):
            factor *= weights.stale_factor
        result[item] = score * factor
    return result


def is_stale(usage: Usage, now: datetime, stale_days: float) -> bool:
    """True when last accessed (or, never accessed, written) over ``stale_days`` ago."""
    moment = parse_time(usage.last_access) or parse_time(usage.time)
    return moment is not None and (now - moment).total_seconds() > stale_days * 86400
