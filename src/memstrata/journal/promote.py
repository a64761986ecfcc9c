"""Promotion: journal ``## Retain`` facts sent through the gate into the wiki.

Each fact goes in with its kind, entities, confidence, its day as the time it was stated, and
its ``file#line`` as the source. ``memory/.promoted`` lists what was sent
(:mod:`memstrata.journal.promoted`), so a fact is sent once however lines move; the same text
stated again later in a day is a new statement and is sent again. A dry run is the real
promotion on a throwaway copy (:mod:`memstrata.journal.rehearsal`).
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from memstrata.errors import InputError, ParseError
from memstrata.index_sync import sync_promoted
from memstrata.journal.promoted import PROMOTED_FILE, PromotedRecord, fact_file
from memstrata.model import Fact, Problem

if TYPE_CHECKING:
    from memstrata.gate.verdicts import Verdict
    from memstrata.memory import Memory

_NOT_UTF8_FACT = (
    "not promoted: the fact holds bytes that are no UTF-8 (read as \ufffd); fix the bytes "
    "and promote again"
)


def promote_facts(
    memory: Memory, day: str | None, on_problem: Callable[[Problem], None] | None
) -> list[tuple[Fact, Verdict]]:
    """Send every fact of ``day`` (or of every day) not sent yet; see :meth:`Memory.promote`."""
    tell = on_problem or (lambda _problem: None)
    results: list[tuple[Fact, Verdict]] = []
    done = PromotedRecord(memory.workspace.memory_dir / PROMOTED_FILE)
    for fact, nth in retained_facts(memory, day, tell):
        # Checked and recorded under the lock: two promotes at once send each fact once.
        with memory.lock.held():
            if done.holds(fact, nth):
                continue
            results.append((fact, _promote_one(memory, fact)))
            done.add(fact)
    if results:
        with memory.lock.held():
            sync_promoted(memory.index, memory.workspace)
    return results


def rehearse_promotion(
    memory: Memory, day: str | None, on_problem: Callable[[Problem], None] | None
) -> list[tuple[Fact, Verdict]]:
    """``promote(dry_run=True)``: the real promotion, run on a throwaway copy of what it
    reads and writes, so that each fact is judged against the wiki the facts before it
    leave, as the real run judges it. Nothing of the workspace changes but the embedding
    cache, which keeps what it embedded; even a hand edit the copy picks up is recorded in the
    copy alone."""
    from memstrata.journal.rehearsal import copy_for_rehearsal
    from memstrata.memory import Memory

    tell = on_problem or (lambda _problem: None)
    found: list[Problem] = []
    done = PromotedRecord(memory.workspace.memory_dir / PROMOTED_FILE)
    if all(done.holds(fact, nth) for fact, nth in retained_facts(memory, day, found.append)):
        for problem in found:  # nothing to promote: no copy needed to say so
            tell(problem)
        return []
    with tempfile.TemporaryDirectory(prefix="memstrata-dry-run-") as folder:
        copy, problems = copy_for_rehearsal(
            memory.workspace, memory.index.db, Path(folder), memory.lock.held()
        )
        for problem in problems:
            tell(problem)
        # the loaded embedder, shared: no second model in memory, and the vectors it gives
        # are the ones the real run compares
        embedder = memory.embedder
        with Memory(
            copy.root,
            clock=memory.clock,
            config=memory.config,
            embeddings=embedder is not None,
            embedder=embedder,
        ) as rehearsal:
            results = promote_facts(rehearsal, day, on_problem)
    return [(fact, replace(verdict, dry_run=True)) for fact, verdict in results]


def retained_facts(
    memory: Memory, day: str | None, tell: Callable[[Problem], None]
) -> Iterator[tuple[Fact, int]]:
    """Each Retain fact a promotion may send (of ``day``, or of every day), with how many
    facts of its text came before it in its file; ``tell`` hears what is left alone."""
    paths = [memory.journal_day(day)] if day else memory.journal_paths()
    for path in paths:
        if day and not path.is_file():
            raise InputError(f"{memory.workspace.relative(path)}: no journal for that day")
        try:
            parsed, bad_lines = memory.read_journal_file(path)
        except ParseError as error:
            if day:
                raise
            tell(Problem(error.path, error.line, error.problem))
            continue
        for problem in parsed.problems:
            tell(problem)
        stated: Counter[str] = Counter()  # the same text stated again is a new statement
        for fact in parsed.facts:
            nth = stated[fact.text]
            stated[fact.text] += 1
            if bad_lines.intersection(range(fact.line, fact.line + fact.text.count("\n") + 1)):
                tell(Problem(fact_file(fact.source), fact.line, _NOT_UTF8_FACT))
                continue
            yield fact, nth


def _promote_one(memory: Memory, fact: Fact) -> Verdict:
    return memory.remember(
        fact.text,
        kind=fact.kind,
        entities=fact.entities,
        confidence=fact.confidence,
        source=fact.source,
        observed=f"{fact.day}T00:00:00Z",
        actor="journal",
    )
