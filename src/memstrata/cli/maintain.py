"""``memstrata garden``, ``ledger``, ``snapshot`` and ``tick``: upkeep and its safety nets."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memstrata.cli.opener import open_memory
from memstrata.cli.output import echo_json, one_line
from memstrata.maintain.gardener import MODES, SKIPPABLE
from memstrata.maintain.restore import RestoreResult, interrupted_restore, pending_restore

if TYPE_CHECKING:
    from memstrata.memory import Memory


@click.command()
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="propose",
    show_default=True,
    help="propose: destructive steps become proposals; autonomous: a snapshot, then "
    "unambiguous steps are done.",
)
@click.option(
    "--max-mutations",
    type=click.IntRange(min=0),
    default=None,
    help="Hard cap on steps and proposals this run (default: garden.max_mutations, 25).",
)
@click.option(
    "--max-comparisons",
    type=click.IntRange(min=0),
    default=None,
    help="Hard cap on pair judgements (default: garden.max_comparisons, 50).",
)
@click.option(
    "--skip",
    multiple=True,
    type=click.Choice(SKIPPABLE),
    help="A phase to skip (repeatable); it is named in the report.",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Read-only scan: what a run would do, plus cross-topic patterns.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def garden(
    ctx: click.Context,
    mode: str,
    max_mutations: int | None,
    max_comparisons: int | None,
    skip: tuple[str, ...],
    dry_run: bool,
    as_json: bool,
) -> None:
    """Tend the memory once: dedup, decay, split, invalidate, reconnect, summarise, report.

    Budgeted and idempotent; never deletes (archive, supersede, demote). Every step goes to
    memory/ledger.jsonl and can be undone; the report goes to memory/reports/.

    Example: memstrata garden --mode autonomous --max-mutations 10
    """
    report = open_memory(ctx).garden(
        mode=mode,
        max_mutations=max_mutations,
        max_comparisons=max_comparisons,
        dry_run=dry_run,
        skip=skip,
    )
    if as_json:
        echo_json(report)
        return
    click.echo(report.text, nl=False)
    if report.path:
        click.echo(f"(written to {report.path})")


@click.group()
def ledger() -> None:
    """The gardener's ledger: one line per step, each reversible.

    Example: memstrata ledger show
    """


@ledger.command("show")
@click.argument("step_id", required=False)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="How many of the latest steps to list.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def show_ledger(ctx: click.Context, step_id: str | None, limit: int, as_json: bool) -> None:
    """List the latest steps, or show one step with the states it changed.

    Example: memstrata ledger show g-0123456789
    """
    scan = open_memory(ctx).scan_ledger()
    records = list(scan.records)
    for skipped in scan.skipped:
        click.echo(f"note: {skipped}", err=True)
    if step_id:
        records = [record for record in records if record.id == step_id]
        if not records:
            raise click.ClickException(f"no step {step_id!r} in memory/ledger.jsonl")
    else:
        records = records[-limit:]
    if as_json:
        echo_json(records)
        return
    if not records:
        click.echo("the ledger is empty")
    for record in records:
        if step_id:  # one step: all of it
            click.echo(f"{record.id}  {record.time}  {record.action}  {', '.join(record.topics)}")
            click.echo(f"  why: {' '.join(record.why.split())}")
        else:
            click.echo(
                f"{record.id}  {record.time}  {record.action:<9} "
                f"{', '.join(record.topics[:3])}{', …' if len(record.topics) > 3 else ''}  "
                f"{one_line(record.why, 60)}"
            )
        if step_id:
            for change in record.changes:
                was = "created" if change.before is None else change.before_hash
                click.echo(f"  {change.topic}: {change.op} {was} → {change.after_hash}")


@ledger.command()
@click.argument("step_id")
@click.option("--dry-run", is_flag=True, help="Say what would be restored; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def undo(ctx: click.Context, step_id: str, dry_run: bool, as_json: bool) -> None:
    """Undo one step: its topics go back to their states before it (made ones are archived).

    Example: memstrata ledger undo g-0123456789
    """
    result = open_memory(ctx).undo(step_id, dry_run=dry_run)
    if as_json:
        echo_json(result)
        return
    for skipped in result.skipped:
        click.echo(f"note: {skipped}", err=True)
    restores, archives = ("would restore", "would archive") if dry_run else ("restored", "archived")
    head = f"{step_id}:" if dry_run else f"undid {step_id} as {result.step}:"
    click.echo(
        f"{head} {restores} {', '.join(result.restored) or 'nothing'}"
        + (f"; {archives} {', '.join(result.archived)}" if result.archived else "")
    )


@click.group()
def snapshot() -> None:
    """Snapshots of the canonical files and the raw database (.memstrata/snapshots/).

    Example: memstrata snapshot list
    """


@snapshot.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_snapshots(ctx: click.Context, as_json: bool) -> None:
    """List snapshots, oldest first (and say so when a restore was interrupted).

    Example: memstrata snapshot list --json
    """
    memory = open_memory(ctx)
    interrupted = interrupted_restore(memory.workspace)
    if interrupted:
        click.echo(f"Warning: {interrupted}", err=True)
    found = memory.snapshots()
    if as_json:
        echo_json(found)
        return
    if not found:
        click.echo("no snapshots")
    for info in found:
        if info.damaged:
            click.echo(f"{info.id}  damaged, cannot be restored: {info.damaged}")
            continue
        click.echo(f"{info.id}  {info.time}  {info.files} files  {info.bytes} bytes  {info.reason}")


@snapshot.command()
@click.option("--reason", default="taken by hand", show_default=True, help="Why, for the list.")
@click.pass_context
def take(ctx: click.Context, reason: str) -> None:
    """Take a snapshot now (an interrupted restore is finished first).

    Example: memstrata snapshot take --reason "before a big import"
    """
    memory = open_memory(ctx)
    _finish_interrupted(memory)
    info = memory.take_snapshot(reason)
    click.echo(f"{info.id}: {info.files} files, {info.bytes} bytes in {info.path}")


@snapshot.command()
@click.option(
    "--keep",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many of the newest snapshots to keep.",
)
@click.option("--dry-run", is_flag=True, help="List what would be removed; remove nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def prune(ctx: click.Context, keep: int, dry_run: bool, as_json: bool) -> None:
    """Remove all but the newest snapshots (never one an unfinished restore needs).

    Each autonomous garden run and each restore takes a snapshot, with a whole copy of the raw
    database; nothing else removes them.

    Example: memstrata snapshot prune --keep 5 --dry-run
    """
    result = open_memory(ctx).prune_snapshots(keep, dry_run=dry_run)
    if as_json:
        echo_json(result)
        return
    verb = "would remove" if dry_run else "removed"
    click.echo(
        f"{verb} {len(result.removed)} snapshots ({result.freed_bytes} bytes of their own), "
        f"kept {len(result.kept)}"
    )
    for name in result.removed:
        click.echo(f"  {name}")


@snapshot.command()
@click.argument("snapshot_id")
@click.option("--dry-run", is_flag=True, help="List what would change; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (with every file listed).")
@click.pass_context
def restore(ctx: click.Context, snapshot_id: str, dry_run: bool, as_json: bool) -> None:
    """Make the workspace what it was in a snapshot (the present is snapshotted first).

    All or nothing: a restore that is killed partway is finished by the next restore of the
    same snapshot (or the next snapshot taken); restoring the snapshot of the state before it
    goes back instead.

    Example: memstrata snapshot restore snap-20251127T100000Z --dry-run
    """
    result = open_memory(ctx).restore_snapshot(snapshot_id, dry_run=dry_run)
    if as_json:
        echo_json(result)
        return
    if dry_run:
        head = "would finish the interrupted restore of" if result.resumed else "would restore"
        click.echo(f"{head} {snapshot_id}: {_changes(result)}")
        for line in _listed("write ", result.written) + _listed("remove", result.removed):
            click.echo(f"  {line}")
        if result.raw_restored:
            click.echo("  write  raw/sessions.db (the raw database, as a whole)")
        return
    _echo_restored(result)


def _finish_interrupted(memory: Memory) -> None:
    """Finish a restore a killed process left half done, and say so."""
    pending = pending_restore(memory.workspace)
    if pending is not None and pending.snapshot:
        _echo_restored(memory.restore_snapshot(pending.snapshot))


def _echo_restored(result: RestoreResult) -> None:
    head = "finished the interrupted restore of" if result.resumed else "restored"
    click.echo(
        f"{head} {result.snapshot}: {_changes(result)}; the state before is snapshot "
        f"{result.safety_snapshot} (undo with 'memstrata snapshot restore "
        f"{result.safety_snapshot}')"
    )
    if result.edits_snapshot:
        click.echo(
            f"files changed after the interruption were kept in snapshot {result.edits_snapshot}"
        )


def _changes(result: RestoreResult) -> str:
    written = len(result.written)
    return f"{written} file{'' if written == 1 else 's'} written, {len(result.removed)} removed"


#: files a dry run names per list; --json names them all
FILES_SHOWN = 50


def _listed(verb: str, paths: tuple[str, ...]) -> list[str]:
    """``verb path`` per file, the first :data:`FILES_SHOWN`, then how many more."""
    lines = [f"{verb} {path}" for path in paths[:FILES_SHOWN]]
    if len(paths) > FILES_SHOWN:
        lines.append(f"{verb} … and {len(paths) - FILES_SHOWN} more (--json lists them all)")
    return lines


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def tick(ctx: click.Context, as_json: bool) -> None:
    """Do the upkeep that is due (idle flush, garden, index); fast when nothing is.

    Distill is listed as skipped: it is not built yet.

    For agent hooks: no daemon needed.

    Example: memstrata tick --json
    """
    report = open_memory(ctx).tick()
    if as_json:
        echo_json(report)
        return
    for job in report.jobs:
        when = f" (next {job.next_due})" if job.next_due and job.status != "ran" else ""
        detail = f": {job.detail}" if job.detail else ""
        click.echo(f"{job.name}: {job.status}{detail}{when}")


COMMANDS = (garden, ledger, snapshot, tick)
