"""Fusion formulas: weighted RRF and weighted min-max score fusion."""

from __future__ import annotations

import pytest

from memstrata.recall.fusion import (
    normalise_scores,
    rank_items,
    weighted_rrf,
    weighted_score_fusion,
)


def test_weighted_rrf_adds_weight_over_k_plus_rank():
    scores = weighted_rrf({"lexical": ["a", "b"], "semantic": ["b"]}, {"semantic": 2.0}, k=60)

    assert scores["a"] == pytest.approx(1 / 61)
    assert scores["b"] == pytest.approx(1 / 62 + 2 / 61)


def test_normalise_scores_maps_to_zero_one():
    assert normalise_scores({"a": 4.0, "b": 2.0, "c": 3.0}) == {"a": 1.0, "b": 0.0, "c": 0.5}
    assert normalise_scores({"a": 7.0}) == {"a": 1.0}
    assert normalise_scores({}) == {}


def test_weighted_score_fusion_lets_a_heavier_arm_decide():
    arms = {"lexical": {"a": 10.0, "b": 1.0}, "semantic": {"a": 0.1, "b": 0.9}}

    assert rank_items(weighted_score_fusion(arms, {"lexical": 1.0, "semantic": 0.5})) == ["a", "b"]
    assert rank_items(weighted_score_fusion(arms, {"lexical": 0.5, "semantic": 1.0})) == ["b", "a"]


def test_ties_rank_by_id_so_order_is_deterministic():
    assert rank_items({"b": 1.0, "a": 1.0, "c": 2.0}) == ["c", "a", "b"]
