"""The entity and temporal arms of recall, on a real index: the newest items, ties by source."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memstrata.index.db import IndexDB
from memstrata.journal.parse import parse_journal
from memstrata.model import Topic, TopicMeta
from memstrata.recall import mentions
from memstrata.recall.items import POOL
from memstrata.recall.listing import items_in_windows
from memstrata.recall.mentions import mentioning
from memstrata.recall.temporal import TimeWindow

LIVE = ("active", "conflict")
TOPICS = 200


def _topic(number: int) -> Topic:
    """Topic ``number``: many share a time; every 2nd names @Ann, every 20th @Bo."""
    names = " ".join(name for name, every in (("@Ann", 2), ("@Bo", 20)) if number % every == 0)
    when = f"2025-{1 + number % 12:02d}-{1 + number % 3:02d}T09:00:00Z"
    state = "archived" if number % 7 == 0 else "active"
    meta = TopicMeta(state=state, created=when, updated=when, observed=when)
    return Topic(f"people/t{number:03d}", f"T{number}", f"# T{number}\n{names} note", "", meta)


@pytest.fixture(scope="module")
def index() -> IndexDB:
    opened = IndexDB.open_in_memory()
    opened.put_topics((_topic(number), "stamp") for number in range(TOPICS))
    for day in range(1, 29):
        source = f"memory/2025-10-{day:02d}.md"
        text = f"# 2025-10-{day:02d}\n\n- 10:00 met @Ann\n- 11:00 @Bo called\n- 12:00 lunch\n"
        opened.put_journal(source, parse_journal(text, source, f"2025-10-{day:02d}"), "stamp")
    return opened


def _expected_mentions(names: set[str]) -> list[str]:
    topics = [_topic(number) for number in range(TOPICS)]
    mentioning = [
        topic
        for topic in topics
        if topic.meta.state in LIVE and any(f"@{name}" in topic.summary for name in names)
    ]
    mentioning.sort(key=lambda topic: topic.id)
    mentioning.sort(key=lambda topic: topic.meta.observed, reverse=True)
    items = [(topic.meta.observed, topic.id) for topic in mentioning[:POOL]]
    lines = [line for name, line in (("Ann", 3), ("Bo", 4)) if name in names]
    entries = [(f"2025-10-{day:02d}", f"memory/2025-10-{day:02d}.md#L{line}")
               for day in range(28, 0, -1) for line in lines]  # fmt: skip
    items += entries[:POOL]
    return [source for _, source in sorted(items, reverse=True)]


@pytest.mark.parametrize(
    "names",
    [
        {"Ann"},  # named by half the topics: walks the topics newest first
        {"Bo"},  # named by a few: read from its mentions
        {"Ann", "Bo"},
    ],
)
@pytest.mark.parametrize("walk_factor", [0, mentions._WALK_FACTOR, 10**9])  # each plan, both
def test_the_entity_arm_ranks_the_newest_live_items_naming_the_entity(
    index: IndexDB, names: set[str], walk_factor: int, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(mentions, "_WALK_FACTOR", walk_factor)
    keys = sorted(name.casefold() for name in names)
    found = [item.source for item in mentioning(index.db, keys, LIVE)]
    assert found == _expected_mentions(names)


def test_the_temporal_arm_takes_the_newest_live_topics_of_a_window(index: IndexDB):
    window = TimeWindow(datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 12, 1, tzinfo=UTC), "x")
    items = items_in_windows(index.db, [window], LIVE)
    found = [item.source for item in items if "#L" not in item.source]
    inside = [
        _topic(number)
        for number in range(TOPICS)
        if "2025-03" <= _topic(number).meta.observed < "2025-12" and number % 7
    ]
    inside.sort(key=lambda topic: topic.id)
    inside.sort(key=lambda topic: topic.meta.observed, reverse=True)
    kept = sorted(((topic.meta.observed, topic.id) for topic in inside[:POOL]), reverse=True)
    assert found == [topic_id for _, topic_id in kept]
