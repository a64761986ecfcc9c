"""One garden run in progress: what it read, its budgets, and how each planned step is handled.

Phases plan steps and hand them to :meth:`GardenRun.submit`, which decides in one place:

- a destructive step in propose mode becomes a proposal (one per thing: an open, accepted or
  rejected one is never written again);
- a step whose key the ledger already holds — done before, and undone since — is not done
  again: proposed when it can be, else deferred for a person ("stops and proposes instead");
- a step a person rejected as a proposal is not done in autonomous mode either;
- otherwise it is executed: a snapshot first (autonomous mode, or carrying out accepted
  proposals), then :func:`~memstrata.maintain.apply.apply_step` with its hash guard.

Every proposal and executed step costs one mutation of the budget; when it is spent,
:class:`BudgetSpent` stops the phase and the cursor of :meth:`GardenRun.items` is the resume
point.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from memstrata.clock import to_iso
from memstrata.maintain.apply import Stale, apply_step
from memstrata.maintain.ledger import LedgerRecord, record_for
from memstrata.maintain.pairs import Judge, WordIndex
from memstrata.maintain.proposing import CARRIED_OUT, proposal_for, step_proposal_id
from memstrata.maintain.report import DestructiveOp
from memstrata.maintain.snapshot import take_snapshot
from memstrata.maintain.state import GardenPaths, GardenState
from memstrata.maintain.steps import Step
from memstrata.maintain.survey import Survey
from memstrata.model import Proposal, Topic

if TYPE_CHECKING:
    from memstrata.memory import Memory

MIN_PAIR_OVERLAP = 0.25  # below this no relation but "unrelated" is possible


class BudgetSpent(Exception):
    """The run's mutation budget is used up."""


