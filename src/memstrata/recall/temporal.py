"""The temporal arm: time expressions in a query or a ``--since`` value, as windows of time.

Everything is relative to an injected ``now`` (never the wall clock). Understood:

* compact spans for ``--since``: ``30d``, ``2w``, ``6m``, ``1y``, ``12h``;
* dates: ``2025``, ``2025-11``, ``2025-11-27`` (also ``2025/11/27``);
* ``today``, ``yesterday``, ``this|last|past week|month|year``, ``last weekend``, ``over the
  weekend``, ``the week|month|year before last``;
* ``the other day`` (the seven whole days before today);
* ``N days|weeks|months|years ago`` (``a``/``one``…``twelve``/digits), ``a few days ago``;
* ``in the last|past N days|weeks|months|years``, ``in the past few weeks|months``;
* month names with or without a year: ``in November 2025``, ``November``, ``Nov 2025``
  (a bare month is its latest occurrence not after ``now``);
* weekdays: ``last Saturday``, ``on Tuesday`` (the latest such day before ``now``);
* days of a month: ``March 3rd``, ``3 March``, ``the 14th of February 2025``, and spans of
  them: ``August 11 to 15 2023``, ``between March 3 and March 5``;
* holidays: ``Valentine's Day``, ``Christmas (Eve)``, ``New Year's (Eve)``, ``Halloween``,
  ``Easter``, ``Thanksgiving`` and other US days by rule, ``Christmas 2024``; the festivals of
  the Chinese calendar, 1900–2099 (``Chinese New Year`` or ``Spring Festival`` and its eve,
  ``Lantern Festival``, ``Dragon Boat Festival``, ``Qixi``, ``Mid-Autumn Festival``, ``Double
  Ninth``; :mod:`memstrata.recall.lunar`);
* seasons (northern, meteorological): ``last summer``, ``in the spring``, ``winter 2024``
  (December 2023 to February 2024: a winter is named by the year of its January);
* parts of a day: ``last night``, ``this morning``, ``yesterday afternoon``, ``tonight``, ``the
  day before yesterday``.
* Chinese, inside a sentence: 上周, 昨天下午, 上周六, 2026年11月3日, 三天前, 最近三天 … read as
  the English phrases they translate to (:mod:`memstrata.recall.temporal_zh`).

For ``--since``, a count and a unit (``1 week``, ``2 days``) is the compact span (``1w``, ``2d``).

A day, holiday or season without a year is its latest occurrence that has begun by ``now``
(``last`` before a season that is under way means the one before it). Times are UTC, like
every time memstrata stores.

A window found in a query filters nothing by itself: recall boosts items inside it (the
question "what did I buy last week?" should still see a purchase logged nine days ago). A query
that names a time and nothing else ("what happened last week?", :func:`asks_only_about_time`)
is answered by what lies in it.

Only the English patterns a query could match scan it: each names words one of which every
match holds (and whether it needs a digit), so "what does Ann drink?" compiles and runs none of
them (a prompt hook starts a fresh Python for every prompt, and compiling them all took 8 ms).

"Recently" and "lately" are not windows: they are as often relative to the time of what is
told ("what did she paint recently?", asked of a talk months back) as to now, and a 30-day
window for them cost LoCoMo turn recall@5 0.708 → 0.693; recall's recency re-rank already
prefers newer items.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from memstrata.clock import to_iso
from memstrata.fts import content_terms, has_cjk
from memstrata.lazy_pattern import LazyPattern

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "few": 3,
    "couple": 2, "several": 4,
}  # fmt: skip
_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}  # fmt: skip
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365, "hour": 1 / 24}
_PERIODS = ("week", "month", "year")
_NUMBER = r"(\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")"
_UNIT = r"(hour|day|week|month|year)s?"
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
# Every month name begins with its three-letter one: a query naming a month holds one of these.
_MONTH_STEMS = tuple(dict.fromkeys(name[:3] for name in _MONTHS))

# A question names its times in a sentence or two; a pasted 100 KB "query" of dates would
# otherwise cost a second of overlap checks and give hundreds of windows nobody meant.
QUERY_CHARS = 2000
# A bare four-digit number is a year only in this range ("1234 items" is not); a holiday or
# season needs a year at least this late.
_PLAUSIBLE_YEARS = (1900, 2200)


class _Guarded(LazyPattern):
    """A lazy pattern that also says what a query must hold for it to match anywhere: a word of
    each group in ``needs`` (as a substring of the query folded by :func:`_folded`), and a digit
    if ``digit``. Every possible match must hold a word of each group: letting through a query
    the pattern cannot match only costs a scan, turning away one it can match loses a window."""

    __slots__ = ("digit", "needs")

    def __init__(
        self,
        source: str,
        flags: int = re.IGNORECASE,
        *,
        needs: Iterable[Iterable[str]] = (),
        digit: bool = False,
    ) -> None:
        super().__init__(source, flags)
        self.needs = tuple(tuple(group) for group in needs)
        self.digit = digit

    def may_match(self, folded: str, has_digit: bool) -> bool:
        if self.digit and not has_digit:
            return False
        return all(any(word in folded for word in group) for group in self.needs)


# Letters IGNORECASE takes for an ASCII one that str.lower() leaves alone or turns into more
# than one letter ("İ" is "i̇"), each put as that letter before any pattern reads the query, so
# that a word matched with one is the word of the tables ("APRİL" is April, "laſt" last; each
# is one character for one, so spans are unchanged). The Kelvin sign "K" lower-cases to "k".
_ALSO_ASCII = str.maketrans({"İ": "I", "ı": "i", "ſ": "s"})


def _plain_letters(query: str) -> str:
    """``query`` with each letter of :data:`_ALSO_ASCII` put as its ASCII letter."""
    return query if query.isascii() else query.translate(_ALSO_ASCII)


def _folded(query: str) -> str:
    """``query`` lower-cased so that a word a case-insensitive pattern matches in it is a
    substring of it."""
    return _plain_letters(query).lower()


def _has_digit(query: str) -> bool:
    """Whether ``\\d`` can match in ``query``: in a str pattern it is any decimal digit ("３")."""
    if any(digit in query for digit in "0123456789"):
        return True
    return not query.isascii() and any(map(str.isdecimal, query))


_TIMESTAMP = LazyPattern(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?", re.IGNORECASE
)
_COMPACT = LazyPattern(r"^\s*(\d+)\s*([hdwmy])\s*$", re.IGNORECASE)
# "--since '1 week'" is "--since 1w"; "2days" too, but a word needs its space ("aweek" is none)
_DURATION = LazyPattern(rf"^\s*(?:(\d+)(?=\s*[a-z])|{_NUMBER}(?=\s))\s*{_UNIT}\s*$", re.IGNORECASE)
_ISO = _Guarded(r"\b(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?\b", 0, digit=True)
_AGO = _Guarded(rf"\b(?:a\s+)?{_NUMBER}\s+(?:of\s+)?{_UNIT}\s+ago\b", needs=[["ago"], _UNIT_DAYS])
_LAST_N = _Guarded(
    rf"\b(?:last|past)\s+{_NUMBER}\s+{_UNIT}\b", needs=[["last", "past"], _UNIT_DAYS]
)
_RELATIVE = _Guarded(
    r"\b(today|yesterday|(this|last|past)\s+(week|month|year|weekend)"
    r"|(over|at|on)\s+the\s+(weekend))\b",
    needs=[["today", "yesterday", *_PERIODS]],  # "weekend" holds "week"
)
_BEFORE_LAST = _Guarded(
    r"\b(?:the\s+)?(week|month|year)\s+before\s+last\b",
    needs=[_PERIODS, ["before"], ["last"]],
)
_OTHER_DAY = _Guarded(r"\bthe\s+other\s+day\b", needs=[["other"], ["day"]])
_MONTH_YEAR = _Guarded(rf"\b{_MONTH}(?:\s+(?:of\s+)?(\d{{4}}))?\b", needs=[_MONTH_STEMS])
_WEEKDAY = _Guarded(r"\b(last|on|this|past)\s+(" + "|".join(_WEEKDAYS) + r")\b", needs=[_WEEKDAYS])
_YEAR = r"(?:(?:,\s*|\s+)(?:of\s+)?(\d{4})(?!\d))?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_MONTH_DAY = _Guarded(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b{_YEAR}", needs=[_MONTH_STEMS], digit=True)
_DAY_MONTH = _Guarded(
    rf"\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}(?![a-z]){_YEAR}", needs=[_MONTH_STEMS], digit=True
)
# "August 11 to 15 2023", "between March 3 and March 5": the year, if any, comes at the end.
_DAY_RANGE = _Guarded(
    rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\s*(?:and|to|through|until|till|-|–)\s*"
    rf"(?:{_MONTH}\s+)?(?:the\s+)?{_DAY}\b{_YEAR}",
    needs=[_MONTH_STEMS],
    digit=True,
)
# Hours of the day each part covers, from the start of its day (night runs past midnight).
_PARTS = {"morning": (0, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 30)}
_DAY_PART = _Guarded(
    r"\b(?:(?:the\s+)?day\s+before\s+yesterday|last\s+night|tonight"
    r"|(?:this|yesterday)\s+(?:morning|afternoon|evening|night))\b",
    needs=[["yesterday", *_PARTS]],  # "tonight" holds "night"
)
_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_SEASON = _Guarded(
    r"\b(?:(last|this|past|in|during|over|since|until)\s+(?:the\s+)?)?"
    r"(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?(\d{4}))?\b",
    needs=[_SEASON_START],
)


def _nth_weekday(month: int, weekday: int, n: int) -> Callable[[int], date]:
    """The n-th (−1: last) given weekday of a month, as a function of the year."""

    def day(year: int) -> date:
        if n > 0:
            first = date(year, month, 1)
            return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
        last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)

    return day


def _easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    week = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * week) // 451
    month, day = divmod(h + week - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _fixed(month: int, day: int) -> Callable[[int], date]:
    return lambda year: date(year, month, day)


def _lunar(month: int, day: int, shift_days: int = 0) -> Callable[[int], date]:
    """A festival of the Chinese calendar (lunar ``month``/``day``, moved by ``shift_days``),
    as a function of the Gregorian year it falls in (:mod:`memstrata.recall.lunar`)."""

    def on(year: int) -> date:
        from memstrata.recall.lunar import festival_day  # a table: read only when asked for

        return festival_day(year, month, day) + timedelta(days=shift_days)

    return on


_S = r"['’]?s?"  # "Valentine's", "Valentines", "Valentine’s"
# Longer names first: "New Year's Eve" before "New Year's", "Christmas Eve" before "Christmas".
# A row: words one of which every match of the name holds (for the prefilter), the name, its day.
_HOLIDAYS: tuple[tuple[str, str, Callable[[int], date]], ...] = (
    ("year", rf"new\s+year{_S}\s+eve", _fixed(12, 31)),
    ("year", rf"new\s+year{_S}(?:\s+day)?", _fixed(1, 1)),
    ("valentine", rf"valentine{_S}(?:\s+day)?", _fixed(2, 14)),
    ("patrick", rf"(?:st\.?|saint)\s+patrick{_S}(?:\s+day)?", _fixed(3, 17)),
    ("fool", rf"april\s+fool{_S}(?:\s+day)?", _fixed(4, 1)),
    ("easter", r"easter(?:\s+sunday)?", _easter),
    ("mother", rf"mother{_S}\s+day", _nth_weekday(5, 6, 2)),
    ("memorial", r"memorial\s+day", _nth_weekday(5, 0, -1)),
    ("father", rf"father{_S}\s+day", _nth_weekday(6, 6, 3)),
    ("independence july", r"independence\s+day|(?:the\s+)?fourth\s+of\s+july", _fixed(7, 4)),
    ("labor labour", r"labou?r\s+day", _nth_weekday(9, 0, 1)),
    ("halloween", r"halloween", _fixed(10, 31)),
    ("thanksgiving", r"thanksgiving(?:\s+day)?", _nth_weekday(11, 3, 4)),
    ("christmas xmas", r"(?:christmas|xmas)\s+eve", _fixed(12, 24)),
    ("christmas xmas", r"(?:christmas|xmas)(?:\s+day)?", _fixed(12, 25)),
    ("boxing", r"boxing\s+day", _fixed(12, 26)),
    # the Chinese calendar's festivals, on their day of the lunar year
    ("chinese lunar", rf"(?:chinese|lunar)\s+new\s+year{_S}\s+eve", _lunar(1, 1, -1)),
    ("chinese lunar", rf"(?:chinese|lunar)\s+new\s+year{_S}(?:\s+day)?", _lunar(1, 1)),
    ("spring", r"spring\s+festival", _lunar(1, 1)),
    ("lantern", r"lantern\s+festival", _lunar(1, 1, 14)),
    ("dragon duanwu", r"dragon\s+boat\s+festival|duanwu(?:\s+festival)?", _lunar(5, 5)),
    ("qixi", r"qixi(?:\s+festival)?", _lunar(7, 7)),
    ("autumn moon", r"mid[-\s]?autumn(?:\s+festival)?|moon\s+festival", _lunar(8, 15)),
    ("ninth chongyang", r"double\s+ninth(?:\s+festival)?|chongyang(?:\s+festival)?", _lunar(9, 9)),
)
_HOLIDAY = _Guarded(
    r"\b(?:(last|this)\s+)?(?:"
    + "|".join(f"(?P<h{i}>{pattern})" for i, (_, pattern, _) in enumerate(_HOLIDAYS))
    + r")(?:\s+(?P<year>\d{4}))?(?![\w'’])",
    needs=[dict.fromkeys(word for words, _, _ in _HOLIDAYS for word in words.split())],
)


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """A half-open span of time ``[start, end)`` and the words that named it."""

    start: datetime
    end: datetime
    phrase: str

    @property
    def start_iso(self) -> str:
        return to_iso(self.start)

    @property
    def end_iso(self) -> str:
        return to_iso(self.end)

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment < self.end


def parse_since(text: str, now: datetime) -> TimeWindow | None:
    """A ``--since``/``--until`` value as the window it names; ``None`` if it names none.

    ``30d`` is the last 30 days (a window ending at ``now``); a timestamp with a time of day
    (``2025-11-27T10:00:00Z``, ``2025-11-27 10:00+02:00``) is that instant; a date or a phrase
    is the window it names, and must be the whole value: "15.06.2026" or "not since
    yesterday" name no window, whatever time words they hold. A weekday alone (``monday``,
    ``since Friday``) is the last one before today.
    """
    value = _bound_value(text)
    days = _span_days(value)
    if days is not None:
        return _back(now, days, 0.0, value)
    instant = _instant(value)
    if instant is not None:
        return TimeWindow(instant, instant, value)
    if _bare(value) in _WEEKDAYS:
        # "--since monday": a bound is a time and nothing else, so a weekday alone names the
        # last one, as "on Monday" does (in a query, "runs on Mondays" names no day)
        return _weekday(_bare(value), now, value)
    windows = find_time_windows(value, now)
    if len(windows) != 1 or _bare(windows[0].phrase) != _bare(value):
        return None
    return windows[0]


def bound(text: str, now: datetime, start: bool) -> str | None:
    """``--since`` (``start``) or ``--until`` as an ISO time; ``None`` if it names no time.

    A since is the start of the window named, an until its end ("--until 2025-11" keeps all
    of November), except for a span back from now: ``--until 30d`` means until 30 days ago.
    """
    window = parse_since(text, now)
    if window is None:
        return None
    span = _span_days(_bound_value(text)) is not None
    return window.start_iso if start or span else window.end_iso


def _bound_value(text: str) -> str:
    """A ``--since``/``--until`` value as it is read: its spaces collapsed, its letters plain."""
    return _plain_letters(" ".join(text.split()))


def _span_days(value: str) -> float | None:
    """The days a span back from now holds: ``2w`` or ``2 weeks`` is 14; ``None`` if no span."""
    match = _COMPACT.match(value)
    if match:
        unit = match.group(2).lower()
        return {"h": 1 / 24, "d": 1, "w": 7, "m": 30, "y": 365}[unit] * int(match.group(1))
    match = _DURATION.match(value)
    if not match:
        return None
    return _amount(match.group(1) or match.group(2)) * _UNIT_DAYS[match.group(3).lower()]


def _instant(value: str) -> datetime | None:
    """An ISO 8601 date with a time of day, as UTC (no offset given: UTC, like stored times)."""
    if not _TIMESTAMP.fullmatch(value):
        return None
    try:
        moment = datetime.fromisoformat(value.replace(" ", "T", 1))
    except ValueError:
        return None
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _bare(phrase: str) -> str:
    """A phrase without the little words around a time ("in", "since", "the") or case."""
    words = phrase.lower().strip(" .,").split()
    while words and words[0] in ("in", "on", "since", "from", "until", "till", "during", "the"):
        words = words[1:]
    return " ".join(words)


_Read = Callable[[re.Match[str]], TimeWindow | None]


def find_time_windows(query: str, now: datetime) -> list[TimeWindow]:
    """Every time expression in ``query`` as a window, in the order they appear (read from its
    first ``QUERY_CHARS`` characters)."""
    return _find_time_windows(query, now, prefilter=True)


def _find_time_windows(query: str, now: datetime, prefilter: bool) -> list[TimeWindow]:
    """:func:`find_time_windows`; without ``prefilter`` every pattern scans the query, the
    reference the prefilter's tests compare against."""
    query = _plain_letters(query[:QUERY_CHARS])
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    found: list[tuple[int, TimeWindow]] = []
    taken: list[tuple[int, int]] = []

    # Most specific first: a span taken by "March 3rd" is not read again as "March".
    english: tuple[tuple[_Guarded, _Read], ...] = (
        (_DAY_PART, lambda m: _day_part(m.group(0).lower().split(), now, m.group(0))),
        (_HOLIDAY, lambda m: _holiday(m, now)),
        (_DAY_RANGE, lambda m: _day_range(m, now)),
        (_MONTH_DAY, lambda m: _month_day(m, m.group(1), m.group(2), now)),
        (_DAY_MONTH, lambda m: _month_day(m, m.group(2), m.group(1), now)),
        (_SEASON, lambda m: _season(m, now)),
        (_AGO, lambda m: _ago(m, now)),
        (_LAST_N, lambda m: _back(now, _days(m), 0.0, m.group(0))),
        (_BEFORE_LAST, lambda m: _before_last(m.group(1).lower(), now, m.group(0))),
        (_RELATIVE, lambda m: _relative(m.group(0).lower().split()[-2:], now, m.group(0))),
        (_OTHER_DAY, lambda m: _days_before_today(now, 7, m.group(0))),
        (_WEEKDAY, lambda m: _weekday(m.group(2).lower(), now, m.group(0))),
        (_MONTH_YEAR, lambda m: _month(m, now)),
        (_ISO, lambda m: _iso(m, now)),
    )
    if prefilter:
        # Most queries name no time: a pattern they cannot match is neither compiled nor run.
        folded, has_digit = _folded(query), _has_digit(query)
        english = tuple(reader for reader in english if reader[0].may_match(folded, has_digit))
    readers: list[tuple[LazyPattern | re.Pattern[str], _Read]] = list(english)
    if has_cjk(query):
        # Chinese phrases, read as the English ones they translate to; imported only for a
        # query that has Chinese in it (a prompt hook pays for every module it imports)
        from memstrata.recall.temporal_zh import TRANSLATIONS

        readers += [
            (
                pattern,
                lambda m, translate=translate: _translated(m, translate(m, now), now, prefilter),
            )
            for pattern, translate in TRANSLATIONS
        ]
    for pattern, read in readers:
        for match in pattern.finditer(query):
            span = match.span()
            if any(a < span[1] and span[0] < b for a, b in taken):
                continue
            try:
                window = read(match)
            except (OverflowError, ValueError):
                continue  # past the calendar's ends ("December 31st 9999"): no time we keep
            if window is not None:
                taken.append(span)
                found.append((span[0], window))
    return [window for _, window in sorted(found, key=lambda item: item[0])]


