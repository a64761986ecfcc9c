"""The temporal arm: time expressions in a query or a ``--since`` value, as windows of time.

Everything is relative to an injected ``now`` (never the wall clock). Understood:

* compact spans for ``--since``: ``30d``, ``2w``, ``6m``, ``1y``, ``12h``;
* dates: ``2025``, ``2025-11``, ``2025-11-27`` (also ``2025/11/27``);
* ``today``, ``yesterday``, ``this|last|past week|month|year``, ``last weekend``;
* ``N days|weeks|months|years ago`` (``a``/``one``…``twelve``/digits), ``a few days ago``;
* ``in the last|past N days|weeks|months|years``, ``in the past few weeks|months``;
* month names with or without a year: ``in November 2025``, ``November``, ``Nov 2025``
  (a bare month is its latest occurrence not after ``now``);
* weekdays: ``last Saturday``, ``on Tuesday`` (the latest such day before ``now``).

A window found in a query filters nothing by itself: recall boosts items inside it (the
question "what did I buy last week?" should still see a purchase logged nine days ago).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memstrata.clock import to_iso

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
_NUMBER = r"(\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")"
_UNIT = r"(hour|day|week|month|year)s?"
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"

_COMPACT = re.compile(r"^\s*(\d+)\s*([hdwmy])\s*$", re.IGNORECASE)
_ISO = re.compile(r"\b(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?\b")
_AGO = re.compile(rf"\b(?:a\s+)?{_NUMBER}\s+(?:of\s+)?{_UNIT}\s+ago\b", re.IGNORECASE)
_LAST_N = re.compile(rf"\b(?:last|past)\s+{_NUMBER}\s+{_UNIT}\b", re.IGNORECASE)
_RELATIVE = re.compile(r"\b(today|yesterday|(this|last|past)\s+(week|month|year|weekend))\b", re.I)
_MONTH_YEAR = re.compile(rf"\b{_MONTH}(?:\s+(?:of\s+)?(\d{{4}}))?\b", re.IGNORECASE)
_WEEKDAY = re.compile(r"\b(last|on|this|past)\s+(" + "|".join(_WEEKDAYS) + r")\b", re.IGNORECASE)


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
    """A ``--since``/``--until`` value as a window ending at ``now``; ``None`` if unparseable.

    ``30d`` is the last 30 days; a date or a phrase is the window it names.
    """
    value = text.strip()
    match = _COMPACT.match(value)
    if match:
        amount, unit = int(match.group(1)), match.group(2).lower()
        days = {"h": 1 / 24, "d": 1, "w": 7, "m": 30, "y": 365}[unit] * amount
        return TimeWindow(now - timedelta(days=days), now, value)
    windows = find_time_windows(value, now)
    return windows[0] if windows else None


def find_time_windows(query: str, now: datetime) -> list[TimeWindow]:
    """Every time expression in ``query`` as a window, in the order they appear."""
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    found: list[tuple[int, TimeWindow]] = []
    taken: list[tuple[int, int]] = []

    def add(match: re.Match[str], window: TimeWindow | None) -> None:
        span = match.span()
        if window is None or any(a < span[1] and span[0] < b for a, b in taken):
            return
        taken.append(span)
        found.append((span[0], window))

    for match in _AGO.finditer(query):
        days = _amount(match.group(1)) * _UNIT_DAYS[match.group(2).lower()]
        centre = now - timedelta(days=days)
        slack = timedelta(days=max(1.0, days * 0.25))
        add(match, TimeWindow(centre - slack, centre + slack, match.group(0)))
    for match in _LAST_N.finditer(query):
        days = _amount(match.group(1)) * _UNIT_DAYS[match.group(2).lower()]
        add(match, TimeWindow(now - timedelta(days=days), now, match.group(0)))
    for match in _RELATIVE.finditer(query):
        add(match, _relative(match.group(0).lower().split(), now, match.group(0)))
    for match in _WEEKDAY.finditer(query):
        add(match, _weekday(match.group(2).lower(), now, match.group(0)))
    for match in _MONTH_YEAR.finditer(query):
        add(match, _month(match, now))
    for match in _ISO.finditer(query):
        add(match, _iso(match, now))
    return [window for _, window in sorted(found, key=lambda item: item[0])]


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
        saturday = today - timedelta(days=(today.weekday() - 5) % 7 or 7)
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
        if not 1900 <= int(year) <= 2200:
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
