"""Recall latency and memory at scale: 1k / 10k / 100k topics, and 10k topics + 100k raw turns.

    .venv/bin/python benchmarks/scale.py [--topics 1000,10000,100000] [--turns 100000]
        [--turns-topics 10000] [--queries 100] [--cold-runs 5] [--cache /tmp/memstrata-scale]
        [--seed-embeddings /tmp/embcache.db] [--embedder use-multilingual] [--json]

Text is real: sentences and sessions of LoCoMo and LongMemEval (read from ``--locomo`` and
``--longmemeval`` at run time, never copied into the repo). Topic ``n`` is the same in every
workspace (seeded by its number), so the 1k workspace is the first 1k topics of the 10k one and
embeddings are shared through one content-addressed cache (``CACHE/embeddings.db``, seeded from
``--seed-embeddings``, which already holds the benchmark turns' vectors). Each workspace also has
a year of journal days with typed ``## Retain`` facts. The raw-turn workspace is a copy of the
``--turns-topics`` one plus the benchmarks' sessions repeated under new ids and dates until
``--turns`` turns are stored, each turn embedded (with the turn before it, as ingest does).

Workspaces are built once into ``--cache`` and reused (building and embedding 100k topics takes
many minutes); a workspace is rebuilt when its recorded recipe differs.

Timed, per workspace, with the public API and the real CLI:

- ``Memory.recall`` in process, warm, over varied real questions, the query embedding included
  (queries never come from the embedding cache), access and metric recording on, as by default;
- a cold ``memstrata recall QUERY`` subprocess: wall time and its own peak RSS (``wait4``);
- ``Memory.search`` (``memstrata search``: wiki, journal and raw), and, where there are turns,
  ``Memory.search_raw`` (its raw-turn part) and ``Memory.search_sessions``
  (``memstrata search --sessions``);
- the full topic scan (``Memory.sync``) that reads repeat once it is fifty times its own cost
  old (at most every 30 s).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memstrata import Memory
from memstrata.bench.locomo import load_locomo
from memstrata.bench.longmemeval import load_longmemeval
from memstrata.bench.machine import cpu_name, load_average
from memstrata.bench.metrics import latency_summary, percentile
from memstrata.bench.topic_files import write_topic_files
from memstrata.clock import to_iso
from memstrata.config import Config, EmbeddingsConfig
from memstrata.model import Session, TopicMeta, Turn
from memstrata.providers.cache import CachedEmbedder
from memstrata.providers.embedder import DEFAULT_EMBEDDER, Embedder, load_embedder
from memstrata.workspace.layout import Workspace, init_workspace

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
#: bump when the generated text changes, so cached workspaces are rebuilt
RECIPE = 1
SEED = 20251127
NOW = datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)
JOURNAL_DAYS = 365
SPAN_DAYS = 730  # topics were observed over the two years before NOW
NAMESPACES = (
    "people", "projects", "lessons", "opinions", "world", "experiences", "places", "tools",
)  # fmt: skip
FACT_LETTERS = ("W", "B", "S", "O(c=0.8)")


# -- text --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    """Real text to build workspaces from."""

    sessions: tuple[tuple[Session, tuple[Turn, ...]], ...]
    sentences: tuple[str, ...]
    names: tuple[str, ...]
    questions: tuple[str, ...]


def load_source(locomo: Path | None, longmemeval: Path | None) -> Source:
    """Sessions (each once), their sentences, speaker names and questions."""
    corpora = []
    if locomo is not None:
        corpora += load_locomo(locomo)
    if longmemeval is not None:
        corpora += load_longmemeval(longmemeval)
    if not corpora:
        raise SystemExit("no text: give --locomo and/or --longmemeval")
    sessions: dict[str, tuple[Session, tuple[Turn, ...]]] = {}
    questions: list[str] = []
    for corpus in corpora:
        for session, turns in corpus.sessions:
            sessions.setdefault(session.id, (session, tuple(turns)))
        questions += [question.text for question in corpus.questions]
    sentences: dict[str, None] = {}
    names: dict[str, None] = {}
    for _, turns in sessions.values():
        for turn in turns:
            speaker, colon, text = turn.text.partition(": ")
            if colon and re.fullmatch(r"[A-Z][a-z]+", speaker):
                names[speaker] = None
            else:
                text = turn.text
            for piece in re.split(r"(?<=[.!?])\s+", text):
                if 30 <= len(piece) <= 240 and "\n" not in piece:
                    sentences[piece] = None
    return Source(
        tuple(sessions[key] for key in sorted(sessions)),
        tuple(sentences),
        tuple(names) or ("Alex", "Sam"),
        tuple(dict.fromkeys(questions)),
    )


def topic_files(source: Source, number: int) -> tuple[str, str, str, TopicMeta]:
    """(id, summary, detail, meta) of topic ``number``: the same text in every workspace."""
    rng = random.Random(SEED * 1_000_003 + number)
    pick = source.sentences
    words = re.findall(r"[A-Za-z]+", rng.choice(pick))[: rng.randint(2, 5)] or ["note"]
    title = " ".join(words).capitalize()
    slug = "-".join(word.lower() for word in words)[:40]
    namespace = NAMESPACES[number % len(NAMESPACES)]
    name = rng.choice(source.names)
    body = " ".join(rng.choice(pick) for _ in range(rng.randint(1, 3)))
    summary = f"# {title}\n\n@{name}: {body}"[:1000] + "\n"
    detail = "\n\n".join(rng.choice(pick) for _ in range(rng.randint(2, 8))) + "\n"
    when = to_iso(NOW - timedelta(minutes=rng.randint(0, SPAN_DAYS * 24 * 60)))
    meta = TopicMeta(created=when, updated=when, observed=when)
    return f"{namespace}/{slug}-{number:06d}", summary, detail, meta


def write_topics(workspace: Workspace, source: Source, count: int) -> None:
    """``count`` topics as the canonical files the wiki store writes (indexed by rebuild)."""
    for number in range(count):
        topic_id, summary, detail, meta = topic_files(source, number)
        write_topic_files(workspace.root, topic_id, summary, meta, detail=detail)


def write_journal(workspace: Workspace, source: Source, days: int) -> int:
    """Daily logs of real sentences with typed ``## Retain`` facts; returns the fact count."""
    rng = random.Random(SEED)
    facts = 0
    for offset in range(days):
        day = (NOW - timedelta(days=days - offset)).date().isoformat()
        lines = [f"# {day}", ""]
        for _ in range(rng.randint(3, 10)):
            clock = f"{rng.randint(8, 21):02d}:{rng.randint(0, 59):02d}"
            lines.append(f"- {clock} {rng.choice(source.sentences)}")
        lines += ["", "## Retain"]
        for _ in range(rng.randint(1, 5)):
            fact = rng.choice(source.sentences)
            lines.append(f"- {rng.choice(FACT_LETTERS)} @{rng.choice(source.names)}: {fact}")
            facts += 1
        (workspace.memory_dir / f"{day}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return facts


def raw_sessions(source: Source, turns: int) -> list[tuple[Session, list[Turn]]]:
    """The source sessions repeated under new ids (and dates a year apart) up to ``turns``."""
    out: list[tuple[Session, list[Turn]]] = []
    stored = 0
    rounds = 0
    while stored < turns:
        shift = timedelta(days=365 * rounds)
        for session, originals in source.sessions:
            if stored >= turns:
                break
            session_id = f"r{rounds}-{session.id}"
            kept = originals[: turns - stored]
            when = _shifted(session.started, shift)
            out.append(
                (
                    Session(session_id, session.harness, session.agent, when, when, ""),
                    [
                        Turn(session_id, t.index, t.role, _shifted(t.time, shift), t.text)
                        for t in kept
                    ],
                )
            )
            stored += len(kept)
        rounds += 1
    return out


def _shifted(iso: str, shift: timedelta) -> str:
    return to_iso(datetime.fromisoformat(iso.replace("Z", "+00:00")) - shift)


def make_queries(source: Source, count: int) -> list[str]:
    """Real questions of both benchmarks, shuffled (seeded), ``count`` of them."""
    rng = random.Random(SEED)
    questions = list(source.questions)
    rng.shuffle(questions)
    return questions[:count]


# -- building ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Recipe:
    """What a cached workspace holds; a workspace whose recipe differs is built again."""

    topics: int
    turns: int
    embedder: str
    journal_days: int = JOURNAL_DAYS
    recipe: int = RECIPE

    @property
    def name(self) -> str:
        return f"topics-{self.topics}" + (f"-turns-{self.turns}" if self.turns else "")


def ensure_workspace(
    cache: Path, recipe: Recipe, source: Source, embedder: Embedder, note: Callable[[str], None]
) -> tuple[Path, dict[str, Any]]:
    """The workspace of ``recipe`` under ``cache``, built (and embedded) unless already there."""
    root = cache / recipe.name
    marker = root / ".scale-recipe.json"
    if marker.exists():
        recorded = json.loads(marker.read_text())
        if recorded.get("recipe") == asdict(recipe):
            # A newer index schema recreates the index on open: embed again before timing,
            # or raw search would run without turn vectors (from the cache: no model time).
            with Memory(root, clock=lambda: NOW, embedder=embedder) as memory:
                if memory.index.recreated:
                    note(f"{recipe.name}: index schema changed, re-indexing and re-embedding")
                    memory.rebuild()  # embeds every topic, fact and raw turn
                    memory.rank_raw("warm up", 1)
            return root, recorded["build"]
    if root.exists():
        shutil.rmtree(root)
    build: dict[str, Any] = {}
    started = time.perf_counter()
    base = Recipe(recipe.topics, 0, recipe.embedder, recipe.journal_days)
    if recipe.turns:
        base_root, base_build = ensure_workspace(cache, base, source, embedder, note)
        note(f"{recipe.name}: copying {base.name}")
        shutil.copytree(base_root, root)
        (root / ".scale-recipe.json").unlink()
        build.update(base_build)
        workspace = Workspace(root.resolve())
    else:
        config = Config(embeddings=EmbeddingsConfig(model=recipe.embedder))
        workspace = init_workspace(root, config)
        note(f"{recipe.name}: writing {recipe.topics:,} topics and {recipe.journal_days} days")
        write_topics(workspace, source, recipe.topics)
        build["journal_facts"] = write_journal(workspace, source, recipe.journal_days)
    with Memory(root, clock=lambda: NOW, embedder=embedder) as memory:
        if recipe.turns:
            note(f"{recipe.name}: storing {recipe.turns:,} raw turns and embedding them")
            for session, turns in raw_sessions(source, recipe.turns):
                memory.raw.upsert(session, turns)
            build["turns_embedded"] = memory.embed_missing()
            memory.rank_raw("warm up", 1)  # builds the session documents, as the first search does
        else:
            note(f"{recipe.name}: rebuilding the index and embedding every topic and fact")
            report = memory.rebuild()
            build["topics_indexed"] = report.topics_indexed
            build["items_embedded"] = report.embedded
        status = memory.status()
    build[f"{'turns' if recipe.turns else 'topics'}_build_s"] = round(
        time.perf_counter() - started, 1
    )
    build.update(
        topics=sum(status.topics_by_state.values()), facts=status.facts, raw_turns=status.raw_turns
    )
    marker.write_text(json.dumps({"recipe": asdict(recipe), "build": build}, indent=2) + "\n")
    return root, build


def seed_cache(cache_db: Path, seed: Path | None) -> None:
    """Start the shared embedding cache from ``seed`` (a consistent copy, via SQLite backup)."""
    if cache_db.exists() or seed is None or not seed.exists():
        return
    with sqlite3.connect(seed) as source, sqlite3.connect(cache_db) as target:
        source.backup(target)


# -- measuring ---------------------------------------------------------------------------------


def time_recall(root: Path, queries: Sequence[str], embedder: Embedder) -> dict[str, Any]:
    """``Memory.recall`` in one process: the first call (opens the index, loads the vectors),
    then every query warm; and the full topic scan that reads repeat (``Memory.refresh``)."""
    with Memory(root, clock=lambda: NOW, embedder=embedder) as memory:
        started = time.perf_counter()
        memory.recall("what did we decide", k=10)
        first = time.perf_counter() - started
        seconds, cpu, hits, notes = [], [], 0, set()
        for query in queries:
            started, cpu_started = time.perf_counter(), time.process_time()
            result = memory.recall(query)
            seconds.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
            hits += bool(result.items)
            notes.update(result.notes)
        scans = []
        for _ in range(3):
            started = time.perf_counter()
            memory.sync()
            scans.append(time.perf_counter() - started)
    return {
        "first_ms": round(first * 1000, 1),
        "answered": hits,
        "notes": sorted(notes),
        **latency_summary(seconds),
        # CPU time of the process (all threads): what a recall costs, whatever the load
        "cpu_p50_ms": round(percentile([value * 1000 for value in cpu], 0.5), 1),
        "topic_scan_ms": round(min(scans) * 1000, 1),
    }


def time_search(
    root: Path, queries: Sequence[str], embedder: Embedder, what: str = "search"
) -> dict[str, Any]:
    """``Memory.search`` (``memstrata search``), ``search_raw`` (its raw-turn part) or
    ``search_sessions`` (``memstrata search --sessions``), warm, 10 hits."""
    with Memory(root, clock=lambda: NOW, embedder=embedder) as memory:
        search = getattr(memory, what)
        started = time.perf_counter()
        search("what did we decide", 10)
        first = time.perf_counter() - started
        seconds = []
        for query in queries:
            started = time.perf_counter()
            search(query, 10)
            seconds.append(time.perf_counter() - started)
    return {"first_ms": round(first * 1000, 1), **latency_summary(seconds)}


def time_context(root: Path, queries: Sequence[str], embedder: Embedder) -> dict[str, Any]:
    """``Memory.context(query)``, warm: what a prompt hook or the MCP ``context`` tool asks
    each turn (Rules + Index + Recall)."""
    with Memory(root, clock=lambda: NOW, embedder=embedder) as memory:
        memory.context("what did we decide")
        seconds = []
        for query in queries:
            started = time.perf_counter()
            memory.context(query)
            seconds.append(time.perf_counter() - started)
    return latency_summary(seconds)


def time_cold_cli(root: Path, queries: Sequence[str]) -> dict[str, Any]:
    """``memstrata recall QUERY`` as fresh processes: wall time and each one's peak RSS.

    The workspace's own embedding cache is removed first, so every query is embedded by the
    model the process loads (as a new question would be). Peak RSS is the child's ``VmHWM``,
    read while it runs: ``wait4``'s ``ru_maxrss`` would include this process's RSS at fork.
    """
    env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    walls, peaks = [], []
    state = Workspace(root.resolve()).state_dir
    for query in queries:
        for suffix in ("", "-wal", "-shm"):
            (state / f"embeddings.db{suffix}").unlink(missing_ok=True)
        command = [sys.executable, "-m", "memstrata", "--workspace", str(root), "recall", query]
        started = time.perf_counter()
        process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        peak_kib = _watch_peak_kib(process)
        walls.append(time.perf_counter() - started)
        error = process.stderr.read().decode() if process.stderr else ""
        if process.stderr:
            process.stderr.close()
        if process.returncode != 0:
            raise RuntimeError(f"memstrata recall failed ({process.returncode}): {error}")
        peaks.append(peak_kib / 1024)
    return {
        "wall_ms_median": round(percentile([w * 1000 for w in walls], 0.5), 1),
        "wall_ms_max": round(max(walls) * 1000, 1),
        "wall_ms_min": round(min(walls) * 1000, 1),
        "peak_rss_mb": round(max(peaks), 1),
        "runs": len(walls),
    }


def _watch_peak_kib(process: subprocess.Popen[bytes]) -> int:
    """The high-water RSS (KiB) of ``process``, polled every 5 ms until it exits."""
    status = Path(f"/proc/{process.pid}/status")
    peak = 0
    while process.poll() is None:
        try:
            text = status.read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]))
        time.sleep(0.005)
    return peak


