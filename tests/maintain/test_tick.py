"""``tick``: what is due runs once; when nothing is due it touches nothing."""

import json
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

from memstrata import Memory
from memstrata.maintain.tick import run_tick
from memstrata.model import Session, Turn
from memstrata.workspace.layout import init_workspace
from tests.maintain.messy import NOW, Truth, ago, file_states

TICKER = """
import json, sys, time
from datetime import UTC, datetime
from pathlib import Path
from memstrata import Memory
from memstrata.maintain.tick import run_tick
root, go = sys.argv[1], Path(sys.argv[2])
now = datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)
with Memory(root, clock=lambda: now) as memory:
    (go.parent / f"ready-{sys.argv[3]}").touch()
    while not go.exists():
        time.sleep(0.001)
    report = run_tick(memory, now)
print(json.dumps([[job.name, job.status] for job in report.jobs]))
"""


def _tick(root: Path, now: datetime):
    with Memory(root, clock=lambda: now) as memory:
        report = run_tick(memory, now)
        opened = memory._index is not None or memory._raw is not None
    return report, opened


def _statuses(report) -> dict[str, str]:
    return {job.name: job.status for job in report.jobs}


def test_the_first_tick_gardens_and_the_next_finds_nothing_due_and_touches_nothing(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    first, _ = _tick(root, NOW)
    assert _statuses(first) == {
        "flush": "ran",
        "distill": "skipped",
        "garden": "ran",
        "index": "ran",
    }
    assert len(list((root / "memory" / "reports").glob("*.md"))) == 1
    before = file_states(root)

    second, opened = _tick(root, NOW + timedelta(minutes=1))

    assert _statuses(second) == {
        "flush": "not due",
        "distill": "skipped",
        "garden": "not due",
        "index": "not due",
    }
    assert file_states(root) == before
    assert not opened  # a no-op tick never opens the index or the raw database
    [garden] = [job for job in second.jobs if job.name == "garden"]
    # the messy workspace holds more than one run's budget: the garden goes on a day later
    assert garden.next_due == "2025-11-28T10:00:00Z"


def test_a_garden_run_by_hand_counts_as_the_last_one(messy: tuple[Path, Truth]):
    root, _truth = messy
    with Memory(root, clock=lambda: NOW) as memory:
        memory.garden()  # stops at its budget in this workspace: the next goes on a day later

    report, _ = _tick(root, NOW + timedelta(minutes=1))

    [garden] = [job for job in report.jobs if job.name == "garden"]
    assert (garden.status, garden.next_due) == ("not due", "2025-11-28T10:00:00Z")


def test_distill_is_reported_as_a_missing_capability_not_faked(workspace: Path):
    report, _ = _tick(workspace, NOW)
    [distill] = [job for job in report.jobs if job.name == "distill"]
    assert distill.status == "skipped" and "missing capability" in distill.detail


def test_a_garden_stopped_at_its_budget_goes_on_daily_then_weekly_once_it_ends_clean(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    day = NOW
    _tick(root, day)
    runs = 1
    while True:
        assert _statuses(_tick(root, day + timedelta(hours=23))[0])["garden"] == "not due"
        day += timedelta(days=1)
        report, _ = _tick(root, day)
        [garden] = [job for job in report.jobs if job.name == "garden"]
        assert garden.status == "ran"
        runs += 1
        if garden.detail.endswith("resume point clean"):
            break
        assert runs < 20, "the garden never finished"

    assert _statuses(_tick(root, day + timedelta(days=6))[0])["garden"] == "not due"
    assert _statuses(_tick(root, day + timedelta(days=7))[0])["garden"] == "ran"


def test_a_lost_upkeep_file_never_writes_a_session_into_the_journal_twice(scratch: Path):
    root = scratch / "ws"
    init_workspace(root)
    _tick(root, NOW)
    with Memory(root, clock=lambda: NOW) as memory:
        memory.raw.upsert(
            Session(
                "s-1", "jsonl", "jsonl:me:main", ago(0.1), ago(0.1), "x.jsonl", "Plan  the\nroute"
            ),
            [Turn("s-1", 0, "user", ago(0.1), "plan the zeppelin route")],
        )
    journal = root / "memory" / "2025-11-27.md"
    _tick(root, NOW)
    once = journal.read_text()

    (root / "memory" / ".upkeep.json").write_text("{")  # damaged: every job is due again
    _tick(root, NOW + timedelta(minutes=1))

    assert once.count("Session “Plan the route”") == 1
    assert journal.read_text() == once


def test_a_session_is_flushed_to_the_journal_once_30_minutes_after_its_last_turn(scratch: Path):
    root = scratch / "ws"
    init_workspace(root)
    _tick(root, NOW)  # the garden's first run, out of the way
    with Memory(root, clock=lambda: NOW) as memory:
        memory.raw.upsert(
            Session(
                "s-1",
                "claude-code",
                "claude-code:me:main",
                ago(0.02),
                ago(0.01),
                "x.jsonl",
                "Fix the login test",
            ),
            [
                Turn("s-1", 0, "user", ago(0.02), "the login test is flaky"),
                Turn("s-1", 1, "assistant", "2025-11-27T09:50:00Z", "fixed the clock in it"),
            ],
        )
    journal = root / "memory" / "2025-11-27.md"

    still_going, _ = _tick(root, NOW)
    assert _statuses(still_going)["flush"] == "ran"
    assert "Fix the login test" not in (journal.read_text() if journal.exists() else "")
    assert _statuses(_tick(root, NOW + timedelta(minutes=10))[0])["flush"] == "not due"

    idle, _ = _tick(root, NOW + timedelta(minutes=21))
    assert _statuses(idle)["flush"] == "ran"
    text = journal.read_text()
    assert text.count("Fix the login test") == 1
    assert "- 09:50 Session “Fix the login test” (claude-code" in text

    again, _ = _tick(root, NOW + timedelta(minutes=30))
    assert _statuses(again)["flush"] == "not due"
    assert journal.read_text() == text


def test_two_ticks_at_once_never_run_the_same_job_twice(messy: tuple[Path, Truth]):
    root, _truth = messy
    go = root.parent / "go"
    tickers = [
        subprocess.Popen(
            [sys.executable, "-c", TICKER, str(root), str(go), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in ("a", "b")
    ]
    while len(list(root.parent.glob("ready-*"))) < 2:
        time.sleep(0.005)
    go.touch()
    results = []
    for ticker in tickers:
        out, err = ticker.communicate(timeout=120)
        assert ticker.returncode == 0, err.decode()
        results.append(dict(json.loads(out)))

    assert sum(1 for result in results if result.get("garden") == "ran") == 1
    assert sum(1 for result in results if result.get("flush") == "ran") == 1
    assert sum(1 for result in results if result.get("index") == "ran") == 1
    assert len(list((root / "memory" / "reports").glob("*.md"))) == 1
    upkeep = json.loads((root / "memory" / ".upkeep.json").read_text())
    assert upkeep["garden"]["last"] == "2025-11-27T10:00:00Z"
