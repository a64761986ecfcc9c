"""Time expressions in queries and --since values, relative to an injected now."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memstrata.recall.temporal import find_time_windows, parse_since

NOW = datetime(2025, 11, 27, 10, 0, tzinfo=UTC)  # a Thursday


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did we decide in November 2025", "2025-11-01", "2025-12-01"),
        ("notes from 2025-11", "2025-11-01", "2025-12-01"),
        ("the outage on 2025-11-03", "2025-11-03", "2025-11-04"),
        ("what happened last week", "2025-11-17", "2025-11-24"),
        ("anything from yesterday", "2025-11-26", "2025-11-27"),
        ("who did I meet last Saturday", "2025-11-22", "2025-11-23"),
        ("trips in March", "2025-03-01", "2025-04-01"),
        ("plans for December", "2024-12-01", "2025-01-01"),
        ("last month's invoices", "2025-10-01", "2025-11-01"),
        ("everything in 2024", "2024-01-01", "2025-01-01"),
    ],
)
def test_query_time_expressions_become_windows(query, start, end):
    windows = find_time_windows(query, NOW)

    assert len(windows) == 1
    assert windows[0].start_iso[:10] == start
    assert windows[0].end_iso[:10] == end


def test_two_weeks_ago_is_a_window_around_that_day():
    (window,) = find_time_windows("the bug I fixed two weeks ago", NOW)

    assert window.contains(datetime(2025, 11, 13, tzinfo=UTC))
    assert not window.contains(datetime(2025, 11, 25, tzinfo=UTC))


def test_in_the_last_two_months_ends_now():
    (window,) = find_time_windows("books I bought in the last two months", NOW)

    assert window.end == NOW
    assert window.start_iso[:10] == "2025-09-28"


def test_may_as_a_verb_is_not_a_month():
    assert find_time_windows("you may want to retry", NOW) == []


def test_a_query_without_time_has_no_window():
    assert find_time_windows("how do I deploy the billing service?", NOW) == []


@pytest.mark.parametrize(("value", "days"), [("30d", 30), ("2w", 14), ("12h", 0.5), ("1y", 365)])
def test_compact_since_values_end_now(value, days):
    window = parse_since(value, NOW)

    assert window is not None
    assert window.end == NOW
    assert (NOW - window.start).total_seconds() == days * 86400


def test_since_accepts_dates_and_phrases():
    assert parse_since("2025-11", NOW).start_iso == "2025-11-01T00:00:00Z"
    assert parse_since("last week", NOW).start_iso == "2025-11-17T00:00:00Z"


@pytest.mark.parametrize("value", ["", "soon", "30x", "2025-13"])
def test_unparseable_since_values_give_none(value):
    assert parse_since(value, NOW) is None
