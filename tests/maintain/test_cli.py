"""The upkeep commands, end to end through click: thin over Memory, JSON on every read."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memstrata.cli import cli, maintain
from tests.maintain.messy import Truth


def _run(root: Path, *args: str) -> str:
    # Through the top-level group, as a user runs it: invoking a subcommand object directly
    # would build its help option without the group's settings (and click caches it).
    result = CliRunner().invoke(cli, ["--workspace", str(root), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("MEMSTRATA_WORKSPACE", raising=False)


def test_garden_ledger_undo_and_snapshots_from_the_command_line(
    messy: tuple[Path, Truth], env: None
):
    root, truth = messy
    preview = _run(root, "garden", "--dry-run", "--max-mutations", "100")
    assert preview.startswith("# Gardening report — ")
    assert "WOULD PROPOSE ARCHIVE" in preview and "Patterns:" in preview

    report = json.loads(
        _run(root, "garden", "--mode", "autonomous", "--max-mutations", "100", "--json")
    )
    assert report["actions"]["merge"] == len(truth.duplicates) and report["path"]

    steps = json.loads(_run(root, "ledger", "show", "--json", "--limit", "100"))
    [merge] = [step for step in steps if step["action"] == "merge"][:1]
    shown = _run(root, "ledger", "show", merge["id"])
    assert f"{merge['topics'][1]}: merge" in shown
    assert f"  why: {' '.join(merge['why'].split())}\n" in shown  # one step: never cut short
    preview = _run(root, "ledger", "undo", merge["id"], "--dry-run")
    assert preview.startswith(f"{merge['id']}: would restore ") and "restored" not in preview
    assert "restored" in _run(root, "ledger", "undo", merge["id"])

    [listed] = json.loads(_run(root, "snapshot", "list", "--json"))
    assert listed["id"] == report["snapshot"]
    assert "would restore" in _run(root, "snapshot", "restore", listed["id"], "--dry-run")
    assert "snap-" in _run(root, "snapshot", "take", "--reason", "test")


def test_tick_prints_each_job(messy: tuple[Path, Truth], env: None):
    root, _truth = messy
    first = json.loads(_run(root, "tick", "--json"))
    assert {job["name"]: job["status"] for job in first["jobs"]}["garden"] == "ran"
    assert "garden: not due (next " in _run(root, "tick")


@pytest.mark.parametrize("command", maintain.COMMANDS, ids=lambda c: c.name)
def test_every_upkeep_command_ends_its_help_with_an_example(command):
    commands = [command, *getattr(command, "commands", {}).values()]
    for item in commands:
        assert item.help.strip().splitlines()[-1].strip().startswith("Example: memstrata ")
