"""One benchmark run from a data file (``memstrata.bench.run``), on tiny hand-made files."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from memstrata.bench.locomo import load_locomo
from memstrata.bench.run import BenchmarkRun, ProgressBar, run_retrieval
from memstrata.errors import EmbedderFailed, InputError
from memstrata.providers.hashing import HashingEmbedder
from tests.bench.corpora import locomo_samples, longmemeval_items, write_json


def test_a_gzipped_locomo_file_reads_like_the_plain_one(tmp_path: Path) -> None:
    plain = write_json(tmp_path / "tiny.json", locomo_samples())
    gzipped = write_json(tmp_path / "tiny.json.gz", locomo_samples())

    assert load_locomo(gzipped) == load_locomo(plain)


def test_a_longmemeval_file_given_as_locomo_is_named_as_not_locomo(tmp_path: Path) -> None:
    path = write_json(tmp_path / "lme.json.gz", longmemeval_items())

    with pytest.raises(InputError, match="not a locomo file"):
        run_retrieval(BenchmarkRun("locomo", path, "none"))


@pytest.mark.parametrize("benchmark", ["locomo", "longmemeval"])
def test_a_corrupt_gzip_is_named_as_unreadable(tmp_path: Path, benchmark: str) -> None:
    path = tmp_path / "corrupt.json.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00garbagegarbage")

    with pytest.raises(InputError, match=r"corrupt\.json\.gz: cannot be read \(.*decompress"):
        run_retrieval(BenchmarkRun(benchmark, path, "none"))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bogus", "unknown embedder 'bogus'"),
        ("", "unknown embedder ''"),
        ("openai:", "names no model"),
        ("openai:@http://127.0.0.1:9/v1", "names no model"),
    ],
)
def test_a_run_stops_on_an_embedder_it_cannot_load(tmp_path: Path, spec: str, message: str) -> None:
    path = write_json(tmp_path / "tiny.json", locomo_samples())

    with pytest.raises(EmbedderFailed, match=message) as raised:
        run_retrieval(BenchmarkRun("locomo", path, spec))

    assert "hashing" not in str(raised.value)


def test_a_run_draws_its_progress_at_zero_before_the_first_corpus_is_scored(
    tmp_path: Path,
) -> None:
    path = write_json(tmp_path / "tiny.json", locomo_samples() * 2)
    calls: list[tuple[int, int]] = []

    run_retrieval(BenchmarkRun("locomo", path, "none"), on_corpus=lambda *call: calls.append(call))

    assert calls == [(0, 2), (1, 2), (2, 2)]


def test_a_progress_bar_left_part_way_ends_its_line_on_close() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream)

    bar(0, 2)
    bar.close()
    bar.close()

    assert stream.getvalue() == f"\r[{'.' * 30}] 0/2\n"


def test_a_finished_progress_bar_is_not_ended_twice() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream)

    bar(1, 1)
    bar.close()

    assert stream.getvalue() == f"\r[{'#' * 30}] 1/1\n"


def test_both_methods_list_their_longmemeval_metrics_in_one_order(tmp_path: Path) -> None:
    path = write_json(tmp_path / "lme.json", longmemeval_items())

    report, _ = run_retrieval(BenchmarkRun("longmemeval", path, "none"))

    assert list(report["memstrata"]["all"]) == list(report["fts5"]["all"])
    assert list(report["fts5"]["all"])[:2] == ["n", "session_recall_all@5"]


def test_locomo_categories_read_all_then_1_4_then_each_in_number_order(tmp_path: Path) -> None:
    path = write_json(tmp_path / "tiny.json", locomo_samples())

    report, _ = run_retrieval(BenchmarkRun("locomo", path, "none"))

    for method in ("memstrata", "fts5"):
        categories = [name for name in report[method] if name != "timings"]
        assert categories == ["all", "1-4", "1", "2", "4", "5"]
        assert report[method]["all"]["n"] == 4 and isinstance(report[method]["all"]["n"], int)


def test_a_plain_file_named_gz_is_still_read(tmp_path: Path) -> None:
    path = write_json(tmp_path / "lme.json", longmemeval_items()).rename(tmp_path / "lme.gz")

    report, _ = run_retrieval(BenchmarkRun("longmemeval", path, "none"))

    assert report["meta"]["questions"] == 1


def test_hashing_is_still_a_run_s_embedder_when_named(tmp_path: Path) -> None:
    path = write_json(tmp_path / "tiny.json", locomo_samples())

    report, _ = run_retrieval(BenchmarkRun("locomo", path, "hashing"))

    assert report["meta"]["embedder"] == HashingEmbedder().name
    assert "embedder_fallback" not in report["meta"]  # a run never falls back
