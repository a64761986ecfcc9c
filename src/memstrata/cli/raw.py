"""``memstrata ingest``: import agent transcripts into the raw tier."""

from __future__ import annotations

import sys

import click

from memstrata.cli.opener import open_memory
from memstrata.cli.output import counted, echo_json
from memstrata.raw.importers import FORMATS
from memstrata.raw.ingest import IngestReport, paths_named
from memstrata.raw.spool import stream_label
from memstrata.recall.vector_cache import EMBED_PER_QUERY


@click.command()
# paths as typed: "./-" is a file, "-" standard input (see raw.ingest.paths_named)
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option(
    "--format",
    "format_name",
    type=click.Choice(["auto", *FORMATS]),
    default="auto",
    help="Transcript format (default: detect per file).",
)
@click.option(
    "--agent",
    default=None,
    help="Agent key harness:account:role for these sessions; sessions already stored under "
    "another key move to it (default: <harness>:<login name>:main for new sessions, stored "
    "ones keep theirs).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def ingest(
    ctx: click.Context,
    paths: tuple[str, ...],
    format_name: str,
    agent: str | None,
    as_json: bool,
) -> None:
    """Import transcripts (files or folders such as ~/.claude/projects or ~/.codex/sessions).

    Re-importing a file, or a longer version of it, adds only what is new. Lines that do not
    parse, or are longer than [raw] max_line_bytes, are reported with their line number; files
    and folders that cannot be read, or are not there, by name; the rest imports (exit status
    1 if any).
    '-' reads one transcript from standard input; a pipe such as <(…) is read the same way.

    Example: memstrata ingest ~/.claude/projects --agent claude-code:me:main
    """
    memory = open_memory(ctx)
    files = memory.files_to_ingest(paths)
    show_bar = sys.stderr.isatty() and not as_json and len(files) > 1
    with click.progressbar(
        length=len(files), label="ingesting", file=sys.stderr, hidden=not show_bar
    ) as bar:
        report = memory.ingest(
            paths, format_name, agent, on_file=lambda _path: bar.update(1), files=files
        )
    if as_json:
        echo_json(report)
    else:
        click.echo(_summary(report, format_name))
    if report.turns_added >= BACKLOG_NOTE_TURNS and memory.config.embeddings.model != "none":
        click.echo(
            f"note: {report.turns_added:,} new turns are found by their words at once, by their "
            f"meaning once embedded: each search embeds up to {EMBED_PER_QUERY} of them; "
            "'memstrata rebuild' embeds them all now (minutes per 100k turns)",
            err=True,
        )
    for problem in report.problems[:50]:
        click.echo(f"problem: {problem}", err=True)
    if len(report.problems) > 50:
        click.echo(f"… and {len(report.problems) - 50} more problems", err=True)
    if report.found_no_transcript and not report.problems:
        named = ", ".join(stream_label(path) for path in paths_named(paths))
        click.echo(f"nothing imported: no {_kind(format_name)} found in {named}", err=True)
    if report.problems or report.found_no_transcript:
        ctx.exit(1)


#: how many skipped files the text report names (``--json`` lists them all)
NAMED_SKIPS = 3
#: an import of this many turns says how their vectors come (search would be slow till then)
BACKLOG_NOTE_TURNS = 1000


def _summary(report: IngestReport, format_name: str) -> str:
    kept = f", {report.turns_kept} kept as stored (held less)" if report.turns_kept else ""
    line = (
        f"{counted(report.files, 'file')}, {counted(report.sessions, 'session')}: "
        f"{counted(report.turns_added, 'turn')} added, {report.turns_updated} updated{kept}; "
        f"{counted(report.skipped_unchanged, 'unchanged file')} skipped"
    )
    if report.mended_turns:
        line += (
            f", {counted(report.mended_turns, 'turn')} stored with U+FFFD for text no UTF-8 can "
            "hold (an escape such as \\udcff)"
        )
    if report.agents_changed:
        were = ", ".join(sorted(set(report.agents_changed.values())))
        line += (
            f", {counted(len(report.agents_changed), 'session')} moved to the agent key named "
            f"(they had {were})"
        )
    if report.forks:
        apart = ", ".join(
            f"{own} (its id {given} held another)" for own, given in report.forks.items()
        )
        line += f", {counted(len(report.forks), 'session')} stored apart: {apart}"
    if report.unknown_files:
        unknown = "unknown file" if format_name == "auto" else "file"
        not_in = "" if format_name == "auto" else f" not in {format_name} format"
        line += (
            f", {counted(len(report.unknown_files), unknown)}{not_in} skipped: "
            f"{_first_few(report.unknown_files)}"
        )
    if report.empty_files:
        line += (
            f", {counted(len(report.empty_files), 'empty file')} skipped: "
            f"{_first_few(report.empty_files)}"
        )
    return line


def _kind(format_name: str) -> str:
    return "transcript" if format_name == "auto" else f"{format_name} transcript"


def _first_few(paths: list[str]) -> str:
    more = f" (and {len(paths) - NAMED_SKIPS} more)" if len(paths) > NAMED_SKIPS else ""
    return ", ".join(paths[:NAMED_SKIPS]) + more


COMMANDS = (ingest,)
