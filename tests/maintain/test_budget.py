"""Budgets are hard caps: a run stops mid-phase, records where, and the next run continues there."""

from datetime import timedelta
from pathlib import Path

from memstrata import Memory
from memstrata.config import Config, TopicsConfig
from memstrata.maintain.gardener import run_garden
from memstrata.maintain.ledger import read_ledger
from memstrata.maintain.state import read_state
from memstrata.workspace.layout import init_workspace
from tests.maintain.messy import NOW, Truth, garden


def test_a_run_stops_when_its_mutations_are_spent_and_the_next_resumes_there(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    first = garden(root, "autonomous", max_mutations=7)

    assert first.mutations_used == 7
    state = read_state(root / "memory" / ".garden" / "state.json")
    assert state.resume_phase == "decay" and state.resume_after
    assert first.resume_point == f"decay after {state.resume_after}"
    assert first.text.splitlines()[-1] == (
        f"Budget: 7/7 mutations · resume point: decay after {state.resume_after}"
    )
    assert "split — mutation budget spent (resume point recorded)" in first.skipped

    runs = [first]
    while runs[-1].resume_point != "clean":
        runs.append(
            garden(root, "autonomous", max_mutations=7, now=NOW + timedelta(minutes=len(runs)))
        )
        assert len(runs) < 10
    # the second run began where the first stopped: decay, then split …, dedup last
    assert [p.name for p in runs[1].phases][:3] == ["survey", "decay", "split"]
    actions = [r.action for r in read_ledger(root / "memory" / "ledger.jsonl")]
    assert actions.count("merge") == 5 and actions.count("split") == 4
    assert actions.count("decay") == 6 and actions.count("link") == 3
    assert read_state(root / "memory" / ".garden" / "state.json").resume_phase == ""


def test_the_comparison_budget_stops_judging_but_not_the_other_phases(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    report = garden(root, "autonomous", max_comparisons=3)

    assert report.comparisons_used == 3
    assert report.resume_point.startswith("dedup")
    assert "invalidate — comparison budget spent (resume point recorded)" in report.skipped
    assert report.actions["decay"] == 6 and report.actions["split"] == 4


def test_a_zero_budget_run_proposes_and_executes_nothing(messy: tuple[Path, Truth]):
    root, _truth = messy
    report = garden(root, "autonomous", max_mutations=0)
    assert report.mutations_used == 0 and not report.destructive
    assert report.resume_point.startswith("dedup")


def test_more_active_topics_than_the_cap_archives_the_coldest(messy: tuple[Path, Truth]):
    root, truth = messy
    config = Config(topics=TopicsConfig(max_active=50))
    with Memory(root, clock=lambda: NOW, config=config) as memory:
        report = run_garden(
            memory,
            "propose",
            max_mutations=200,
            max_comparisons=500,
            now=NOW,
            skip=("dedup", "split", "invalidate", "reconnect"),
        )
    overflow = [op for op in report.destructive if "coldest" in op.why]
    assert len(overflow) == 61 - len(truth.archives) - 50
    assert not {op.topics[0] for op in overflow} & {*truth.pinned, *truth.healthy[:3]}
    assert "dedup — asked to skip" in report.skipped


def test_topics_just_written_over_the_cap_are_kept_and_the_report_says_why(scratch: Path):
    root = scratch / "ws"
    config = Config(topics=TopicsConfig(max_active=3))
    init_workspace(root)
    with Memory(root, clock=lambda: NOW, config=config) as memory:
        for name in ("ann", "bob", "cara", "dev", "eli"):
            memory.write_topic(f"people/{name}", f"# {name}\n\n{name} joined the team today.")

    minutes_later = NOW + timedelta(minutes=10)
    with Memory(root, clock=lambda: minutes_later, config=config) as memory:
        report = memory.garden(mode="autonomous")

    assert report.actions.get("archive", 0) == 0 and not report.destructive
    assert report.stats_after["active"] == 5
    assert report.deferred == (
        "topics: 2 active over the cap of 3 left as they are: pinned, or created less than "
        "30 days ago (too new to call cold)",
    )

    month_later = NOW + timedelta(days=31)
    with Memory(root, clock=lambda: month_later, config=config) as memory:
        report = memory.garden(mode="autonomous")

    assert report.actions["archive"] == 2 and report.stats_after["active"] == 3
    assert all("coldest" in op.why for op in report.destructive)
