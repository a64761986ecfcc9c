"""``memstrata search`` and ``memstrata context``."""

from __future__ import annotations

import click

from memstrata.cli.opener import open_memory
from memstrata.cli.output import echo_json, one_line


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-k", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option("--include-archived", is_flag=True, help="Include archived and superseded topics.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def search(
    ctx: click.Context, query: tuple[str, ...], limit: int, include_archived: bool, as_json: bool
) -> None:
    """Search every stratum: wiki, journal and raw transcripts (labelled raw), with sources.

    Example: memstrata search "flat white"
    """
    hits = open_memory(ctx).search(" ".join(query), limit, include_archived=include_archived)
    if as_json:
        echo_json(hits)
        return
    if not hits:
        click.echo("no results")
    for hit in hits:
        click.echo(f"[{hit.stratum}] {hit.source}  {hit.time}")
        click.echo(f"    {one_line(hit.text, 96)}")


@click.command()
@click.option("--query", "-q", default=None, help="What this turn is about (adds Recall).")
@click.option(
    "--json", "as_json", is_flag=True, help="Print JSON with bytes and tokens per channel."
)
@click.pass_context
def context(ctx: click.Context, query: str | None, as_json: bool) -> None:
    """Compile the injection for one turn: Rules + Index + Recall, each within its budget.

    Example: memstrata context --query "what coffee does Ann like?"
    """
    compiled = open_memory(ctx).context(query)
    if as_json:
        echo_json(
            {
                "text": compiled.text,
                "bytes": compiled.bytes,
                "tokens": compiled.tokens,
                "channels": {
                    channel.name: {
                        "bytes": channel.bytes,
                        "tokens": channel.tokens,
                        "budget_bytes": channel.budget_bytes,
                        "items": [item.label for item in channel.items],
                        "trimmed": list(channel.trimmed),
                    }
                    for channel in compiled.channels
                },
            }
        )
        return
    click.echo(compiled.text)
    sizes = ", ".join(
        f"{c.name} {c.bytes}/{c.budget_bytes} B ~{c.tokens} tok"
        + (f" ({len(c.trimmed)} trimmed)" if c.trimmed else "")
        for c in compiled.channels
    )
    click.echo(f"-- {sizes}", err=True)


COMMANDS = (search, context)
