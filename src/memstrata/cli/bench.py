"""``memstrata bench``: the retrieval benchmarks on a data file, memstrata beside FTS5."""

from __future__ import annotations

import json
from pathlib import Path

import click

from memstrata.bench.report import render_table
from memstrata.bench.run import BENCHMARKS, BenchmarkRun, progress_bar, run_retrieval
from memstrata.providers.embedder import DEFAULT_EMBEDDER


@click.command()
@click.argument("benchmark", type=click.Choice(BENCHMARKS))
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--embedder",
    default=DEFAULT_EMBEDDER,
    show_default=True,
    help="Embedder spec (use-multilingual, e5-small, hashing, openai:…), or none: lexical "
    "only. A spec that cannot load stops the run: no fallback.",
)
@click.option(
    "--embed-cache",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="SQLite file keeping passage embeddings between runs.",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Only the first N conversations (LoCoMo) or questions (LongMemEval).",
)
@click.option(
    "--through",
    type=click.Choice(("raw", "recall")),
    default="raw",
    show_default=True,
    help="raw: the turns as raw sessions, ranked by search; recall: as journal entries, "
    "ranked by recall (what the context injects).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Score this many conversations or questions at once, each process with its own "
    "embedder (about 250 MB each with the default).",
)
@click.option(
    "--by-corpus",
    is_flag=True,
    help="Also score each conversation (LoCoMo) or question (LongMemEval) alone: a table "
    "after the categories, and a corpora block in the JSON.",
)
def bench(
    benchmark: str,
    path: Path,
    as_json: bool,
    embedder: str,
    embed_cache: Path | None,
    limit: int | None,
    through: str,
    jobs: int,
    by_corpus: bool,
) -> None:
    """Run a retrieval benchmark on PATH: memstrata's search beside plain SQLite FTS5.

    Each LoCoMo conversation or LongMemEval question gets a fresh workspace in a temporary
    folder, its turns ingested as raw sessions with their dates; both methods then answer
    every question. Prints recall@k per category (LongMemEval: recall_all, recall_any and
    ndcg_any at session and turn level), a progress bar on a terminal.

    Example: memstrata bench locomo locomo10.json --json
    """
    run = BenchmarkRun(
        benchmark, path, embedder, embed_cache, limit, through=through, jobs=jobs,
        by_corpus=by_corpus,
    )  # fmt: skip
    bar = progress_bar()
    try:
        report, columns = run_retrieval(run, on_corpus=bar)
    finally:
        if bar is not None:
            bar.close()  # a run that stops part-way leaves its message a line of its own
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(render_table(report, columns))


COMMANDS = (bench,)
