"""How much, which way: the small words that make the same statement say another thing.

Search drops "all", "some", "more", "up", "off" as stop words, and so the gate's content words
did: "The service is up" / "The service is down", "Ann reviews all pull requests" / "… some
pull requests" were the same words, and the newer merged into the older. A statement keeps
them (``Features.qualifiers``); two that hold different ones are no duplicate. Two that hold
opposite ones (all / some, more / fewer, up / down …) cannot both hold. Pure
functions only.
"""

from __future__ import annotations

from dataclasses import dataclass

from memstrata.gate import lexicon
from memstrata.gate.statements import Features


@dataclass(frozen=True, slots=True)
class Requalified:
    """The qualifiers only the stored statement holds, and only the candidate."""

    dropped: frozenset[str]
    added: frozenset[str]

    @property
    def opposite(self) -> bool:
        return any(
            frozenset((old, new)) in lexicon.OPPOSITE_QUALIFIERS
            for old in self.dropped
            for new in self.added
        )

    def __str__(self) -> str:
        return f"{_listed(self.dropped)} → {_listed(self.added)}"


def requalified(candidate: Features, stored: Features) -> Requalified | None:
    """What changed between the qualifiers of two English statements, or ``None``. An "all"
    on one side alone changes nothing: a plain plural says all ("wants *all* dates in ISO
    format" / "wants dates in ISO format"), and a plain rule holds always ("*Always* run the
    linter" / "Run the linter")."""
    if candidate.cjk or stored.cjk:
        return None
    change = Requalified(
        stored.qualifiers - candidate.qualifiers, candidate.qualifiers - stored.qualifiers
    )
    if change.opposite or (change.dropped | change.added) - {"all", "always"}:
        return change
    return None


def _listed(words: frozenset[str]) -> str:
    return ", ".join(sorted(words)) or "—"
