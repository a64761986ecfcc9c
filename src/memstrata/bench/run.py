"""One retrieval benchmark run from a data file: load, embed, search, score, beside FTS5.

Shared by ``memstrata bench`` and ``benchmarks/retrieval.py``. A file that is missing, is not
JSON, or is not in the benchmark's shape is an :class:`~memstrata.errors.InputError` naming it.
"""

from __future__ import annotations

import json
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from memstrata.bench.corpus import Corpus
from memstrata.bench.harness import (
    Scorer,
    benchmark_report,
    run_benchmark,
    score_locomo,
    score_longmemeval,
)
from memstrata.bench.locomo import load_locomo
from memstrata.bench.longmemeval import load_longmemeval
from memstrata.bench.parallel import load_run_embedder, score_in_workers
from memstrata.bench.report import LOCOMO_COLUMNS, LONGMEMEVAL_COLUMNS
from memstrata.errors import InputError
from memstrata.recall.turns import TurnWeights

BENCHMARKS = ("locomo", "longmemeval")


@dataclass(frozen=True, slots=True)
class BenchmarkRun:
    """What to run: which benchmark on which file, with which embedder."""

    benchmark: str
    path: Path
    #: an embedder spec (:func:`~memstrata.providers.embedder.load_embedder`) or ``none``
    embedder: str
    embed_cache: Path | None = None
    limit: int | None = None
    weights: TurnWeights | None = None
    captions: bool = True
    #: ``raw``: the turns as raw sessions (``memstrata search``); ``recall``: as journal
    #: entries through ``memstrata recall``, the path into the context
    through: str = "raw"
    #: processes scoring corpora side by side (each loads its own embedder)
    jobs: int = 1
    #: also score each conversation or question alone (the report's ``corpora``)
    by_corpus: bool = False


def run_retrieval(
    run: BenchmarkRun, on_corpus: Callable[[int, int], None] | None = None
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The report (blocks ``memstrata`` and ``fts5``, and ``meta``) and its table's columns."""
    corpora, scorer, columns = _load(run)
    if not any(corpus.questions for corpus in corpora):
        # none at all, or none whose evidence names a turn of its conversation
        raise InputError(f"{run.path}: no questions with evidence to score")
    if on_corpus is not None:
        on_corpus(0, len(corpora))  # drawn now: loading the model and the first corpus take a while
    weights = run.weights or TurnWeights()
    # Workers load their own; the parent's names the embedder in the report (or stops the run).
    embedder = load_run_embedder(run.embedder, run.embed_cache)
    started = time.perf_counter()
    if run.jobs > 1:
        results = score_in_workers(
            corpora,
            scorer,
            run.embedder,
            run.embed_cache,
            weights,
            run.through,
            min(run.jobs, len(corpora)),
            on_corpus,
        )
        name = embedder.name if embedder is not None else "none"
        report = benchmark_report(results, corpora, name, weights, run.through, run.by_corpus)
    else:
        report = run_benchmark(
            corpora, scorer, embedder, weights, on_corpus, run.through, run.by_corpus
        )
    report["meta"].update(
        benchmark=run.benchmark,
        path=str(run.path),
        total_s=round(time.perf_counter() - started, 1),
        jobs=run.jobs,
    )
    return report, columns


@dataclass(slots=True)
class ProgressBar:
    """Corpora scored so far, redrawn in place on ``stream``; :meth:`close` ends its line."""

    stream: TextIO
    is_open: bool = field(default=False, init=False)

    def __call__(self, done: int, total: int) -> None:
        filled = int(30 * done / total) if total else 30
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
        self.is_open = done < total
        if not self.is_open:
            self.stream.write("\n")
        self.stream.flush()

    def close(self) -> None:
        """End a bar left part-way (the run stopped), so a message after it starts a line."""
        if self.is_open:
            self.stream.write("\n")
            self.stream.flush()
            self.is_open = False


def progress_bar() -> ProgressBar | None:
    """A bar on stderr when it is a terminal (``None`` otherwise: logs stay clean)."""
    return ProgressBar(sys.stderr) if sys.stderr.isatty() else None


def _load(run: BenchmarkRun) -> tuple[list[Corpus], Scorer, tuple[str, ...]]:
    if run.benchmark not in BENCHMARKS:
        raise InputError(f"unknown benchmark {run.benchmark!r}; expected one of {BENCHMARKS}")
    if not run.path.is_file():
        raise InputError(f"{run.path}: {'not a file' if run.path.exists() else 'no such file'}")
    try:
        if run.benchmark == "locomo":
            corpora = load_locomo(run.path, captions=run.captions)[: run.limit]
            return corpora, score_locomo, LOCOMO_COLUMNS
        return load_longmemeval(run.path, run.limit), score_longmemeval, LONGMEMEVAL_COLUMNS
    except json.JSONDecodeError as error:
        raise InputError(f"{run.path}:{error.lineno}: not valid JSON ({error.msg})") from error
    except (UnicodeDecodeError, OSError, EOFError, zlib.error) as error:
        raise InputError(f"{run.path}: cannot be read ({error})") from error
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise InputError(
            f"{run.path}: not a {run.benchmark} file ({_shape_problem(run.benchmark, error)})"
        ) from error


#: what each benchmark's file holds, for the message about one that does not
_SHAPES = {
    "locomo": "a list of conversations, each with sample_id, conversation and qa",
    "longmemeval": "a list of questions, each with question_id, question, haystack_sessions, "
    "haystack_dates, haystack_session_ids and answer_session_ids",
}


def _shape_problem(benchmark: str, error: Exception) -> str:
    """What a loader tripped on, in the file's terms: a field it lacks, or a value of the
    wrong kind; and what the benchmark's file should hold."""
    if isinstance(error, KeyError):
        found = f"an entry has no {error.args[0]!r} field"
    elif isinstance(error, ValueError):
        found = f"a value it cannot read: {error}"
    else:
        found = "an entry or a field of the wrong kind"
    return f"{found}; expected {_SHAPES.get(benchmark, 'its data')}"
