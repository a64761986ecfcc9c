"""Approximate vector search (IVF) beside exact search, on real text and the default embedder.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/ann.py --embed-cache /tmp/embcache.db
        [--sizes 10000,50000,100000] [--nprobe 16,32,64] [--queries 200] [--json]

Passages: the distinct sentences of the LongMemEval haystack turns and the LoCoMo turns, in a
content-defined order (SHA-256 of the text), so each size is a prefix of the next. Queries:
LoCoMo and LongMemEval questions, embedded as queries. Per size it fills the vectors table of a
real index, builds the side file (:mod:`memstrata.recall.ann`) and reports: what reloading after
100 new rows costs, build time, query p50/p95 (exact over the loaded matrix, approximate over the
memory-mapped side file), recall@10 of approximate against exact, and for a fresh process the
time to its first answer and the RSS it added. One BLAS thread: on a busy 2-core machine a
multi-threaded matrix-vector product waits for cores (see docs/benchmarks-ann.md). Embedding
100k sentences takes minutes to half an hour the first time; ``--embed-cache`` keeps them.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memstrata.providers.cache import CachedEmbedder
from memstrata.providers.embedder import DEFAULT_EMBEDDER, Embedder, load_embedder

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
LONGMEMEVAL = DATA / "longmemeval" / "longmemeval_s_dev60.json.gz"
LOCOMO = DATA / "locomo" / "locomo_dev.json"


def load_texts() -> tuple[list[str], list[str]]:
    """(passages, questions): real dialogue text, passages in a content-defined order."""
    sessions = json.loads(gzip.decompress(LONGMEMEVAL.read_bytes()))
    locomo = json.loads(LOCOMO.read_text())
    turns = [turn["content"] for item in sessions for s in item["haystack_sessions"] for turn in s]
    passages = {
        part.strip()
        for turn in turns
        for part in re.split(r"(?<=[.!?])\s+|\n+", turn)
        if len(part.strip()) >= 20
    }
    for sample in locomo:
        for key, value in sample["conversation"].items():
            if key.startswith("session_") and isinstance(value, list):
                passages.update(turn["text"].strip() for turn in value if turn.get("text"))
    questions = {item["question"] for item in sessions}
    questions |= {qa["question"] for sample in locomo for qa in sample["qa"]}
    return _by_digest(passages), _by_digest(questions)


def _by_digest(texts: set[str]) -> list[str]:
    return sorted(texts, key=lambda text: hashlib.sha256(text.encode()).digest())


def embed(embedder: Embedder, texts: Sequence[str], query: bool = False) -> np.ndarray:
    out = []
    for start in range(0, len(texts), 2048):
        out.append(embedder.embed(list(texts[start : start + 2048]), query=query))
        print(f"  embedded {start + len(out[-1])}/{len(texts)}", file=sys.stderr, flush=True)
    return np.ascontiguousarray(np.concatenate(out), dtype=np.float32)


def open_embedder(cache: Path | None) -> Embedder:
    choice = load_embedder(DEFAULT_EMBEDDER)
    if choice.fallback_reason:
        sys.exit(f"the default embedder did not load: {choice.fallback_reason}")
    return CachedEmbedder(choice.embedder, cache) if cache else choice.embedder


def percentile(values: Sequence[float], share: float) -> float:
    return float(np.percentile(np.asarray(values), share * 100))


def timed(search, queries: np.ndarray) -> tuple[list[list[str]], list[float]]:
    results, times = [], []
    for q in queries:
        start = time.perf_counter()
        hits = search(q)
        times.append((time.perf_counter() - start) * 1000)
        results.append([ref for ref, _ in hits])
    return results, times


RSS_PROBE = """
import json, sqlite3, sys, time, numpy as np
from pathlib import Path
from memstrata.recall.ann import IvfView, match_live, open_ivf
from memstrata.recall.semantic import VectorIndex, live_rows
folder, mode, nprobe = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
queries = np.load(folder / "queries.npy")
db = sqlite3.connect(folder / "index.db")
def rss():
    text = open("/proc/self/status").read()
    return int(text.split("VmRSS:")[1].split()[0]) / 1024
before = rss()
start = time.perf_counter()
if mode == "exact":
    index = VectorIndex.load(db, "turn", "bench", queries.shape[1])
else:
    ivf = open_ivf(folder / "turn.ivf", "turn", "bench", queries.shape[1])
    alive, _ = match_live(ivf, *live_rows(db, "turn"))
    index = VectorIndex((), np.zeros((0, 0), np.float32), approximate=IvfView(ivf, alive, nprobe))
index.search(queries[0], 10)
first_s, first_mb = time.perf_counter() - start, rss() - before
for q in queries:
    index.search(q, 10)
