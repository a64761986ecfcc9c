"""Recall with filters and no word to match: the k newest items they let through, and how
many more there are."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memstrata.index.db import IndexDB
from memstrata.journal.parse import parse_journal
from memstrata.recall import listing
from memstrata.recall.filters import RecallFilters
from memstrata.recall.hybrid import recall_items
from memstrata.recall.listing import listing_note

NOW = datetime(2026, 12, 5, 10, 0, tzinfo=UTC)
DAYS = 15


@pytest.fixture(scope="module")
def index() -> IndexDB:
    """A day each naming @Ann, with a line naming nobody."""
    opened = IndexDB.open_in_memory()
    for day in range(1, DAYS + 1):
        name = f"2026-11-{day:02d}"
        text = f"# {name}\n\n- 09:00 coffee with @Ann, day {day}\n- 10:00 quiet morning\n"
        source = f"memory/{name}.md"
        opened.put_journal(source, parse_journal(text, source, name), "stamp")
    return opened


def _recall(index: IndexDB, query: str, filters: RecallFilters) -> tuple[list[str], str]:
    items = recall_items(index.db, query, filters, NOW, lambda sources: {})
    contents = [item.content for item in items]
    return contents, listing_note(index.db, query, filters, len(items))


def test_a_filter_lists_its_k_newest_items_and_says_how_many_more_pass(index: IndexDB):
    contents, note = _recall(index, "", RecallFilters(k=10, entity="Ann"))

    assert contents == [f"09:00 coffee with @Ann, day {day}" for day in range(15, 5, -1)]
    assert note == "5 more items pass the filters; raise k to list them"


def test_one_item_left_out_is_one_item_in_the_note(index: IndexDB):
    _, note = _recall(index, "", RecallFilters(k=DAYS - 1, entity="Ann"))

    assert note == "1 more item passes the filters; raise k to list it"


@pytest.mark.parametrize("k", [DAYS, DAYS + 5])
def test_a_filter_that_lets_k_items_or_fewer_through_lists_them_all_without_a_note(
    index: IndexDB, k: int
):
    contents, note = _recall(index, "", RecallFilters(k=k, entity="Ann"))

    assert len(contents) == DAYS and note == ""


@pytest.mark.parametrize(
    "filters",
    [
        RecallFilters(k=10, since="2026-11-01T00:00:00Z"),  # 30 lines
        RecallFilters(k=10, kind="note"),
        RecallFilters(k=10, until="2026-11-11T00:00:00Z"),  # 20 lines
    ],
)
def test_every_filter_counts_what_it_leaves_unlisted(index: IndexDB, filters: RecallFilters):
    contents, note = _recall(index, "", filters)

    passing = 2 * DAYS if not filters.until else 20
    assert len(contents) == 10
    assert note == f"{passing - 10} more items pass the filters; raise k to list them"


def test_a_recall_with_words_to_match_gives_no_such_note(index: IndexDB):
    _, note = _recall(index, "coffee", RecallFilters(k=3, entity="Ann"))

    assert note == ""


def test_past_the_count_the_note_says_over(index: IndexDB, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(listing, "LISTING_MAX", 12)

    _, note = _recall(index, "", RecallFilters(k=10, entity="Ann"))

    assert note == "over 2 more items pass the filters; raise k to list them"


def test_a_time_filter_lists_the_newest_lines_of_a_long_day():
    # more lines than a listing reads at least, the newest last in the file, one out of order
    lines = [f"- {hour:02d}:{minute:02d} reading {hour}.{minute}\n"
             for hour in range(12) for minute in (0, 15, 30, 45, 50)]  # fmt: skip
    lines.insert(3, "- 11:59 a late note, written early in the file\n")
    opened = IndexDB.open_in_memory()
    text = "# 2026-12-05\n\n" + "".join(lines)
    opened.put_journal("memory/2026-12-05.md", parse_journal(text, "x", "2026-12-05"), "stamp")
    filters = RecallFilters(k=3, since="2026-12-05T00:00:00Z", until="2026-12-05T11:50:00Z")

    contents, note = _recall(opened, "", filters)

    assert contents == ["11:45 reading 11.45", "11:30 reading 11.30", "11:15 reading 11.15"]
    assert note == f"{len(lines) - 2 - 3} more items pass the filters; raise k to list them"
