"""``search`` and the times a query names: a day's entries hold no date, so a query that names
a time and nothing else lists what lies in it, and a word match inside the time rises."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memstrata import Memory

NOW = datetime(2025, 11, 27, 10, tzinfo=UTC)  # a Thursday: last week is 17-23 November


@pytest.fixture
def days(workspace: Path) -> Memory:
    memory = workspace / "memory"
    (memory / "2025-11-10.md").write_text("# 2025-11-10\n\n- Billing rollout planned.\n")
    (memory / "2025-11-18.md").write_text(
        "# 2025-11-18\n\n- Shipped the payments v2 API.\n- Billing outage review.\n"
    )
    (memory / "2025-11-26.md").write_text(
        "# 2025-11-26\n\n- Reviewed the billing PR.\n- Lunch with the platform team.\n"
        "- Billing dashboard fixed.\n- Moved the standup.\n- Planned the offsite.\n"
        "- Read the RFC.\n- Answered mail.\n- Paired on search.\n- Fixed a flaky test.\n"
        "- Wrote the notes.\n"
    )
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as opened:
        yield opened


@pytest.mark.parametrize("query", ["2025-11-26", "November 26th", "what happened yesterday?"])
def test_a_query_naming_only_a_day_lists_that_days_entries_latest_line_first(
    days: Memory, query: str
):
    hits = days.search(query, limit=20, include_raw=False)

    assert [hit.source for hit in hits] == [f"memory/2025-11-26.md#L{n}" for n in range(12, 2, -1)]


def test_a_word_match_inside_the_time_named_comes_first(days: Memory):
    words = [hit.source for hit in days.search("billing", include_raw=False)]
    timed = [hit.source for hit in days.search("billing last week", include_raw=False)]

    assert set(timed) == set(words)  # the time ranks what the words found, adds nothing
    assert timed[0] == "memory/2025-11-18.md#L4"
    assert words[0] != timed[0]
