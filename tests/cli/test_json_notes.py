"""search, recall and context say their notes on stderr with --json as without it, and in the
JSON too: a person piping the JSON into another tool still reads them."""

import json
from pathlib import Path

import pytest

from tests.cli.process import run


@pytest.mark.parametrize(
    "command",
    [["search", "planning"], ["recall", "planning"], ["context", "--query", "planning"]],
    ids=lambda command: command[0],
)  # fmt: skip
def test_notes_go_to_stderr_and_into_the_json(workspace: Path, command: list[str]):
    # a day that is no UTF-8: every read names it in a note
    (workspace / "memory" / "2020-01-06.md").write_bytes(b"# 2020-01-06\n\n- Planning \xff.\n")

    result = run("--workspace", str(workspace), *command, "--json")

    assert result.returncode == 0, result.stderr
    notes = json.loads(result.stdout)["notes"]
    assert notes
    assert [line.removeprefix("note: ") for line in result.stderr.splitlines()] == notes
