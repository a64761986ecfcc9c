"""``memstrata log``: append to today's journal."""

from __future__ import annotations

import click

from memstrata.cli.opener import open_memory
from memstrata.journal.parse import KIND_LETTERS

_KIND_CHOICES = sorted({*KIND_LETTERS.values(), *KIND_LETTERS})


@click.command()
@click.argument("text", nargs=-1, required=True)
@click.option(
    "--kind",
    type=click.Choice(_KIND_CHOICES, case_sensitive=False),
    default=None,
    help="Record as a typed ## Retain fact: world (W), experience (B), opinion (O), "
    "observation (S).",
)
@click.option(
    "--confidence", type=float, default=None, help="With --kind opinion: its confidence, 0 to 1."
)
@click.pass_context
def log(
    ctx: click.Context, text: tuple[str, ...], kind: str | None, confidence: float | None
) -> None:
    """Append TEXT to today's journal (memory/YYYY-MM-DD.md).

    One entry, one line, at most 20,000 characters. A line that reads as an instruction to the
    model is written but held out of recall.

    Example: memstrata log --kind world "@Ann moved to Berlin"
    """
    fact_kind = KIND_LETTERS.get(kind.upper(), kind.lower()) if kind else None
    memory = open_memory(ctx)
    written = memory.log(" ".join(text), fact_kind, confidence)  # type: ignore[arg-type]
    click.echo(f"{memory.workspace.relative(written.path)}:{written.line}: {written.text}")
    if written.held:
        click.echo(
            f"note: held out of recall, it reads as an instruction to the model ({written.held});"
            " it stays in the journal file",
            err=True,
        )
    if written.index_note:
        click.echo(f"note: {written.index_note}", err=True)


COMMANDS = (log,)
