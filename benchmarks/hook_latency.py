"""Hook latency: each installed Claude Code hook command as a real process, as Claude Code runs it.

    .venv/bin/python benchmarks/hook_latency.py [--topics 1000] [--runs 50] [--json]
                                                [--workdir DIR] [--write-doc]

A workspace of ``--topics`` topics and two weeks of journal (the canonical files, written
directly, then ``Memory.rebuild``) and a Claude Code transcript of ~200 turns. The hooks are
installed with ``memstrata hooks install claude-code --project`` into a scratch project, and
each command from its ``settings.json`` is run through ``/bin/sh`` with Claude Code's JSON
payload on stdin, ``--runs`` times after 3 warm-up runs; the time is the whole process, start
to exit. ``stop`` is measured twice: after the transcript grew by one exchange (the hook after
each answer) and unchanged (``SessionEnd`` right after a ``Stop``).

For scale it also times ``python -c pass`` and importing what a per-prompt hook imports (the
console script's module and the hook runner), and lists the heaviest imports (``python -X
importtime``, median of 5). ``--write-doc`` writes all of it to docs/benchmarks-hooks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import foundation  # the sibling benchmark: its deterministic data generators
from memstrata import Memory
from memstrata.hooks.claude_code import install
from memstrata.hooks.settings import our_hooks
from memstrata.model import TopicMeta

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "benchmarks-hooks.md"
TARGET_P50_MS = 150.0


#: what a per-prompt hook imports: the console script's module, then the hook runner (the
#: command line ``hooks install`` writes is answered without click, see memstrata.cli)
HOOK_IMPORTS = "import memstrata.cli, memstrata.hooks.run"
IMPORT_ROW = f"python -I -c '{HOOK_IMPORTS}'"


def build_workspace(root: Path, topics: int) -> None:
    rng = random.Random(foundation.SEED)
    Memory.init(root).close()
    when = foundation.NOW.isoformat().replace("+00:00", "Z")
    meta = TopicMeta(created=when, updated=when)
    for number in range(topics):
        topic_id, summary, detail = foundation.topic_text(rng, number)
        foundation.write_topic_files(root, topic_id, summary, meta, detail=detail)
    foundation.write_journal_days(root, 14, rng)
    with Memory(root) as memory:
        memory.rebuild()


def live_transcript(folder: Path) -> foundation.Transcript:
    rng = random.Random(foundation.SEED + 1)
    transcript = foundation.Transcript(
        folder / "session.jsonl", "claude-code", rng, foundation.NOW, "5c0ffee0-0000-4000-8000-1"
    )
    lines = transcript.exchanges(70)
    transcript.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return transcript


def children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def run_once(
    command: str, payload: dict[str, Any], env: dict[str, str]
) -> tuple[float, float, str]:
    """(wall ms, CPU ms of the process and its shell, stdout) of one hook run."""
    cpu = children_cpu_ms()
    start = time.perf_counter()
    done = subprocess.run(
        command,
        shell=True,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0 or done.stderr:
        raise SystemExit(f"{command} failed: {done.returncode} {done.stderr}")
    return elapsed, children_cpu_ms() - cpu, done.stdout


def measure(
    runs: int,
    once: Callable[[int], tuple[float, float, str]],
    before: Callable[[], object] | None = None,
) -> dict[str, float]:
    walls, cpus = [], []
    for number in range(runs + 3):
        if before is not None:
            before()
        wall, cpu, _ = once(number)
        if number >= 3:
            walls.append(wall)
            cpus.append(cpu)
    return summarise(walls, cpus)


def summarise(walls: list[float], cpus: list[float]) -> dict[str, float]:
    ordered = sorted(walls)
    return {
        "p50_ms": statistics.median(ordered),
        "p95_ms": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "min_ms": ordered[0],
        "cpu_p50_ms": statistics.median(cpus),
        "runs": float(len(ordered)),
    }


def python_baseline(code: str, runs: int, env: dict[str, str]) -> dict[str, float]:
    argv = [sys.executable, "-I", "-c", code]

    def once(_: int) -> tuple[float, float, str]:
        cpu = children_cpu_ms()
        start = time.perf_counter()
        subprocess.run(argv, env=env, check=True, capture_output=True)
        return (time.perf_counter() - start) * 1000, children_cpu_ms() - cpu, ""

    return measure(runs, once)


def heaviest_imports(env: dict[str, str], count: int = 12) -> list[tuple[str, float, float]]:
    """(module, self ms, cumulative ms) of a prompt hook's imports, median of 5 runs."""
    samples: dict[str, list[tuple[int, int]]] = {}
    for _ in range(5):
        done = subprocess.run(
            [sys.executable, "-I", "-X", "importtime", "-c", HOOK_IMPORTS],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        for line in done.stderr.splitlines():
            found = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s+)(\S+)", line)
            if found:
                own, total, _, name = found.groups()
                samples.setdefault(name, []).append((int(own), int(total)))
    rows = [
        (
            name,
            statistics.median(own for own, _ in values) / 1000,
            statistics.median(total for _, total in values) / 1000,
        )
        for name, values in samples.items()
    ]
    return sorted(rows, key=lambda row: row[2], reverse=True)[:count]


