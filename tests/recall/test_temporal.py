"""Time expressions in queries and --since values, relative to an injected now."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memstrata.recall.temporal import (
    QUERY_CHARS,
    asks_only_about_time,
    bound,
    find_time_windows,
    parse_since,
)

# Words and numbers the parser reacts to, to be shuffled into any order.
TIME_WORDS = (
    "last this past in on the of day before yesterday today night morning tonight winter summer "
    "fall spring Christmas Eve Easter Valentine's New Year's Thanksgiving May March Feb. 0 1 3rd "
    "29 31 0000 0001 1899 2024 9999 , ago weeks two a few recently lately other weekend over"
).split()

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


@pytest.mark.parametrize("value", ["", "soon", "30x", "2025-13", "99999999d", "May 0000"])
def test_unparseable_since_values_give_none(value):
    assert parse_since(value, NOW) is None


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did we ship on March 3rd", "2025-03-03", "2025-03-04"),
        ("the call on 3 March", "2025-03-03", "2025-03-04"),
        ("notes from the 14th of February 2024", "2024-02-14", "2024-02-15"),
        ("what painting did she show on October 13, 2023", "2023-10-13", "2023-10-14"),
        ("the picture shared on December 1,2023", "2023-12-01", "2023-12-02"),
        ("on Nov. 3", "2025-11-03", "2025-11-04"),
        ("where did I fly on Valentine's day", "2025-02-14", "2025-02-15"),
        ("what we cooked for Christmas", "2024-12-25", "2024-12-26"),
        ("gifts for Christmas Eve 2023", "2023-12-24", "2023-12-25"),
        ("the party on New Year's Eve", "2024-12-31", "2025-01-01"),
        ("the hike at Easter", "2025-04-20", "2025-04-21"),
        ("brunch on Mother's Day", "2025-05-11", "2025-05-12"),
        ("the fireworks on the fourth of July", "2025-07-04", "2025-07-05"),
        ("the costume for Halloween", "2025-10-31", "2025-11-01"),
        ("where we went last summer", "2025-06-01", "2025-09-01"),
        ("the trip in summer 2021", "2021-06-01", "2021-09-01"),
        ("skiing in winter 2024", "2023-12-01", "2024-03-01"),
        ("what I read last night", "2025-11-26T18", "2025-11-27T06"),
        ("the meeting this morning", "2025-11-27T00", "2025-11-27T12"),
        ("the call yesterday afternoon", "2025-11-26T12", "2025-11-26T18"),
        ("what I ate the day before yesterday", "2025-11-25", "2025-11-26"),
    ],
)
def test_named_days_seasons_and_parts_of_a_day_are_windows(query, start, end):
    (window,) = find_time_windows(query, NOW)

    assert window.start_iso.startswith(start)
    assert window.end_iso.startswith(end)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("the shop I found the other day", "2025-11-20T00", "2025-11-27T00"),  # whole days
        ("what we did over the weekend", "2025-11-22", "2025-11-24"),
        ("the week before last", "2025-11-10", "2025-11-17"),
        ("bills from the month before last", "2025-09-01", "2025-10-01"),
        ("the year before last", "2023-01-01", "2024-01-01"),
    ],
)
def test_phrases_counted_back_from_now_are_windows(query, start, end):
    (window,) = find_time_windows(query, NOW)

    assert window.start_iso.startswith(start)
    assert window.end_iso.startswith(end)


def test_recently_is_not_a_window_as_it_may_mean_recent_to_what_is_told():
    assert find_time_windows("what did Melanie paint recently?", NOW) == []


def test_on_a_saturday_this_weekend_is_under_way_and_last_weekend_the_one_before():
    saturday = datetime(2025, 11, 29, 10, 0, tzinfo=UTC)

    (this,) = find_time_windows("this weekend", saturday)
    (last,) = find_time_windows("last weekend", saturday)
    (past,) = find_time_windows("the past weekend", saturday)

    assert (this.start_iso[:10], this.end_iso[:10]) == ("2025-11-29", "2025-12-01")
    assert (last.start_iso[:10], last.end_iso[:10]) == ("2025-11-22", "2025-11-24")
    assert (past.start, past.end) == (last.start, last.end)


def test_a_day_without_a_year_is_its_latest_occurrence_by_now():
    # NOW is Thanksgiving 2025 (27 November): today counts, "last" means the one before.
    (today,) = find_time_windows("dinner on Thanksgiving", NOW)
    (before,) = find_time_windows("dinner last Thanksgiving", NOW)
    (leap,) = find_time_windows("what happened on February 29", NOW)

    assert today.start_iso[:10] == "2025-11-27"
    assert before.start_iso[:10] == "2024-11-28"
    assert leap.start_iso[:10] == "2024-02-29"


def test_last_before_a_season_under_way_means_the_one_before_it():
    in_winter = datetime(2026, 1, 15, tzinfo=UTC)

    (this,) = find_time_windows("this winter", in_winter)
    (last,) = find_time_windows("last winter", in_winter)

    assert (this.start_iso[:10], this.end_iso[:10]) == ("2025-12-01", "2026-03-01")
    assert (last.start_iso[:10], last.end_iso[:10]) == ("2024-12-01", "2025-03-01")


@pytest.mark.parametrize(
    "query",
    ["I had a fall", "spring cleaning tips", "a spring in the mattress", "you may 2 things"],
)
def test_words_that_only_look_like_times_are_not_windows(query):
    assert find_time_windows(query, NOW) == []


@pytest.mark.parametrize("query", ["10000 years ago", "in the last 5000 years", "Christmas 0001"])
def test_times_before_the_calendar_are_not_windows(query):
    assert find_time_windows(query, NOW) == []


def test_a_named_day_is_one_window_not_a_month_and_a_year():
    windows = find_time_windows("was John away on August 11 or on August 15 2023", NOW)

    assert [(w.start_iso[:10], w.phrase) for w in windows] == [
        ("2025-08-11", "August 11"),
        ("2023-08-15", "August 15 2023"),
    ]


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("where was John between August 11 and August 15 2023", "2023-08-11", "2023-08-16"),
        ("the trip from March 3 to 5, 2024", "2024-03-03", "2024-03-06"),
        ("what we did March 28 - April 2", "2025-03-28", "2025-04-03"),
        ("the break from December 30 to January 2", "2024-12-30", "2025-01-03"),
    ],
)
def test_a_span_of_days_is_one_window_in_the_year_it_ends(query, start, end):
    (window,) = find_time_windows(query, NOW)

    assert (window.start_iso[:10], window.end_iso[:10]) == (start, end)


@given(st.lists(st.sampled_from(TIME_WORDS), max_size=12).map(" ".join))
def test_any_run_of_time_words_parses_without_error(query):
    for window in find_time_windows(query, NOW):
        assert window.start <= window.end


def test_time_words_are_read_from_the_start_of_a_pasted_query_only():
    pasted = "2024-01-02 deploy ok\n" * 5000  # 100 KB of log lines, each with a date

    windows = find_time_windows(pasted + " what happened yesterday", NOW)

    assert 0 < len(windows) <= QUERY_CHARS // 10
    assert "yesterday" not in {window.phrase for window in windows}


@pytest.mark.parametrize(
    "query", ["what happened on 9999-12-31", "the 31st of December 9999", "New Year's Eve 9999"]
)
def test_days_at_the_calendars_end_are_not_windows(query):
    assert find_time_windows(query, NOW) == []


@pytest.mark.parametrize(
    ("value", "instant"),
    [
        ("2025-06-15T00:00:00Z", "2025-06-15T00:00:00Z"),
        ("2025-06-15T08:00:00+02:00", "2025-06-15T06:00:00Z"),
        ("2025-06-15 08:30", "2025-06-15T08:30:00Z"),
    ],
)
def test_a_timestamp_bound_is_that_instant_not_its_month(value, instant):
    assert bound(value, NOW, start=True) == bound(value, NOW, start=False) == instant


@pytest.mark.parametrize(
    "value",
    ["15.06.2025", "06/15/2025", "garbage 2025-06 garbage", "not since yesterday", "9999-12-31"],
)
def test_a_bound_must_be_a_time_and_nothing_else(value):
    assert parse_since(value, NOW) is None


@pytest.mark.parametrize(
    ("value", "day"),
    [("monday", "2025-11-24"), ("since Tuesday", "2025-11-25"), ("Thursday", "2025-11-20")],
)
def test_a_weekday_alone_as_a_bound_is_the_last_one_before_today(value, day):
    assert bound(value, NOW, start=True) == f"{day}T00:00:00Z"


def test_a_bound_may_say_in_or_since_around_its_time():
    assert bound("in November 2024", NOW, start=True) == "2024-11-01T00:00:00Z"
    assert bound("since last week", NOW, start=True) == bound("last week", NOW, start=True)


def test_until_a_span_back_means_until_that_long_ago():
    assert bound("30d", NOW, start=False) == bound("30d", NOW, start=True)
    assert bound("30d", NOW, start=True) == "2025-10-28T10:00:00Z"
    assert bound("2025-11", NOW, start=False) == "2025-12-01T00:00:00Z"  # all of November


@pytest.mark.parametrize(
    ("value", "compact"),
    [
        ("1 week", "1w"),
        ("2 days", "2d"),
        ("2days", "2d"),
        ("3 months", "3m"),
        ("1 year", "1y"),
        ("12 hours", "12h"),
        ("two weeks", "2w"),
        ("a week", "1w"),
    ],
)
def test_a_bare_duration_bound_is_its_compact_span(value, compact):
    assert bound(value, NOW, start=True) == bound(compact, NOW, start=True)
    assert bound(value, NOW, start=False) == bound(compact, NOW, start=False)


@pytest.mark.parametrize("value", ["week", "aweek", "1 fortnight", "2 weeks later"])
def test_a_duration_needs_a_count_and_a_unit(value):
    assert parse_since(value, NOW) is None


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("APRİL 2024", "2024-04-01", "2024-05-01"),  # a Turkish keyboard's capital I
        ("auguſt 3rd", "2025-08-03", "2025-08-04"),  # the long s
        ("laſt week", "2025-11-17", "2025-11-24"),
        ("trips in marı", None, None),  # a dotless i is no letter of a word it does not fit
    ],
)
def test_letters_a_case_blind_match_reads_as_ascii_name_the_time_they_spell(text, start, end):
    # The patterns take "İ", "ı" and "ſ" for "i" and "s"; the tables must read them so too,
    # where a lookup of "aprİl" once raised KeyError out of recall.
    windows = find_time_windows(text, NOW)

    if start is None:
        assert windows == []
    else:
        assert [(w.start_iso[:10], w.end_iso[:10]) for w in windows] == [(start, end)]
        assert parse_since(text, NOW) == windows[0]


def test_a_bound_spelt_with_such_letters_is_read_too():
    six_weeks_ago = bound("six weeks", NOW, start=True)

    assert six_weeks_ago == "2025-10-16T10:00:00Z"
    assert bound("ſix weeks", NOW, start=True) == six_weeks_ago


def test_a_question_of_time_alone_spelt_with_such_letters_still_asks_only_about_time():
    query = "what happened in APRİL 2024?"

    assert asks_only_about_time(query, find_time_windows(query, NOW))


@pytest.mark.parametrize(
    ("query", "start"),
    [
        ("what did we eat at Chinese New Year?", "2025-01-29"),
        ("Lunar New Year's Eve dinner", "2025-01-28"),
        ("the Spring Festival 2024", "2024-02-10"),  # a festival, not the season
        ("the lantern festival", "2025-02-12"),
        ("Dragon Boat Festival", "2025-05-31"),
        ("on Qixi", "2025-08-29"),
        ("last Mid-Autumn Festival", "2025-10-06"),
        ("mid autumn 2024", "2024-09-17"),
        ("the double ninth festival", "2025-10-29"),
    ],
)
def test_the_chinese_calendars_festivals_are_their_days(query, start):
    (window,) = find_time_windows(query, NOW)

    assert (window.start_iso[:10], (window.end - window.start).days) == (start, 1)


def test_a_festival_not_yet_come_this_year_is_last_years():
    before_the_new_year = datetime(2025, 1, 20, tzinfo=UTC)

    (window,) = find_time_windows("Chinese New Year", before_the_new_year)

    assert window.start_iso[:10] == "2024-02-10"
