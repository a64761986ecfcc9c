"""Retrieval benchmark: memstrata's hybrid search beside a plain SQLite FTS5 baseline.

    .venv/bin/python benchmarks/retrieval.py locomo [PATH] [--json]
    .venv/bin/python benchmarks/retrieval.py longmemeval [PATH] [--json]
    .venv/bin/python benchmarks/retrieval.py latency [--sizes 1000,10000,100000] [--json]

PATH defaults to ``../shared/data/locomo/locomo_dev.json`` or
``../shared/data/longmemeval/longmemeval_s_dev60.json.gz`` beside the repo. Each conversation
(LoCoMo) or question (LongMemEval) gets a fresh workspace in a temporary folder; see
``memstrata.bench`` for the protocols. ``--embed-cache FILE`` keeps embeddings between runs
(content-addressed, per embedder); ``--embedder hashing`` or ``none`` for a quick run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from memstrata.bench.latency import measure_latency
from memstrata.bench.report import render_table
from memstrata.bench.run import BenchmarkRun, progress_bar, run_retrieval
from memstrata.errors import MemstrataError
from memstrata.providers.embedder import DEFAULT_EMBEDDER, load_embedder
from memstrata.recall.turns import TurnWeights

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEFAULT_PATHS = {
    "locomo": DATA / "locomo" / "locomo_dev.json",
    "longmemeval": DATA / "longmemeval" / "longmemeval_s_dev60.json.gz",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("benchmark", choices=[*sorted(DEFAULT_PATHS), "latency"])
    parser.add_argument("path", nargs="?", type=Path)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--embedder", default=DEFAULT_EMBEDDER, help="embedder spec or 'none'")
    parser.add_argument("--embed-cache", type=Path, help="SQLite file caching embeddings")
    parser.add_argument("--limit", type=int, help="only the first N corpora")
    parser.add_argument("--weights", default="", help="e.g. lexical=1,neighbour=0.3,semantic=0.5")
    parser.add_argument("--no-captions", action="store_true", help="LoCoMo: drop photo captions")
    parser.add_argument(
        "--through",
        choices=("raw", "recall"),
        default="raw",
        help="raw: turns as raw sessions (search); recall: as journal entries (recall)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes scoring corpora at once")
    parser.add_argument(
        "--by-corpus", action="store_true", help="also score each conversation or question alone"
    )
    parser.add_argument("--sizes", default="1000,10000,100000", help="latency: store sizes")
    args = parser.parse_args()
    if args.benchmark == "latency":
        return _latency(args)

    run = BenchmarkRun(
        args.benchmark,
        args.path or DEFAULT_PATHS[args.benchmark],
        args.embedder,
        args.embed_cache,
        args.limit,
        _weights(args.weights),
        captions=not args.no_captions,
        through=args.through,
        jobs=max(1, args.jobs),
        by_corpus=args.by_corpus,
    )
    try:
        report, columns = run_retrieval(run, on_corpus=progress_bar())
    except MemstrataError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(render_table(report, columns))
    return 0


def _latency(args: argparse.Namespace) -> int:
    choice = load_embedder(args.embedder if args.embedder != "none" else "hashing")
    if choice.fallback_reason:
        print(f"warning: {choice.fallback_reason}", file=sys.stderr)
    sizes = tuple(int(size) for size in args.sizes.split(","))
    report = measure_latency(choice.embedder, sizes)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"embedder {report['embedder']}: {report['passages_per_s']} passages/s")
    for size, row in report["sizes"].items():
        print(
            f"{int(size):>7} turns: query p50 {row['query_ms_p50']:.1f} ms,"
            f" p95 {row['query_ms_p95']:.1f} ms (ingest {row['ingest_s']:.1f} s)"
        )
    print(f"peak RSS {report['peak_rss_mb']} MB")
    return 0


def _weights(text: str) -> TurnWeights:
    values: dict[str, float] = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        values[key.strip()] = float(value)
    for whole in ("pool", "context", "feedback_turns", "expansion_terms"):
        if whole in values:
            values[whole] = int(values[whole])
    return TurnWeights(**values)  # type: ignore[arg-type]


if __name__ == "__main__":
    sys.exit(main())
