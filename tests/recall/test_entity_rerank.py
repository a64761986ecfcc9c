"""The entity arm and re-ranking by recency, use and staleness."""

from __future__ import annotations

from datetime import UTC, datetime

from memstrata.recall.entity import find_query_entities, score_entities
from memstrata.recall.rerank import RerankWeights, Usage, is_stale, rerank

NOW = datetime(2025, 11, 27, tzinfo=UTC)


def test_query_entities_come_from_at_names_and_known_names():
    known = ["Ann", "Li Na", "billing-service", "李娜", "Annabel"]

    found = find_query_entities('what did @bo and "Li Na" say about billing-service? 李娜', known)

    assert found == ["bo", "billing-service", "li na", "李娜"]
    assert find_query_entities('@"Li Na" called', []) == ["li na"]
    assert find_query_entities("Annabelle was here", known) == []


def test_items_score_by_the_share_of_query_entities_they_mention():
    mentions = {"ann": ["t1", "t2"], "bo": ["t2"]}

    assert score_entities(["Ann", "Bo"], mentions) == {"t1": 0.5, "t2": 1.0}
    assert score_entities([], mentions) == {}


def test_rerank_prefers_recent_and_used_items_and_demotes_stale_ones():
    scores = {"new": 1.0, "old": 1.0, "used": 1.0, "unknown": 1.0}
    usage = {
        "new": Usage(time="2025-11-20T00:00:00Z", last_access="2025-11-26T00:00:00Z"),
        "old": Usage(time="2024-01-01T00:00:00Z"),
        "used": Usage(
            time="2025-06-01T00:00:00Z", access_count=30, last_access="2025-11-25T00:00:00Z"
        ),
    }

    ranked = rerank(scores, usage, NOW, RerankWeights())

    assert ranked["new"] > ranked["used"] > ranked["unknown"] > ranked["old"]
    assert ranked["unknown"] == 1.0


def test_an_item_is_stale_after_ninety_days_without_access():
    assert is_stale(Usage(time="2025-08-01T00:00:00Z"), NOW, 90)
    assert not is_stale(
        Usage(time="2025-08-01T00:00:00Z", last_access="2025-11-01T00:00:00Z"), NOW, 90
    )
    assert not is_stale(Usage(), NOW, 90)
