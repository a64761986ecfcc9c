"""Recall's neighbour arm: a journal entry next to one that matches the query is raised (a day's
log is written in order: an answer follows its question), never brought in from nothing."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memstrata import Memory

NOW = datetime(2025, 11, 27, 12, 0, tzinfo=UTC)


def write_day(root: Path, day: str, text: str) -> None:
    (root / "memory" / f"{day}.md").write_text(f"# {day}\n\n{text}", encoding="utf-8")


@pytest.fixture
def memory(workspace: Path):
    write_day(
        workspace,
        "2025-11-20",
        "- Ann asked which venue we book for the offsite in Lisbon\n"
        "- We chose Fabrica, a venue by the river\n",
    )
    write_day(workspace, "2025-11-21", "- The venue of Bo's wedding is booked\n")
    with Memory(workspace, embeddings=False, clock=lambda: NOW) as opened:
        yield opened


def sources(memory: Memory, query: str) -> list[str]:
    return [item.source for item in memory.recall(query, record_access=False).items]


def test_an_entry_next_to_a_strong_match_outranks_an_equal_match_on_its_own(memory: Memory):
    result = memory.recall("which venue for the offsite", record_access=False)

    ranked = [item.source for item in result.items]
    assert ranked == [
        "memory/2025-11-20.md#L3",  # the question itself
        "memory/2025-11-20.md#L4",  # its answer: "venue", and next to the question
        "memory/2025-11-21.md#L3",  # "venue" too, next to nothing that matches
    ]
    assert "neighbour" in result.items[1].arms
    assert "neighbour" not in result.items[2].arms


def test_a_neighbour_that_matches_nothing_is_not_recalled(memory: Memory):
    # "Lisbon" is only in the question: its answer shares no word with this query
    assert sources(memory, "Lisbon") == ["memory/2025-11-20.md#L3"]


def test_entries_of_other_sections_and_typed_facts_are_not_neighbours(workspace: Path):
    write_day(
        workspace,
        "2025-11-20",
        "- Ann asked which venue we book for the offsite\n\n"
        "## Later\n\n- The venue for drinks is Park\n\n"
        "## Retain\n\n- W @Ann: the offsite venue needs step-free access\n"
        "- W the venue opens at nine\n",
    )
    write_day(workspace, "2025-11-21", "- Bo's wedding venue is booked\n")
    with Memory(workspace, embeddings=False, clock=lambda: NOW) as memory:
        result = memory.recall("which venue for the offsite", record_access=False)

    assert result.items and all("neighbour" not in item.arms for item in result.items)
