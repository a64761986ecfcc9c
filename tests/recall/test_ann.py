"""The approximate index: an IVF side file beside the vectors table, with an exact fallback."""

from __future__ import annotations

import sqlite3
from contextlib import nullcontext
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from memstrata import Memory
from memstrata.config import Config, RecallConfig
from memstrata.index.db import IndexDB
from memstrata.providers.hashing import HashingEmbedder
from memstrata.recall.ann import (
    AnnSettings,
    IvfFile,
    IvfView,
    build_ivf,
    match_live,
    open_ivf,
    side_file_path,
    write_ivf,
)
from memstrata.recall.semantic import VectorIndex, put_vectors
from memstrata.recall.vector_cache import VectorCache, refresh_side_files
from memstrata.sqlite import immediate

DIM = 32
EMBEDDER = HashingEmbedder(DIM)


def clustered(count: int, seed: int = 0, clusters: int = 40) -> np.ndarray:
    """Unit rows around a few centres: what embeddings of real text look like, roughly."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, DIM)).astype(np.float32)
    rows = centres[rng.integers(0, clusters, count)]
    rows += 0.35 * rng.standard_normal((count, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def refs_for(count: int, start: int = 0) -> list[str]:
    return [f"memory/2025-11-27.md#L{i}" for i in range(start, start + count)]


def open_index(tmp_path: Path, rows: np.ndarray, start: int = 0) -> sqlite3.Connection:
    index = IndexDB.open(tmp_path / "index.db")
    add_rows(index.db, rows, start)
    return index.db


def add_rows(db: sqlite3.Connection, rows: np.ndarray, start: int = 0) -> None:
    with immediate(db):
        put_vectors(db, "fact", EMBEDDER.name, zip(refs_for(len(rows), start), rows, strict=True))


def cache_for(tmp_path: Path, min_vectors: int = 100) -> VectorCache:
    return VectorCache(EMBEDDER, nullcontext, True, AnnSettings(tmp_path / "ann", min_vectors))


def top_refs(index: VectorIndex, query: np.ndarray, k: int = 10) -> list[str]:
    return [ref for ref, _ in index.search(query, k)]


def test_ivf_finds_what_exact_search_finds_on_clustered_data(tmp_path):
    rows, refs = clustered(4000), refs_for(4000)
    path = tmp_path / "fact.ivf"
    write_ivf(path, "fact", "e", build_ivf(refs, rows), np.arange(4000), refs, rows)
    ivf = open_ivf(path, "fact", "e", DIM)
    assert isinstance(ivf, IvfFile)
    approximate = VectorIndex(
        (), np.zeros((0, 0), np.float32), approximate=IvfView(ivf, np.ones(4000, bool))
    )
    exact = VectorIndex.from_rows(refs, rows)

    queries = clustered(200, seed=1)
    found = [len(set(top_refs(approximate, q)) & set(top_refs(exact, q))) / 10 for q in queries]

    assert len(ivf.centroids) == 63  # ≈ √4000 lists
    assert np.mean(found) >= 0.95


def test_the_same_vectors_give_the_same_file_whatever_their_order(tmp_path):
    rows, refs = clustered(1500), refs_for(1500)
    shuffled = np.random.default_rng(3).permutation(1500)
    first, second = tmp_path / "a.ivf", tmp_path / "b.ivf"

    token_a = write_ivf(first, "fact", "e", build_ivf(refs, rows), np.arange(1500), refs, rows)
    token_b = write_ivf(
        second,
        "fact",
        "e",
        build_ivf([refs[i] for i in shuffled], rows[shuffled]),
        shuffled,
        [refs[i] for i in shuffled],
        rows[shuffled],
    )

    assert token_a == token_b
    assert first.read_bytes() == second.read_bytes()


def test_rows_added_after_the_build_are_searched_exactly_and_deleted_ones_never_return(tmp_path):
    rows = clustered(600)
    db = open_index(tmp_path, rows)
    cache = cache_for(tmp_path)
    cache.embed_all(db, None)
    added = clustered(50, seed=7)
    add_rows(db, added, start=600)
    with immediate(db):
        db.execute("DELETE FROM vectors WHERE ref = ?", ("memory/2025-11-27.md#L5",))
    changed = clustered(1, seed=8)[0]
    add_rows(db, changed[None, :], start=9)  # a changed vector gets a new rowid

    _, facts = cache.items(db)

    assert facts.approximate is not None
    assert len(facts) == 649 and len(facts.refs) == 51  # 50 added + 1 changed, exact
    assert top_refs(facts, added[17], 1) == ["memory/2025-11-27.md#L617"]
    assert "memory/2025-11-27.md#L5" not in top_refs(facts, rows[5], 50)
    assert top_refs(facts, changed, 1) == ["memory/2025-11-27.md#L9"]
    assert top_refs(facts, rows[300], 1) == ["memory/2025-11-27.md#L300"]
    assert cache.note == ""


def test_a_stale_side_file_is_still_searched_and_rebuilt_by_embed_all(tmp_path):
    db = open_index(tmp_path, clustered(400))
    cache = cache_for(tmp_path)
    cache.embed_all(db, None)
    add_rows(db, clustered(200, seed=5), start=400)

    _, facts = cache.items(db)
    assert "stale" in cache.note and len(facts.refs) == 200
    cache.embed_all(db, None)
    _, facts = cache.items(db)

    assert cache.note == "" and len(facts.refs) == 0 and len(facts) == 600


def corrupt(path: Path, db: sqlite3.Connection) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def garbage(path: Path, db: sqlite3.Connection) -> None:
    path.write_bytes(b"memstrata-ivf\n{not json\n" + bytes(300))


def other_index(path: Path, db: sqlite3.Connection) -> None:
    with immediate(db):
        db.execute("DELETE FROM meta WHERE key LIKE 'ann:%'")


def missing(path: Path, db: sqlite3.Connection) -> None:
    path.unlink()


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (corrupt, "unreadable"),
        (garbage, "unreadable"),
        (other_index, "another copy of the index"),
        (missing, "not built"),
    ],
)
def test_an_unusable_side_file_means_exact_search_and_a_note_never_an_error(
    tmp_path, damage, reason
):
    rows = clustered(300)
    db = open_index(tmp_path, rows)
    cache_for(tmp_path).embed_all(db, None)
    damage(side_file_path(tmp_path / "ann", "fact", EMBEDDER.name), db)
    cache = cache_for(tmp_path)

    _, facts = cache.items(db)

    assert facts.approximate is None and len(facts.refs) == 300
    assert reason in cache.note and "exact search" in cache.note
    assert top_refs(facts, rows[42], 3) == top_refs(
        VectorIndex.from_rows(refs_for(300), rows), rows[42], 3
    )


class Narrow(HashingEmbedder):
    """The test embedder's name answering 16 wide: a model swapped behind its name."""

    @property
    def name(self) -> str:
        return EMBEDDER.name


