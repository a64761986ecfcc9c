"""Vectors stored in SQLite and searched exactly."""

from __future__ import annotations

import sqlite3

import numpy as np

from memstrata.providers.embedder import normalise_rows
from memstrata.providers.hashing import HashingEmbedder
from memstrata.recall.semantic import (
    VectorIndex,
    ensure_vector_table,
    live_rows,
    put_vectors,
    stored_vectors,
)


def test_vectors_round_trip_through_sqlite_and_rank_by_cosine(tmp_path):
    embedder = HashingEmbedder(64)
    texts = {"t#0": "deploy the billing service", "t#1": "coffee with oat milk"}
    db = sqlite3.connect(tmp_path / "index.db")
    ensure_vector_table(db)
    put_vectors(
        db, "turn", embedder.name, zip(texts, embedder.embed(list(texts.values())), strict=True)
    )

    index = VectorIndex.load(db, "turn", embedder.name, embedder.dim)
    hits = index.search(embedder.embed(["billing deploy"], query=True)[0], 2)

    assert len(index) == 2
    assert [ref for ref, _ in hits] == ["t#0", "t#1"]
    assert hits[0][1] > hits[1][1]


def test_vectors_of_another_embedder_are_ignored(tmp_path):
    db = sqlite3.connect(tmp_path / "index.db")
    ensure_vector_table(db)
    put_vectors(db, "turn", "old-model", [("t#0", HashingEmbedder(8).embed(["x"])[0])])

    assert len(VectorIndex.load(db, "turn", "new-model", 8)) == 0
    assert (
        VectorIndex.load(db, "turn", "new-model", 8).search(HashingEmbedder(8).embed(["x"])[0], 5)
        == []
    )


def test_a_reload_fetches_only_new_rows_and_drops_deleted_ones(tmp_path):
    embedder = HashingEmbedder(16)
    db = sqlite3.connect(tmp_path / "index.db")
    ensure_vector_table(db)
    texts = ["deploy billing", "oat milk coffee", "piano lesson"]
    refs = ["t#0", "t#1", "t#2"]
    put_vectors(db, "turn", embedder.name, zip(refs, embedder.embed(texts), strict=True))
    held = VectorIndex.load(db, "turn", embedder.name, embedder.dim)
    # rewritten in place (same rowid): a reload trusts what it holds and does not read it again
    db.execute("UPDATE vectors SET vector = ? WHERE ref = 't#0'", (bytes(16 * 4),))
    db.execute("DELETE FROM vectors WHERE ref = 't#1'")
    put_vectors(db, "turn", embedder.name, [("t#3", embedder.embed(["garden hose"])[0])])

    reloaded = VectorIndex.reload(
        held, db, "turn", embedder.name, embedder.dim, live_rows(db, "turn")[0]
    )

    assert sorted(reloaded.refs) == ["t#0", "t#2", "t#3"]
    assert reloaded.search(embedder.embed(["deploy billing"], query=True)[0], 1)[0][0] == "t#0"
    assert reloaded.search(embedder.embed(["garden hose"], query=True)[0], 1)[0][0] == "t#3"


def test_a_reload_of_an_index_that_held_nothing_takes_the_first_rows(tmp_path):
    # A long-running process (the MCP server) recalls before anything is stored, then again.
    embedder = HashingEmbedder(16)
    db = sqlite3.connect(tmp_path / "index.db")
    ensure_vector_table(db)
    empty = VectorIndex.load(db, "topic", embedder.name, embedder.dim)
    put_vectors(db, "topic", embedder.name, [("world/a", embedder.embed(["first topic"])[0])])

    reloaded = VectorIndex.reload(
        empty, db, "topic", embedder.name, embedder.dim, live_rows(db, "topic")[0]
    )

    assert reloaded.refs == ("world/a",)


def test_stored_vectors_reads_the_rows_of_the_refs_asked_for(tmp_path):
    db = sqlite3.connect(tmp_path / "index.db")
    ensure_vector_table(db)
    embedder = HashingEmbedder(16)
    texts = {"a#0": "ramen in Osaka", "a#1": "deploy the canary", "b#0": "tea"}
    vectors = embedder.embed(list(texts.values()))
    put_vectors(db, "turn", embedder.name, zip(texts, vectors, strict=True))
    put_vectors(db, "turn", "other-model", [("a#0", embedder.embed(["x"])[0])])

    rows = stored_vectors(db, "turn", embedder.name, 16, ["a#1", "b#0", "missing#3"])

    assert rows.shape == (2, 16)
    assert sorted(map(tuple, rows.tolist())) == sorted(
        map(tuple, embedder.embed([texts["a#1"], texts["b#0"]]).tolist())
    )
    assert stored_vectors(db, "turn", embedder.name, 16, []).shape == (0, 0)
    assert stored_vectors(db, "turn", embedder.name, 16, ["missing#3"]).shape == (0, 0)


class Renamed(HashingEmbedder):
    """A real hashing embedder under a fixed name: one model name answering in two widths."""

    @property
    def name(self) -> str:
        return "model-x"


def test_vectors_of_another_width_under_the_same_name_are_ignored(tmp_path):
    # The endpoint behind one name now answers 16 wide; 8-wide rows stored earlier stay until
    # they are embedded again, and search must neither use them nor fail on them.
    db = sqlite3.connect(tmp_path / "index.db")
    ensure_vector_table(db)
    old, new = Renamed(8), Renamed(16)
    put_vectors(db, "turn", old.name, [("t#0", old.embed(["deploy billing"])[0])])
    put_vectors(db, "turn", new.name, [("t#1", new.embed(["oat milk coffee"])[0])])
    query = new.embed(["coffee"], query=True)[0]

    index = VectorIndex.load(db, "turn", new.name, new.dim)
    rows = stored_vectors(db, "turn", new.name, new.dim, ["t#0", "t#1"])

    assert index.refs == ("t#1",)
    assert [ref for ref, _ in index.search(query, 5)] == ["t#1"]
    assert rows.shape == (1, 16)
    assert live_rows(db, "turn", new.name, new.dim)[1] == ["t#1"]
    assert live_rows(db, "turn", old.name, old.dim)[1] == ["t#0"]


def test_a_reload_at_another_width_drops_what_it_held(tmp_path):
    db = sqlite3.connect(tmp_path / "index.db")
    ensure_vector_table(db)
    old, new = Renamed(8), Renamed(16)
    put_vectors(db, "turn", old.name, [("t#0", old.embed(["deploy billing"])[0])])
    held = VectorIndex.load(db, "turn", old.name, old.dim)
    put_vectors(db, "turn", new.name, [("t#1", new.embed(["oat milk coffee"])[0])])

    reloaded = VectorIndex.reload(held, db, "turn", new.name, new.dim, live_rows(db, "turn")[0])

    assert reloaded.refs == ("t#1",)
    assert reloaded.matrix.shape == (1, 16)


def test_equal_vectors_get_equal_cosines_wherever_they_sit_in_the_index():
    # A matrix product sums the rows of a block's tail another way: the first and last of
    # these equal rows came out a bit apart in about half of such matrices, and equal topics
    # swapped places between two reads of one context.
    rng = np.random.default_rng(7)
    for size in (5, 17, 33, 59):
        matrix = normalise_rows(rng.standard_normal((size, 512)))
        matrix[-1] = matrix[0]
        refs = [f"topic-{n:02d}" for n in range(size)]
        query = normalise_rows(rng.standard_normal(512))

        hits = dict(VectorIndex.from_rows(refs, matrix).search(query, size))

        assert hits["topic-00"] == hits[f"topic-{size - 1:02d}"]