def run(topics: int, runs: int, workdir: Path) -> dict[str, Any]:
    root = workdir / "agent-memory"
    build_workspace(root, topics)
    project = workdir / "project"
    project.mkdir()
    install(root, "project", project_dir=project)
    commands = dict(our_hooks(json.loads((project / ".claude" / "settings.json").read_text())))
    transcript = live_transcript(workdir)
    # As a user's machine runs them: with bytecode caching on (the warm-up runs write the caches).
    unset = ("MEMSTRATA_WORKSPACE", "PYTHONDONTWRITEBYTECODE")
    env = {key: value for key, value in os.environ.items() if key not in unset}
    prompts = foundation.make_queries(max(runs + 3, 10), random.Random(foundation.SEED + 2))
    common = {
        "session_id": transcript.session_id,
        "transcript_path": str(transcript.path),
        "cwd": str(project),
        "permission_mode": "default",
    }

    def hook(
        event: str, prompt: bool = False, **fields: Any
    ) -> Callable[[int], tuple[float, float, str]]:
        payload = {**common, "hook_event_name": event, **fields}

        def once(number: int) -> tuple[float, float, str]:
            body = {**payload, "prompt": prompts[number]} if prompt else payload
            return run_once(commands[event], body, env)

        return once

    rows: dict[str, dict[str, float]] = {}
    rows["python -I -c pass"] = python_baseline("pass", runs, env)
    rows[IMPORT_ROW] = python_baseline(HOOK_IMPORTS, runs, env)
    rows["hook session-start"] = measure(runs, hook("SessionStart", source="startup"))
    asking = hook("UserPromptSubmit", prompt=True)
    hits = sum(bool(asking(number)[2]) for number in range(10))
    rows["hook user-prompt"] = measure(runs, asking)
    rows["hook stop (transcript grew by one exchange)"] = measure(
        runs,
        hook("Stop", stop_hook_active=False),
        before=lambda: foundation.append_exchanges([transcript], 1),
    )
    rows["hook stop (transcript unchanged)"] = measure(runs, hook("SessionEnd", reason="other"))
    with Memory(root) as memory:
        context = memory.context(None)
        status = memory.status()
    return {
        "command": "python benchmarks/hook_latency.py "
        + shlex.join(["--topics", str(topics), "--runs", str(runs)]),
        "machine": foundation.machine(),
        "workspace": {
            "topics": sum(status.topics_by_state.values()),
            "journal_days": status.journal_days,
            "transcript_turns_at_end": transcript.turns,
            "session_start_context_bytes": context.bytes,
            "prompts_with_recall_out_of_10": hits,
        },
        "rows": rows,
        "imports": heaviest_imports(env),
        "runs": runs,
        "hook_command": commands["UserPromptSubmit"],
    }


def render(result: dict[str, Any]) -> str:
    lines = [
        "| command | wall p50 ms | wall p95 ms | wall min ms | CPU p50 ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, row in result["rows"].items():
        lines.append(
            f"| {name} | {row['p50_ms']:.0f} | {row['p95_ms']:.0f} | {row['min_ms']:.0f} "
            f"| {row['cpu_p50_ms']:.0f} |"
        )
    return "\n".join(lines)


def render_imports(result: dict[str, Any]) -> str:
    lines = ["| module | self ms | cumulative ms |", "|---|---:|---:|"]
    lines += [f"| `{name}` | {own:.1f} | {total:.1f} |" for name, own, total in result["imports"]]
    return "\n".join(lines)


def write_doc(result: dict[str, Any]) -> None:
    machine = ", ".join(f"{key} {value}" for key, value in result["machine"].items())
    workspace = result["workspace"]
    hits = workspace["prompts_with_recall_out_of_10"]
    rows = result["rows"]
    wall, cpu = rows["hook user-prompt"]["p50_ms"], rows["hook user-prompt"]["cpu_p50_ms"]
    python = rows["python -I -c pass"]["cpu_p50_ms"]
    imports = rows[IMPORT_ROW]["cpu_p50_ms"]
    DOC.write_text(
        f"""# Hook latency

Each hook command as Claude Code runs it: the command from `.claude/settings.json` (installed by
`memstrata hooks install claude-code`), started through `/bin/sh` with the documented JSON payload
on stdin and timed from process start to exit, {result["runs"]} runs per command after 3 warm-up
runs. "CPU" is the processor time of the hook's processes (user + system): what the run costs
when it does not have to wait for a core, so close to the wall time on an idle machine.

    {result["command"]}

Workspace and inputs:

- {workspace["topics"]} topics and {workspace["journal_days"]} journal days;
- the session-start context (Rules + Index): {workspace["session_start_context_bytes"]} bytes;
- sample prompts that recalled something: {hits} of 10;
- the transcript grows by one exchange before each timed `stop` run
  ({workspace["transcript_turns_at_end"]} turns at the end).

Machine: {machine}.

{render(result)}

- Target: the user-prompt hook at p50 ≤ {TARGET_P50_MS:.0f} ms.
- Measured: {wall:.0f} ms wall p50, {cpu:.0f} ms of CPU per run. A load average above the
  core count (see Machine) stretches the wall times; the CPU time is what a run costs.

## Where the time goes

- the interpreter: about {python:.0f} ms of CPU;
- importing what a prompt hook imports before it works (`{HOOK_IMPORTS}`): about
  {imports - python:.0f} ms;
- the hook's own work (open the workspace, recall or import, print): the rest.

The heaviest of those imports (`python -X importtime`, median of 5 runs; cumulative
includes what a module imports):

{render_imports(result)}
""",
        encoding="utf-8",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="memstrata hook latency")
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--workdir", type=Path, help="where the temporary workspace goes")
    parser.add_argument("--write-doc", action="store_true", help="write docs/benchmarks-hooks.md")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.workdir) as scratch:
        result = run(args.topics, args.runs, Path(scratch))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print("\n".join(f"{key}: {value}" for key, value in result["machine"].items()))
        print(render(result))
        print()
        print(render_imports(result))
    if args.write_doc:
        write_doc(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
