"""The foundation benchmark runs end to end and reports every measurement (timings not checked)."""

import importlib.util
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _load_benchmark():
    spec = importlib.util.spec_from_file_location(
        "foundation_bench", REPO / "benchmarks" / "foundation.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_foundation_benchmark_reports_a_row_for_each_measurement(tmp_path, capsys):
    bench = _load_benchmark()

    exit_code = bench.main(["--tiny", "--json", "--workdir", str(tmp_path)])

    assert exit_code == 0
    result = json.loads(capsys.readouterr().out)
    keys = [row["key"] for row in result["rows"]]
    sizes = bench.MODES["tiny"]
    per_workspace = ["rebuild", "sync_noop", "search"]
    expected = ["ingest", "reingest_unchanged", "reingest_appended", "search_raw", "write_topic"]
    expected += per_workspace * len(sizes.topic_counts) + ["rebuild_hand_written"]
    assert sorted(keys) == sorted(expected)
    rebuilt = [row["numbers"]["topics"] for row in result["rows"] if row["key"] == "rebuild"]
    assert rebuilt == list(sizes.topic_counts)
    assert {"nproc", "cpu", "python", "sqlite"} <= set(result["machine"])
    assert all(row["numbers"] for row in result["rows"])
    assert list(tmp_path.iterdir()) == []  # the temporary workspaces are cleaned up
