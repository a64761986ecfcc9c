"""The gardening report: values, and the Markdown form written to ``memory/reports/``.

# Gardening report — <ISO timestamp>
Stores tended: <store: capability summary>
Stats: <counts before → after>
Actions: merges N · decays N · archives N · splits N · invalidations N · reconnects N
Destructive ops (mode: propose | autonomous):
  - PROPOSED ARCHIVE <id> "<preview>" — <why>
  - EXECUTED MERGE <id> ← <id> — "<preview>"
Deferred (uncertain): <one line each>
Skipped: <phase> — <missing capability>
Budget: <used>/<max> mutations · resume point: <cursor or "clean">
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: every kind of step a run executes, as the ledger names it (``action``), and its label
ACTION_NAMES = (
    ("merge", "merges"),
    ("decay", "decays"),
    ("archive", "archives"),
    ("split", "splits"),
    ("supersede", "invalidations"),
    ("link", "reconnects"),
)
MAX_LINES = 30


@dataclass(frozen=True, slots=True)
class DestructiveOp:
    """An archive, merge or split: proposed, or executed."""

    verb: str  # PROPOSED · EXECUTED · WOULD PROPOSE · WOULD EXECUTE
    action: str  # archive · merge · split
    topics: tuple[str, ...]
    preview: str
    why: str
    proposal: str = ""
    note: str = ""

    def line(self) -> str:
        head = f"{self.verb} {self.action.upper()}"
        if self.action == "merge":
            text = f'{head} {self.topics[0]} ← {self.topics[1]} — "{self.preview}"'
        elif self.action == "split":
            text = f'{head} {self.topics[0]} → {", ".join(self.topics[1:])} — "{self.preview}"'
        else:
            text = f'{head} {self.topics[0]} "{self.preview}" — {self.why}'
        extra = ", ".join(part for part in (self.note, self.proposal) if part)
        return f"{text} ({extra})" if extra else text


@dataclass(frozen=True, slots=True)
class PhaseResult:
    """How one phase went: done, skipped (and why) or stopped by a budget."""

    name: str
    status: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class GardenReport:
    """What one garden run found, did, proposed and left."""

    run_id: str
    time: str
    mode: str
    dry_run: bool
    stores: tuple[str, ...]
    stats_before: dict[str, int]
    stats_after: dict[str, int]
    actions: dict[str, int]
    destructive: tuple[DestructiveOp, ...]
    deferred: tuple[str, ...]
    skipped: tuple[str, ...]
    mutations_used: int
    max_mutations: int
    comparisons_used: int
    max_comparisons: int
    resume_point: str
    phases: tuple[PhaseResult, ...]
    summary: str = ""
    snapshot: str = ""
    patterns: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    #: writes a killed process left half done, finished before this run began
    recovered: tuple[str, ...] = ()
    #: the report file, relative to the workspace ("" when nothing changed, or a dry run)
    path: str = ""
    #: whether the run wrote anything at all
    changed: bool = False
    steps: tuple[str, ...] = field(default=())

    @property
    def text(self) -> str:
        return render_report(self)

    @property
    def tally(self) -> str:
        """What the run did in a phrase: steps done, proposals filed, proposals still open.

        A proposal spends a mutation of the budget but changes no topic, so "2 mutations"
        alone reads as if two topics had changed.
        """
        done = len(self.steps)
        waiting = sum(1 for op in self.destructive if op.note == "still open")
        proposed = sum(1 for op in self.destructive if "PROPOSE" in op.verb) - waiting
        parts = [f"{done} done", f"{proposed} proposed for a ruling"]
        if waiting:
            parts.append(f"{waiting} still waiting for one")
        return ", ".join(parts)


def render_report(report: GardenReport) -> str:
    """The report in the form above (plus dry-run patterns and unreadable files, when any)."""
    stats = " · ".join(
        f"{name} {report.stats_before.get(name, 0)} → {report.stats_after.get(name, 0)}"
        for name in report.stats_before
    )
    actions = " · ".join(f"{label} {count}" for label, count in action_counts(report.actions))
    mode = f"{report.mode}, dry run: nothing written" if report.dry_run else report.mode
    lines = [
        f"# Gardening report — {report.time}",
        f"Stores tended: {' · '.join(report.stores)}",
        f"Stats: {stats}",
        f"Actions: {actions}",
        f"Destructive ops (mode: {mode}):",
        *_items([op.line() for op in report.destructive], "none"),
        *_section("Deferred (uncertain)", report.deferred),
        *_section("Skipped", report.skipped),
        f"Budget: {report.mutations_used}/{report.max_mutations} mutations · "
        f"resume point: {report.resume_point}",
    ]
    if report.patterns:
        lines += _section("Patterns", report.patterns)
    if report.problems:
        lines += _section("Unreadable", report.problems)
    if report.recovered:
        lines += _section("Recovered (left half done by a killed process)", report.recovered)
    return "\n".join(lines) + "\n"


def action_counts(actions: Mapping[str, int]) -> list[tuple[str, int]]:
    """Each labelled kind of step with its count, then any other kind under its ledger name.

    The line must add up to the steps done (and to the run's ledger lines): a kind of step
    without a label is still shown, never dropped.
    """
    named = dict(ACTION_NAMES)
    counts = [(label, actions.get(key, 0)) for key, label in ACTION_NAMES]
    return counts + [(key, count) for key, count in sorted(actions.items()) if key not in named]


def _section(title: str, items: tuple[str, ...]) -> list[str]:
    if not items:
        return [f"{title}: none"]
    return [f"{title}:", *_items(list(items), "none")]


def _items(items: list[str], empty: str) -> list[str]:
    if not items:
        return [f"  - {empty}"]
    shown = [f"  - {item}" for item in items[:MAX_LINES]]
    if len(items) > MAX_LINES:
        shown.append(f"  - (+{len(items) - MAX_LINES} more; see --json)")
    return shown