def _translated(
    match: re.Match[str], english: str | None, now: datetime, prefilter: bool
) -> TimeWindow | None:
    """The window of a phrase's ``english`` translation, named by the phrase itself."""
    windows = _find_time_windows(english, now, prefilter) if english else []
    if len(windows) != 1:
        return None
    return TimeWindow(windows[0].start, windows[0].end, match.group(0))


def _days(match: re.Match[str]) -> float:
    """``N units`` of an "ago" or "in the last" phrase, in days."""
    return _amount(match.group(1)) * _UNIT_DAYS[match.group(2).lower()]


def _ago(match: re.Match[str], now: datetime) -> TimeWindow | None:
    """ "N units ago" give or take a quarter (at least a day): "three weeks ago" is vague."""
    days = _days(match)
    slack = max(1.0, days * 0.25)
    return _back(now, days + slack, days - slack, match.group(0))


def _back(now: datetime, start_days: float, end_days: float, phrase: str) -> TimeWindow | None:
    """The window from ``start_days`` to ``end_days`` before ``now``; ``None`` when it would
    start before the calendar does ("10000 years ago")."""
    try:
        return TimeWindow(now - timedelta(days=start_days), now - timedelta(days=end_days), phrase)
    except OverflowError:
        return None


def _amount(word: str) -> float:
    return float(word) if word.isdigit() else float(_NUMBERS[word.lower()])


