"""``status`` names a garden step a kill left half done, and says what finishes it."""

from pathlib import Path

from memstrata.maintain.state import GardenPaths
from memstrata.workspace.layout import Workspace
from tests.cli.process import run


def test_status_names_a_half_done_garden_step_and_the_next_garden_finishes_it(
    workspace: Path,
):
    intent = GardenPaths(Workspace(workspace)).intent
    intent.parent.mkdir(parents=True, exist_ok=True)
    intent.write_text('{"record": ')  # torn as a kill leaves it, before any topic was written

    before = run("--workspace", str(workspace), "status")
    garden = run("--workspace", str(workspace), "garden")
    after = run("--workspace", str(workspace), "status")

    assert "problem: memory/.garden/step.json: a garden step was stopped half done" in (
        before.stderr
    )
    assert "'memstrata garden' or 'memstrata ledger undo' finishes it" in before.stderr
    assert garden.returncode == 0, garden.stderr
    assert not intent.exists()
    assert "garden step" not in after.stderr
