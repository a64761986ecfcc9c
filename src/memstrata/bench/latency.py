"""Latency of memstrata's hybrid turn search as the raw store grows (1k, 10k, 100k turns).

A seeded generator writes sessions of 20 turns of real English words (harvested from the
docstrings of standard-library modules, so no data ships and tokenizers see ordinary words)
into a real raw store and session index; turn vectors are random unit rows of the embedder's
dimension (embedding 100k synthetic turns only measures model throughput, reported apart).
Each query embeds its text with the real embedder and runs the full ranking, so the timings
include the query embedding, FTS5, the exact vector search and the context arms.
"""

from __future__ import annotations

import importlib
import random
import re
import resource
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from memstrata.bench.metrics import percentile
from memstrata.clock import to_iso
from memstrata.model import Session, Turn
from memstrata.providers.embedder import Embedder, normalise_rows
from memstrata.raw.store import RawStore
from memstrata.recall.semantic import VectorIndex
from memstrata.recall.sessions import ensure_session_table, put_sessions, score_sessions
from memstrata.recall.temporal import find_time_windows
from memstrata.recall.turns import TurnWeights, rank_turns, semantic_hits
from memstrata.sqlite import connect, immediate

TURNS_PER_SESSION = 20
_DOC_MODULES = (
    "argparse", "asyncio", "collections", "csv", "datetime", "decimal", "email.message",
    "http.client", "json", "logging", "os", "pathlib", "pickle", "random", "re", "sqlite3",
    "string", "subprocess", "tarfile", "threading", "unittest", "urllib.request",
    "zipfile",
)  # fmt: skip


def measure_latency(
    embedder: Embedder, sizes: tuple[int, ...], queries: int = 100, seed: int = 7
) -> dict[str, Any]:
    """p50/p95 query time per store size, peak RSS, and the embedder's passage throughput."""
    rng = random.Random(seed)
    vocabulary = _vocabulary()
    now = datetime(2025, 11, 27, tzinfo=UTC)
    report: dict[str, Any] = {"embedder": embedder.name, "sizes": {}}
    sample = [_sentence(rng, vocabulary) for _ in range(200)]
    started = time.perf_counter()
    embedder.embed(sample)
    report["passages_per_s"] = round(len(sample) / (time.perf_counter() - started), 1)
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="memstrata-latency-") as folder:
            report["sizes"][str(size)] = _measure_one(
                Path(folder), embedder, size, queries, rng, vocabulary, now
            )
    report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return report


def _measure_one(
    folder: Path,
    embedder: Embedder,
    size: int,
    queries: int,
    rng: random.Random,
    vocabulary: list[str],
    now: datetime,
) -> dict[str, float]:
    store = RawStore(folder / "sessions.db")
    index = connect(folder / "index.db")
    ensure_session_table(index)
    started = time.perf_counter()
    for number in range(size // TURNS_PER_SESSION):
        when = to_iso(now - timedelta(hours=number))
        session_id = f"s{number}"
        turns = [
            Turn(session_id, i, "user", when, _sentence(rng, vocabulary))
            for i in range(TURNS_PER_SESSION)
        ]
        store.upsert(Session(session_id, "bench", "agent", when, when, ""), turns)
        with immediate(index):
            put_sessions(index, [(session_id, "\n".join(t.text for t in turns))])
    ingest_s = time.perf_counter() - started
    refs = [f"s{n}#{i}" for n in range(size // TURNS_PER_SESSION) for i in range(20)]
    shape = (len(refs), embedder.dim)
    matrix = normalise_rows(np.random.default_rng(size).standard_normal(shape, dtype=np.float32))
    vectors = VectorIndex.from_rows(refs, matrix)
    weights = TurnWeights()
    timings = []
    for _ in range(queries):
        query = _sentence(rng, vocabulary, 6) + " last week"
        started = time.perf_counter()
        query_vector = embedder.embed([query], query=True)[0]
        rank_turns(
            store.db,
            query,
            10,
            semantic=semantic_hits(vectors, query_vector, weights.pool),
            weights=weights,
            session_scores=score_sessions(index, query, weights.pool),
            windows=find_time_windows(query, now),
        )
        timings.append((time.perf_counter() - started) * 1000)
    store.close()
    index.close()
    return {
        "turns": len(refs),
        "ingest_s": round(ingest_s, 2),
        "query_ms_p50": round(percentile(timings, 0.5), 2),
        "query_ms_p95": round(percentile(timings, 0.95), 2),
    }


def _vocabulary() -> list[str]:
    """Distinct lowercase words from standard-library docstrings, most frequent first."""
    counts: Counter[str] = Counter()
    for name in _DOC_MODULES:
        module = importlib.import_module(name)
        for item in [module, *vars(module).values()]:
            doc = getattr(item, "__doc__", None)
            if isinstance(doc, str):
                counts.update(re.findall(r"\b[a-z]{3,12}\b", doc.lower()))
    return [word for word, _ in counts.most_common()]


def _sentence(rng: random.Random, vocabulary: list[str], length: int = 0) -> str:
    # Zipf-like: a few words are common, most are rare, as in real text
    count = length or rng.randint(6, 30)
    last = len(vocabulary) - 1
    return " ".join(vocabulary[min(int(rng.paretovariate(0.8)) - 1, last)] for _ in range(count))
