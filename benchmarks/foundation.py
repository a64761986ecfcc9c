"""Foundation benchmark: transcript ingest and index rebuild, through the public ``Memory`` API.

    .venv/bin/python benchmarks/foundation.py [--quick] [--json] [--workdir DIR]

Ingest: synthetic transcripts in two real formats (Claude Code session JSONL and generic
``{role, content, timestamp}`` JSONL), bilingual English/Chinese text from a seeded generator, are
imported three times: fresh, unchanged (every file skipped by its size/mtime mark), and after
appending turns to some files (sessions still being written). Then a raw search.

Rebuild: a workspace of N topics and some journal days. The smaller one is written through
``Memory.write_topic`` (timed too), the larger one by writing the canonical files directly
(``summary.md``, ``detail.md``, ``meta.json``, one ``history.jsonl`` line each). Then
``Memory.rebuild()``, a no-op ``Memory.sync()`` (the stat scan every read pays), and
``Memory.search()`` p50/p95 over 100 queries. Last, a rebuild over topics that have no history
yet (Markdown written by hand), which records each one's first history line.

Inputs are deterministic (seeded); timings are wall clock on a warm page cache.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memstrata import Memory
from memstrata.bench.machine import cpu_name, load_average
from memstrata.bench.metrics import percentile
from memstrata.bench.topic_files import write_topic_files
from memstrata.model import TopicMeta

#: meta.json of topics written straight to files
SEEDED_META = TopicMeta(created="2025-11-01T09:00:00Z", updated="2025-11-01T09:00:00Z")

SEED = 20251127
NOW = datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)
#: The storage layers are measured without the embedding model (its cost is in
#: docs/benchmarks-retrieval.md): search here is the lexical arms only.
EMBEDDINGS = False
CHINESE_SHARE = 0.3  # share of sentences written in Chinese


@dataclass(frozen=True, slots=True)
class Sizes:
    """How much work one mode does."""

    turns: int  # generated transcript turns, about
    append_files: int  # files that grow between the second and the third ingest
    append_exchanges: int  # exchanges appended to each of them
    topic_counts: tuple[int, ...]  # one workspace per count
    write_topic_max: int  # workspaces up to this size are filled through Memory.write_topic
    journal_days: int
    queries: int
    sync_repeats: int


MODES: dict[str, Sizes] = {
    "full": Sizes(50_000, 50, 10, (1_000, 10_000), 1_000, 60, 100, 5),
    "quick": Sizes(5_000, 10, 10, (200, 2_000), 200, 14, 100, 3),
    "tiny": Sizes(200, 2, 2, (5, 20), 5, 2, 5, 2),  # for the test: behaviour, not timing
}


@dataclass(frozen=True, slots=True)
class Row:
    """One measurement: a stable key, what was measured, on how much, and the result."""

    key: str
    measurement: str
    size: str
    result: str
    numbers: dict[str, float] = field(default_factory=dict)


# -- bilingual text ----------------------------------------------------------------------------

NAMES = ("Ann", "Peter", "Maria", "Tom", "Priya", "Kenji", "Sofia", "Omar")
SERVICES = (
    "billing service",
    "login page",
    "search index",
    "payment gateway",
    "nightly build",
    "staging cluster",
    "data pipeline",
    "export job",
)
PLACES = ("Lisbon", "Berlin", "Shanghai", "Singapore", "the Frankfurt region")
CAUSES = (
    "a missing environment variable",
    "a timezone bug",
    "an expired certificate",
    "a race in the cache",
    "a flaky network test",
    "a migration that ran twice",
)
DAYS = ("Monday", "Tuesday", "Friday", "next week", "the end of the sprint")
ENGLISH = (
    "The {service} failed again on {day} because of {cause}.",
    "Can you check why the {service} is slow in {place}?",
    "{name} asked us to move the {service} to {place} before {day}.",
    "I fixed {cause} in the {service}; the tests pass now.",
    "Let's write a short note about {cause} so we don't repeat it.",
    "We agreed that {name} owns the {service} from {day} on.",
    "The logs show {cause} right after the deploy.",
    "Please keep timestamps in UTC; {cause} came from local time.",
    "I'll add a regression test for the {service} and rerun the suite.",
    "{name} prefers a cortado and meetings after ten.",
    "The dashboard shows p95 latency of the {service} doubling since {day}.",
    "Rolling back the {service} fixed it, but we still need to understand {cause}.",
    "Here is the plan: reproduce it, write a failing test, fix it, and document it.",
    "The retry limit of the {service} is three, and the timeout is thirty seconds.",
)
CN_NAMES = ("李娜", "王伟", "张敏", "陈杰", "刘洋")
CN_SERVICES = ("账单服务", "登录页面", "搜索索引", "支付网关", "夜间构建", "测试集群", "数据管道")
CN_PLACES = ("上海", "北京", "深圳", "里斯本", "柏林")
CN_CAUSES = ("缺少环境变量", "时区错误", "证书过期", "缓存竞争", "数据库迁移执行了两次")
CN_DAYS = ("周一", "周五", "下周", "月底")
CHINESE = (
    "{cn_name}说{cn_service}在{cn_day}又出问题了。",
    "我们需要在{cn_day}之前把{cn_service}迁移到{cn_place}。",
    "问题的原因是{cn_cause}，已经修好了。",
    "请帮我看一下{cn_service}为什么这么慢。",
    "{cn_name}负责{cn_service}，有问题直接找他。",
    "日志显示部署之后马上出现了{cn_cause}。",
    "我已经加了回归测试，所有测试都通过了。",
    "会议改到{cn_day}下午三点，地点在{cn_place}。",
    "记得所有时间都用UTC，{cn_cause}就是本地时间造成的。",
    "{cn_name}喜欢喝咖啡，不喜欢早上开会。",
)
QUERY_TERMS = (
    "billing",
    "certificate",
    "timezone",
    "latency",
    "Lisbon",
    "regression test",
    "cortado",
    "rollback",
    "migration",
    "cache race",
    "staging",
    "Peter",
    "Priya",
    "deploy",
    "retry limit",
    "迁移",
    "证书过期",
    "时区错误",
    "支付网关",
    "上海",
    "回归测试",
    "咖啡",
    "账单服务",
)


def sentence(rng: random.Random) -> str:
    if rng.random() < CHINESE_SHARE:
        return rng.choice(CHINESE).format(
            cn_name=rng.choice(CN_NAMES),
            cn_service=rng.choice(CN_SERVICES),
            cn_place=rng.choice(CN_PLACES),
            cn_cause=rng.choice(CN_CAUSES),
            cn_day=rng.choice(CN_DAYS),
        )
    return rng.choice(ENGLISH).format(
        name=rng.choice(NAMES),
        service=rng.choice(SERVICES),
        place=rng.choice(PLACES),
        cause=rng.choice(CAUSES),
        day=rng.choice(DAYS),
    )


def paragraph(rng: random.Random, low: int, high: int) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(low, high)))


def assistant_text(rng: random.Random) -> str:
    text = paragraph(rng, 2, 6)
    if rng.random() < 0.2:
        passed = rng.randint(20, 400)
        text += f"\n\n```\n$ pytest -q\n{passed} passed in {rng.uniform(0.5, 30):.1f}s\n```"
    return text


# -- transcripts -------------------------------------------------------------------------------


@dataclass(slots=True)
class Transcript:
    """One generated transcript file and what is needed to keep writing it."""

    path: Path
    kind: str  # "claude-code" or "jsonl"
    rng: random.Random
    clock: datetime
    session_id: str = ""
    parent: str | None = None
    turns: int = 0

    def tick(self) -> str:
        self.clock += timedelta(seconds=self.rng.randint(5, 300))
        return self.clock.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def new_id(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def exchanges(self, count: int) -> list[str]:
        """JSON lines of ``count`` more exchanges; counts the turns the importer will find."""
        write = self._claude_exchange if self.kind == "claude-code" else self._jsonl_exchange
        lines: list[str] = []
        for _ in range(count):
            lines.extend(write())
        return lines

    def _jsonl_exchange(self) -> list[str]:
        self.turns += 2
        user = {"role": "user", "content": paragraph(self.rng, 1, 3), "timestamp": self.tick()}
        reply = {"role": "assistant", "content": assistant_text(self.rng), "timestamp": self.tick()}
        return [json.dumps(line, ensure_ascii=False) for line in (user, reply)]

    def _claude_exchange(self) -> list[str]:
        lines: list[dict[str, Any]] = []
        prompt = self._claude_line("user", {"role": "user", "content": paragraph(self.rng, 1, 3)})
        snapshot = {
            "type": "file-history-snapshot",
            "messageId": prompt["uuid"],
            "snapshot": {"messageId": prompt["uuid"], "trackedFileBackups": {}},
            "isSnapshotUpdate": False,
        }
        lines += [snapshot, prompt]
        message_id = f"msg_{self.rng.getrandbits(64):016x}"
        lines.append(
            self._assistant(message_id, [{"type": "text", "text": assistant_text(self.rng)}])
        )
        self.turns += 2
        if self.rng.random() < 0.5:
            # A tool call in the same API response (merged into the turn above), its result (a
            # tool turn), and a closing answer (another assistant turn).
            call_id = f"toolu_{self.rng.getrandbits(64):016x}"
            command = self.rng.choice(("pytest -q", "git status", "make lint", "ls src"))
            call = {
                "type": "tool_use",
                "id": call_id,
                "name": "Bash",
                "input": {"command": command},
            }
            lines.append(self._assistant(message_id, [call]))
            output = f"{self.rng.randint(1, 300)} passed in {self.rng.uniform(0.1, 9):.2f}s"
            result = {"type": "tool_result", "tool_use_id": call_id, "content": output}
            lines.append(self._claude_line("user", {"role": "user", "content": [result]}))
            closing = [{"type": "text", "text": paragraph(self.rng, 1, 3)}]
            lines.append(self._assistant(f"msg_{self.rng.getrandbits(64):016x}", closing))
            self.turns += 2
        return [json.dumps(line, ensure_ascii=False, separators=(",", ":")) for line in lines]

    def _assistant(self, message_id: str, content: list[dict[str, Any]]) -> dict[str, Any]:
        message = {
            "model": "claude-sonnet-4-5-20250929",
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "content": content,
            "stop_reason": None,
            "usage": {"input_tokens": 3, "output_tokens": self.rng.randint(4, 900)},
        }
        return self._claude_line("assistant", message)

    def _claude_line(self, kind: str, message: dict[str, Any]) -> dict[str, Any]:
        line_id = self.new_id()
        line = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/user/project",
            "sessionId": self.session_id,
            "version": "2.0.64",
            "gitBranch": "main",
            "type": kind,
            "message": message,
            "uuid": line_id,
            "timestamp": self.tick(),
        }
        self.parent = line_id
        return line


def write_transcripts(folder: Path, target_turns: int, rng: random.Random) -> list[Transcript]:
    """Write about ``target_turns`` turns: 60% Claude Code sessions, 40% generic JSONL chats."""
    transcripts: list[Transcript] = []
    total = 0
    number = 0
    while total < target_turns:
        kind = "claude-code" if rng.random() < 0.6 else "jsonl"
        file_rng = random.Random(rng.getrandbits(64))
        start = NOW - timedelta(days=90) + timedelta(minutes=rng.randint(0, 90 * 24 * 60))
        if kind == "claude-code":
            session_id = str(uuid.UUID(int=file_rng.getrandbits(128), version=4))
            path = (
                folder
                / "claude"
                / "projects"
                / f"-home-user-proj{number % 7}"
                / f"{session_id}.jsonl"
            )
        else:
            session_id = ""
            path = folder / "chats" / f"chat-{number:04d}.jsonl"
        transcript = Transcript(path, kind, file_rng, start, session_id)
        lines = transcript.exchanges(rng.randint(15, 60))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        transcripts.append(transcript)
        total += transcript.turns
        number += 1
    return transcripts


def append_exchanges(transcripts: list[Transcript], exchanges: int) -> int:
    """Grow each transcript by ``exchanges``; return the number of turns added."""
    added = 0
    for transcript in transcripts:
        before = transcript.turns
        lines = transcript.exchanges(exchanges)
        with transcript.path.open("a", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        added += transcript.turns - before
    return added


# -- workspaces --------------------------------------------------------------------------------

NAMESPACES = ("people", "projects", "lessons", "decisions", "places", "tools")


def topic_text(rng: random.Random, number: int) -> tuple[str, str, str]:
    """(id, summary, detail) of topic ``number``; summary ≤ 1000 and detail ≤ 8000 chars."""
    namespace = NAMESPACES[number % len(NAMESPACES)]
    subject = rng.choice(SERVICES + NAMES + PLACES)
    slug = f"{subject.lower().replace(' ', '-')}-{number:05d}"
    mention = f"@{rng.choice(NAMES)}"
    summary = f"# {subject.title()} {number}\n\n{mention}: {paragraph(rng, 1, 3)}\n"
    detail = "\n\n".join(paragraph(rng, 2, 5) for _ in range(rng.randint(1, 4)))
    return f"{namespace}/{slug}", summary[:1000], detail[:8000]


def write_journal_days(root: Path, days: int, rng: random.Random) -> None:
    """``memory/YYYY-MM-DD.md`` logs: timestamped bullets, then a typed ``## Retain`` section."""
    for offset in range(days):
        day = (NOW - timedelta(days=days - offset)).date().isoformat()
        lines = [f"# {day}", ""]
        for _ in range(rng.randint(10, 25)):
            lines.append(f"- {rng.randint(8, 19):02d}:{rng.randint(0, 59):02d} {sentence(rng)}")
        lines += ["", "## Retain"]
        for _ in range(rng.randint(3, 8)):
            marker = rng.choice(("W", "B", "S", f"O(c={rng.randint(5, 95) / 100:g})"))
            lines.append(f"- {marker} @{rng.choice(NAMES)}: {sentence(rng)}")
        (root / "memory" / f"{day}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def make_queries(count: int, rng: random.Random) -> list[str]:
    return [" ".join(rng.sample(QUERY_TERMS, rng.randint(1, 3))) for _ in range(count)]


# -- measuring ---------------------------------------------------------------------------------


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = action()
    return time.perf_counter() - start, value


def check(condition: bool, message: str) -> None:
    """Stop the benchmark when the library did not do what was timed (a number would mislead)."""
    if not condition:
        raise RuntimeError(message)


def duration(seconds: float) -> str:
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def search_row(key: str, measurement: str, memory: Memory, queries: list[str], size: str) -> Row:
    """Time each query through ``Memory.search``, which syncs the index first as every read does."""
    seconds: list[float] = []
    answered = 0
    for query in queries:
        elapsed, hits = timed(lambda query=query: memory.search(query))
        seconds.append(elapsed)
        answered += bool(hits)
    p50, p95 = percentile(seconds, 0.50) * 1000, percentile(seconds, 0.95) * 1000
    return Row(
        key,
        measurement,
        f"{size}, {len(queries)} queries ({answered} with hits)",
        f"{p50:.1f} / {p95:.1f} ms",
        {"p50_ms": p50, "p95_ms": p95, "queries": len(queries), "answered": answered},
    )


def bench_ingest(
    work: Path, sizes: Sizes, rng: random.Random, note: Callable[[str], None]
) -> list[Row]:
    folder = work / "transcripts"
    note(f"writing ~{sizes.turns:,} transcript turns")
    transcripts = write_transcripts(folder, sizes.turns, rng)
    generated = sum(t.turns for t in transcripts)
    files = len(transcripts)
    mib = sum(t.path.stat().st_size for t in transcripts) / 2**20
    rows: list[Row] = []
    with Memory.init(work / "ingest-ws", clock=lambda: NOW, embeddings=EMBEDDINGS) as memory:
        note("ingest: first import")
        seconds, report = timed(lambda: memory.ingest([folder]))
        check(
            report.turns_added == generated and not report.problems,
            f"ingest stored {report.turns_added} of {generated} turns, "
            f"{len(report.problems)} problems: {report.problems[:3]}",
        )
        rows.append(
            Row(
                "ingest",
                "ingest, first import",
                f"{generated:,} turns, {files} files, {mib:.1f} MiB",
                f"{duration(seconds)} = {generated / seconds:,.0f} turns/s",
                {
                    "seconds": seconds,
                    "turns": generated,
                    "files": files,
                    "turns_per_s": generated / seconds,
                },
            )
        )
        note("ingest: unchanged")
        seconds, report = timed(lambda: memory.ingest([folder]))
        check(
            report.skipped_unchanged == files and not report.turns_added,
            f"unchanged re-ingest was not skipped: {report}",
        )
        rows.append(
            Row(
                "reingest_unchanged",
                "re-ingest, nothing changed",
                f"{files} files skipped",
                duration(seconds),
                {"seconds": seconds, "files": files},
            )
        )
        note("ingest: after appends")
        growing = transcripts[:: max(1, files // sizes.append_files)][: sizes.append_files]
        appended = append_exchanges(growing, sizes.append_exchanges)
        seconds, report = timed(lambda: memory.ingest([folder]))
        check(
            report.turns_added == appended and report.files == len(growing),
            f"appended {appended} turns to {len(growing)} files, got {report}",
        )
        grown_turns = sum(t.turns for t in growing)
        rows.append(
            Row(
                "reingest_appended",
                "re-ingest after appends",
                f"+{appended:,} turns in {len(growing)} files ({grown_turns:,} turns re-read)",
                f"{duration(seconds)} = {appended / seconds:,.0f} new turns/s",
                {"seconds": seconds, "turns_added": appended, "files": len(growing)},
            )
        )
        note("search over raw turns")
        queries = make_queries(sizes.queries, rng)
        rows.append(
            search_row(
                "search_raw",
                "Memory.search p50 / p95, raw turns",
                memory,
                queries,
                f"{generated + appended:,} raw turns",
            )
        )
    return rows


def bench_rebuild(
    work: Path, count: int, sizes: Sizes, rng: random.Random, note: Callable[[str], None]
) -> list[Row]:
    root = work / f"wiki-{count}"
    rows: list[Row] = []
    size = f"{count:,} topics + {sizes.journal_days} journal days"
    topics = [topic_text(rng, number) for number in range(count)]
    with Memory.init(root, clock=lambda: NOW, embeddings=EMBEDDINGS) as memory:
        if count <= sizes.write_topic_max:
            note(f"{count:,} topics through Memory.write_topic")

            def write_all() -> None:
                for topic_id, summary, detail in topics:
                    memory.write_topic(topic_id, summary, detail)

            seconds, _ = timed(write_all)
            how = "via Memory.write_topic"
            rows.append(
                Row(
                    "write_topic",
                    "Memory.write_topic, one by one",
                    f"{count:,} new topics",
                    f"{duration(seconds)} = {count / seconds:,.0f} topics/s",
                    {"seconds": seconds, "topics": count, "topics_per_s": count / seconds},
                )
            )
        else:
            note(f"{count:,} topics as files")
            for topic_id, summary, detail in topics:
                write_topic_files(root, topic_id, summary, SEEDED_META, detail=detail)
            how = "files written directly"
        write_journal_days(root, sizes.journal_days, rng)
    with Memory(root, clock=lambda: NOW, embeddings=EMBEDDINGS) as memory:
        note(f"rebuild {count:,} topics")
        seconds, report = timed(memory.rebuild)
        check(
            report.topics_indexed == count and not report.problems and not report.edits_recorded,
            f"rebuild of {count} topics reported {report}",
        )
        rows.append(
            Row(
                "rebuild",
                "Memory.rebuild",
                f"{size} ({how})",
                f"{duration(seconds)} = {count / seconds:,.0f} topics/s",
                {"seconds": seconds, "topics": count, "journal_days": sizes.journal_days},
            )
        )
        note("no-op sync")
        runs = [timed(memory.sync) for _ in range(sizes.sync_repeats)]
        check(
            not any(r.topics_indexed or r.journals_indexed or r.edits_recorded for _, r in runs),
            f"a sync after rebuild was not a no-op: {runs}",
        )
        seconds = statistics.median(elapsed for elapsed, _ in runs)
        rows.append(
            Row(
                "sync_noop",
                "Memory.sync, nothing changed",
                f"{size}, median of {len(runs)}",
                duration(seconds),
                {"seconds": seconds, "topics": count},
            )
        )
        note("search")
        rows.append(
            search_row(
                "search", "Memory.search p50 / p95", memory, make_queries(sizes.queries, rng), size
            )
        )
    return rows


def bench_hand_written(
    work: Path, count: int, rng: random.Random, note: Callable[[str], None]
) -> Row:
    """Rebuild over topics that have no history yet (Markdown written by hand, or copied in)."""
    root = work / f"hand-{count}"
    Memory.init(root, clock=lambda: NOW, embeddings=EMBEDDINGS).close()
    for number in range(count):
        topic_id, summary, detail = topic_text(rng, number)
        write_topic_files(root, topic_id, summary, SEEDED_META, detail=detail, history=False)
    with Memory(root, clock=lambda: NOW, embeddings=EMBEDDINGS) as memory:
        note(f"rebuild {count:,} hand-written topics")
        seconds, report = timed(memory.rebuild)
    check(
        report.topics_indexed == count == report.edits_recorded and not report.problems,
        f"rebuild of {count} hand-written topics reported {report}",
    )
    return Row(
        "rebuild_hand_written",
        "Memory.rebuild, topics without history",
        f"{count:,} hand-written topics (each gets its first history line)",
        f"{duration(seconds)} = {count / seconds:,.0f} topics/s",
        {"seconds": seconds, "topics": count},
    )


def run(
    sizes: Sizes, workdir: Path | None = None, note: Callable[[str], None] = print
) -> list[Row]:
    """Run every measurement in a temporary folder under ``workdir``; return the rows."""
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory(prefix="memstrata-bench-", dir=workdir) as folder:
        work = Path(folder)
        rows = bench_ingest(work, sizes, rng, note)
        for count in sizes.topic_counts:
            rows += bench_rebuild(work, count, sizes, rng, note)
        rows.append(bench_hand_written(work, sizes.topic_counts[0], rng, note))
    return rows


# -- reporting ---------------------------------------------------------------------------------


def machine() -> dict[str, str]:
    """nproc, CPU model, memory, Python and SQLite versions."""
    info = {
        "nproc": str(
            len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        )
    }
    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 2**20:.1f} GiB"
                break
    except OSError:
        pass
    info["cpu"] = cpu_name()
    if memory:
        info["memory"] = memory
    info["os"] = f"{platform.system()} {platform.release()}"
    info["python"] = platform.python_version()
    info["sqlite"] = sqlite3.sqlite_version
    info["load 1/5/15 min"] = load_average("/", 1)
    return info


def render_table(rows: list[Row]) -> str:
    header = ("measurement", "size", "result")
    cells = [header, *((row.measurement, row.size, row.result) for row in rows)]
    widths = [max(len(cell[i]) for cell in cells) for i in range(3)]
    lines = [" | ".join(cell[i].ljust(widths[i]) for i in range(3)).rstrip() for cell in cells]
    lines.insert(1, "-+-".join("-" * width for width in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="memstrata foundation benchmark: ingest, rebuild")
    parser.add_argument("--quick", action="store_true", help="about 5k turns and 2k topics")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--workdir", type=Path, help="where the temporary workspaces go")
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    mode = "tiny" if args.tiny else "quick" if args.quick else "full"

    def note(message: str) -> None:
        print(f"… {message}", file=sys.stderr, flush=True)

    info = machine()  # before the run: the load average says how busy the machine already was
    started, cpu_started = time.perf_counter(), time.process_time()
    rows = run(MODES[mode], args.workdir, note)
    total, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    info["load 1/5/15 min"] += f" at start, {load_average('/', 1)} at end"
    if args.json:
        result = {
            "mode": mode,
            "machine": info,
            "total_s": total,
            "cpu_s": cpu,
            "rows": [asdict(r) for r in rows],
        }
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(
        f"memstrata foundation benchmark ({mode}): {total:.0f} s in all, {cpu:.0f} s of it on CPU"
    )
    print(", ".join(f"{key} {value}" for key, value in info.items()))
    print()
    print(render_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
