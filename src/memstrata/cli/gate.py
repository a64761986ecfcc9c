"""``memstrata remember`` and ``memstrata proposals``: the gate and the rulings it asks for."""

from __future__ import annotations

import click

from memstrata.cli.opener import open_memory
from memstrata.cli.output import echo_json, one_line
from memstrata.gate.verdicts import Rejected, verdict_name
from memstrata.model import FACT_KINDS, Problem


@click.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--topic", default=None, help="Topic id namespace/slug to store it in.")
@click.option("--kind", type=click.Choice(FACT_KINDS), default=None, help="What kind of knowledge.")
@click.option("--entity", "entities", multiple=True, help="An entity it is about (repeatable).")
@click.option(
    "--confidence",
    type=click.FloatRange(0, 1),
    default=None,
    help="With --kind opinion: its confidence, 0 to 1.",
)
@click.option("--supersedes", default=None, help="Topic id this replaces.")
@click.option("--source", default="", help="Where it came from (file#line, session turn, URL).")
@click.option("--dry-run", is_flag=True, help="Show the verdict without writing anything.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.pass_context
def remember(
    ctx: click.Context,
    text: tuple[str, ...],
    topic: str | None,
    kind: str | None,
    entities: tuple[str, ...],
    confidence: float | None,
    supersedes: str | None,
    source: str,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Store knowledge through the gate: dedup, supersession, conflicts, secrets, injections.

    Prints the verdict: admitted, merged, superseded, conflicted, quarantined or rejected.

    Example: memstrata remember --kind world --entity Ann "Ann prefers cortado"
    """
    memory = open_memory(ctx)
    verdict = memory.remember(
        " ".join(text),
        topic=topic,
        kind=kind,
        entities=entities,  # type: ignore[arg-type]
        confidence=confidence,
        supersedes=supersedes,
        source=source,
        actor="user",
        dry_run=dry_run,
    )
    name = verdict_name(verdict)
    notes = memory.gate_notes()
    if as_json:
        echo_json({"verdict": name, **_fields(verdict), "notes": list(notes)})
    else:
        preview = " (dry run: nothing written)" if dry_run else ""
        where = getattr(verdict, "topic_id", "") or getattr(verdict, "proposal_id", "")
        click.echo(f"{name} {where}{preview}".replace("  ", " ").rstrip())
        click.echo(f"  {verdict.reason}")
        redactions = getattr(verdict, "redactions", ())
        if redactions:
            click.echo(f"  redacted: {', '.join(redactions)}")
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if name == "rejected":
        ctx.exit(1)


def _fields(verdict: object) -> dict[str, object]:
    from memstrata.jsonable import to_jsonable

    return to_jsonable(verdict)  # type: ignore[no-any-return]


@click.group()
def proposals() -> None:
    """Proposals: conflicts and quarantined text waiting for a person's ruling.

    Example: memstrata proposals list
    """


@proposals.command("list")
@click.option("--all", "show_all", is_flag=True, help="Include resolved proposals.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_proposals(ctx: click.Context, show_all: bool, as_json: bool) -> None:
    """List open proposals (with --all, resolved ones too).

    Example: memstrata proposals list --all
    """
    listing = open_memory(ctx).proposal_store.read_all(None if show_all else "open")
    found = list(listing.proposals)
    for problem in listing.problems:
        click.echo(f"problem: {problem}", err=True)
    if as_json:
        echo_json(found)
        return
    if not found:
        click.echo("no open proposals")
    for item in found:
        about = " vs ".join(side.topic_id for side in item.sides) or one_line(item.text, 60)
        click.echo(f"{item.id}  {item.kind:<10} {item.status:<8} {about}")


@proposals.command()
@click.argument("proposal_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def show(ctx: click.Context, proposal_id: str, as_json: bool) -> None:
    """Show a proposal: both sides and what each ruling does.

    Example: memstrata proposals show p-0123456789
    """
    memory = open_memory(ctx)
    item = memory.proposal(proposal_id)
    if as_json:
        echo_json(item)
        return
    text = memory.proposal_store.path(proposal_id).read_text("utf-8")
    click.echo(text.split("<!-- memstrata data")[0].rstrip())


@proposals.command()
@click.argument("proposal_id")
@click.option(
    "--keep",
    type=click.Choice(["a", "b", "both"]),
    default=None,
    help="For a conflict (required there): which side stands.",
)
@click.pass_context
def accept(ctx: click.Context, proposal_id: str, keep: str | None) -> None:
    """Accept a proposal (for a conflict, say which side to keep).

    Quarantined text is stored in the wiki through the gate, never in the rules files; while
    it reads as an instruction to the model its topic stays held out of recall and the Index
    (a note names it), until it is reworded with memstrata topic write.

    Example: memstrata proposals accept p-0123456789 --keep b
    """
    memory = open_memory(ctx)
    resolved = memory.resolve_proposal(proposal_id, True, keep)  # type: ignore[arg-type]
    click.echo(f"{resolved.id} accepted: {resolved.ruling}")
    for held in memory.held_topics_of(resolved):
        click.echo(
            f"note: {held.source} is held out of recall and the Index, it reads as an "
            f"instruction to the model ({held.reason}); reword it (memstrata topic write "
            f"{held.source} --summary-file FILE) to have it recalled",
            err=True,
        )


@proposals.command()
@click.argument("proposal_id")
@click.pass_context
def reject(ctx: click.Context, proposal_id: str) -> None:
    """Reject a proposal (a conflict: both sides stay; quarantined text stays out).

    Example: memstrata proposals reject p-0123456789
    """
    resolved = open_memory(ctx).resolve_proposal(proposal_id, False)
    click.echo(f"{resolved.id} rejected: {resolved.ruling}")


@click.command()
@click.option("--day", default=None, help="Only this day's journal (YYYY-MM-DD); default: all.")
@click.option("--dry-run", is_flag=True, help="Show the verdicts without writing anything.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def promote(ctx: click.Context, day: str | None, dry_run: bool, as_json: bool) -> None:
    """Promote journal ## Retain facts into the wiki, each through the gate (once per fact).

    What it leaves alone is named on stderr: a Retain bullet that does not parse, a day that
    cannot be read, a fact holding bytes that are no UTF-8 (it waits for them to be fixed).

    Example: memstrata promote --day 2025-11-27 --dry-run
    """
    problems: list[Problem] = []
    results = open_memory(ctx).promote(day, dry_run=dry_run, on_problem=problems.append)
    for problem in problems:
        click.echo(f"problem: {problem}", err=True)
    if as_json:
        echo_json(
            [
                {"fact": fact, "verdict": verdict_name(verdict), **_fields(verdict)}
                for fact, verdict in results
            ]
        )
        return
    if not results:
        click.echo("nothing new to promote")
    for fact, verdict in results:
        where = getattr(verdict, "topic_id", "") or getattr(verdict, "proposal_id", "")
        if isinstance(verdict, Rejected):
            where = f"({verdict.reason})"
        click.echo(f"{fact.source}: {verdict_name(verdict)} {where}".rstrip())
    if results and dry_run:
        click.echo("(dry run: nothing written)")


COMMANDS = (remember, proposals, promote)
