"""The prefilter of the temporal arm: a pattern scans a query only if the query holds the words
(and a digit, if it needs one) that every match of that pattern holds.

It exists for the prompt hook, which starts a fresh Python for every prompt: compiling all the
patterns took about 8 ms, and most prompts ("what does Ann drink?") can match none of them. The
prefilter lets through too much rather than too little, so it never changes a result: every
test here compares :func:`find_time_windows` with the same reading done by every pattern.
"""

from __future__ import annotations

import ast
import gzip
import json
import re
import string
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memstrata.recall import temporal
from memstrata.recall.temporal import (
    TimeWindow,
    _find_time_windows,
    _folded,
    _Guarded,
    _has_digit,
)

NOWS = (
    datetime(2025, 11, 27, 10, 0, tzinfo=UTC),  # a Thursday, and Thanksgiving
    datetime(2025, 11, 29, 23, 30, tzinfo=UTC),  # a Saturday night
    datetime(2024, 1, 1, 0, 0, tzinfo=UTC),  # New Year's Day, in winter
    datetime(2024, 2, 29, 12, 0, tzinfo=UTC),  # a leap day
    datetime(2023, 12, 25, 8, 0),  # Christmas, naive (read as UTC)
)

# A phrase of every construct the module reads, and words that only look like one or hold one.
PHRASES = (
    # dates and years
    "2025", "2025-11", "2025-11-27", "2025/11/27", "2025-11-27T10:00:00Z", "1234 items",
    "in 2024", "the year 1899", "9999-12-31", "２０２４年", "٢٠٢٤",
    # counted back from now
    "today", "yesterday", "yesterday?", "this week", "last week", "past week", "this month",
    "last month's invoices", "past month", "this year", "last year", "past year",
    "last weekend", "this weekend", "the past weekend", "over the weekend", "at the weekend",
    "on the weekend", "the week before last", "the month before last", "year before last",
    "the other day", "the other  day",
    # N units ago, in the last N units
    "2 days ago", "a day ago", "one week ago", "twelve months ago", "a few days ago",
    "a couple of weeks ago", "several years ago", "3 hours ago", "an hour ago", "10000 years ago",
    "in the last 3 days", "in the past two weeks", "in the past few weeks", "past 12 hours",
    "in the last several months", "in the last 5000 years",
    # months
    "in November 2025", "November", "Nov 2025", "nov. 2024", "Sept. 2023", "sept", "in May",
    "you may go", "of June", "since March", "until April", "May 0000", "December of 2023",
    # weekdays
    "last Saturday", "on Tuesday", "this friday", "past sunday", "runs on Mondays",
    # days of a month, and spans of them
    "March 3rd", "3 March", "the 14th of February 2025", "August 11 to 15 2023",
    "between March 3 and March 5", "Dec 30 - Jan 2", "Dec 30 – Jan 2", "Oct. 13, 2023",
    "December 1,2023", "1st of may", "may 2", "May 2", "Feb 29", "February 30", "31 April",
    "March 28 through April 2", "the 31st of December 9999", "August 11 or on August 15 2023",
    # holidays
    "Valentine's Day", "Valentine’s day", "valentines", "Christmas", "Christmas Eve", "xmas",
    "Xmas eve", "New Year's", "New Year’s Eve", "new years day", "Halloween", "Easter",
    "Easter Sunday", "Thanksgiving", "last Thanksgiving", "St. Patrick's Day",
    "saint patricks day", "April Fool's", "Mother's Day", "Father’s Day", "Memorial Day",
    "Independence Day", "the fourth of July", "Labor Day", "Labour day", "Boxing Day",
    "Christmas 2024", "last Christmas", "this Halloween", "Easter 1850", "Christmas's gifts",
    "New Year's Eve 9999",
    # seasons
    "last summer", "in the spring", "winter 2024", "this fall", "during autumn", "the fall",
    "spring of 2020", "since the winter", "I had a fall", "a spring in the mattress",
    # parts of a day
    "last night", "this morning", "yesterday afternoon", "yesterday evening", "this evening",
    "tonight", "the day before yesterday", "day before yesterday", "this night",
    # Chinese, read through English translations
    "上周", "昨天下午", "上周六", "2026年11月3日", "三天前", "最近三天", "圣诞节", "上周 last week",
    # no time at all, or words that hold a time word
    "what does Ann drink?", "recently", "lately", "grammar summary", "the doctor's novel",
    "my mother", "a decent day", "pastry", "I'm going to the other side", "agony",
    # letters only IGNORECASE reads as ASCII ones
    "on FRİDAY", "APRİL 2024", "ſept 3", "laſt Chriſtmas", "yeſterday", "tonıght", "last weeK",
)  # fmt: skip


