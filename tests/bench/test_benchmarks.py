"""The benchmark harness end to end on a slice of the shared data (hashing embedder: fast)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from memstrata.bench.harness import run_benchmark, score_locomo, score_longmemeval
from memstrata.bench.locomo import _evidence_ids, load_locomo, parse_locomo_date
from memstrata.bench.longmemeval import load_longmemeval, parse_longmemeval_date
from memstrata.providers.hashing import HashingEmbedder
from tests.conftest import REPO


def test_locomo_dates_and_malformed_evidence_ids_are_normalised():
    assert parse_locomo_date("1:56 pm on 8 May, 2023").isoformat() == "2023-05-08T13:56:00+00:00"
    assert _evidence_ids(["D8:6; D9:17", "D:11:26", "D30:05"]) == {
        "D8:6",
        "D9:17",
        "D11:26",
        "D30:5",
    }


def test_longmemeval_dates_parse():
    assert (
        parse_longmemeval_date("2023/05/20 (Sat) 00:59").isoformat() == "2023-05-20T00:59:00+00:00"
    )


def test_locomo_run_reports_both_methods_per_category(shared_data):
    corpora = load_locomo(shared_data / "locomo" / "locomo_dev.json")[:1]

    report = run_benchmark(corpora, score_locomo, HashingEmbedder(64))

    for method in ("memstrata", "fts5"):
        assert {"all", "1", "2", "4", "1-4"} <= set(report[method])
        assert 0.0 <= report[method]["all"]["recall@10"] <= 1.0
        assert report[method]["all"]["n"] == report["meta"]["questions"]
        assert report[method]["timings"]["queries"] == report["meta"]["questions"]
    # the baseline follows the paper: on a whole conversation it finds a fair share
    assert report["fts5"]["all"]["recall@20"] > 0.4


def test_longmemeval_run_scores_sessions_and_turns(shared_data):
    corpora = load_longmemeval(shared_data / "longmemeval" / "longmemeval_s_dev60.json.gz", 2)

    report = run_benchmark(corpora, score_longmemeval, None)

    block = report["memstrata"]["all"]
    assert block["n"] == 2
    for key in ("session_recall_all@5", "turn_recall_all@10", "turn_ndcg_any@10"):
        assert 0.0 <= block[key] <= 1.0
    assert not any(corpus.id.endswith("_abs") for corpus in corpora)


def test_the_script_prints_one_json_object(shared_data):
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "retrieval.py"), "longmemeval",
         "--limit", "1", "--embedder", "hashing", "--json"],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip

    report = json.loads(result.stdout)
    assert set(report) == {"memstrata", "fts5", "meta"}
    assert report["meta"]["embedder"] == "hashing-256"


def test_latency_run_reports_each_size_with_percentiles():
    from memstrata.bench.latency import measure_latency

    report = measure_latency(HashingEmbedder(32), (100, 200), queries=3)

    assert set(report["sizes"]) == {"100", "200"}
    assert report["sizes"]["200"]["turns"] == 200
    assert report["sizes"]["200"]["query_ms_p50"] <= report["sizes"]["200"]["query_ms_p95"]
    assert report["peak_rss_mb"] > 0


def test_memstrata_bench_runs_locomo_from_the_command_line(shared_data):
    from tests.cli.process import run

    result = run(
        "bench", "locomo", str(shared_data / "locomo" / "locomo_dev.json"),
        "--limit", "1", "--embedder", "hashing", "--json",
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for method in ("memstrata", "fts5"):
        assert {"all", "1", "2", "3", "4", "5", "1-4"} <= set(report[method])
        assert {"recall@5", "recall@10", "recall@20"} <= set(report[method]["all"])
    assert report["meta"]["benchmark"] == "locomo"
    assert "[" not in result.stderr  # no progress bar when stderr is not a terminal


def test_memstrata_bench_prints_a_table_for_longmemeval(shared_data):
    from tests.cli.process import run

    path = shared_data / "longmemeval" / "longmemeval_s_dev60.json.gz"
    result = run("bench", "longmemeval", str(path), "--limit", "1", "--embedder", "none")

    assert result.returncode == 0, result.stderr
    assert "memstrata" in result.stdout and "fts5" in result.stdout
    assert "s_rec_all@5" in result.stdout and "t_rec_all@10" in result.stdout


#: a conversation whose one question cites a turn it does not hold
NO_EVIDENCE_FOUND = (
    b'[{"sample_id": "x", "conversation": {"speaker_a": "A", "speaker_b": "B",'
    b' "session_1_date_time": "1:56 pm on 8 May, 2023",'
    b' "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}]},'
    b' "qa": [{"question": "q", "answer": "a", "evidence": ["D9:9"], "category": 1}]}]'
)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b'[{"conversation": 1', ":1: not valid JSON"),
        (b'[{"sample_id": 1}]', "not a locomo file (an entry has no 'conversation' field;"),
        (b'["a", "b"]', "an entry or a field of the wrong kind; expected a list of conversations"),
        (b"\xff\xfe", "cannot be read"),
        (b"[]", "no questions with evidence"),
        (NO_EVIDENCE_FOUND, "no questions with evidence"),
    ],
)
def test_memstrata_bench_names_a_file_it_cannot_use(tmp_path, content, message):
    from tests.cli.process import run

    path = tmp_path / "data.json"
    if content is not None:
        path.write_bytes(content)

    result = run("bench", "locomo", str(path))

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert str(path) in line and message in line


def test_a_run_through_recall_scores_what_the_context_would_inject(shared_data):
    corpora = load_locomo(shared_data / "locomo" / "locomo_dev.json")[:1]

    report = run_benchmark(corpora, score_locomo, None, through="recall")

    assert report["meta"]["through"] == "recall"
    block = report["memstrata"]["all"]
    assert block["n"] == report["fts5"]["all"]["n"] == report["meta"]["questions"]
    # lexical recall over the same entries finds at least what plain FTS5 finds
    assert block["recall@10"] >= report["fts5"]["all"]["recall@10"] - 0.05


def test_corpora_scored_in_two_processes_give_the_same_report(shared_data):
    from tests.cli.process import run

    path = shared_data / "longmemeval" / "longmemeval_s_dev60.json.gz"
    common = ("bench", "longmemeval", str(path), "--limit", "3", "--embedder", "hashing", "--json")

    alone, side_by_side = run(*common, "--by-corpus"), run(*common, "--jobs", "2", "--by-corpus")

    assert alone.returncode == side_by_side.returncode == 0, side_by_side.stderr
    one, two = json.loads(alone.stdout), json.loads(side_by_side.stdout)
    for method in ("memstrata", "fts5"):
        assert {k: v for k, v in two[method].items() if k != "timings"} == {
            k: v for k, v in one[method].items() if k != "timings"
        }
        assert two[method]["timings"]["queries"] == 3
    assert two["corpora"] == one["corpora"]
    assert (one["meta"]["jobs"], two["meta"]["jobs"]) == (1, 2)


def test_by_corpus_scores_each_conversation_alone_and_they_make_up_the_whole(shared_data):
    from tests.cli.process import run

    path = shared_data / "locomo" / "locomo_dev.json"
    result = run(
        "bench", "locomo", str(path), "--limit", "2", "--embedder", "hashing", "--json",
        "--by-corpus",
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    first_two = [corpus.id for corpus in load_locomo(path)[:2]]
    assert list(report["corpora"]) == first_two
    for method in ("memstrata", "fts5"):
        blocks = [report["corpora"][corpus][method] for corpus in first_two]
        whole = report[method]["all"]
        assert sum(block["n"] for block in blocks) == whole["n"]
        weighted = sum(block["n"] * block["recall@10"] for block in blocks) / whole["n"]
        assert weighted == pytest.approx(whole["recall@10"], abs=1e-3)


def test_by_corpus_prints_a_row_per_question_after_the_categories(shared_data):
    from tests.cli.process import run

    path = shared_data / "longmemeval" / "longmemeval_s_dev60.json.gz"
    common = ("bench", "longmemeval", str(path), "--limit", "2", "--embedder", "hashing")

    table = run(*common, "--by-corpus")
    plain = run(*common, "--json")

    assert table.returncode == plain.returncode == 0, table.stderr
    rows = table.stdout.split("corpus", 1)[1].splitlines()[2:]
    assert [row.split()[:2] for row in rows] == [
        [corpus.id, "1"] for corpus in load_longmemeval(path, 2)
    ]
    assert "corpora" not in json.loads(plain.stdout)  # only when asked for
