"""Chinese time phrases in queries, as the same windows as their English equivalents."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memstrata.recall.temporal import asks_only_about_time, bound, find_time_windows

NOW = datetime(2025, 11, 27, 10, 0, tzinfo=UTC)  # a Thursday
SUNDAY = datetime(2025, 11, 30, 10, 0, tzinfo=UTC)


def window_of(query: str, now: datetime = NOW) -> tuple[str, str, str]:
    (window,) = find_time_windows(query, now)
    return window.phrase, window.start_iso[:16], window.end_iso[:16]


@pytest.mark.parametrize(
    ("query", "phrase", "start", "end"),
    [
        ("今天开了什么会", "今天", "2025-11-27T00:00", "2025-11-28T00:00"),
        ("昨天买的书", "昨天", "2025-11-26T00:00", "2025-11-27T00:00"),
        ("前天的晚饭", "前天", "2025-11-25T00:00", "2025-11-26T00:00"),
        ("今早的会议", "今早", "2025-11-27T00:00", "2025-11-27T12:00"),
        ("今天早上喝的咖啡", "今天早上", "2025-11-27T00:00", "2025-11-27T12:00"),
        ("今天上午的电话", "今天上午", "2025-11-27T00:00", "2025-11-27T12:00"),
        ("今天下午的讨论", "今天下午", "2025-11-27T12:00", "2025-11-27T18:00"),
        ("今晚的计划", "今晚", "2025-11-27T18:00", "2025-11-28T06:00"),
        ("昨晚看的电影", "昨晚", "2025-11-26T18:00", "2025-11-27T06:00"),
        ("昨天晚上看的电影", "昨天晚上", "2025-11-26T18:00", "2025-11-27T06:00"),
        ("昨天下午和谁通话", "昨天下午", "2025-11-26T12:00", "2025-11-26T18:00"),
    ],
)
def test_chinese_days_and_parts_of_a_day_are_the_english_windows(query, phrase, start, end):
    assert window_of(query) == (phrase, start, end)


@pytest.mark.parametrize(
    ("query", "phrase", "start", "end"),
    [
        ("本周的任务", "本周", "2025-11-24T00:00", "2025-12-01T00:00"),
        ("这周读了什么书", "这周", "2025-11-24T00:00", "2025-12-01T00:00"),
        ("这个星期的会议", "这个星期", "2025-11-24T00:00", "2025-12-01T00:00"),
        ("上周的会议纪要", "上周", "2025-11-17T00:00", "2025-11-24T00:00"),
        ("上个星期的账单", "上个星期", "2025-11-17T00:00", "2025-11-24T00:00"),
        ("上星期的账单", "上星期", "2025-11-17T00:00", "2025-11-24T00:00"),
        ("上上周的发布", "上上周", "2025-11-10T00:00", "2025-11-17T00:00"),
        ("上周末去哪玩了", "上周末", "2025-11-22T00:00", "2025-11-24T00:00"),
        ("本月的开销", "本月", "2025-11-01T00:00", "2025-12-01T00:00"),
        ("这个月的开销", "这个月", "2025-11-01T00:00", "2025-12-01T00:00"),
        ("上个月的发票", "上个月", "2025-10-01T00:00", "2025-11-01T00:00"),
        ("上月的发票", "上月", "2025-10-01T00:00", "2025-11-01T00:00"),
        ("今年的目标", "今年", "2025-01-01T00:00", "2026-01-01T00:00"),
        ("去年的旅行", "去年", "2024-01-01T00:00", "2025-01-01T00:00"),
        ("前年的旅行", "前年", "2023-01-01T00:00", "2024-01-01T00:00"),
    ],
)
def test_chinese_weeks_months_and_years_are_calendar_windows(query, phrase, start, end):
    assert window_of(query) == (phrase, start, end)


@pytest.mark.parametrize(
    ("query", "phrase", "day"),
    [
        ("我上周六和谁去了音乐会", "上周六", "2025-11-22"),
        ("上个星期六的聚会", "上个星期六", "2025-11-22"),
        ("上星期六的聚会", "上星期六", "2025-11-22"),
        ("上礼拜一的例会", "上礼拜一", "2025-11-17"),
        ("这周三的演示", "这周三", "2025-11-26"),
        ("本周四的周会", "本周四", "2025-11-27"),
        ("周一的站会", "周一", "2025-11-24"),
        ("星期天去了哪里", "星期天", "2025-11-23"),
        ("星期日的晚餐", "星期日", "2025-11-23"),
        ("礼拜三的课", "礼拜三", "2025-11-26"),
    ],
)
def test_chinese_weekdays_are_days(query, phrase, day):
    assert window_of(query)[:2] == (phrase, f"{day}T00:00")


def test_last_weeks_saturday_is_in_last_week_even_on_a_sunday():
    # "last Saturday" on a Sunday is yesterday; 上周六 is the Saturday of 上周
    assert window_of("上周六", SUNDAY)[1] == "2025-11-22T00:00"
    assert window_of("周六", SUNDAY)[1] == "2025-11-29T00:00"


def test_a_weekday_of_this_week_still_to_come_is_read_as_this_week():
    assert window_of("这周五的安排") == ("这周", "2025-11-24T00:00", "2025-12-01T00:00")


@pytest.mark.parametrize("query", ["每周一开会", "一周一次的例会", "三个月的计划", "最近在忙什么"])
def test_chinese_words_that_only_look_like_times_are_not_windows(query):
    assert find_time_windows(query, NOW) == []


@pytest.mark.parametrize(
    ("query", "phrase", "start", "end"),
    [
        ("2026年11月的计划", "2026年11月", "2026-11-01", "2026-12-01"),
        ("2026年11月3日的会", "2026年11月3日", "2026-11-03", "2026-11-04"),
        ("11月3日的会", "11月3日", "2025-11-03", "2025-11-04"),
        ("11月3号的会", "11月3号", "2025-11-03", "2025-11-04"),
        ("12月3号的会", "12月3号", "2024-12-03", "2024-12-04"),  # not yet this year
        ("十二月二十五日", "十二月二十五日", "2024-12-25", "2024-12-26"),
        ("2025年的总结", "2025年", "2025-01-01", "2026-01-01"),
        ("三月份的旅行", "三月份", "2025-03-01", "2025-04-01"),
        ("十二月的旅行", "十二月", "2024-12-01", "2025-01-01"),
        ("去年三月的旅行", "去年三月", "2024-03-01", "2024-04-01"),
        ("今年5月1日", "今年5月1日", "2025-05-01", "2025-05-02"),
        ("去年圣诞节收到的礼物", "去年圣诞节", "2024-12-25", "2024-12-26"),
        ("情人节的晚餐", "情人节", "2025-02-14", "2025-02-15"),
    ],
)
def test_chinese_dates_follow_the_english_rule_for_a_missing_year(query, phrase, start, end):
    found, window_start, window_end = window_of(query)

    assert (found, window_start[:10], window_end[:10]) == (phrase, start, end)


@pytest.mark.parametrize(
    ("chinese", "english"),
    [
        ("最近三天", "in the past 3 days"),
        ("过去一周", "in the past 1 week"),
        ("近一个月", "in the last 1 month"),
        ("最近几天", "in the past few days"),
        ("过去两年", "in the past two years"),
        ("这两天", "in the past two days"),
        ("三天前", "3 days ago"),
        ("两周前", "two weeks ago"),
        ("两个星期前", "two weeks ago"),
        ("一个月前", "a month ago"),
        ("几天前", "a few days ago"),
        ("十二天前", "12 days ago"),
        ("3年前", "3 years ago"),
        ("半年前", "6 months ago"),
        ("前几天", "the other day"),
    ],
)
def test_chinese_spans_back_from_now_are_the_english_windows(chinese, english):
    (zh,) = find_time_windows(f"我{chinese}买的东西", NOW)
    (en,) = find_time_windows(english, NOW)

    assert (zh.phrase, zh.start, zh.end) == (chinese, en.start, en.end)


@pytest.mark.parametrize(
    ("query", "only_time"),
    [
        ("上周发生了什么", True),
        ("昨天有什么新的", True),
        ("昨天我做了什么", True),
        ("最近三天有什么新消息", True),
        ("我上周六和谁去了音乐会", False),
        ("上周的会议纪要", False),
        ("去年买的相机", False),
    ],
)
def test_a_chinese_query_naming_only_a_time_asks_what_lies_in_it(query, only_time):
    assert asks_only_about_time(query, find_time_windows(query, NOW)) is only_time


@pytest.mark.parametrize(("value", "start"), [("上周", "2025-11-17"), ("2025年11月", "2025-11-01")])
def test_a_chinese_phrase_is_a_bound(value, start):
    assert bound(value, NOW, start=True) == f"{start}T00:00:00Z"


@pytest.mark.parametrize(
    ("query", "phrase", "start"),
    [
        ("春节期间做了什么", "春节", "2025-01-29"),
        ("除夕夜吃了什么", "除夕", "2025-01-28"),
        ("元宵节的灯会", "元宵节", "2025-02-12"),
        ("端午节那天", "端午节", "2025-05-31"),
        ("七夕送了什么", "七夕", "2025-08-29"),
        ("去年中秋节在哪里", "去年中秋节", "2024-09-17"),
        ("重阳节去爬山", "重阳节", "2025-10-29"),
    ],
)
def test_chinese_festivals_are_their_days_of_the_lunar_year(query, phrase, start):
    assert window_of(query)[:2] == (phrase, f"{start}T00:00")


def test_yuanxiao_alone_is_the_dish_not_the_festival():
    assert find_time_windows("晚饭吃了元宵", NOW) == []
