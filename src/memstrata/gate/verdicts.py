"""What the gate decided: a closed set of frozen values that callers ``match`` on.

Every verdict says what happened (``topic_id``, ``proposal_id`` …), why (``reason``), and whether
it was only a preview (``dry_run``: nothing was written).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Admitted:
    """New knowledge, stored as written (redacted secrets excepted)."""

    topic_id: str
    reason: str
    created: bool = True
    redactions: tuple[str, ...] = ()
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class Merged:
    """A near-duplicate of ``topic_id``: folded into it, keeping the union of the details."""

    topic_id: str
    reason: str
    redactions: tuple[str, ...] = ()
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class Superseded:
    """A newer statement of the same subject and attribute: ``old_id`` is kept, marked, linked."""

    topic_id: str
    old_id: str
    reason: str
    redactions: tuple[str, ...] = ()
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class Conflicted:
    """Mutually exclusive with ``other_id`` and no clear order: both kept, a human rules."""

    topic_id: str
    other_id: str
    proposal_id: str
    reason: str
    redactions: tuple[str, ...] = ()
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class Quarantined:
    """Text that tries to instruct the model: kept out of recall, listed as a proposal."""

    proposal_id: str
    reason: str
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class Rejected:
    """Not stored at all: empty, binary, invalid, over a cap."""

    reason: str
    dry_run: bool = False


Verdict = Admitted | Merged | Superseded | Conflicted | Quarantined | Rejected


def verdict_name(verdict: Verdict) -> str:
    """``Admitted`` → ``admitted`` (how the CLI and JSON name it)."""
    return type(verdict).__name__.lower()
