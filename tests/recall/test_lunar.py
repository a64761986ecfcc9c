"""The festivals of the Chinese calendar, looked up by their Gregorian year."""

from __future__ import annotations

from datetime import date

import pytest

from memstrata.recall.lunar import FESTIVALS, FIRST_YEAR, LAST_YEAR, festival_day


@pytest.mark.parametrize(
    ("year", "month", "day", "on"),
    [
        (2023, 1, 1, date(2023, 1, 22)),  # Chinese New Year
        (2024, 1, 1, date(2024, 2, 10)),
        (2025, 1, 1, date(2025, 1, 29)),
        (2026, 1, 1, date(2026, 2, 17)),
        (2025, 5, 5, date(2025, 5, 31)),  # the Dragon Boat Festival
        (2024, 8, 15, date(2024, 9, 17)),  # Mid-Autumn
        (2025, 8, 15, date(2025, 10, 6)),
        (1978, 8, 15, date(1978, 9, 17)),  # where two reckonings differ, the modern one
        (2025, 7, 7, date(2025, 8, 29)),  # Qixi
        (2025, 9, 9, date(2025, 10, 29)),  # Double Ninth
    ],
)
def test_a_festival_is_its_day_of_the_lunar_year(year, month, day, on):
    assert festival_day(year, month, day) == on


def test_every_festival_of_every_year_falls_in_its_season_and_in_order():
    for year in range(FIRST_YEAR, LAST_YEAR + 1):
        days = [festival_day(year, month, day) for month, day in FESTIVALS]

        assert date(year, 1, 21) <= days[0] <= date(year, 2, 20)  # the new year's range
        assert days == sorted(days)
        assert all(day.year == year for day in days)


@pytest.mark.parametrize("year", [FIRST_YEAR - 1, LAST_YEAR + 1])
def test_a_year_outside_the_table_is_a_value_error(year):
    with pytest.raises(ValueError, match="no lunar calendar"):
        festival_day(year, 1, 1)
