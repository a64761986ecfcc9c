"""Latency of the MCP ``recall`` tool over stdio on a large workspace, as an agent harness sees it.

    .venv/bin/python benchmarks/mcp_latency.py [--topics 10000] [--calls 200] [--json]
                                                  [--workdir DIR]

A workspace of N topics is written as canonical files (``summary.md``, ``detail.md``,
``meta.json``, one ``history.jsonl`` line each; writing 10k through the gate would take minutes)
and indexed once with ``Memory.rebuild()``. Then ``memstrata --workspace WS mcp`` is started as a
subprocess and the SDK's own client calls ``recall`` with seeded queries: the first call alone
(it opens the index), then ``--calls`` more, timed one by one from the client (JSON-RPC over
pipes, the tool, its JSON result). The same queries through ``Memory.recall`` in this process
show how much of it is the library and how much the protocol. Reads re-scan every topic's files
for hand edits at most every 30 s (``Memory.refresh``); that scan is timed on its own, as it
explains the slowest calls.

Inputs are deterministic (seeded); timings are wall clock on a warm page cache.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from memstrata import Memory
from memstrata.bench.machine import cpu_name, load_average
from memstrata.bench.metrics import latency_summary
from memstrata.bench.topic_files import write_topic_files
from memstrata.model import TopicMeta
from memstrata.workspace.layout import init_workspace

SEED = 20251127
SCANS = 20  # full topic scans timed
WHEN = "2025-11-27T10:00:00Z"
SEEDED_META = TopicMeta(created=WHEN, updated=WHEN)
NAMESPACES = ("people", "projects", "lessons", "decisions", "places", "tools")
NAMES = ("Ann", "Peter", "Maria", "Tom", "Priya", "Kenji", "Sofia", "Omar", "Li Na", "Marco")
SUBJECTS = (
    "billing service",
    "login flow",
    "search index",
    "release train",
    "payment retries",
    "deploy pipeline",
    "coffee order",
    "team offsite",
    "database migration",
    "rate limiter",
)
WORDS = (
    "prefers flaky timeout budget staging rollback cache invoice cortado retry review merge "
    "schema replica latency dashboard alert on-call incident postmortem refactor flag canary "
    "tokens quota backlog sprint estimate pairing docs onboarding laptop vpn secret rotation "
    "vendor contract renewal outage pager hotfix benchmark profile memory leak queue worker "
    "cron nightly export import parser encoding unicode timezone utc daylight calendar"
).split()


def sentence(rng: random.Random) -> str:
    words = rng.sample(WORDS, rng.randint(6, 12))
    return f"{rng.choice(NAMES)} {' '.join(words)} for the {rng.choice(SUBJECTS)}."


def write_topics(root: Path, count: int, rng: random.Random) -> None:
    """``count`` topics as the canonical files wiki/store.py writes (no index upkeep)."""
    for number in range(count):
        subject = rng.choice(SUBJECTS)
        topic_id = (
            f"{NAMESPACES[number % len(NAMESPACES)]}/{subject.replace(' ', '-')}-{number:05d}"
        )
        summary = f"# {subject.title()} {number}\n\n" + " ".join(
            sentence(rng) for _ in range(rng.randint(1, 3))
        )
        summary = summary[:1000] + "\n"
        detail = "\n\n".join(sentence(rng) for _ in range(rng.randint(2, 6))) + "\n"
        write_topic_files(root, topic_id, summary, SEEDED_META, detail=detail)


def make_queries(count: int, rng: random.Random) -> list[str]:
    return [
        f"{rng.choice(SUBJECTS)} {' '.join(rng.sample(WORDS, rng.randint(1, 2)))}"
        for _ in range(count)
    ]


async def time_mcp(workspace: Path, queries: list[str]) -> dict[str, Any]:
    """Start ``memstrata mcp`` and time ``recall`` calls from the SDK client."""
    env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memstrata", "--workspace", str(workspace), "mcp"],
        env=env,
    )
    started = time.perf_counter()
    async with Client(params, read_timeout_seconds=300) as client:
        connected = time.perf_counter() - started
        first_started = time.perf_counter()
        first = await client.call_tool("recall", {"query": queries[0]})
        first_call = time.perf_counter() - first_started
        if first.is_error:
            raise RuntimeError(f"recall failed: {first.content}")
        seconds: list[float] = []
        hits = 0
        result_bytes = 0
        for query in queries:
            call_started = time.perf_counter()
            result = await client.call_tool("recall", {"query": query})
            seconds.append(time.perf_counter() - call_started)
            items = result.structured_content["items"]
            hits += bool(items)
            result_bytes = max(result_bytes, len(result.content[0].text.encode()))
    return {
        "connect_s": round(connected, 2),
        "first_call_ms": round(first_call * 1000, 1),
        "answered": hits,
        "max_result_bytes": result_bytes,
        **latency_summary(seconds),
    }


def time_library(workspace: Path, queries: list[str]) -> tuple[dict[str, float], dict[str, float]]:
    """``Memory.recall`` on the same queries, and a full no-op ``Memory.sync`` (the topic scan
    that reads repeat at most every 30 s)."""
    with Memory(workspace) as memory:
        memory.recall(queries[0], record_access=False, record_metric=False)
        recalls, syncs = [], []
        for query in queries:
            started = time.perf_counter()
            memory.recall(query, record_access=False, record_metric=False)
            recalls.append(time.perf_counter() - started)
        for _ in range(SCANS):
            started = time.perf_counter()
            memory.sync()
            syncs.append(time.perf_counter() - started)
    return latency_summary(recalls), latency_summary(syncs)


def machine() -> dict[str, str]:
    return {
        "nproc": str(os.cpu_count()),
        "cpu": cpu_name(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "load": load_average(),
    }


def run(topics: int, calls: int, workdir: str | None, note: Any) -> dict[str, Any]:
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory(dir=workdir) as folder:
        workspace = Path(folder) / "ws"
        init_workspace(workspace)
        started = time.perf_counter()
        write_topics(workspace, topics, rng)
        written = time.perf_counter() - started
        note(f"wrote {topics} topics in {written:.1f} s; rebuilding the index")
        started = time.perf_counter()
        with Memory(workspace) as memory:
            report = memory.rebuild()
        rebuilt = time.perf_counter() - started
        if report.topics_indexed != topics:
            raise RuntimeError(f"indexed {report.topics_indexed} of {topics} topics")
        note(f"rebuilt in {rebuilt:.1f} s; timing {calls} recall calls over MCP stdio")
        queries = make_queries(calls, rng)
        mcp = anyio.run(time_mcp, workspace, queries)
        library, sync = time_library(workspace, queries)
    return {
        "machine": machine(),
        "topics": topics,
        "calls": calls,
        "write_s": round(written, 1),
        "rebuild_s": round(rebuilt, 1),
        "mcp": mcp,
        "library": library,
        "sync": sync,
    }


def render(result: dict[str, Any]) -> str:
    mcp, library, sync = result["mcp"], result["library"], result["sync"]
    rows = [
        ("measurement", "p50", "p95", "max", "mean"),
        (
            "MCP recall over stdio (client-side)",
            *(f"{mcp[key]:.1f} ms" for key in ("p50_ms", "p95_ms", "max_ms", "mean_ms")),
        ),
        (
            "Memory.recall in process",
            *(f"{library[key]:.1f} ms" for key in ("p50_ms", "p95_ms", "max_ms", "mean_ms")),
        ),
        (
            "full topic scan (Memory.sync; reads: once per 30 s)",
            *(f"{sync[key]:.1f} ms" for key in ("p50_ms", "p95_ms", "max_ms", "mean_ms")),
        ),
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(5)]
    lines = [
        "  ".join(
            cell.ljust(widths[n]) if n == 0 else cell.rjust(widths[n]) for n, cell in enumerate(row)
        )
        for row in rows
    ]
    info = result["machine"]
    return "\n".join(
        [
            f"machine: {info['nproc']} × {info['cpu']}, Python {info['python']}, "
            f"SQLite {info['sqlite']}, load {info['load']}",
            f"workspace: {result['topics']} topics (files written in {result['write_s']} s, "
            f"index rebuilt in {result['rebuild_s']} s); {result['calls']} recall calls",
            f"server start + handshake: {mcp['connect_s']} s; first recall: "
            f"{mcp['first_call_ms']} ms; {mcp['answered']}/{result['calls']} queries with hits; "
            f"largest result {mcp['max_result_bytes']} bytes",
            "",
            *lines,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--workdir", default=None, help="Where the temporary workspace goes.")
    parser.add_argument("--json", action="store_true", help="Print the result as JSON.")
    args = parser.parse_args(argv)

    def note(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    result = run(args.topics, args.calls, args.workdir, note)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
