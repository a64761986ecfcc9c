"""A query's time window, as recall answers it: a line's time of day, and newest first."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memstrata import Memory

NOW = datetime(2026, 12, 5, 10, 0, tzinfo=UTC)

# Yesterday's lines are not in the order of their times, as a hand-kept log may be.
YESTERDAY = """# 2026-12-04

- 10:00 Worked on the payments migration with @Ann.
- 15:30 Reviewed the deploy pipeline.
- 05:30 Night deploy finished without errors.
- 20:15 Dinner with the on-call team.
- 08:15 Breakfast meeting about the hiring plan.
"""
TODAY = """# 2026-12-05

- 02:00 Pager went off: disk full on db-3.
- 08:00 Standup about the roadmap.
- 09:50 Zebra crossing painted near the office.
"""


@pytest.fixture
def memory(workspace: Path) -> Iterator[Memory]:
    (workspace / "memory" / "2026-12-04.md").write_text(YESTERDAY, encoding="utf-8")
    (workspace / "memory" / "2026-12-05.md").write_text(TODAY, encoding="utf-8")
    with Memory(workspace, embeddings=False, clock=lambda: NOW) as opened:
        yield opened


@pytest.mark.parametrize(
    ("query", "since", "until", "expected"),
    [
        (
            "what happened last night",
            "2026-12-04T18:00:00Z",
            "2026-12-05T06:00:00Z",
            ["02:00 Pager went off: disk full on db-3.", "20:15 Dinner with the on-call team."],
        ),
        (
            "what happened yesterday afternoon",
            "2026-12-04T12:00:00Z",
            "2026-12-04T18:00:00Z",
            ["15:30 Reviewed the deploy pipeline."],
        ),
        (
            "anything new this morning?",
            "2026-12-05T00:00:00Z",
            "2026-12-05T12:00:00Z",
            [
                "09:50 Zebra crossing painted near the office.",
                "08:00 Standup about the roadmap.",
                "02:00 Pager went off: disk full on db-3.",
            ],
        ),
    ],
)
def test_a_part_of_a_day_in_a_query_holds_the_lines_of_those_hours(
    memory: Memory, query: str, since: str, until: str, expected: list[str]
):
    asked = [item.content for item in memory.recall(query).items]
    bounded = [item.content for item in memory.recall("", since=since, until=until).items]

    assert asked == expected
    assert bounded == expected


def test_a_line_that_opens_with_its_time_of_day_is_recalled_at_that_time(memory: Memory):
    [item] = memory.recall("pager disk", k=1).items

    assert item.time == "2026-12-05T02:00:00Z"


def test_a_line_without_a_time_of_day_is_recalled_at_its_day(workspace: Path):
    (workspace / "memory" / "2026-12-04.md").write_text(
        "# 2026-12-04\n\n- Pager went off twice.\n", encoding="utf-8"
    )
    with Memory(workspace, embeddings=False, clock=lambda: NOW) as memory:
        [item] = memory.recall("pager", k=1).items

    assert item.time == "2026-12-04"


def test_a_time_only_question_lists_newest_first_however_often_older_items_were_used(
    memory: Memory,
):
    memory.write_topic("projects/roadmap", "# Roadmap\nShip the billing service in Q1.")
    older = "memory/2026-12-04.md#L3"  # 10:00 yesterday
    for _ in range(40):
        memory.record_use([older])

    items = memory.recall("what happened this week?", k=5).items

    assert [item.time for item in items] == [
        "2026-12-05T10:00:00Z",  # the topic, written now
        "2026-12-05T09:50:00Z",
        "2026-12-05T08:00:00Z",
        "2026-12-05T02:00:00Z",
        "2026-12-04T20:15:00Z",
    ]
    assert older not in [item.source for item in items]


def test_a_time_only_question_takes_the_newest_lines_of_a_long_day(workspace: Path):
    # more lines than an arm's pool, the newest last in the file
    lines = "".join(f"- {hour:02d}:{minute:02d} Reading {hour}.{minute}\n"
                    for hour in range(10) for minute in (0, 10, 20, 30, 40, 50, 55))  # fmt: skip
    (workspace / "memory" / "2026-12-05.md").write_text(f"# 2026-12-05\n\n{lines}", "utf-8")
    with Memory(workspace, embeddings=False, clock=lambda: NOW) as memory:
        items = memory.recall("what happened today?", k=3).items

    assert [item.content for item in items] == ["09:55 Reading 9.55", "09:50 Reading 9.50",
                                                "09:40 Reading 9.40"]  # fmt: skip


def test_items_of_one_time_are_listed_in_a_fixed_order(workspace: Path):
    with Memory(workspace, embeddings=False, clock=lambda: NOW) as memory:
        for slug in ("cedar", "alder", "birch"):
            memory.write_topic(f"trees/{slug}", f"# {slug.title()}\nA tree.")
        first = [item.source for item in memory.recall("what happened today?").items]
        memory.record_use(["trees/alder"] * 3)
        again = [item.source for item in memory.recall("what happened today?").items]

    assert first == again == ["trees/cedar", "trees/birch", "trees/alder"]