def _day_start(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _relative(words: list[str], now: datetime, phrase: str) -> TimeWindow:
    today = _day_start(now)
    if words == ["today"]:
        return TimeWindow(today, today + timedelta(days=1), phrase)
    if words == ["yesterday"]:
        return TimeWindow(today - timedelta(days=1), today, phrase)
    which, unit = words
    if unit == "weekend":
        # On a Saturday "this weekend" is under way; "last" or "past weekend" is the one before.
        back = (today.weekday() - 5) % 7 or (7 if which in ("last", "past") else 0)
        saturday = today - timedelta(days=back)
        return TimeWindow(saturday, saturday + timedelta(days=2), phrase)
    if which == "past":
        return TimeWindow(now - timedelta(days=_UNIT_DAYS[unit]), now, phrase)
    if unit == "week":
        monday = today - timedelta(days=today.weekday())
        start = monday if which == "this" else monday - timedelta(days=7)
        return TimeWindow(start, start + timedelta(days=7), phrase)
    if unit == "month":
        first = today.replace(day=1)
        if which == "this":
            return TimeWindow(first, _add_months(first, 1), phrase)
        return TimeWindow(_add_months(first, -1), first, phrase)
    first = today.replace(month=1, day=1)
    if which == "this":
        return TimeWindow(first, first.replace(year=first.year + 1), phrase)
    return TimeWindow(first.replace(year=first.year - 1), first, phrase)


def _before_last(unit: str, now: datetime, phrase: str) -> TimeWindow:
    """The week, month or year before the last one."""
    return _relative(["last", unit], _relative(["last", unit], now, phrase).start, phrase)


def _day_part(words: list[str], now: datetime, phrase: str) -> TimeWindow:
    today = _day_start(now)
    if words[-1] == "yesterday":  # (the) day before yesterday
        return TimeWindow(today - timedelta(days=2), today - timedelta(days=1), phrase)
    day = today - timedelta(days=1) if words[0] in ("last", "yesterday") else today
    first, last = _PARTS["night" if words[-1] == "tonight" else words[-1]]
    return TimeWindow(day + timedelta(hours=first), day + timedelta(hours=last), phrase)


def _latest_day(month: int, day: int, year: str | None, now: datetime) -> date | None:
    """That day in ``year``, or its latest occurrence not after ``now``'s day."""
    try:
        if year:
            return date(int(year), month, day)
        this_year = date(now.year, month, day) if (month, day) != (2, 29) else None
    except ValueError:
        return None
    if this_year is not None and this_year <= now.date():
        return this_year
    for back in range(1, 9):  # 29 February comes back within 8 years
        try:
            return date(now.year - back, month, day)
        except ValueError:
            continue
    return None


def _days_before_today(now: datetime, days: int, phrase: str) -> TimeWindow:
    """The ``days`` whole days before today: "the other day" is yesterday to a week ago."""
    today = _midnight(now.date())
    return TimeWindow(today - timedelta(days=days), today, phrase)


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _whole_day(day: date | None, phrase: str) -> TimeWindow | None:
    if day is None:
        return None
    return TimeWindow(_midnight(day), _midnight(day) + timedelta(days=1), phrase)


def _day_month_number(word: str) -> int | None:
    """The month a word before a day names; ``None`` for a lower-case "may" ("you may 2 …"
    is a verb, not a month)."""
    if word.lower() == "may" and word[0] != "M":
        return None
    return _MONTHS[word.lower().rstrip(".")]


def _month_day(match: re.Match[str], month_word: str, day: str, now: datetime) -> TimeWindow | None:
    month = _day_month_number(month_word)
    if month is None:
        return None
    return _whole_day(_latest_day(month, int(day), match.group(3), now), match.group(0))


def _day_range(match: re.Match[str], now: datetime) -> TimeWindow | None:
    """From the first day to the end of the last; both in the year given at the end, or the
    last day at its latest occurrence by now and the first the latest before it."""
    first_month, first_day, last_month, last_day, year = match.groups()
    month = _day_month_number(first_month)
    end_month = _day_month_number(last_month) if last_month else month
    if month is None or end_month is None:
        return None
    end = _latest_day(end_month, int(last_day), year, now)
    if end is None:
        return None
    start = _latest_day(month, int(first_day), str(end.year), now)
    if start is not None and start > end:  # "December 30 to January 2": across a new year
        start = _latest_day(month, int(first_day), str(end.year - 1), now)
    if start is None:
        return None
    return TimeWindow(_midnight(start), _midnight(end) + timedelta(days=1), match.group(0))


def _holiday(match: re.Match[str], now: datetime) -> TimeWindow | None:
    rule = next(rule for i, (_, _, rule) in enumerate(_HOLIDAYS) if match.group(f"h{i}"))
    if match.group("year"):
        year = int(match.group("year"))
        return _whole_day(rule(year), match.group(0)) if _PLAUSIBLE_YEARS[0] <= year else None
    day = rule(now.year)
    if day > now.date() or ((match.group(1) or "").lower() == "last" and day == now.date()):
        day = rule(now.year - 1)
    return _whole_day(day, match.group(0))


def _season(match: re.Match[str], now: datetime) -> TimeWindow | None:
    which, name, year = (match.group(1) or "").lower(), match.group(2).lower(), match.group(3)
    if not which and not year:
        return None  # "a spring in the mattress", "the fall": a season needs a marker
    month = _SEASON_START[name]
    if year:
        if int(year) < _PLAUSIBLE_YEARS[0]:
            return None
        # A winter is named by the year of its January: winter 2024 starts in December 2023.
        start = datetime(int(year) - (month == 12), month, 1, tzinfo=UTC)
    else:
        start = datetime(now.year, month, 1, tzinfo=now.tzinfo)
        if start > now:
            start = start.replace(year=now.year - 1)
        if which in ("last", "past") and now < _add_months(start, 3):
            start = start.replace(year=start.year - 1)  # the one before the season under way
    return TimeWindow(start, _add_months(start, 3), match.group(0))


def _weekday(name: str, now: datetime, phrase: str) -> TimeWindow:
    today = _day_start(now)
    back = (today.weekday() - _WEEKDAYS.index(name)) % 7 or 7
    day = today - timedelta(days=back)
    return TimeWindow(day, day + timedelta(days=1), phrase)


def _iso(match: re.Match[str], now: datetime) -> TimeWindow | None:
    year, month, day = match.group(1), match.group(2), match.group(3)
    try:
        if day:
            start = datetime(int(year), int(month), int(day), tzinfo=UTC)
            return TimeWindow(start, start + timedelta(days=1), match.group(0))
        if month:
            start = datetime(int(year), int(month), 1, tzinfo=UTC)
            return TimeWindow(start, _add_months(start, 1), match.group(0))
        if not _PLAUSIBLE_YEARS[0] <= int(year) <= _PLAUSIBLE_YEARS[1]:
            return None
        start = datetime(int(year), 1, 1, tzinfo=UTC)
        return TimeWindow(start, start.replace(year=start.year + 1), match.group(0))
    except ValueError:
        return None


def _month(match: re.Match[str], now: datetime) -> TimeWindow | None:
    word = match.group(1).lower().rstrip(".")
    if word == "may" and not match.group(2) and not _looks_like_month(match):
        return None  # "may" is far more often a verb
    month = _MONTHS[word]
    if match.group(2):
        year = int(match.group(2))
        if not _PLAUSIBLE_YEARS[0] <= year <= _PLAUSIBLE_YEARS[1]:
            return None
    else:
        year = now.year if month <= now.month else now.year - 1
    start = datetime(year, month, 1, tzinfo=UTC)
    return TimeWindow(start, _add_months(start, 1), match.group(0))


def _looks_like_month(match: re.Match[str]) -> bool:
    before = match.string[: match.start()].rstrip().lower()
    return match.group(1)[0] == "M" and before.endswith(("in", "of", "since", "until", "during"))


def _add_months(moment: datetime, months: int) -> datetime:
    index = moment.year * 12 + moment.month - 1 + months
    return moment.replace(year=index // 12, month=index % 12 + 1, day=1)


# Words that ask for whatever took place, naming nothing in particular: with a time, "what
# happened last week?" or "anything new since Monday?" asks what lies in that time.
_ANY_EVENT = frozenset(
    "happen happens happened happening going new news anything something everything stuff "
    "thing things event events".split()
)


def asks_only_about_time(query: str, windows: list[TimeWindow]) -> bool:
    """True when ``query`` names a time and nothing else to match: its words outside the
    ``windows``' phrases are stop words or ask for any event ("what happened last week?")."""
    if not windows:
        return False
    rest = _plain_letters(query[:QUERY_CHARS])  # as the windows' phrases were read
    for window in windows:
        rest = rest.replace(window.phrase, " ", 1)
    if has_cjk(rest):
        from memstrata.recall.temporal_zh import without_any_event_words

        rest = without_any_event_words(rest)
    return all(term in _ANY_EVENT for term in content_terms(rest))


def nothing_in_time_note(query: str, now: datetime) -> str:
    """For a recall that found nothing: when ``query`` asks only what lies in a time ("what
    happened last week?"), a note saying that nothing does, and which span that was read as
    (the user can see whether "last week" meant what they meant); else ""."""
    windows = find_time_windows(query, now)
    if not asks_only_about_time(query, windows):
        return ""
    spans = ", ".join(f"{window.phrase!r}: {span_text(window)}" for window in windows)
    return f"nothing in the wiki or the journal lies in the time asked about ({spans})"


def span_text(window: TimeWindow) -> str:
    """``2025-11-17 to 2025-11-23`` (the last day included), or ``2025-11-27 06:00 to
    12:00`` for a span within one day."""
    last = window.end - timedelta(microseconds=1)
    if window.start.date() == last.date():
        if window.start.time() == datetime.min.time() and window.end - window.start == _DAY:
            return window.start.date().isoformat()
        return f"{window.start:%Y-%m-%d %H:%M} to {window.end:%H:%M}"
    return f"{window.start.date().isoformat()} to {last.date().isoformat()}"


_DAY = timedelta(days=1)
