"""Workspace commands: init, status, rebuild, demo."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memstrata.cli.opener import open_memory
from memstrata.cli.output import ProgressBar, echo_json
from memstrata.errors import InputError
from memstrata.jsonable import to_jsonable
from memstrata.workspace.layout import init_workspace

#: held journal entries and topics listed by status and rebuild (all in status --json)
#: problems status prints before "… and N more" (a broken file can hold thousands)
PROBLEMS_SHOWN = 50
HELD_SHOWN = 10

if TYPE_CHECKING:
    from memstrata.status import Status


@click.command()
@click.argument("path", default=".")
def init(path: str) -> None:
    """Create a workspace at PATH (default: here); existing files are kept.

    Example: memstrata init ~/agent-memory
    """
    if not path.strip():
        raise InputError("init: the folder is empty text; name one, or leave it out for here")
    workspace = init_workspace(Path(path).expanduser())
    click.echo(f"workspace ready at {workspace.root}")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Show the strata: rules sizes against their caps, topics, journal, raw sessions.

    Example: memstrata status --json
    """
    report = open_memory(ctx).status()
    if as_json:
        echo_json({**_status_dict(report), "warnings": report.rules.warnings})
        return
    rules = report.rules
    click.echo(f"workspace {report.root}")
    click.echo(
        f"rules     {rules.total_bytes} / {rules.resident_budget_bytes} bytes resident "
        "(as injected, headings included)"
    )
    for item in rules.files:
        state = "" if item.exists else "  (missing)"
        click.echo(f"  {item.path:<26} {item.bytes:>6} bytes{state}")
    click.echo(f"  MEMORY.md {rules.memory_chars} / {rules.memory_cap_chars} chars")
    topics = ", ".join(f"{n} {state}" for state, n in sorted(report.topics_by_state.items()))
    held_topics = sum(1 for entry in report.held if "#L" not in entry.source)
    held_lines = len(report.held) - held_topics
    held = f", {held_topics} held out of recall" if held_topics else ""
    click.echo(f"wiki      {topics or 'no topics'}{held}")
    held = f", {held_lines} held out of recall" if held_lines else ""
    click.echo(f"journal   {report.journal_days} days, {report.facts} retain facts{held}")
    click.echo(f"raw       {report.raw_sessions} sessions, {report.raw_turns} turns")
    click.echo(f"embedder  {report.embedder}")
    for warning in rules.warnings:
        click.echo(f"warning: {warning}", err=True)
    for entry in report.held[:HELD_SHOWN]:
        click.echo(f"held: {entry.source}: reads as an instruction ({entry.reason})", err=True)
    if len(report.held) > HELD_SHOWN:
        click.echo(f"held: … and {len(report.held) - HELD_SHOWN} more (status --json)", err=True)
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    for problem in report.problems[:PROBLEMS_SHOWN]:
        click.echo(f"problem: {problem}", err=True)
    if len(report.problems) > PROBLEMS_SHOWN:
        more = len(report.problems) - PROBLEMS_SHOWN
        click.echo(f"problem: … and {more} more (status --json lists them all)", err=True)


def _status_dict(report: Status) -> dict[str, Any]:
    """The status as JSON, with the rules totals that are properties (not fields) added."""
    value: dict[str, Any] = to_jsonable(report)
    value["rules"]["total_bytes"] = report.rules.total_bytes
    value["rules"]["memory_chars"] = report.rules.memory_chars
    return value


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def rebuild(ctx: click.Context, as_json: bool) -> None:
    """Recreate the derived index (.memstrata/index.db) and _index.json from the files.

    Example: memstrata rebuild
    """
    memory = open_memory(ctx)
    bar = ProgressBar("embedding")
    try:
        report = memory.rebuild(on_embedding=bar)
    finally:
        bar.close()
    if memory.embedder_failure:
        click.echo(
            f"note: {memory.embedder_failure}; indexed without vectors (the next rebuild or "
            "read embeds what is missing)",
            err=True,
        )
    elif memory.embedder_note:
        click.echo(f"note: {memory.embedder_note}", err=True)
    if as_json:
        echo_json(report)
    else:
        embedded = f", embedded {report.embedded} items" if report.embedded else ""
        click.echo(
            f"indexed {report.topics_indexed} topics and {report.journals_indexed} journal days"
            f"{embedded}"
        )
    for entry in report.held[:HELD_SHOWN]:
        click.echo(f"held: {entry.source}: reads as an instruction ({entry.reason})", err=True)
    for problem in report.problems:
        click.echo(f"problem: {problem}", err=True)
    if report.problems:
        ctx.exit(1)


@click.command()
@click.option(
    "--path",
    type=click.Path(path_type=Path),
    default=None,
    help=(
        "Build the demo workspace here, a new or empty folder, and keep it (default: a "
        "temporary folder, removed after)."
    ),
)
def demo(path: Path | None) -> None:
    """Build a workspace from bundled sample data, then show ingest, a search and a context.

    Example: memstrata demo --path /tmp/memstrata-demo
    """
    from memstrata.demo import run_demo

    run_demo(path, click.echo)


COMMANDS = (init, status, rebuild, demo)
