"""The shortcuts that keep recall fast at scale give the same answers as the long way round.

Lexical arms rank in the FTS table first and join only the best rows (falling back to ranking
every match when filters or ties make the cut uncertain); topic entities are read in one query;
the journal scan every read does sees new, edited and removed daily logs.
"""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.model import Session, Turn
from memstrata.recall import hybrid
from memstrata.recall.lexical import best_matches, is_exact_cut, score_turns
from memstrata.sqlite import connect

NOW = datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)


@pytest.fixture
def lexical_memory(workspace: Path):
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        yield memory


def test_best_matches_names_a_cutoff_only_when_rows_may_be_left_out(tmp_path: Path):
    db = connect(tmp_path / "fts.db")
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(text)")
    db.executemany("INSERT INTO docs (text) VALUES (?)", [("zeppelin",), ("zeppelin ride",)])

    everything, no_cutoff = best_matches(db, "docs", '"zeppelin"', 5)
    best, cutoff = best_matches(db, "docs", '"zeppelin"', 1)

    assert set(everything) == {1, 2} and no_cutoff is None
    assert list(best) == [1] and cutoff == everything[1]


@pytest.mark.parametrize(
    ("kept", "cutoff", "exact"),
    [
        ([-3.0, -2.0], None, True),  # every match was ranked
        ([-3.0, -2.0], -1.0, True),  # the last one kept beats every row left out
        ([-3.0, -1.0], -1.0, False),  # a row left out may tie with it
        ([-3.0], -1.0, False),  # filtering left too few
    ],
)
def test_a_cut_is_exact_only_when_nothing_left_out_could_rank_in(kept, cutoff, exact):
    assert is_exact_cut(kept, 2, cutoff) is exact


def test_recall_looks_past_archived_topics_that_fill_the_best_matches(
    lexical_memory: Memory, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(hybrid, "POOL", 2)  # the cut at 2 × 2 rows: four archived topics fill it
    for number in range(4):
        lexical_memory.write_topic(f"world/zeppelin-{number}", "# Zeppelin\nZeppelin zeppelin.")
        lexical_memory.archive_topic(f"world/zeppelin-{number}")
    lexical_memory.write_topic("world/airships", "# Airships\nA zeppelin is one kind of airship.")

    sources = [item.source for item in lexical_memory.recall("zeppelin").items]

    assert sources == ["world/airships"]


def test_recalled_topics_carry_their_entities(lexical_memory: Memory):
    lexical_memory.write_topic("people/ann", "# Ann\n@Ann flies zeppelins with @Peter.")

    [item] = lexical_memory.recall("zeppelins").items

    assert item.entities == ("Ann", "Peter")


def test_turn_scores_past_a_time_bound_match_the_full_ranking(tmp_path: Path):
    from memstrata.raw.store import RawStore

    store = RawStore(tmp_path / "sessions.db")
    turns = [
        Turn("s", index, "user", f"2025-11-{index + 1:02d}T10:00:00Z", "zeppelin " * (10 - index))
        for index in range(8)
    ]
    store.upsert(Session("s", "test", "agent", turns[0].time, turns[-1].time, ""), turns)

    late = score_turns(store.db, "zeppelin", 2, since="2025-11-07T00:00:00Z")
    every = score_turns(store.db, "zeppelin", 100)

    assert list(late) == ["s#6", "s#7"]  # the best matches are all before the bound
    assert late == {source: every[source] for source in late}
    store.close()


def test_daily_logs_written_edited_or_removed_by_hand_show_up_in_the_next_recall(
    lexical_memory: Memory,
):
    folder = lexical_memory.workspace.memory_dir
    lexical_memory.recall("anything")
    (folder / "2025-11-20.md").write_text("# 2025-11-20\n\n- 09:00 zeppelin at dawn\n")
    (folder / "notes.md").write_text("- zeppelin in a file that is not a daily log\n")
    assert [i.source for i in lexical_memory.recall("zeppelin").items] == [
        "memory/2025-11-20.md#L3"
    ]

    (folder / "2025-11-20.md").write_text("# 2025-11-20\n\n- 09:00 airship at dawn, long ago\n")
    assert lexical_memory.recall("zeppelin").items == ()
    assert lexical_memory.recall("airship").items

    (folder / "2025-11-20.md").unlink()
    assert lexical_memory.recall("airship").items == ()