print(json.dumps([first_s, first_mb, rss() - before]))
"""


def fresh_process(folder: Path, mode: str, nprobe: int) -> dict[str, float]:
    """A new process opens the vectors and answers one query (what one ``memstrata recall``
    does), then all of them: seconds to the first answer and the RSS added (MB)."""
    out = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, str(folder), mode, str(nprobe)],
        capture_output=True,
        text=True,
        check=True,
    )
    first_s, first_mb, all_mb = json.loads(out.stdout)
    return {
        "first_answer_s": round(first_s, 3),
        "rss_first_mb": round(first_mb, 1),
        "rss_all_mb": round(all_mb, 1),
    }


def run_size(
    size: int, passages: np.ndarray, queries: np.ndarray, nprobes: list[int], folder: Path
) -> dict[str, object]:
    from memstrata.index.db import IndexDB
    from memstrata.recall.ann import IvfView, build_ivf, open_ivf, write_ivf
    from memstrata.recall.semantic import VectorIndex, live_rows, put_vectors
    from memstrata.sqlite import immediate

    index = IndexDB.open(folder / "index.db")
    refs = [f"p{i:06d}" for i in range(size)]
    with immediate(index.db):
        put_vectors(index.db, "turn", "bench", zip(refs, passages[:size], strict=True))
    np.save(folder / "queries.npy", queries)

    exact = VectorIndex.load(index.db, "turn", "bench", passages.shape[1])
    with immediate(index.db):
        put_vectors(index.db, "turn", "bench", [(f"new{i}", passages[i]) for i in range(100)])
    start = time.perf_counter()
    wanted = live_rows(index.db, "turn")[0]
    VectorIndex.reload(exact, index.db, "turn", "bench", passages.shape[1], wanted)
    reload_s = time.perf_counter() - start
    with immediate(index.db):
        index.db.execute("DELETE FROM vectors WHERE ref LIKE 'new%'")

    start = time.perf_counter()
    arrays = build_ivf(exact.refs, exact.matrix)
    write_ivf(folder / "turn.ivf", "turn", "bench", arrays, exact.rowids, exact.refs, exact.matrix)
    build_s = time.perf_counter() - start
    ivf = open_ivf(folder / "turn.ivf", "turn", "bench", exact.matrix.shape[1])
    assert not isinstance(ivf, str), ivf

    truth, exact_ms = timed(lambda q: exact.search(q, 10), queries)
    row: dict[str, object] = {
        "vectors": size,
        "lists": len(arrays.centroids),
        "reload_100_new_s": round(reload_s, 3),
        "build_s": round(build_s, 1),
        "exact_p50_ms": round(percentile(exact_ms, 0.5), 2),
        "exact_p95_ms": round(percentile(exact_ms, 0.95), 2),
        "exact_fresh": fresh_process(folder, "exact", 0),
        "approximate": [],
    }
    alive = np.ones(len(ivf), dtype=bool)
    for nprobe in nprobes:
        view = IvfView(ivf, alive, nprobe)
        found, ms = timed(lambda q, view=view: view.search(q, 10), queries)
        recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(found, truth, strict=True)])
        row["approximate"].append(  # type: ignore[union-attr]
            {
                "nprobe": nprobe,
                "recall_at_10": round(float(recall), 3),
                "p50_ms": round(percentile(ms, 0.5), 2),
                "p95_ms": round(percentile(ms, 0.95), 2),
                "fresh": fresh_process(folder, "ivf", nprobe),
            }
        )
    index.close()
    return row


def print_table(rows: list[dict[str, object]]) -> None:
    print(
        f"{'vectors':>8} {'lists':>5} {'reload s':>8} {'build s':>7} {'mode':>10} {'p50 ms':>7}"
        f" {'p95 ms':>7} {'rec@10':>6} {'1st s':>6} {'RSS 1':>6} {'RSS all':>7}"
    )
    for row in rows:
        modes = [("exact", row["exact_p50_ms"], row["exact_p95_ms"], 1.0, row["exact_fresh"])]
        modes += [
            (f"nprobe {p['nprobe']}", p["p50_ms"], p["p95_ms"], p["recall_at_10"], p["fresh"])
            for p in row["approximate"]  # type: ignore[attr-defined]
        ]
        for i, (mode, p50, p95, recall, fresh) in enumerate(modes):
            head = (row["vectors"], row["lists"], row["reload_100_new_s"], row["build_s"])
            cells = head if i == 0 else ("",) * 4
            print(
                f"{cells[0]:>8} {cells[1]:>5} {cells[2]:>8} {cells[3]:>7} {mode:>10} {p50:>7}"
                f" {p95:>7} {recall:>6.3f} {fresh['first_answer_s']:>6} {fresh['rss_first_mb']:>6}"
                f" {fresh['rss_all_mb']:>7}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embed-cache", type=Path, help="SQLite file caching embeddings")
    parser.add_argument("--sizes", default="10000,50000,100000")
    parser.add_argument("--nprobe", default="16,32,64")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    nprobes = [int(n) for n in args.nprobe.split(",")]
    texts, questions = load_texts()
    if max(sizes) > len(texts):
        sys.exit(f"only {len(texts)} passages available")
    embedder = open_embedder(args.embed_cache)
    queries = embed(embedder, questions[: args.queries], query=True)
    passages = embed(embedder, texts[: max(sizes)])
    rows = []
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="memstrata-ann-") as folder:
            rows.append(run_size(size, passages, queries, nprobes, Path(folder)))
            print(f"  {size} done", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps({"embedder": embedder.name, "queries": len(queries), "sizes": rows}))
    else:
        print(f"embedder {embedder.name}, {len(queries)} queries, k = 10")
        print_table(rows)


if __name__ == "__main__":
    main()
