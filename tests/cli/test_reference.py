"""docs/cli.md is generated from the commands' help; it must not drift from the code."""

from pathlib import Path

from memstrata.cli import cli
from memstrata.cli.reference import render_cli_reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_docs_cli_md_matches_the_commands_help():
    assert DOC.read_text() == render_cli_reference(cli), (
        "docs/cli.md is stale: run `python -m memstrata.cli.reference > docs/cli.md`"
    )


def test_every_command_is_in_the_reference():
    text = DOC.read_text()
    import click

    for name in cli.list_commands(click.Context(cli)):
        assert f"## `memstrata {name}`" in text
