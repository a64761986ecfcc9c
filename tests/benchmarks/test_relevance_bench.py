"""The semantic-floor benchmark sweeps floors on the labelled pairs and suggests one."""

import importlib.util
import json
import sys
from pathlib import Path

from tests.recall.relevance_pairs import PAIRS

REPO = Path(__file__).resolve().parents[2]


def _load_benchmark():
    spec = importlib.util.spec_from_file_location(
        "relevance_bench", REPO / "benchmarks" / "relevance.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_pairs_share_no_content_word_so_only_nearness_can_link_them():
    from memstrata.fts import query_terms

    for pair in PAIRS:
        if pair.related:
            shared = set(query_terms(pair.query)) & set(query_terms(pair.memory))
            assert not shared, (pair.query, shared)


def test_the_sweep_falls_as_the_floor_rises_and_the_suggestion_is_scored(capsys):
    bench = _load_benchmark()

    assert bench.main(["--embedder", "use-multilingual", "--json"]) == 0

    [result] = json.loads(capsys.readouterr().out)
    related = [shares["related_kept"] for shares in result["sweep"].values()]
    assert related == sorted(related, reverse=True)
    assert related[0] == 1.0 and related[-1] == 0.0
    suggested = result["suggested"]
    assert f"{suggested['floor']:.2f}" in result["sweep"]
    assert set(suggested) == {"floor", "tuned", "held_out", "all"}
