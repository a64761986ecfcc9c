"""Dedup benchmark: how well the write gate tells duplicates from updates and contradictions.

    .venv/bin/python benchmarks/dedup.py [--embedder NAME ...] [--json]

Runs ``memstrata.gate.relation.relate`` on the labelled pairs of ``tests/gate/dedup_pairs.py``
for lexical only, the hashing embedder and the default embedder (or the ``--embedder`` specs
given; ``none`` = lexical only) and prints, per configuration:

- a threshold sweep: precision and recall of ``duplicate`` on the tuned two thirds of the set;
- the operating point: the calibrated threshold of ``memstrata.gate.calibration`` and the one the
  sweep suggests (the highest threshold with the best recall at precision ≥ 0.97 on the tuned
  part), each scored on the tuned part, the held-out third, all pairs, the fresh pairs
  (written after the rules were frozen) and the blind pairs of ``tests/gate/blind_pairs.py``
  ``blind_pairs_2.py`` to ``blind_pairs_6.py`` (written by sessions that never saw the rules);
- accuracy per category and the 4-class confusion matrix (all pairs, and each blind set apart;
  calibrated threshold).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the labelled set lives with the tests

from tests.gate.blind_pairs import BLIND_PAIRS  # noqa: E402
from tests.gate.blind_pairs_2 import BLIND_PAIRS_2  # noqa: E402
from tests.gate.blind_pairs_3 import BLIND_PAIRS_3  # noqa: E402
from tests.gate.blind_pairs_4 import BLIND_PAIRS_4  # noqa: E402
from tests.gate.blind_pairs_5 import BLIND_PAIRS_5  # noqa: E402
from tests.gate.blind_pairs_6 import BLIND_PAIRS_6  # noqa: E402
from tests.gate.dedup_pairs import FRESH_PAIRS, LABELS, PAIRS, Pair  # noqa: E402

from memstrata.gate.calibration import dedup_threshold  # noqa: E402
from memstrata.gate.relation import relate  # noqa: E402
from memstrata.providers.embedder import DEFAULT_EMBEDDER, load_embedder  # noqa: E402

#: the blind sets, each scored and shown apart: (part name, pairs, what the tables call it)
BLIND_SETS: tuple[tuple[str, list[Pair], str], ...] = (
    ("blind", BLIND_PAIRS, "blind pairs"),
    ("blind2", BLIND_PAIRS_2, "blind pairs, second set"),
    ("blind3", BLIND_PAIRS_3, "blind pairs, third set"),
    ("blind4", BLIND_PAIRS_4, "blind pairs, fourth set"),
    ("blind5", BLIND_PAIRS_5, "blind pairs, fifth set"),
    ("blind6", BLIND_PAIRS_6, "blind pairs, sixth set"),
)

TARGET_PRECISION = 0.97
SWEEP = [round(0.50 + 0.01 * step, 2) for step in range(50)]


@dataclass(frozen=True, slots=True)
class Scores:
    """Precision and recall of the ``duplicate`` verdict, with the counts behind them."""

    precision: float
    recall: float
    true_positives: int
    predicted: int
    actual: int
    accuracy: float
    pairs: int


def pair_cosines(pairs: Sequence[Pair], embedder: object | None) -> list[float | None]:
    """The cosine of each pair under ``embedder`` (``None`` each without one)."""
    if embedder is None:
        return [None] * len(pairs)
    texts = sorted({text for pair in pairs for text in (pair.candidate, pair.stored)})
    rows = embedder.embed(texts)  # type: ignore[attr-defined]
    index = {text: i for i, text in enumerate(texts)}
    return [float(rows[index[p.candidate]] @ rows[index[p.stored]]) for p in pairs]


def classify(
    pairs: Sequence[Pair], cosines: Sequence[float | None], threshold: float | None
) -> list[str]:
    """The kind ``relate`` gives each pair."""
    return [
        relate(pair.candidate, pair.stored, cosine, threshold).kind
        for pair, cosine in zip(pairs, cosines, strict=True)
    ]


def score(pairs: Sequence[Pair], kinds: Sequence[str]) -> Scores:
    """Precision/recall of ``duplicate`` and 4-class accuracy."""
    truth = [pair.label == "duplicate" for pair in pairs]
    said = [kind == "duplicate" for kind in kinds]
    true_positives = sum(t and s for t, s in zip(truth, said, strict=True))
    predicted, actual = sum(said), sum(truth)
    correct = sum(pair.label == kind for pair, kind in zip(pairs, kinds, strict=True))
    return Scores(
        true_positives / predicted if predicted else 1.0,
        true_positives / actual if actual else 1.0,
        true_positives,
        predicted,
        actual,
        correct / len(pairs) if pairs else 1.0,
        len(pairs),
    )


def choose_threshold(pairs: Sequence[Pair], cosines: Sequence[float | None]) -> float | None:
    """The highest threshold with the best recall at precision ≥ 0.97 on ``pairs``."""
    best: tuple[float, float] | None = None
    for threshold in SWEEP:
        result = score(pairs, classify(pairs, cosines, threshold))
        if result.precision >= TARGET_PRECISION and (best is None or result.recall >= best[0]):
            best = (result.recall, threshold)
    return best[1] if best else None


def split(
    pairs: Sequence[Pair], cosines: Sequence[float | None], held_out: bool
) -> tuple[list[Pair], list[float | None]]:
    chosen = [i for i, pair in enumerate(pairs) if pair.held_out == held_out]
    return [pairs[i] for i in chosen], [cosines[i] for i in chosen]


def measure(spec: str) -> dict[str, object]:
    """Everything the benchmark reports for one embedder spec (``none`` = lexical only)."""
    embedder, name, fallback, load_s, embed_s = None, "lexical only", "", 0.0, 0.0
    if spec != "none":
        started = time.perf_counter()
        choice = load_embedder(spec)
        embedder, name, fallback = choice.embedder, choice.embedder.name, choice.fallback_reason
        load_s = time.perf_counter() - started
    started = time.perf_counter()
    cosines = pair_cosines(PAIRS, embedder)
    embed_s = time.perf_counter() - started
    fresh_cosines = pair_cosines(FRESH_PAIRS, embedder)
    blind_cosines = {part: pair_cosines(pairs, embedder) for part, pairs, _ in BLIND_SETS}
    tuned, tuned_cos = split(PAIRS, cosines, held_out=False)
    held, held_cos = split(PAIRS, cosines, held_out=True)
    calibrated = dedup_threshold(name) if embedder is not None else None
    suggested = choose_threshold(tuned, tuned_cos) if embedder is not None else None
    sweep = []
    if embedder is not None:
        for threshold in SWEEP:
            result = score(tuned, classify(tuned, tuned_cos, threshold))
            sweep.append(
                {
                    "threshold": threshold,
                    "precision": result.precision,
                    "recall": result.recall,
                    "predicted": result.predicted,
                }
            )
    points = {}
    for label, threshold in (("calibrated", calibrated), ("suggested", suggested)):
        if label == "suggested" and embedder is None:
            continue
        points[label] = {
            "threshold": threshold,
            "tuned": score(tuned, classify(tuned, tuned_cos, threshold)),
            "held_out": score(held, classify(held, held_cos, threshold)),
            "all": score(PAIRS, classify(PAIRS, cosines, threshold)),
            "fresh": score(FRESH_PAIRS, classify(FRESH_PAIRS, fresh_cosines, threshold)),
            **{
                part: score(pairs, classify(pairs, blind_cosines[part], threshold))
                for part, pairs, _ in BLIND_SETS
            },
        }
    kinds = classify(PAIRS, cosines, calibrated)
    confusion = Counter((pair.label, kind) for pair, kind in zip(PAIRS, kinds, strict=True))
    categories: dict[str, list[int]] = {}
    for pair, kind in zip(PAIRS, kinds, strict=True):
        right, total = categories.setdefault(pair.category, [0, 0])
        categories[pair.category] = [right + (pair.label == kind), total + 1]
    fresh_kinds = classify(FRESH_PAIRS, fresh_cosines, calibrated)
    blind_kinds = {
        part: classify(pairs, blind_cosines[part], calibrated) for part, pairs, _ in BLIND_SETS
    }
    blind_confusions = {
        f"{part}_confusion": _cells(
            Counter((pair.label, kind) for pair, kind in zip(pairs, blind_kinds[part], strict=True))
        )
        for part, pairs, _ in BLIND_SETS
    }
    errors = [
        {
            "label": pair.label,
            "kind": kind,
            "cosine": cosine,
            "category": pair.category,
            "candidate": pair.candidate,
            "stored": pair.stored,
            "held_out": pair.held_out,
        }
        for pair, kind, cosine in zip(
            [*PAIRS, *FRESH_PAIRS, *(pair for _, pairs, _ in BLIND_SETS for pair in pairs)],
            [
                *kinds,
                *fresh_kinds,
                *(kind for part, *_ in BLIND_SETS for kind in blind_kinds[part]),
            ],
            [
                *cosines,
                *fresh_cosines,
                *(cosine for part, *_ in BLIND_SETS for cosine in blind_cosines[part]),
            ],
            strict=True,
        )
        if kind != pair.label and "duplicate" in (kind, pair.label)
    ]
    return {
        "spec": spec,
        "embedder": name,
        "fallback": fallback,
        "load_s": load_s,
        "embed_s": embed_s,
        "sweep": sweep,
        "points": points,
        "confusion": _cells(confusion),
        **blind_confusions,
        "categories": categories,
        "duplicate_errors": errors,
    }


def _cells(confusion: Counter[tuple[str, str]]) -> dict[str, int]:
    """A confusion matrix as ``{"label->verdict": count}``, sorted."""
    return {f"{a}->{b}": n for (a, b), n in sorted(confusion.items())}


def render(result: dict[str, object]) -> str:
    """The human-readable tables for one configuration."""
    lines = [
        f"## {result['embedder']}"
        + (f"  (fallback: {result['fallback']})" if result["fallback"] else "")
    ]
    if result["spec"] != "none":
        lines.append(
            f"load {result['load_s']:.1f} s, embedding {2 * len(PAIRS)} texts"
            f" {result['embed_s']:.1f} s"
        )
    sweep = result["sweep"]
    if sweep:
        lines += ["", "threshold sweep (tuned part): threshold  precision  recall  predicted"]
        for row in sweep:  # type: ignore[attr-defined]
            if row["threshold"] * 100 % 2 == 0 or row["threshold"] >= 0.80:
                lines.append(
                    f"  {row['threshold']:.2f}  {row['precision']:.3f}"
                    f"  {row['recall']:.3f}  {row['predicted']}"
                )
    lines += ["", "operating point     part       precision  recall  (tp/pred/actual)  accuracy"]
    for label, point in result["points"].items():  # type: ignore[attr-defined]
        threshold = point["threshold"]
        shown = "lexical" if threshold is None else f"{threshold:.2f}"
        for part in ("tuned", "held_out", "all", "fresh", *(part for part, *_ in BLIND_SETS)):
            s: Scores = point[part]
            lines.append(
                f"  {label:10} {shown:7} {part:9}  {s.precision:.3f}     {s.recall:.3f}"
                f"  ({s.true_positives}/{s.predicted}/{s.actual})"
                f"          {s.accuracy:.3f}"
            )
    matrices = [("confusion", "all pairs")] + [(f"{p}_confusion", w) for p, _, w in BLIND_SETS]
    for key, which in matrices:
        lines += ["", f"confusion (rows: label, columns: verdict; calibrated threshold, {which})"]
        confusion = result[key]
        lines.append("  " + " " * 14 + "".join(f"{kind[:13]:>14}" for kind in LABELS))
        for label in LABELS:
            cells = "".join(f"{confusion.get(f'{label}->{kind}', 0):>14}" for kind in LABELS)  # type: ignore[attr-defined]
            lines.append(f"  {label:14}{cells}")
    lines += ["", "accuracy per category (all pairs)"]
    for category, (right, total) in sorted(result["categories"].items()):  # type: ignore[attr-defined]
        lines.append(f"  {category:22} {right:3}/{total:<3} {right / total:.2f}")
    errors = result["duplicate_errors"]
    if errors:
        lines += ["", "duplicate errors (label -> verdict, cosine, H = held out, fresh or blind)"]
        for error in errors:  # type: ignore[attr-defined]
            cosine = "-" if error["cosine"] is None else f"{error['cosine']:.3f}"
            lines.append(
                f"  {error['label']} -> {error['kind']}  {cosine}"
                f"  {'H' if error['held_out'] else ' '}  {error['category']}:"
                f" {error['candidate']!r} / {error['stored']!r}"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--embedder",
        action="append",
        help="embedder spec, repeatable; 'none' = lexical only"
        " (default: none, hashing and the default embedder)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    specs = args.embedder or ["none", "hashing", DEFAULT_EMBEDDER]
    results = [measure(spec) for spec in specs]
    counts = Counter(pair.label for pair in PAIRS)
    if args.json:
        print(
            json.dumps(
                {"pairs": len(PAIRS), "labels": counts, "results": results},
                default=lambda value: (
                    value.__dict__
                    if hasattr(value, "__dict__")
                    else {k: getattr(value, k) for k in value.__slots__}
                ),
                indent=1,
            )
        )
        return 0
    held = sum(pair.held_out for pair in PAIRS)
    print(
        f"{len(PAIRS)} pairs ({', '.join(f'{n} {k}' for k, n in sorted(counts.items()))});"
        f" {len(PAIRS) - held} tuned, {held} held out (every third pair)\n"
    )
    print("\n\n".join(render(result) for result in results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