def index_mb(root: Path) -> float:
    state = Workspace(root.resolve()).state_dir
    return round(sum(p.stat().st_size for p in state.glob("index.db*")) / 2**20, 1)


def raw_mb(root: Path) -> float:
    raw = Workspace(root.resolve()).raw_dir
    return round(sum(p.stat().st_size for p in raw.glob("sessions.db*")) / 2**20, 1)


def machine() -> dict[str, str]:
    return {
        "nproc": str(os.cpu_count()),
        "cpu": cpu_name(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
    }


def load() -> str:
    return load_average()


# -- the run -----------------------------------------------------------------------------------


def run(args: argparse.Namespace, note: Callable[[str], None]) -> dict[str, Any]:
    result: dict[str, Any] = {"machine": machine(), "load_start": load(), "workspaces": []}
    source = load_source(args.locomo, args.longmemeval)
    queries = make_queries(source, args.queries)
    cache = args.cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    seed_cache(cache / "embeddings.db", args.seed_embeddings)
    choice = load_embedder(args.embedder)
    if choice.fallback_reason:
        note(choice.fallback_reason)
    # Queries always go to the model, so every timing includes embedding the query.
    embedder = CachedEmbedder(choice.embedder, cache / "embeddings.db", cache_queries=False)
    recipes = [Recipe(count, 0, args.embedder, args.journal_days) for count in args.topics]
    if args.turns:
        recipes.append(Recipe(args.turns_topics, args.turns, args.embedder, args.journal_days))
    result.update(
        embedder=embedder.name,
        queries=len(queries),
        sentences=len(source.sentences),
        source_sessions=len(source.sessions),
    )
    for recipe in recipes:
        root, build = ensure_workspace(cache, recipe, source, embedder, note)
        note(f"{recipe.name}: timing recall ({len(queries)} queries), load {load()}")
        row: dict[str, Any] = {
            "name": recipe.name,
            "topics": recipe.topics,
            "turns": recipe.turns,
            "build": build,
            "index_mb": index_mb(root),
            "raw_mb": raw_mb(root),
            # approximate vector index files, when the semantic arm has them (else exact search)
            "ann_files": sorted(path.name for path in (root / ".memstrata" / "ann").glob("*")),
            "load": load(),
        }
        row["recall"] = time_recall(root, queries, embedder)
        row["context"] = time_context(root, queries, embedder)
        note(f"{recipe.name}: timing search")
        row["search"] = time_search(root, queries, embedder)
        if recipe.turns:
            row["raw_search"] = time_search(root, queries, embedder, "search_raw")
            row["session_search"] = time_search(root, queries, embedder, "search_sessions")
        if args.cold_runs:
            note(f"{recipe.name}: {args.cold_runs} cold memstrata recall processes")
            row["cold_cli"] = time_cold_cli(root, queries[: args.cold_runs])
        result["workspaces"].append(row)
    result["load_end"] = load()
    return result


def render(result: dict[str, Any]) -> str:
    info = result["machine"]
    header = (
        "| workspace | index | recall p50 | p95 | max | CPU p50 | first | topic scan "
        "| context p50 | p95 | cold CLI median | max | peak RSS | search p50 | p95 "
        "| raw search p50 | p95 "
        "| session search p50 | p95 |"
    )
    lines = [
        f"machine: {info['nproc']} × {info['cpu']}, Python {info['python']}, "
        f"SQLite {info['sqlite']}; load {result['load_start']} → {result['load_end']}",
        f"embedder {result['embedder']}; {result['queries']} queries (LoCoMo and LongMemEval "
        f"questions); text from {result['sentences']:,} sentences",
        "",
        header,
        "|" + "---|" * (header.count("|") - 1),
    ]
    for row in result["workspaces"]:
        recall = row["recall"]
        cold = row.get("cold_cli", {})
        context = row.get("context", {})
        search = row.get("search", {})
        raw = row.get("raw_search", {})
        by_session = row.get("session_search", {})
        what = f"{row['build']['topics']:,} topics, {row['build']['facts']:,} facts"
        if row["turns"]:
            what += f", {row['build']['raw_turns']:,} turns"
        cells = [
            what,
            f"{row['index_mb']} MB",
            f"{recall['p50_ms']} ms",
            f"{recall['p95_ms']} ms",
            f"{recall['max_ms']} ms",
            f"{recall['cpu_p50_ms']} ms",
            f"{recall['first_ms']} ms",
            f"{recall['topic_scan_ms']} ms",
            f"{context['p50_ms']} ms" if context else "",
            f"{context['p95_ms']} ms" if context else "",
            f"{cold['wall_ms_median']} ms" if cold else "",
            f"{cold['wall_ms_max']} ms" if cold else "",
            f"{cold['peak_rss_mb']} MB" if cold else "",
            f"{search['p50_ms']} ms" if search else "",
            f"{search['p95_ms']} ms" if search else "",
            f"{raw['p50_ms']} ms" if raw else "",
            f"{raw['p95_ms']} ms" if raw else "",
            f"{by_session['p50_ms']} ms" if by_session else "",
            f"{by_session['p95_ms']} ms" if by_session else "",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    plain = [row for row in result["workspaces"] if not row["turns"]]
    if len(plain) > 1:
        first = plain[0]["recall"]["p50_ms"]
        growth = ", ".join(
            f"{row['topics']:,}: {row['recall']['p50_ms'] / first:.2f}×" for row in plain
        )
        lines += ["", f"growth of recall p50 relative to {plain[0]['topics']:,} topics: {growth}"]
    return "\n".join(lines)


def _sizes(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _path_or_none(text: str) -> Path | None:
    return None if text in ("", "none") else Path(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=_sizes, default=[1_000, 10_000, 100_000])
    parser.add_argument("--turns", type=int, default=100_000, help="raw turns; 0: none")
    parser.add_argument("--turns-topics", type=int, default=10_000)
    parser.add_argument("--journal-days", type=int, default=JOURNAL_DAYS)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/memstrata-scale"))
    parser.add_argument("--seed-embeddings", type=_path_or_none, default=Path("/tmp/embcache.db"))
    parser.add_argument("--embedder", default=DEFAULT_EMBEDDER)
    parser.add_argument("--locomo", type=_path_or_none, default=DATA / "locomo" / "locomo_dev.json")
    parser.add_argument(
        "--longmemeval",
        type=_path_or_none,
        default=DATA / "longmemeval" / "longmemeval_s_dev60.json.gz",
    )
    parser.add_argument("--json", action="store_true", help="Print the result as JSON.")
    args = parser.parse_args(argv)

    def note(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    result = run(args, note)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
