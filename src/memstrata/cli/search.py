"""``memstrata search`` and ``memstrata context``."""

from __future__ import annotations

import click

from memstrata.cli.opener import open_memory
from memstrata.cli.output import echo_json, one_line
from memstrata.journal.parse import KIND_LETTERS

# the kinds recall filters on, by name or by the letter `log --kind` takes
_RECALL_KINDS = sorted({*KIND_LETTERS.values(), *KIND_LETTERS, "note"})


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option(
    "--limit",
    "-k",
    default=10,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="How many hits at most.",
)
@click.option("--include-archived", is_flag=True, help="Include archived and superseded topics.")
@click.option(
    "--sessions",
    is_flag=True,
    help="Rank whole raw sessions (conversations) instead, each with its best turn.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON: {query, hits, notes}, notes also on stderr.",
)
@click.pass_context
def search(
    ctx: click.Context,
    query: tuple[str, ...],
    limit: int,
    include_archived: bool,
    sessions: bool,
    as_json: bool,
) -> None:
    """Search every stratum: wiki, journal and raw transcripts (labelled raw), with sources.

    Example: memstrata search "flat white"   ·   memstrata search --sessions "the Lisbon trip"
    """
    if sessions and include_archived:
        raise click.UsageError("--include-archived is about topics; --sessions ranks raw sessions")
    memory = open_memory(ctx)
    text = " ".join(query)
    if sessions:
        hits = memory.search_sessions(text, limit)
    else:
        hits = memory.search(text, limit, include_archived=include_archived)
    notes = memory.search_notes(text)
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if as_json:
        echo_json({"query": memory.searched_query(text), "hits": hits, "notes": notes})
        return
    if not hits:
        click.echo("no results")
    for hit in hits:
        near = "" if hit.holds_a_word else "  (no word of the query: near in meaning)"
        if sessions:
            title = f"  {one_line(hit.title)}" if hit.title else ""
            click.echo(f"[session] {hit.source}  {hit.time}  {hit.extra['harness']}{title}{near}")
            click.echo(f"    {hit.extra['best_turn']}: {one_line(hit.text, 80)}")
            continue
        state = hit.extra.get("state", "active")
        marker = f" [{state}]" if state != "active" else ""
        click.echo(f"[{hit.stratum}] {hit.source}{marker}  {hit.time}{near}")
        click.echo(f"    {one_line(hit.text, 96)}")


