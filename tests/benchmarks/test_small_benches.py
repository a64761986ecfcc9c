"""The gate and hook benchmarks run end to end at tiny sizes, as their documented commands do.

Both broke unseen when a helper's signature changed: a benchmark nobody runs is no measurement.
"""

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(script: str, *args: str) -> dict | list:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_gate_benchmark_admits_each_write_and_reports_its_latency():
    rows = _run("gate.py", "--sizes", "20", "--writes", "4")
    assert [(row["topics"], row["embeddings"]) for row in rows] == [(20, "off"), (20, "default")]
    for row in rows:
        assert row["admitted"] == 4
        assert 0 < row["p50_ms"] <= row["p95_ms"]


def test_the_hook_benchmark_times_every_hook_command(tmp_path: Path):
    result = _run("hook_latency.py", "--topics", "10", "--runs", "1", "--workdir", str(tmp_path))
    assert {"hook session-start", "hook user-prompt"} <= set(result["rows"])
    for row in result["rows"].values():
        assert row["runs"] == 1 and row["p50_ms"] > 0
