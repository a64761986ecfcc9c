"""Chinese time phrases, translated into the English ones :mod:`temporal` reads.

Chinese is written without spaces, so a phrase is found inside a sentence ("我上周六和谁去了音乐会"
holds 上周六). Each phrase becomes the English phrase of the same meaning ("上周" → "last week",
"三天前" → "3 days ago", "最近几天" → "past few days", "2026年11月3日" → "November 3 2026"), so a
window means the same in both languages; where Chinese means something English cannot say in
words, the translation is a date computed from ``now``:

* 上周六, 上个星期六, 上礼拜六 is the Saturday of last week (Monday to Sunday, as 上周 is),
  not the latest Saturday as "last Saturday" is: on a Sunday they are eight days apart;
* 这周五, 本周五 is the Friday of this week; a weekday of this week still to come names no day
  (nothing is recalled from the future), and 这周 alone is read instead;
* 去年三月, 今年11月3日: a month or day of a named year.

A weekday alone (周六, 星期天, 礼拜一) is the latest before today, as "on Saturday" is; one
after 每 ("every") or a number (一周一次) is none. A month alone (十一月, 3月份) is its latest
occurrence by now, as "in November" is; a day of a month without a year (11月3号) follows
"March 3rd".
The festivals of the Chinese calendar (春节, 除夕, 元宵节, 端午, 七夕, 中秋, 重阳节) are their
days of the lunar year, as "Mid-Autumn Festival" is in English (元宵 alone is also the dish, and
重阳 alone a name, so only 元宵节 and 重阳节 count). Not understood: 明天 and other future times
(the English side has no "tomorrow" either), dates written in Chinese numerals with a year
(二〇二五年).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_NUMERAL = r"(?:\d{1,3}|[一二两三四五六七八九十]{1,3}|几|半)"
_MONTH_NUMERAL = r"(\d{1,2}|十[一二]?|[一二三四五六七八九])"
_DAY_NUMERAL = r"(\d{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"
_MONTH_NAMES = (
    "January February March April May June July August September October November December"
).split()
_WEEKDAY_NAMES = "monday tuesday wednesday thursday friday saturday sunday".split()
_WEEKDAY_INDEX = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_UNITS = {
    "天": "day", "日": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month",
    "年": "year", "小时": "hour", "钟头": "hour",
}  # fmt: skip
# 个 is optional before most units and needed before 月: 三月 is March, 三个月 three months.
_UNIT = r"(?:个)?(天|日|周|星期|礼拜|小时|钟头|年)|个(月)"
_WEEK = r"(?:个|一个)?(?:周|星期|礼拜)"
_YEAR = r"(?:(\d{4})年|([今去前])年)"

_SIMPLE = {
    "今天": "today", "今日": "today", "昨天": "yesterday", "昨日": "yesterday",
    "前天": "the day before yesterday",
    "今早": "this morning", "今晚": "tonight", "今夜": "tonight",
    "昨晚": "last night", "昨夜": "last night",
    "今年": "this year", "本年": "this year", "去年": "last year", "前年": "the year before last",
    "本月": "this month", "这个月": "this month", "这月": "this month",
    "上个月": "last month", "上月": "last month", "上上个月": "the month before last",
    "这一个月": "this month", "这一年": "this year",
}  # fmt: skip
_HOLIDAYS = {
    "圣诞节": "Christmas", "圣诞": "Christmas", "平安夜": "Christmas Eve",
    "元旦": "New Year's Day", "情人节": "Valentine's Day", "万圣节": "Halloween",
    "感恩节": "Thanksgiving", "复活节": "Easter", "母亲节": "Mother's Day",
    "父亲节": "Father's Day", "愚人节": "April Fool's Day",
    "春节": "Chinese New Year", "农历新年": "Chinese New Year", "大年初一": "Chinese New Year",
    "除夕": "Chinese New Year's Eve", "大年三十": "Chinese New Year's Eve",
    "元宵节": "Lantern Festival", "端午节": "Dragon Boat Festival", "端午": "Dragon Boat Festival",
    "七夕节": "Qixi", "七夕": "Qixi", "中秋节": "Mid-Autumn Festival",
    "中秋": "Mid-Autumn Festival", "重阳节": "Double Ninth Festival",
}  # fmt: skip
_PARTS = {
    "早上": "morning", "上午": "morning", "早晨": "morning", "下午": "afternoon",
    "傍晚": "evening", "晚上": "night",
}  # fmt: skip
_DAYS = {"今天": "this", "今日": "this", "昨天": "yesterday", "昨日": "yesterday"}


def _alternatives(words: Iterable[str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


_DAY_PART = re.compile(f"({_alternatives(_DAYS)})({_alternatives(_PARTS)})")
_AGO = re.compile(rf"(?<![\d一二两三四五六七八九十])({_NUMERAL})(?:{_UNIT})(?:之前|以前|前)")
# 这一周 is this week, 这两天 the last two days
_LAST_N = re.compile(rf"(?:最近|过去|近|这(?!一))的?({_NUMERAL})(?:{_UNIT})")
_OTHER_DAY = re.compile(r"前(?:几|些|两)(?:天|日子)")
_WEEKEND = re.compile(r"(上|这|本)个?周末")
_WEEK_DAY = re.compile(rf"(上|这|本){_WEEK}([一二三四五六日天])")
_NOT_A_DAY_BEFORE = r"(?<![这本上下个每\d一二两三四五六七八九十])"  # 每周一 is every Monday
_BARE_WEEKDAY = re.compile(rf"{_NOT_A_DAY_BEFORE}(?:周|星期|礼拜)([一二三四五六日天])")
_WEEK_BEFORE_LAST = re.compile(rf"上上{_WEEK}")
_THIS_OR_LAST_WEEK = re.compile(rf"(上|这|本){_WEEK}|这一周|上一周")
_MONTH_DAY = re.compile(rf"{_YEAR}?{_MONTH_NUMERAL}月{_DAY_NUMERAL}[日号]")
_MONTH = re.compile(rf"{_YEAR}?(?<![\d一二两三四五六七八九十个]){_MONTH_NUMERAL}月份?")
_HOLIDAY = re.compile(rf"{_YEAR}?({_alternatives(_HOLIDAYS)})")
_YEAR_ONLY = re.compile(r"(?<!\d)(\d{4})年")
_SIMPLE_WORDS = re.compile(_alternatives(_SIMPLE))


def chinese_number(text: str) -> float | None:
    """``三`` → 3, ``十二`` → 12, ``二十`` → 20, ``两`` → 2, ``半`` → 0.5, ``12`` → 12."""
    if text.isdigit():
        return float(text)
    if text == "半":
        return 0.5
    if text == "十":
        return 10.0
    tens, ten, ones = text.partition("十")
    if not ten:
        return float(_DIGITS[text]) if text in _DIGITS else None
    if (tens and tens not in _DIGITS) or (ones and ones not in _DIGITS):
        return None
    return float(_DIGITS.get(tens, 1) * 10 + _DIGITS.get(ones, 0))


def _count(text: str) -> str | None:
    """A count as the English reader takes it: ``几`` is "few"; none below one."""
    if text == "几":
        return "few"
    number = chinese_number(text)
    if number is None or number < 1:
        return None
    return str(int(number))


def _span(match: re.Match[str], template: str) -> str | None:
    """A count and unit in ``template``: 三天 → "3 days"; half a month or year in the days or
    months it holds."""
    number, name = match.group(1), _UNITS[match.group(2) or match.group(3)]
    if number == "半":
        span = {"month": "15 days", "year": "6 months", "day": "12 hours"}.get(name)
    else:
        count = _count(number)
        span = None if count is None else f"{count} {name}s"
    return None if span is None else template.format(span)


def _weekday(match: re.Match[str], now: datetime) -> str | None:
    """上周六 (the Saturday of last week) or 这周五 (of this week, if it has begun) as a date."""
    which, day = match.group(1), _WEEKDAY_INDEX[match.group(2)]
    monday = now.date() - timedelta(days=now.weekday() + (7 if which == "上" else 0))
    moment = monday + timedelta(days=day)
    return moment.isoformat() if moment <= now.date() else None


def _year(match: re.Match[str], now: datetime) -> str | None:
    """The year a date names, as digits: ``2026年`` or 今年 / 去年 / 前年 from ``now``."""
    if match.group(1):
        return match.group(1)
    if match.group(2):
        return str(now.year - "今去前".index(match.group(2)))
    return None


def _month_day(match: re.Match[str], now: datetime) -> str | None:
    month, day = chinese_number(match.group(3)), chinese_number(match.group(4))
    if month is None or day is None or not 1 <= month <= 12:
        return None
    year = _year(match, now)
    english = f"{_MONTH_NAMES[int(month) - 1]} {int(day)}"
    return f"{english} {year}" if year else english


def _holiday(match: re.Match[str], now: datetime) -> str:
    """圣诞节 → "Christmas" (the latest by now), 去年圣诞节 → "Christmas 2024"."""
    year = _year(match, now)
    name = _HOLIDAYS[match.group(3)]
    return f"{name} {year}" if year else name


def _month(match: re.Match[str], now: datetime) -> str | None:
    month = chinese_number(match.group(3))
    if month is None or not 1 <= month <= 12:
        return None
    year = _year(match, now)
    return f"{year}-{int(month):02d}" if year else f"in {_MONTH_NAMES[int(month) - 1]}"


# (pattern, its English reading): most specific first, as temporal.py reads them, so a span
# taken by 上周六 is not read again as 上周, nor 三天前 as 前天.
Translate = Callable[[re.Match[str], datetime], str | None]
TRANSLATIONS: tuple[tuple[re.Pattern[str], Translate], ...] = (
    (_MONTH_DAY, _month_day),
    (_MONTH, _month),
    (_HOLIDAY, _holiday),
    (_YEAR_ONLY, lambda m, now: m.group(1)),
    (_AGO, lambda m, now: _span(m, "{} ago")),
    (_LAST_N, lambda m, now: _span(m, "past {}")),
    (_OTHER_DAY, lambda m, now: "the other day"),
    (_DAY_PART, lambda m, now: f"{_DAYS[m.group(1)]} {_PARTS[m.group(2)]}"),
    (_WEEK_DAY, _weekday),
    (_WEEKEND, lambda m, now: "last weekend" if m.group(1) == "上" else "this weekend"),
    (_WEEK_BEFORE_LAST, lambda m, now: "the week before last"),
    (_THIS_OR_LAST_WEEK, lambda m, now: "last week" if m.group(0)[0] == "上" else "this week"),
    (_BARE_WEEKDAY, lambda m, now: f"on {_WEEKDAY_NAMES[_WEEKDAY_INDEX[m.group(1)]]}"),
    (_SIMPLE_WORDS, lambda m, now: _SIMPLE[m.group(0)]),
)

# Words that ask for whatever took place or are grammar around a time, naming nothing to match:
# with a time, "上周发生了什么" or "昨天有什么新的" asks what lies in that time (the English
# words are temporal.py's ``_ANY_EVENT`` and the stop words).
_ANY_EVENT = re.compile(
    _alternatives(
        "发生 什么 啥 新的 新鲜事 新 事情 事 消息 新闻 动态 情况 东西 进展 任何 一些 哪些 些 "
        "有 没有 做 干 忙 都 我们 我 你 了 的 吗 呢 吧 啊 呀 么 过 在 是 和 到 里 内 中 期间 "
        "以来 自从 从 开始 谁 哪里 哪儿 哪 怎么样 怎么 那 这 个 一下 还 嘛 得".split()
    )
)


def without_any_event_words(text: str) -> str:
    """``text`` without the Chinese words that ask for any event (see ``_ANY_EVENT``)."""
    return _ANY_EVENT.sub(" ", text)
