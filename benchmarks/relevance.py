"""Semantic floor benchmark: which cosine separates a related memory from an unrelated one.

    .venv/bin/python benchmarks/relevance.py [--embedder NAME ...] [--json]

Embeds the labelled (query, memory) pairs of ``tests/recall/relevance_pairs.py`` with the
default embedder (or each ``--embedder`` spec given) and prints, per embedder:

- a sweep of floors on the tuned two thirds: the share of related pairs kept (cosine at or
  above the floor) and of unrelated questions that would still recall something (their best
  cosine over every memory of the set at or above it: what recall would inject);
- the floor the sweep suggests for ``[recall] min_similarity`` (best balanced accuracy: related
  kept minus unrelated questions recalling, on the tuned part; the lowest such floor), scored
  on the tuned part, the held-out third and all pairs.

The default embedder is why recall has no floor by default: under the multilingual USE a
question memory knows nothing about finds, among forty memories, one as near as a related
memory is to its own question (docs/benchmarks-retrieval.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the labelled set lives with the tests

from tests.recall.relevance_pairs import PAIRS, RelevancePair  # noqa: E402

from memstrata.providers.embedder import DEFAULT_EMBEDDER, load_embedder  # noqa: E402

SWEEP = [round(0.01 * step, 2) for step in range(100)]


def kept(pairs: Sequence[RelevancePair], cosines: Sequence[float], floor: float) -> dict:
    """Shares of related and unrelated pairs whose cosine reaches ``floor`` (for an unrelated
    pair, the cosine is the query's best over every memory of the set, see :func:`measure`)."""
    related = [c >= floor for p, c in zip(pairs, cosines, strict=True) if p.related]
    unrelated = [c >= floor for p, c in zip(pairs, cosines, strict=True) if not p.related]
    return {
        "related_kept": round(sum(related) / len(related), 3),
        "unrelated_recalling": round(sum(unrelated) / len(unrelated), 3),
        "pairs": len(pairs),
    }


def choose_floor(pairs: Sequence[RelevancePair], cosines: Sequence[float]) -> float:
    """The lowest floor with the best balanced accuracy on ``pairs``."""

    def balance(floor: float) -> float:
        shares = kept(pairs, cosines, floor)
        return shares["related_kept"] - shares["unrelated_recalling"]

    return max(SWEEP, key=lambda floor: (round(balance(floor), 6), -floor))


def measure(spec: str) -> dict:
    choice = load_embedder(spec)
    embedder = choice.embedder
    queries = embedder.embed([pair.query for pair in PAIRS], query=True)
    memories = embedder.embed([pair.memory for pair in PAIRS])
    # What recall would inject for an unrelated question is the nearest of all the memories,
    # not of one: its cosine is the best over the whole set (none of which it is about).
    cosines = [
        float(q @ m) if pair.related else float((memories @ q).max())
        for pair, q, m in zip(PAIRS, queries, memories, strict=True)
    ]
    tuned = [(p, c) for p, c in zip(PAIRS, cosines, strict=True) if not p.held_out]
    held = [(p, c) for p, c in zip(PAIRS, cosines, strict=True) if p.held_out]
    tuned_pairs, tuned_cosines = [p for p, _ in tuned], [c for _, c in tuned]
    held_pairs, held_cosines = [p for p, _ in held], [c for _, c in held]
    suggested = choose_floor(tuned_pairs, tuned_cosines)
    return {
        "embedder": embedder.name,
        "fallback": choice.fallback_reason,
        "sweep": {f"{floor:.2f}": kept(tuned_pairs, tuned_cosines, floor) for floor in SWEEP},
        "suggested": {
            "floor": suggested,
            "tuned": kept(tuned_pairs, tuned_cosines, suggested),
            "held_out": kept(held_pairs, held_cosines, suggested),
            "all": kept(PAIRS, cosines, suggested),
        },
    }


def render(result: dict) -> str:
    fallback = f" ({result['fallback']})" if result["fallback"] else ""
    lines = [f"## {result['embedder']}{fallback}"]
    lines.append("floor  related kept  unrelated recall   (tuned two thirds)")
    for floor, shares in result["sweep"].items():
        if float(floor) * 100 % 5 == 0:
            lines.append(
                f"{floor}   {shares['related_kept']:>12.3f}  {shares['unrelated_recalling']:>14.3f}"
            )
    point = result["suggested"]
    parts = ", ".join(
        f"{part} {point[part]['related_kept']:.3f} / {point[part]['unrelated_recalling']:.3f}"
        for part in ("tuned", "held_out", "all")
    )
    floor = point["floor"]
    lines.append(f"suggested floor {floor:.2f}: related kept / unrelated recalling: {parts}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", action="append", help="embedder spec (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = [measure(spec) for spec in args.embedder or [DEFAULT_EMBEDDER]]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"{len(PAIRS)} pairs ({sum(p.related for p in PAIRS)} related)\n")
        print("\n\n".join(render(result) for result in results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
