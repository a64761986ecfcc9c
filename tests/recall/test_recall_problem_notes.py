"""Recall (and search) names the problems of the files it reads on every call, not only on
the call that first met them: an agent that missed that call still hears of them."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError


def _broken_day(workspace: Path) -> None:
    (workspace / "memory" / "2025-11-20.md").write_text(
        "# 2025-11-20\n\n- Walrus meeting notes\n\n## Retain\n- X @Ann: walrus tusk fact\n",
        encoding="utf-8",
    )


def test_every_recall_names_a_journal_day_with_problems(workspace: Path, fixed_now: datetime):
    _broken_day(workspace)
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        first = memory.recall("walrus")
        second = memory.recall("walrus")

    for result in (first, second):
        named = [note for note in result.notes if note.startswith("problems in the files")]
        assert named and "memory/2025-11-20.md:6" in named[0], result.notes
        assert "'memstrata status' lists them" in named[0]


def test_search_names_them_too(workspace: Path, fixed_now: datetime):
    _broken_day(workspace)
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        memory.search("walrus")
        notes = memory.search_notes("walrus")

    named = [note for note in notes if note.startswith("problems in the files")]
    assert named and "memory/2025-11-20.md:6" in named[0], notes


def test_a_new_process_names_the_problems_of_a_day_indexed_before(
    workspace: Path, fixed_now: datetime
):
    _broken_day(workspace)
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        memory.recall("walrus")
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        notes = memory.recall("walrus").notes

    assert any("memory/2025-11-20.md:6" in note for note in notes)


def test_a_day_mended_is_no_longer_named(workspace: Path, fixed_now: datetime):
    _broken_day(workspace)
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        memory.recall("walrus")
        day = workspace / "memory" / "2025-11-20.md"
        day.write_text(day.read_text("utf-8").replace("- X @Ann", "- W @Ann"), encoding="utf-8")
        notes = memory.recall("walrus").notes

    assert not any(note.startswith("problems in the files") for note in notes)


@pytest.mark.parametrize("size", ["5000", 5000.0, True])
def test_a_turn_size_that_is_no_whole_number_is_refused(workspace: Path, size: object):
    with Memory(workspace, embeddings=False) as memory, pytest.raises(InputError) as raised:
        memory.context("Ann", total_input_bytes=size)  # type: ignore[arg-type]

    assert "total_input_bytes" in str(raised.value)


@pytest.mark.parametrize("days", ["7", 1.5, True, 0])
def test_metrics_days_must_be_a_whole_number_in_range(workspace: Path, days: object):
    with Memory(workspace, embeddings=False) as memory, pytest.raises(InputError) as raised:
        memory.metrics(days)  # type: ignore[arg-type]

    assert "days must be a whole number" in str(raised.value)
