"""``tick``'s index job: side files built from the stored vectors, hourly at most, no model."""

import json
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from memstrata import Memory
from memstrata.cli import cli
from memstrata.config import Config, EmbeddingsConfig, RecallConfig
from memstrata.index.db import IndexDB
from memstrata.maintain.tick import JobResult, run_tick
from memstrata.providers.hashing import HashingEmbedder
from memstrata.recall.ann import AnnSettings, IvfFile, open_ivf, side_file_path
from memstrata.recall.semantic import put_vectors
from memstrata.recall.vector_cache import refresh_side_files
from memstrata.sqlite import immediate
from memstrata.workspace.layout import init_workspace
from tests.maintain.messy import NOW

DIM = 32
EMBEDDER = HashingEmbedder(DIM)
#: low enough that a build takes milliseconds
THRESHOLD = 200
CONFIG = replace(Config(), recall=RecallConfig(ann_min_vectors=THRESHOLD))


@pytest.fixture
def root(scratch: Path) -> Path:
    root = scratch / "ws"
    init_workspace(root, CONFIG)
    return root


def add_facts(root: Path, count: int, start: int = 0, embedder: str = EMBEDDER.name) -> None:
    """Store ``count`` fact vectors as lazy queries would have: rows, no side file."""
    rows = np.random.default_rng(start).standard_normal((count, DIM)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    refs = [f"memory/2025-11-27.md#L{i}" for i in range(start, start + count)]
    index = IndexDB.open(root / ".memstrata" / "index.db")
    try:
        with immediate(index.db):
            put_vectors(index.db, "fact", embedder, zip(refs, rows, strict=True))
    finally:
        index.close()


def side_file(root: Path, kind: str = "fact", embedder: str = EMBEDDER.name) -> Path:
    return side_file_path(root / ".memstrata" / "ann", kind, embedder)


def tick_index(root: Path, now: datetime, config: Config = CONFIG) -> JobResult:
    """Run a tick; return its index job, after checking that no embedder was loaded."""
    with Memory(root, clock=lambda: now, config=config) as memory:
        report = run_tick(memory, now)
        assert not memory.semantic.is_loaded
    [job] = [job for job in report.jobs if job.name == "index"]
    return job


def rows_in(path: Path) -> int:
    opened = open_ivf(path, "fact", EMBEDDER.name, DIM)
    assert isinstance(opened, IvfFile), opened
    return len(opened)


def test_a_tick_builds_the_side_file_from_stored_vectors_and_search_uses_it(root: Path):
    add_facts(root, 300)

    job = tick_index(root, NOW)

    assert job.status == "ran" and "built" in job.detail and "300 fact vectors" in job.detail
    assert job.next_due == "2025-11-27T11:00:00Z"
    assert rows_in(side_file(root)) == 300
    with Memory(root, clock=lambda: NOW, config=CONFIG, embedder=EMBEDDER) as memory:
        assert memory.vectors is not None
        _topics, facts = memory.vectors.items(memory.index.db)
        assert facts.approximate is not None and not facts.refs  # no tail: all in the file


def test_a_tick_right_after_finds_the_index_job_not_due_and_builds_nothing(root: Path):
    add_facts(root, 300)
    tick_index(root, NOW)
    built = side_file(root).stat().st_mtime_ns
    add_facts(root, 100, start=300)  # the index changed, but the hour is not up

    job = tick_index(root, NOW + timedelta(minutes=1))

    assert job.status == "not due" and job.next_due == "2025-11-27T11:00:00Z"
    assert side_file(root).stat().st_mtime_ns == built


def test_a_tick_after_the_hour_refreshes_a_stale_side_file_and_keeps_a_fresh_one(root: Path):
    add_facts(root, 300)
    tick_index(root, NOW)
    add_facts(root, 30, start=300)  # 10 %: searched exactly as the file's tail
    built = side_file(root).stat().st_mtime_ns

    fresh = tick_index(root, NOW + timedelta(minutes=61))
    assert fresh.status == "ran" and fresh.detail == "approximate vector index up to date"
    assert side_file(root).stat().st_mtime_ns == built

    add_facts(root, 50, start=330)  # now 80 of 300 rows are new: stale
    stale = tick_index(root, NOW + timedelta(minutes=122))

    assert stale.status == "ran" and "was stale" in stale.detail
    assert rows_in(side_file(root)) == 380


def test_a_corrupt_side_file_is_rebuilt(root: Path):
    add_facts(root, 300)
    tick_index(root, NOW)
    data = side_file(root).read_bytes()
    side_file(root).write_bytes(data[: len(data) // 2])  # cut short, as by a full disk
    add_facts(root, 1, start=300)

    job = tick_index(root, NOW + timedelta(hours=1))

    assert job.status == "ran" and "was unreadable" in job.detail
    assert rows_in(side_file(root)) == 301


def test_the_side_file_of_a_kind_that_fell_below_the_threshold_is_removed(root: Path):
    add_facts(root, 300)
    tick_index(root, NOW)
    index = IndexDB.open(root / ".memstrata" / "index.db")
    with immediate(index.db):
        index.db.execute("DELETE FROM vectors WHERE rowid % 2 = 0")
    index.close()

    job = tick_index(root, NOW + timedelta(hours=1))

    assert job.status == "ran" and job.detail.startswith("removed fact-")
    assert not side_file(root).exists()


def test_refresh_builds_one_file_per_embedder_above_the_threshold_and_drops_orphans(root: Path):
    add_facts(root, 250)
    add_facts(root, 50, start=250, embedder="other-model")  # a switch of embedder, half done
    folder = root / ".memstrata" / "ann"
    orphan = side_file(root, "turn", "gone-model")
    orphan.parent.mkdir(parents=True, exist_ok=True)
    orphan.write_bytes(b"left from an embedder no longer in the table")
    index = IndexDB.open(root / ".memstrata" / "index.db")

    try:
        changes = refresh_side_files(index.db, AnnSettings(folder, THRESHOLD))
        again = refresh_side_files(index.db, AnnSettings(folder, THRESHOLD))
    finally:
        index.close()

    assert sorted(path.name for path in folder.glob("*.ivf")) == [side_file(root).name]
    assert rows_in(side_file(root)) == 250  # the other embedder's rows neither count nor stale it
    assert [change.split()[0] for change in changes] == ["built", "removed"]
    assert again == []


def test_with_embeddings_off_the_index_job_is_skipped_and_never_due(root: Path):
    add_facts(root, 300)
    off = replace(CONFIG, embeddings=EmbeddingsConfig(model="none"))

    job = tick_index(root, NOW, off)

    assert job.status == "skipped" and "embeddings are off" in job.detail
    assert not side_file(root).exists()


def test_tick_json_and_text_show_the_index_job(root: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("MEMSTRATA_WORKSPACE", raising=False)
    add_facts(root, 300)
    runner = CliRunner()

    # Through the group: a subcommand invoked alone caches a help option without ``-h``.
    first = runner.invoke(cli, ["--workspace", str(root), "tick", "--json"])
    second = runner.invoke(cli, ["--workspace", str(root), "tick"])

    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    [job] = [job for job in json.loads(first.output)["jobs"] if job["name"] == "index"]
    assert job["status"] == "ran" and "built fact-" in job["detail"]
    assert "index: not due (next " in second.output
