"""``memstrata status``: a workspace at a glance, and every problem its files hold.

A problem is named with its file (and line): a journal line that does not parse, a topic over
its cap, a proposal file that does not read, a damaged raw database, a restore killed halfway, a
journal day dated in the future. Each is listed on every run until it is fixed, not only by the
read that first met it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from memstrata.journal.parse import day_of
from memstrata.model import HeldEntry, Problem
from memstrata.rules import RulesReport

if TYPE_CHECKING:
    from memstrata.memory import Memory


@dataclass(frozen=True, slots=True)
class Status:
    """A workspace at a glance."""

    root: str
    rules: RulesReport
    topics_by_state: dict[str, int]
    journal_days: int
    facts: int
    #: journal entries and topics held out of recall: they read as instructions to the model
    held: tuple[HeldEntry, ...]
    raw_sessions: int
    raw_turns: int
    #: files (or lines) that could not be read, so their knowledge is missing until fixed
    problems: tuple[Problem, ...] = ()
    #: what this call found and mended on its way (a damaged index made anew), and an
    #: embedder resting after a failure
    notes: tuple[str, ...] = ()
    #: the embedder the semantic arm uses (``[embeddings] model``), or why there is none
    embedder: str = ""


def workspace_status(memory: Memory) -> Status:
    """The workspace of ``memory`` at a glance, after a full sync (a broken topic file is
    named at once)."""
    from memstrata.index_sync import journal_problems, oversized_topics

    report = memory.sync()  # the full scan: a broken topic file is named at once
    by_state: dict[str, int] = {}
    for row in memory.index.db.execute("SELECT state, COUNT(*) n FROM topics GROUP BY state"):
        by_state[row["state"]] = row["n"]
    counts = memory.index.counts()
    store = memory.usable_raw()
    raw = store.counts() if store is not None else {"sessions": 0, "turns": 0}
    return Status(
        root=str(memory.workspace.root),
        rules=memory.rules(),
        topics_by_state=by_state,
        journal_days=len(memory.journal_paths()),
        facts=counts["facts"],
        held=tuple(memory.index.held()),
        raw_sessions=raw["sessions"],
        raw_turns=raw["turns"],
        # every journal day's problems, not only those of days parsed by this sync
        problems=tuple(
            dict.fromkeys(
                (
                    *report.problems,
                    *journal_problems(memory.index),
                    *oversized_topics(memory.index, memory.topics),
                    *memory.proposal_store.read_all().problems,
                    *memory.raw_problems(),
                    *_restore_problems(memory),
                    *_unfinished_garden_step(memory),
                    *_future_days(memory),
                )
            )
        ),
        notes=(*memory.take_index_note(), *memory.semantic.rest_notes()),
        embedder=memory.semantic.summary(),
    )


def _future_days(memory: Memory) -> list[Problem]:
    """Journal days dated in the future: their facts would count as the newest said, and
    win over what is stated today (a typo in a file name, most likely). Tomorrow is not: it
    is today somewhere east of the clock's zone."""
    now = memory.clock()
    latest = (now + timedelta(days=1)).date().isoformat()
    return [
        Problem(
            memory.workspace.relative(path),
            None,
            f"dated in the future (today is {now.date().isoformat()}): its facts count as "
            "newer than anything said since; rename it to the day it logs",
        )
        for path in memory.journal_paths()
        if (day_of(path.name) or "") > latest
    ]


def _unfinished_garden_step(memory: Memory) -> list[Problem]:
    """A garden step killed half done (a merge with one topic written): its topics read as
    neither before nor after until the next garden run (or ledger undo) finishes it."""
    from memstrata.maintain.state import GardenPaths

    intent = GardenPaths(memory.workspace).intent
    if not intent.exists():
        return []
    message = (
        "a garden step was stopped half done (the topics it changes may read as neither "
        "before nor after); the next 'memstrata garden' or 'memstrata ledger undo' finishes it"
    )
    return [Problem(memory.workspace.relative(intent), None, message)]


def _restore_problems(memory: Memory) -> list[Problem]:
    """A snapshot restore killed before it finished: the files are half one state, half
    the other, until it is finished or undone (the message says how)."""
    from memstrata.maintain.restore import RESTORE_MARKER, interrupted_restore

    message = interrupted_restore(memory.workspace)
    if message is None:
        return []
    return [
        Problem(
            memory.workspace.relative(memory.workspace.state_dir / RESTORE_MARKER), None, message
        )
    ]
