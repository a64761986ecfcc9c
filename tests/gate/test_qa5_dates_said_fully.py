"""A day written as an ordinal is the same day, and a fixed fact said more fully is no conflict.

"Carol's birthday is June 12th" says what "Carol's birthday is on June 12" says: the suffix
after a day of a month is no rank. "… on June 12, 1990" adds the year to what cannot change: it
says the other more fully, so it replaces it rather than asking a person which one is wrong.
"""

from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.gate.relation import relate
from memstrata.gate.verdicts import Conflicted, Merged, Superseded


@pytest.fixture
def mem(workspace: Path, fixed_now):
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        yield memory


@pytest.mark.parametrize(
    ("stored", "candidate"),
    [
        ("Carol's birthday is on June 12", "Carol's birthday is June 12th"),
        ("Carol's birthday is on June 12", "Carol's birthday is on the 12th of June"),
        ("The Orion launch is on March 3", "The Orion launch is on March 3rd"),
        ("The offsite starts on Sept 21", "The offsite starts on Sept 21st"),
    ],
)
def test_a_day_with_an_ordinal_suffix_is_the_same_day(stored: str, candidate: str):
    assert relate(candidate, stored).kind == "duplicate"


def test_an_ordinal_that_is_no_day_of_a_month_still_counts_apart():
    # "the 3rd floor" is a rank, not the number 3 of "3 floors"
    assert relate("Ann's desk is on the 3rd floor", "Ann's desk is on 3 floors").kind != (
        "duplicate"
    )


def test_another_day_written_as_an_ordinal_is_still_another_day():
    relation = relate("The Orion launch moved to March 5th", "The Orion launch is on March 3")
    assert relation.kind == "update"
    assert "3 → 5th" in relation.reason


def test_remembering_a_birthday_with_an_ordinal_merges_into_the_one_stored(mem: Memory):
    first = mem.remember("Carol's birthday is on June 12")

    again = mem.remember("Carol's birthday is June 12th")

    assert isinstance(again, Merged) and again.topic_id == first.topic_id
    assert mem.proposals("open") == []


def test_a_birthday_given_with_its_year_replaces_the_one_without(mem: Memory):
    first = mem.remember("Carol's birthday is on June 12")

    fuller = mem.remember("Carol's birthday is on June 12, 1990")

    assert isinstance(fuller, Superseded) and fuller.old_id == first.topic_id
    assert "said more fully" in fuller.reason and "1990" in fuller.reason
    assert mem.proposals("open") == []


def test_another_birthday_is_still_a_conflict_for_a_person(mem: Memory):
    mem.remember("Carol's birthday is on June 12")

    other = mem.remember("Carol's birthday is on July 12")

    assert isinstance(other, Conflicted)
    assert "what cannot change differs" in other.reason
