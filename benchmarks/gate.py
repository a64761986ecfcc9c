"""Gate throughput: admitted writes per second at 1k and 10k existing topics.

    .venv/bin/python benchmarks/gate.py [--sizes 1000,10000] [--writes 100] [--json]

Each size gets a fresh workspace whose topics are written as canonical files (like
benchmarks/foundation.py) and indexed once; then ``Memory.remember`` admits ``--writes`` new,
distinct facts one by one, through the whole gate: validation, secret redaction, injection
check, related-topic lookup, relation of each candidate statement, the crash-safe topic write
and the index update. Run lexical only and with the default embedder (its cosine calibrated).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from foundation import NAMES, NOW, sentence, topic_text, write_topic_files
from memstrata import Admitted, Memory
from memstrata.bench.metrics import percentile
from memstrata.clock import to_iso
from memstrata.model import TopicMeta
from memstrata.workspace.layout import init_workspace


def bench(size: int, writes: int, embeddings: bool) -> dict[str, object]:
    rng = random.Random(size)
    with tempfile.TemporaryDirectory(prefix="memstrata-gate-") as folder:
        root = Path(folder) / "ws"
        init_workspace(root)
        meta = TopicMeta(created=to_iso(NOW), updated=to_iso(NOW))
        for number in range(size):
            topic_id, summary, detail = topic_text(rng, number)
            write_topic_files(root, topic_id, summary, meta, detail=detail)
        memory = Memory(root, clock=lambda: NOW, embeddings=embeddings)
        memory.rebuild()
        if embeddings:
            memory.gate  # noqa: B018 - load the model before timing, as a server would have
        facts = [
            f"@{rng.choice(NAMES)} fact {number}: {sentence(rng)} (ticket {10_000 + number})"
            for number in range(writes)
        ]
        seconds: list[float] = []
        admitted = 0
        for fact in facts:
            started = time.perf_counter()
            verdict = memory.remember(fact)
            seconds.append(time.perf_counter() - started)
            admitted += isinstance(verdict, Admitted)
        memory.close()
    return {
        "topics": size,
        "embeddings": memory.embedder_note or ("default" if embeddings else "off"),
        "writes": writes,
        "admitted": admitted,
        "writes_per_s": round(writes / sum(seconds), 1),
        # nearest rank, as the other latency benchmarks: p95 was read below the median
        "p50_ms": round(percentile(seconds, 0.50) * 1000, 1),
        "p95_ms": round(percentile(seconds, 0.95) * 1000, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--writes", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [
        bench(int(size), args.writes, embeddings)
        for size in args.sizes.split(",")
        for embeddings in (False, True)
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    header = ("topics", "embeddings", "admitted", "writes/s", "p50 ms", "p95 ms")
    print(" ".join(f"{name:>10}" for name in header))
    for row in rows:
        values = ("topics", "embeddings", "admitted", "writes_per_s", "p50_ms", "p95_ms")
        print(" ".join(f"{row[key]!s:>10}" for key in values))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