def _a_time(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse a time bound recall cannot read as the bad option value it is (exit 2, as a bad
    ``--k``), before the workspace is opened; recall reads it again against its own clock."""
    from datetime import UTC, datetime

    from memstrata.errors import InputError
    from memstrata.recall.inputs import checked_bound

    if value is not None:
        try:
            checked_bound(value, datetime.now(UTC), "", start=param.name == "since")
        except InputError as error:
            raise click.BadParameter(str(error).strip()) from error
    return value


def _an_entity(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse an empty ``--entity`` as the bad option value it is (exit 2)."""
    from memstrata.errors import InputError
    from memstrata.recall.inputs import checked_entity

    try:
        return checked_entity(value)
    except InputError as error:
        raise click.BadParameter(str(error)) from error


def _refuse_an_empty_window(since: str | None, until: str | None) -> None:
    """Refuse bounds with no time between them as a usage error (exit 2, as a bound that
    cannot be read), before the workspace is opened."""
    from datetime import UTC, datetime

    from memstrata.errors import InputError
    from memstrata.recall.inputs import checked_window

    try:
        checked_window(since, until, datetime.now(UTC))
    except InputError as error:
        raise click.UsageError(str(error)) from error


@click.command()
@click.argument("query", nargs=-1)
@click.option(
    "--k",
    "-k",
    "k",
    type=click.IntRange(1, 200),
    default=None,
    help="How many items (default: recall.default_k, 10).",
)
@click.option(
    "--since",
    default=None,
    callback=_a_time,
    help="Only items from then on: 30d, 2025-11, 'last week'.",
)
@click.option(
    "--until", default=None, callback=_a_time, help="Only items up to then: 2025-11-27, 2025-10."
)
@click.option(
    "--kind",
    type=click.Choice(_RECALL_KINDS, case_sensitive=False),
    default=None,
    help="Only this kind of knowledge: world (W), experience (B), opinion (O), observation "
    "(S), or note (an untyped journal line).",
)
@click.option(
    "--entity",
    default=None,
    callback=_an_entity,
    help="Only items about this entity (@name or name).",
)
@click.option("--include-archived", is_flag=True, help="Also archived (and superseded) topics.")
@click.option("--include-superseded", is_flag=True, help="Also superseded topics (the chain).")
@click.option("--explain", is_flag=True, help="Show the score and which arms found each item.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON: {query, items, notes}, notes also on stderr.",
)
@click.pass_context
def recall(
    ctx: click.Context,
    query: tuple[str, ...],
    k: int | None,
    since: str | None,
    until: str | None,
    kind: str | None,
    entity: str | None,
    include_archived: bool,
    include_superseded: bool,
    explain: bool,
    as_json: bool,
) -> None:
    """Recall what may be injected (wiki and journal, never raw), each item with its source.

    With a filter and no QUERY, list the k newest items the filter lets through; a note says
    how many more pass (raise --k to list them).

    Example: memstrata recall "what does Ann drink" --since 2025-11 --explain
    """
    if not query and not (since or until or kind or entity):
        raise click.UsageError("give a QUERY, or a filter (--since, --until, --kind, --entity)")
    _refuse_an_empty_window(since, until)
    result = open_memory(ctx).recall(
        " ".join(query),
        k=k,
        since=since,
        until=until,
        kind=KIND_LETTERS.get(kind.upper(), kind.lower()) if kind else None,
        entity=entity,
        include_archived=include_archived,
        include_superseded=include_superseded,
    )
    for note in result.notes:  # on stderr with --json too, as search and context do
        click.echo(f"note: {note}", err=True)
    if as_json:
        echo_json(result)
        return
    if not result.items:
        click.echo("nothing recalled")
    for item in result.items:
        state = f" [{item.state}]" if item.state != "active" else ""
        who = f" @{', @'.join(item.entities)}" if item.entities else ""
        # as search says it: found by nearness of meaning alone (its neighbour may have lifted
        # it), the weakest kind of match
        near = "  (no word of the query: near in meaning)" if _near_only(item.arms) else ""
        click.echo(f"[{item.kind}] {item.time} {item.source}{state}{who}{near}")
        click.echo(f"    {one_line(item.content, 96)}")
        if explain:
            via = f"via {', '.join(item.arms)}" if item.arms else "(let in by the filters alone)"
            click.echo(f"    score {item.score:.4f} {via}")


@click.command()
@click.option("--query", "-q", default=None, help="What this turn is about (adds Recall).")
@click.option(
    "--total-input-bytes",
    type=click.IntRange(1),
    default=None,
    help="Size of the whole turn's input, to record memory's share of it.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON with bytes and tokens per channel; notes also on stderr.",
)
@click.pass_context
def context(
    ctx: click.Context, query: str | None, total_input_bytes: int | None, as_json: bool
) -> None:
    """Compile the injection for one turn: Rules + Index + Recall, each within its budget.

    Example: memstrata context --query "what coffee does Ann like?"
    """
    compiled = open_memory(ctx).context(query, total_input_bytes=total_input_bytes)
    if as_json:
        for note in compiled.notes:
            click.echo(f"note: {note}", err=True)
        echo_json(compiled.as_json())
        return
    click.echo(compiled.text)
    sizes = ", ".join(
        f"{c.name} {c.bytes}/{c.budget_bytes} B ~{c.tokens} tok"
        + (f" ({len(c.trimmed)} trimmed)" if c.trimmed else "")
        + (f" ({c.omitted} not shown)" if c.omitted else "")
        for c in compiled.channels
    )
    click.echo(f"-- {sizes}", err=True)
    for channel in compiled.channels:
        if channel.trimmed:
            click.echo(f"trimmed from {channel.name}: {_named(channel.trimmed)}", err=True)
    for note in compiled.notes:
        click.echo(f"note: {note}", err=True)


@click.command()
@click.option(
    "--days",
    type=click.IntRange(1, 36_500),  # memstrata.metrics.MAX_DAYS; a test holds them equal
    default=7,
    show_default=True,
    help="Summarise this many days back from today.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def metrics(ctx: click.Context, days: int, as_json: bool) -> None:
    """Summarise memory/metrics.jsonl: bytes per channel, injection share, hits, trims.

    Recall hits include those of the recall each context ran. Lines that are no metric
    record (a torn write, a hand edit) are skipped, counted and the first one named.

    Example: memstrata metrics --days 30
    """
    from memstrata.metrics import MAX_DAYS

    summary = open_memory(ctx).metrics(days)
    if as_json:
        echo_json(summary)
        return
    contexts = f"{summary.contexts} context{'' if summary.contexts == 1 else 's'}"
    recalls = f"{summary.recalls} recall{'' if summary.recalls == 1 else 's'}"
    span = "the last day" if days == 1 else f"the last {days} days"
    click.echo(f"{span}: {contexts}, {recalls}")
    if summary.skipped_lines:
        many = "" if summary.skipped_lines == 1 else "s"
        click.echo(
            f"  skipped {summary.skipped_lines} malformed line{many} "
            f"(first: memory/metrics.jsonl:{summary.first_skipped_line})"
        )
    if not summary.contexts and not summary.recalls:
        wider = f"; try --days {min(max(days * 4, 30), MAX_DAYS)}" if days < MAX_DAYS else ""
        click.echo(f"  nothing recorded (memory/metrics.jsonl){wider}")
    for channel, size in summary.mean_bytes.items():
        click.echo(f"  {channel:<7} {size:>8.0f} bytes per context on average")
    if summary.mean_injection_share is not None:
        click.echo(
            f"  injection share: mean {summary.mean_injection_share:.1%}, "
            f"max {summary.max_injection_share:.1%}"
        )
    click.echo(
        f"  recall hits: {summary.recall_hits}, {summary.context_hits} of them in contexts "
        f"({summary.empty_recalls} empty recalls)"
    )
    click.echo(f"  trims: {summary.trims}")


COMMANDS = (search, recall, context, metrics)


def _named(labels: tuple[str, ...], most: int = 5) -> str:
    """The first ``most`` of ``labels``, and how many more."""
    more = f" and {len(labels) - most} more" if len(labels) > most else ""
    return ", ".join(labels[:most]) + more


def _near_only(arms: tuple[str, ...]) -> bool:
    return "semantic" in arms and not {"lexical", "entity", "temporal"} & set(arms)
