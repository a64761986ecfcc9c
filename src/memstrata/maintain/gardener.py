"""``run_garden``: one budgeted, idempotent upkeep run over the wiki (DESIGN.md §2 Garden).

    survey → dedup → decay → split → invalidate → reconnect → summarise → report

The middle phases run in that order, starting at the phase a budget stopped the last run at
(and wrapping around), so no phase starves. A run that finds nothing to do writes nothing at all:
no topic, history line, index row, journal line, report or state file.

A run's files are written in the order that lets a retry after a failure (a full disk) redo it
without doubling anything: the report, then the state with the run's ``## Upkeep`` notes in it
(the commit point), then the notes into the day's journal (less any already there), then the
state without them. A run that failed before the commit point wrote no notes; one that failed
after it has the rest of its notes written by the next run.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from contextlib import nullcontext
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from memstrata.clock import to_iso
from memstrata.errors import InputError
from memstrata.journal.log import append_log
from memstrata.maintain.apply import complete_pending_step
from memstrata.maintain.decay import tend_decay
from memstrata.maintain.dedup import tend_dedup
from memstrata.maintain.invalidate import tend_invalidate
from memstrata.maintain.ledger import read_ledger
from memstrata.maintain.pairs import ComparisonsSpent
from memstrata.maintain.patterns import patterns_of
from memstrata.maintain.proposing import CARRIED_OUT, LAPSED, is_settled, replan
from memstrata.maintain.reconnect import tend_reconnect
from memstrata.maintain.report import GardenReport, PhaseResult
from memstrata.maintain.restore import finish_interrupted_restore
from memstrata.maintain.run import BudgetSpent, GardenRun
from memstrata.maintain.split import tend_split
from memstrata.maintain.state import (
    GardenPaths,
    GardenState,
    UpkeepNotes,
    disk_full_named,
    exclusive,
    read_state,
    write_state,
)
from memstrata.maintain.summarise import health_line, summary_sentences
from memstrata.maintain.survey import Survey, survey_workspace
from memstrata.proposals import GARDEN_KINDS
from memstrata.workspace.atomic import write_atomic
from memstrata.workspace.textfile import read_mending

if TYPE_CHECKING:
    from memstrata.memory import Memory

MODES = ("propose", "autonomous")
PHASES = ("dedup", "decay", "split", "invalidate", "reconnect")
SKIPPABLE = (*PHASES, "summarise")
JUDGING = ("dedup", "invalidate")


def close_accepted(run: GardenRun) -> None:
    """Carry out the proposals a person accepted since — each exactly once (the ledger says)."""
    carried = {record.proposal for record in run.records if record.proposal}
    for proposal in sorted(run.proposals.values(), key=lambda p: p.id):
        if proposal.status != "accepted" or proposal.kind not in GARDEN_KINDS:
            continue
        if is_settled(proposal):
            continue
        if proposal.id in carried:
            run.settle(proposal, f"{CARRIED_OUT} (see memory/ledger.jsonl)")
            continue
        step = replan(proposal, run.view, run.now_iso, run.config)
        if isinstance(step, str):
            run.defer(f"{proposal.id}: accepted, but lapsed: {step}")
            run.settle(proposal, f"{LAPSED}: {step}")
            continue
        if run.submit(step) == "executed":
            run.settle(proposal, f"{CARRIED_OUT} in {run.run_id}")


def tend_dedup_phase(run: GardenRun) -> None:
    close_accepted(run)
    tend_dedup(run)


TEND: dict[str, Callable[[GardenRun], None]] = {
    "dedup": tend_dedup_phase,
    "decay": tend_decay,
    "split": tend_split,
    "invalidate": tend_invalidate,
    "reconnect": tend_reconnect,
}


def run_garden(
    memory: Memory,
    mode: str = "propose",
    max_mutations: int | None = None,
    max_comparisons: int | None = None,
    dry_run: bool = False,
    now: datetime | None = None,
    skip: Collection[str] = (),
) -> GardenReport:
    """Tend the workspace once; the report says what was found, done, proposed and left.

    ``dry_run`` is a read-only scan: it plans everything, writes nothing, and lists cross-topic
    patterns. Only one run at a time (:class:`~memstrata.errors.LockTimeout` otherwise).
    """
    if mode not in MODES:
        raise InputError(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
    unknown = sorted(set(skip) - set(SKIPPABLE))
    if unknown:
        raise InputError(f"cannot skip {', '.join(unknown)}; phases: {', '.join(SKIPPABLE)}")
    garden = memory.config.garden
    mutations = garden.max_mutations if max_mutations is None else max_mutations
    comparisons = garden.max_comparisons if max_comparisons is None else max_comparisons
    if mutations < 0 or comparisons < 0:
        raise InputError("budgets must not be negative")
    now = now or memory.clock()
    paths = GardenPaths(memory.workspace)
    guard = nullcontext() if dry_run else exclusive(paths.run_lock, "a garden run")
    with guard:
        return _run(memory, paths, mode, mutations, comparisons, dry_run, now, frozenset(skip))


def _run(
    memory: Memory,
    paths: GardenPaths,
    mode: str,
    max_mutations: int,
    max_comparisons: int,
    dry_run: bool,
    now: datetime,
    skip: frozenset[str],
) -> GardenReport:
    recovered: list[str] = []
    if not dry_run:
        # Finish what killed writers left; the index is brought in step only if we write.
        # A restore killed halfway first: the run must not tend a workspace half one snapshot.
        finished_restore = finish_interrupted_restore(memory, now)
        if finished_restore is not None:
            recovered.append(f"the interrupted restore of snapshot {finished_restore.snapshot}")
        recovered += memory.topics.complete_pending()
        finished = complete_pending_step(memory.topics, memory.lock, paths.ledger, paths.intent)
        if finished is not None:
            recovered.append(f"step {finished.id} of {finished.run}")
    state = read_state(paths.state)
    if not dry_run and state.notes is not None:
        # the last run saved its state, then could not write all its notes (a full disk)
        write_upkeep_notes(memory, state.notes)
        recovered.append(f"the Upkeep notes of {state.last_run}")
    survey = survey_workspace(memory, state.since, state.first_run, state.own, state.backlog)
    run_id = _run_id(paths, now)
    run = GardenRun(
        memory,
        run_id=run_id,
        mode=mode,
        dry_run=dry_run,
        now=now,
        max_mutations=max_mutations,
        max_comparisons=max_comparisons,
        state=state,
        survey=survey,
        records=read_ledger(paths.ledger),
    )
    run.wrote = bool(recovered)
    phases, skipped, resume = _tend(run, skip)
    proposals_after = sum(1 for p in run.proposals.values() if p.status == "open")
    stats_after = {**survey.counts(run.view), "open proposals": proposals_after}
    resume_point = _resume_text(resume)
    proposed = sum(1 for op in run.destructive if op.verb == "PROPOSED" and op.note != "still open")
    summary = ""
    notes: UpkeepNotes | None = None
    if "summarise" in skip:
        skipped.append("summarise — asked to skip")
    elif dry_run:
        skipped.append("summarise — dry run")
    elif survey.scope or run.actions or proposed:
        sentences = summary_sentences(
            run_id=run_id,
            mode=mode,
            since=state.since,
            first_run=state.first_run,
            new_titles=[survey.topics[topic_id].title for topic_id in reversed(survey.scope)],
            actions=run.actions,
            proposed=proposed,
            deferred=len(run.deferred),
            resume_point=resume_point,
        )
        health = health_line(stats_after, proposals_after)
        summary = " ".join(sentences) + "\n" + health
        notes = UpkeepNotes(now.isoformat(timespec="seconds"), (" ".join(sentences), health))
        run.wrote = True
    else:
        skipped.append("summarise — nothing new since the last run")
    now_iso = to_iso(now)
    own = tuple(sorted(t for t in run.written if run.view[t].meta.updated == now_iso))
    new_state = GardenState(
        since=state.since if resume[0] else now_iso,
        own=state.own if resume[0] else own,
        last_run=run_id,
        last_report=state.last_report,
        resume_phase=resume[0],
        resume_after=resume[1],
        # a run cut short tends its scope again, backlog part included
        backlog=state.backlog if resume[0] else survey.backlog,
    )
    changed = not dry_run and (
        run.wrote
        or (new_state.resume_phase, new_state.resume_after, new_state.backlog)
        != (state.resume_phase, state.resume_after, state.backlog)
    )
    report = GardenReport(
        run_id=run_id,
        time=to_iso(now),
        mode=mode,
        dry_run=dry_run,
        stores=_stores(survey, state),
        stats_before={**survey.counts(), "open proposals": survey.proposals_open},
        stats_after=stats_after,
        actions=dict(run.actions),
        destructive=tuple(run.destructive),
        deferred=tuple(run.deferred),
        skipped=tuple(skipped),
        mutations_used=run.mutations,
        max_mutations=max_mutations,
        comparisons_used=run.judge.used,
        max_comparisons=max_comparisons,
        resume_point=resume_point,
        phases=tuple(phases),
        summary=summary,
        snapshot=run.snapshot_id,
        patterns=tuple(patterns_of(run.view, run.proposals.values(), now)) if dry_run else (),
        problems=tuple(str(problem) for problem in survey.problems),
        recovered=tuple(recovered),
        changed=changed,
        steps=tuple(run.executed),
    )
    if not changed:
        return report
    path = paths.reports / f"{run_id.removeprefix('r-')}.md"
    relative = memory.workspace.relative(path)
    report = replace(report, path=relative)
    with disk_full_named(path):
        write_atomic(path, report.text)
    saved = replace(new_state, last_report=relative)
    write_state(paths.state, replace(saved, notes=notes))
    if notes is not None:
        write_upkeep_notes(memory, notes)
        write_state(paths.state, saved)
    memory.sync()
    return report


def write_upkeep_notes(memory: Memory, notes: UpkeepNotes) -> None:
    """Append ``notes`` to the ``## Upkeep`` section of their day, less those already there.

    Already there means the first line (it names the run) and those after it in the journal
    that follow it as in ``notes``: a health line found elsewhere marks no run, as another run
    may have written the same words in the same minute.
    """
    at = datetime.fromisoformat(notes.at)
    journal = memory.workspace.journal_path(at.date().isoformat())
    wanted = [f"- {at.strftime('%H:%M')} {' '.join(line.split())}" for line in notes.lines]
    with memory.lock.held(), disk_full_named(journal):
        existing = read_mending(journal)[0].splitlines() if journal.is_file() else []
        done = _written_before(existing, wanted)
        for line in notes.lines[done:]:
            append_log(journal, line, at, upkeep=True)


def _written_before(existing: list[str], wanted: list[str]) -> int:
    if not wanted or wanted[0] not in existing:
        return 0
    start = existing.index(wanted[0])
    done = 0
    for have, want in zip(existing[start:], wanted, strict=False):
        if have != want:
            break
        done += 1
    return done


def _tend(
    run: GardenRun, skip: frozenset[str]
) -> tuple[list[PhaseResult], list[str], tuple[str, str]]:
    phases: list[PhaseResult] = [
        PhaseResult("survey", "done", f"{len(run.survey.topics)} topics read")
    ]
    skipped: list[str] = []
    resume = ("", "")
    mutations_out = comparisons_out = False
    start = PHASES.index(run.state.resume_phase) if run.state.resume_phase in PHASES else 0
    for phase in PHASES[start:] + PHASES[:start]:
        why = ""
        if phase in skip:
            why = "asked to skip"
        elif mutations_out:
            why = "mutation budget spent (resume point recorded)"
        elif phase in JUDGING and comparisons_out:
            why = "comparison budget spent (resume point recorded)"
        if why:
            skipped.append(f"{phase} — {why}")
            phases.append(PhaseResult(phase, "skipped", why))
            continue
        try:
            TEND[phase](run)
            phases.append(PhaseResult(phase, "done"))
        except BudgetSpent:
            mutations_out = True
            resume = resume if resume[0] else (phase, run.cursors.get(phase, ""))
            phases.append(PhaseResult(phase, "stopped", "mutation budget spent"))
        except ComparisonsSpent:
            comparisons_out = True
            resume = resume if resume[0] else (phase, run.cursors.get(phase, ""))
            phases.append(PhaseResult(phase, "stopped", "comparison budget spent"))
    return phases, skipped, resume


def _resume_text(resume: tuple[str, str]) -> str:
    if not resume[0]:
        return "clean"
    return f"{resume[0]} after {resume[1]}" if resume[1] else f"{resume[0]} from its start"


def _stores(survey: Survey, state: GardenState) -> tuple[str, ...]:
    scope = (
        f"{len(survey.scope)} most recent in scope (first run)"
        if state.first_run
        else f"{len(survey.scope)} new since {state.since or 'the last run'}"
        + (" or older and not yet tended" if state.backlog else "")
    )
    if survey.waiting:
        scope += f"; {survey.waiting} older left for the next runs"
    raw = (
        "raw: none"
        if survey.raw_sessions is None
        else f"raw: {survey.raw_sessions} sessions (search only; distill not built yet)"
    )
    return (
        f"wiki: {len(survey.topics)} topics, {scope} (compared by their words, not embeddings)",
        f"journal: {survey.journal_days} day{'s' if survey.journal_days != 1 else ''}",
        raw,
    )


def run_time(run_id: str) -> datetime | None:
    """When the run ``run_id`` (:func:`_run_id`'s) began; ``None`` for no run id."""
    try:
        return datetime.strptime(run_id[2:18], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    except ValueError:
        return None


def _run_id(paths: GardenPaths, now: datetime) -> str:
    stamp = to_iso(now).replace("-", "").replace(":", "")
    run_id, number = f"r-{stamp}", 2
    while (paths.reports / f"{run_id.removeprefix('r-')}.md").exists():
        run_id = f"r-{stamp}-{number}"
        number += 1
    return run_id
