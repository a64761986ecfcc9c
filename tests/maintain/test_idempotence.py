"""A second run right after a clean one changes nothing: no file, no history line, no index row."""

from datetime import timedelta
from pathlib import Path

import pytest

from memstrata import Memory
from tests.maintain.messy import NOW, Truth, file_states, garden


@pytest.mark.parametrize("mode", ["autonomous", "propose"])
def test_a_second_run_after_a_clean_one_writes_nothing(messy: tuple[Path, Truth], mode: str):
    root, _truth = messy
    first = garden(root, mode)
    assert first.resume_point == "clean" and first.changed
    with Memory(root, clock=lambda: NOW) as memory:
        index_before = memory.index.dump()
    files_before = file_states(root)

    second = garden(root, mode, now=NOW + timedelta(minutes=5))

    assert file_states(root) == files_before  # bytes and mtimes: topics, history, index, all
    with Memory(root, clock=lambda: NOW) as memory:
        assert memory.index.dump() == index_before
    assert not second.changed and second.path == ""
    assert second.mutations_used == 0
    assert sum(second.actions.values()) == 0
    assert "summarise — nothing new since the last run" in second.skipped


def test_a_run_after_new_writes_tends_only_what_is_new(messy: tuple[Path, Truth]):
    root, _truth = messy
    garden(root, "autonomous")
    later = NOW + timedelta(hours=1)
    with Memory(root, clock=lambda: later) as memory:
        memory.write_topic("notes/fresh-a", "The release train leaves every second Tuesday.\n")
        memory.write_topic("notes/fresh-b", "FYI the release train leaves every second Tuesday.\n")

    report = garden(root, "autonomous", now=later)

    assert report.actions == {"merge": 1}
    assert "1 new since" in report.stores[0] or "2 new since" in report.stores[0]
    assert not garden(root, "autonomous", now=later).changed


def test_a_write_by_someone_else_in_the_second_the_run_ended_is_still_new(
    messy: tuple[Path, Truth],
):
    root, truth = messy
    garden(root, "autonomous")
    keeper, _merged = truth.duplicates[0]
    with Memory(root, clock=lambda: NOW) as memory:  # the same second as the run's `now`
        text = memory.get_topic(keeper).summary
        memory.write_topic("notes/same-second", "FYI " + text)

    report = garden(root, "autonomous", now=NOW + timedelta(minutes=5))

    assert report.actions == {"merge": 1}
    assert "1 new since 2025-11-27T10:00:00Z" in report.stores[0]
