"""Metric definitions match the LoCoMo paper and the LongMemEval script."""

from __future__ import annotations

import pytest

from memstrata.bench.metrics import (
    Tally,
    hit_at,
    ndcg_any_at,
    percentile,
    recall_all_at,
    recall_at,
)


def test_recall_counts_the_share_of_evidence_in_the_top_k():
    assert recall_at(["a", "x", "b"], {"a", "b"}, 2) == 0.5
    assert recall_at(["a", "x", "b"], {"a", "b"}, 3) == 1.0
    assert hit_at(["x", "a"], {"a", "b"}, 1) == 0.0
    assert hit_at(["x", "a"], {"a", "b"}, 2) == 1.0


def test_recall_all_needs_every_gold_item():
    assert recall_all_at(["a", "b", "x"], {"a", "b"}, 2) == 1.0
    assert recall_all_at(["a", "x", "b"], {"a", "b"}, 2) == 0.0


def test_ndcg_discounts_later_hits_like_the_longmemeval_script():
    assert ndcg_any_at(["a", "b"], {"a", "b"}, 10) == 1.0
    # rel at rank 2 counts 1/log2(2) = 1 in this DCG variant; ideal puts two hits first
    assert ndcg_any_at(["x", "a", "b"], {"a", "b"}, 10) == pytest.approx(
        (1 + 1 / 1.58496) / 2, 1e-4
    )
    assert ndcg_any_at(["x"], {"a"}, 10) == 0.0


def test_tally_averages_per_category_with_all_first():
    tally = Tally()
    tally.add(("all", "2"), {"recall@5": 1.0})
    tally.add(("all", "1"), {"recall@5": 0.0})

    blocks = tally.blocks()

    assert blocks == {
        "all": {"n": 2, "recall@5": 0.5},
        "1": {"n": 1, "recall@5": 0.0},
        "2": {"n": 1, "recall@5": 1.0},
    }
    assert all(type(block["n"]) is int for block in blocks.values())  # JSON shows 2, not 2.0


def test_percentile_uses_the_nearest_rank():
    assert percentile([5.0, 1.0, 3.0, 2.0], 0.5) == 2.0
    assert percentile([], 0.5) == 0.0


def test_categories_sort_all_first_then_ranges_then_numbers_by_value():
    tally = Tally()
    for category in ("10", "2", "1-4", "1", "single-session-user", "all", "knowledge-update"):
        tally.add((category,), {"recall@5": 1.0})

    assert list(tally.blocks()) == [
        "all",
        "1-4",
        "knowledge-update",
        "single-session-user",
        "1",
        "2",
        "10",
    ]