def variants(phrase: str) -> list[str]:
    """The phrase as typed in other cases, inside a sentence and glued to punctuation."""
    return [
        phrase,
        phrase.lower(),
        phrase.upper(),
        phrase.title(),
        f"What happened {phrase}?",
        f"({phrase})",
        f'"{phrase}",',
        f"{phrase}.",
        f"{phrase}-ish",
        f"pre-{phrase}",
        phrase.replace("'", "’"),
        phrase.replace(" ", "\n"),
    ]


def outcome(query: str, now: datetime, prefilter: bool) -> list[TimeWindow]:
    """The windows read, with or without the prefilter."""
    if prefilter:
        return temporal.find_time_windows(query, now)
    return _find_time_windows(query, now, prefilter=False)


def differing(queries: list[str], nows: tuple[datetime, ...] = NOWS) -> list[tuple[str, str]]:
    """The (query, now) pairs the prefilter reads otherwise than every pattern does."""
    return [
        (query, str(now))
        for query in queries
        for now in nows
        if outcome(query, now, prefilter=True) != outcome(query, now, prefilter=False)
    ]


@pytest.mark.parametrize("phrase", PHRASES)
def test_every_construct_reads_the_same_through_the_prefilter(phrase):
    assert differing(variants(phrase)) == []


def strings_of(module: Path) -> list[str]:
    """Every string written in a test module: its queries, --since values and expectations."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return sorted(
        {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
    )


@pytest.mark.parametrize("module", ["test_temporal.py", "test_temporal_zh.py"])
def test_every_query_of_the_temporal_tests_reads_the_same(module):
    queries = strings_of(Path(__file__).with_name(module))
    assert len(queries) > 50

    assert differing(queries) == []


def test_every_locomo_question_and_turn_reads_the_same(shared_data):
    path = shared_data / "locomo" / "locomo_dev.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    samples = json.loads(path.read_text(encoding="utf-8"))
    questions = [qa["question"] for sample in samples for qa in sample["qa"]]
    # What was said, and when: real sentences full of dates ("1:56 pm on 8 May, 2023")
    told: list[str] = []
    for sample in samples:
        for key, value in sample["conversation"].items():
            if key.startswith("session_"):
                told += [turn["text"] for turn in value] if isinstance(value, list) else [value]
    assert len(questions) > 1000
    assert len(told) > 1000

    assert differing(questions) == []
    assert differing(told, NOWS[:2]) == []


def test_every_longmemeval_question_reads_the_same_at_its_own_date(shared_data):
    path = shared_data / "longmemeval" / "longmemeval_s_dev60.json.gz"
    if not path.exists():
        pytest.skip(f"{path} not found")
    with gzip.open(path, "rt", encoding="utf-8") as file:
        items = json.load(file)
    asked = [
        (item["question"], datetime.strptime(item["question_date"], "%Y/%m/%d (%a) %H:%M"))
        for item in items
    ]
    assert asked

    assert [
        pair
        for question, asked_at in asked
        for pair in differing([question], (asked_at.replace(tzinfo=UTC), NOWS[0]))
    ] == []


# The words the patterns react to, from the tables they are built from, and a few more.
VOCABULARY = sorted(
    {
        *temporal._MONTHS,
        *temporal._WEEKDAYS,
        *temporal._NUMBERS,
        *temporal._UNIT_DAYS,
        *(f"{unit}s" for unit in temporal._UNIT_DAYS),
        *temporal._PARTS,
        *temporal._SEASON_START,
        *(word for words, _, _ in temporal._HOLIDAYS for word in words.split()),
        *"""ago last past this the other day before weekend over on at in of to and through until
        till between new year's year’s valentine's valentines st. saint eve sept. xmas tonight
        today yesterday fourth april fool's mother's sunday easter day's 1st 2nd 3rd 14th 29 31
        0 1899 2024 2025-11 2025/11/27 9999 ０ ２０２４ ٣ - –""".split(),
    }
)
SEPARATORS = (" ", " ", " ", "", ",", ", ", ".", "?", "-", " – ", "'", "’", "\n", "(", ")", '"')
# Characters that IGNORECASE matches to an ASCII letter but str.lower() does not turn into it
LOOKALIKES = str.maketrans({"i": "ı", "I": "İ", "s": "ſ", "k": "K"})
CASINGS = (
    str.lower,
    str.upper,
    str.title,
    str.capitalize,
    str.swapcase,
    lambda word: word.translate(LOOKALIKES),
)
FRAGMENTS = st.one_of(
    st.builds(
        lambda word, casing: casing(word), st.sampled_from(VOCABULARY), st.sampled_from(CASINGS)
    ),
    st.integers(0, 3000).map(str),
    st.text(alphabet=string.ascii_letters + string.digits + " '’-", max_size=6),
)
SENTENCES = st.lists(st.tuples(FRAGMENTS, st.sampled_from(SEPARATORS)), max_size=12).map(
    lambda parts: "".join(fragment + separator for fragment, separator in parts)
)


@settings(max_examples=300, deadline=None)
@given(
    SENTENCES,
    st.one_of(
        st.sampled_from(NOWS),
        st.datetimes(datetime(1950, 1, 1), datetime(2150, 1, 1), timezones=st.just(UTC)),
    ),
)
def test_any_sentence_of_time_words_reads_the_same(query, now):
    assert outcome(query, now, prefilter=True) == outcome(query, now, prefilter=False)


GUARDED = {name: value for name, value in vars(temporal).items() if isinstance(value, _Guarded)}


def test_each_of_the_fourteen_english_patterns_needs_a_word_or_a_digit():
    assert len(GUARDED) == 14
    assert all(pattern.needs or pattern.digit for pattern in GUARDED.values())


@pytest.mark.parametrize("name", sorted(GUARDED))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_whatever_a_pattern_matches_passes_its_prefilter(name, data):
    pattern = GUARDED[name]
    text = data.draw(st.from_regex(pattern.compiled))

    assert pattern.may_match(_folded(text), _has_digit(text))


@pytest.fixture(scope="module")
def every_character() -> str:
    return "".join(map(chr, [*range(0xD800), *range(0xE000, sys.maxunicode + 1)]))


def test_every_character_ignorecase_reads_as_a_letter_is_that_letter_when_folded(every_character):
    # "ſ" is "s" and "ı" is "i" to a case-insensitive pattern, but not to str.lower()
    for letter in string.ascii_lowercase:
        for char in set(re.findall(letter, every_character, re.IGNORECASE)):
            assert letter in _folded(char), (letter, char)


def test_every_character_a_digit_pattern_matches_counts_as_a_digit(every_character):
    # "\d" in a str pattern is any decimal digit: "３", "٣"
    assert all(_has_digit(char) for char in re.findall(r"\d", every_character))


def compiled_after(query: str) -> list[str]:
    """The patterns a fresh Python has compiled after reading ``query``, as a prompt hook does."""
    code = (
        "import sys; from datetime import datetime, UTC\n"
        "from memstrata.recall import temporal as t\n"
        "t.find_time_windows(sys.argv[1], datetime(2025, 11, 27, tzinfo=UTC))\n"
        "print(' '.join(sorted(n for n, v in vars(t).items()"
        " if isinstance(v, t.LazyPattern) and v._compiled is not None)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, query], capture_output=True, text=True, check=True
    )
    return result.stdout.split()


def test_a_query_without_time_words_compiles_no_pattern():
    assert compiled_after("what does Ann drink?") == []


def test_a_query_compiles_only_the_patterns_its_words_may_match():
    assert compiled_after("what did I buy last week?") == ["_LAST_N", "_RELATIVE"]