def test_a_name_stored_in_two_widths_gets_the_side_file_of_the_width_most_rows_have(tmp_path):
    # A switch of width half done: 150 rows of the old width, 60 of the new, one name.
    db = open_index(tmp_path, clustered(150))
    narrow = Narrow(16)
    new_rows = narrow.embed([f"fact {i}" for i in range(60)])
    with immediate(db):
        put_vectors(db, "fact", narrow.name, zip(refs_for(60, 150), new_rows, strict=True))
    folder = tmp_path / "ann"

    changes = refresh_side_files(db, AnnSettings(folder, 100))
    built = open_ivf(side_file_path(folder, "fact", EMBEDDER.name), "fact", EMBEDDER.name, DIM)
    cache = VectorCache(narrow, nullcontext, True, AnnSettings(folder, 100))
    _, facts = cache.items(db)

    assert [change.split()[0] for change in changes] == ["built"]
    assert isinstance(built, IvfFile) and len(built) == 150
    # the new width's reader cannot use that file: exact search over its own rows, and a note
    assert facts.approximate is None and sorted(facts.refs) == sorted(refs_for(60, 150))
    assert "built for" in cache.note and "exact search" in cache.note
    assert top_refs(facts, new_rows[7], 1) == refs_for(1, 157)


def test_kinds_below_the_threshold_get_no_side_file(tmp_path):
    db = open_index(tmp_path, clustered(50))
    cache = cache_for(tmp_path, min_vectors=100)

    cache.embed_all(db, None)
    _, facts = cache.items(db)

    assert not (tmp_path / "ann").exists() or not list((tmp_path / "ann").iterdir())
    assert facts.approximate is None and cache.note == ""


def test_match_live_pairs_rows_by_rowid_and_ref(tmp_path):
    rows, refs = clustered(4), refs_for(4)
    path = tmp_path / "f.ivf"
    write_ivf(path, "fact", "e", build_ivf(refs, rows), np.array([10, 11, 12, 13]), refs, rows)
    ivf = open_ivf(path, "fact", "e", DIM)
    assert isinstance(ivf, IvfFile)

    # L1 deleted, L2's rowid now names another ref (a recreated table), L9 added
    alive, tail = match_live(ivf, np.array([10, 12, 13, 14]), [refs[0], "x", refs[3], "L9"])

    assert sorted(ref for ref, keep in zip(ivf.refs, alive, strict=True) if keep) == [
        refs[0],
        refs[3],
    ]
    assert tail.tolist() == [False, True, False, True]


def test_a_workspace_above_the_threshold_gets_a_side_file_on_rebuild_and_the_same_answers(
    tmp_path,
):
    root = tmp_path / "ws"
    Memory.init(root, embeddings=False).close()
    lines = [
        f"- note {i}: the {w} of batch {i % 37} in room {i % 11}"
        for i, w in enumerate(
            ["invoice", "deploy", "coffee", "garden", "piano", "billing", "hiking", "router"] * 60
        )
    ]
    lines[123] = "- the quarterly kayak regatta moved to the northern lake"
    (root / "memory" / "2025-11-27.md").write_text("# 2025-11-27\n\n" + "\n".join(lines) + "\n")
    now = datetime(2025, 11, 28, tzinfo=UTC)
    low = replace(Config(), recall=RecallConfig(ann_min_vectors=200))
    high = replace(Config(), recall=RecallConfig(ann_min_vectors=10_000))

    with Memory(root, clock=lambda: now, config=low, embedder=HashingEmbedder(64)) as memory:
        memory.rebuild()
        approximate = memory.recall("kayak regatta lake", record_access=False).items
        files = list((root / ".memstrata" / "ann").glob("fact-*.ivf"))
        assert memory.vectors is not None
        assert memory.vectors.items(memory.index.db)[1].approximate is not None
    with Memory(root, clock=lambda: now, config=high, embedder=HashingEmbedder(64)) as memory:
        exact = memory.recall("kayak regatta lake", record_access=False).items

    assert len(files) == 1
    assert approximate[0].source == "memory/2025-11-27.md#L126"  # after the title and a blank
    assert [item.source for item in approximate[:3]] == [item.source for item in exact[:3]]