class GardenRun:
    """The state of one run; phases read ``view`` and call ``submit``, ``defer`` and ``items``."""

    def __init__(
        self,
        memory: Memory,
        *,
        run_id: str,
        mode: str,
        dry_run: bool,
        now: datetime,
        max_mutations: int,
        max_comparisons: int,
        state: GardenState,
        survey: Survey,
        records: Sequence[LedgerRecord],
    ) -> None:
        self.memory = memory
        self.config = memory.config
        self.paths = GardenPaths(memory.workspace)
        self.run_id = run_id
        self.mode = mode
        self.dry_run = dry_run
        self.now = now
        self.now_iso = to_iso(now)
        self.max_mutations = max_mutations
        self.mutations = 0
        self.judge = Judge(max_comparisons)
        self.min_pair_overlap = MIN_PAIR_OVERLAP
        self.state = state
        self.survey = survey
        self.view: dict[str, Topic] = dict(survey.topics)
        self.records = list(records)
        self.executed_keys = {record.key for record in records if record.action != "undo"}
        self.proposals: dict[str, Proposal] = {p.id: p for p in memory.proposals()}
        self.actions: Counter[str] = Counter()
        self.destructive: list[DestructiveOp] = []
        self.deferred: list[str] = []
        self.executed: list[str] = []
        self.written: set[str] = set()
        self.snapshot_id = ""
        self.wrote = False
        self.cursors: dict[str, str] = {}
        self._words: WordIndex | None = None
        self._listed: set[str] = set()  # proposals already in this run's report

    # -- what the phases read ------------------------------------------------------------------

    @property
    def words(self) -> WordIndex:
        if self._words is None:
            self._words = WordIndex(t for t in self.view.values() if t.meta.state == "active")
        return self._words

    def live(self, topic_id: str) -> Topic | None:
        topic = self.view.get(topic_id)
        return topic if topic is not None and topic.meta.state == "active" else None

    def items(self, phase: str, ids: Sequence[str]) -> Iterator[str]:
        """``ids`` in order, after the resume point when this phase is the one to resume.

        The cursor moves past an item only once its loop body finished, so a budget stop
        inside an item leaves it for the next run.
        """
        ordered = list(ids)
        if phase == self.state.resume_phase and self.state.resume_after:
            self.cursors[phase] = self.state.resume_after
            if self.state.resume_after in ordered:
                ordered = ordered[ordered.index(self.state.resume_after) + 1 :]
        for topic_id in ordered:
            yield topic_id
            self.cursors[phase] = topic_id

    def defer(self, line: str) -> None:
        if line not in self.deferred:
            self.deferred.append(line)

    # -- what happens to a step ----------------------------------------------------------------

    def submit(self, step: Step) -> str:
        """Propose, execute or defer ``step``; return what happened."""
        if step.destructive and self.mode == "propose" and not step.proposal:
            return self._propose(step)
        if not step.proposal and step.key in self.executed_keys:
            if step.destructive:
                return self._propose(step, note="done before and undone since")
            self.defer(
                f"{step.topics[0]}: {step.action} was done before and undone since; "
                "left for a person"
            )
            return "deferred"
        if step.destructive and not step.proposal:
            earlier = self.proposals.get(step_proposal_id(step))
            if earlier is not None and earlier.status == "rejected":
                return "rejected before"
        self._spend()
        if self.dry_run:
            self._done(step, "WOULD EXECUTE", [change.after() for change in step.changes])
            return "executed"
        if self.mode == "autonomous" or step.proposal:
            self._ensure_snapshot()
        record = record_for(step, self.run_id, self.mode, self.now_iso)
        outcome = apply_step(
            self.memory.topics, self.memory.lock, self.paths.ledger, self.paths.intent, step, record
        )
        if isinstance(outcome, Stale):
            self.mutations -= 1
            self.defer(
                f"{step.topics[0]}: {step.action} not done, {outcome.topic_id} "
                f"{outcome.reason}; left for the next run"
            )
            return "stale"
        self.wrote = True
        self.executed_keys.add(step.key)
        self.records.append(outcome.record)
        self.executed.append(outcome.record.id)
        self.written.update(topic.id for topic in outcome.topics)
        self._done(step, "EXECUTED", list(outcome.topics))
        self._close_proposal_of(step)
        return "executed"

    def _close_proposal_of(self, step: Step) -> None:
        """An autonomous run that did what an open proposal (of an earlier propose run) asks
        closes it: left open, it would ask a person to decide what is done."""
        if step.proposal or not step.destructive:
            return
        earlier = self.proposals.get(step_proposal_id(step))
        if earlier is not None and earlier.status == "open":
            self.settle(
                replace(earlier, status="accepted"),
                f"{CARRIED_OUT} in {self.run_id} (autonomous mode, without a ruling)",
            )

    def _spend(self) -> None:
        if self.mutations >= self.max_mutations:
            raise BudgetSpent
        self.mutations += 1

    def _done(self, step: Step, verb: str, topics: list[Topic]) -> None:
        self.actions[step.action] += 1
        for topic in topics:
            self.view[topic.id] = topic
            if self._words is not None:
                self._words.remove(topic.id)
                if topic.meta.state == "active":
                    self._words.add(topic)
        if step.destructive:
            self.destructive.append(
                DestructiveOp(verb, step.action, step.topics, step.preview, step.why, step.proposal)
            )

    def _propose(self, step: Step, note: str = "") -> str:
        pid = step_proposal_id(step)
        existing = self.proposals.get(pid)
        if existing is not None:
            if existing.status == "open" and pid not in self._listed:
                self._listed.add(pid)
                self.destructive.append(
                    DestructiveOp(
                        "PROPOSED",
                        step.action,
                        step.topics,
                        step.preview,
                        step.why,
                        pid,
                        "still open",
                    )
                )
            return "exists"
        self._spend()
        proposal = proposal_for(step, self.now_iso, self.run_id)
        if not self.dry_run:
            with self.memory.lock.held():
                self.memory.proposal_store.put(proposal)
            self.wrote = True
        self.proposals[pid] = proposal
        self._listed.add(pid)
        verb = "WOULD PROPOSE" if self.dry_run else "PROPOSED"
        self.destructive.append(
            DestructiveOp(verb, step.action, step.topics, step.preview, step.why, pid, note)
        )
        return "proposed"

    def _ensure_snapshot(self) -> None:
        if not self.snapshot_id:
            info = take_snapshot(self.memory, f"before garden run {self.run_id}", self.now)
            self.snapshot_id = info.id
            self.wrote = True

    def settle(self, proposal: Proposal, ruling: str) -> None:
        """Write the outcome of an accepted proposal into its ruling."""
        settled = replace(proposal, ruling=ruling, resolved=self.now_iso)
        self.proposals[proposal.id] = settled
        if not self.dry_run:
            with self.memory.lock.held():
                self.memory.proposal_store.put(settled)
            self.wrote = True
