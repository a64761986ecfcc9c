"""How a candidate statement relates to one stored statement: duplicate, update, contradiction.

``relate`` decides from the exact lexical features of :mod:`memstrata.gate.statements` and, when
an embedder is in use, the cosine of the two texts:

- **duplicate**: no detail differs (numbers, dates, names, negation) and either the content words
  nearly coincide (overlap ≥ 0.8), or the cosine clears the embedder's calibrated threshold, the
  words overlap at least 0.4, and at most one side has words of its own (two sides with their own
  content words say different things: "prefers cortado" / "prefers flat white").
- **update** (same subject and attribute, another value): the subjects agree, and either a number,
  date or name differs in otherwise overlapping statements, or both sides have their own content
  words around a shared core; or the polarity flips with a change marker ("no longer", "stopped",
  "不再").
- **contradiction**: the polarity flips with no change marker ("is vegetarian" / "is not
  vegetarian"): there is no telling which is true.
- **unrelated**: anything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from memstrata.gate.statements import Features, detail_difference, features_of, word_overlap

RelationKind = Literal["duplicate", "update", "contradiction", "unrelated"]

DUPLICATE_OVERLAP = 0.8
SEMANTIC_MIN_OVERLAP = 0.4
UPDATE_MIN_OVERLAP = 0.25


@dataclass(frozen=True, slots=True)
class Relation:
    """The relation found, and the words that explain it."""

    kind: RelationKind
    reason: str
    overlap: float
    cosine: float | None = None


def relate(
    candidate: str, stored: str, cosine: float | None = None, threshold: float | None = None
) -> Relation:
    """Classify ``candidate`` against ``stored`` (see the module docstring for the rules)."""
    a, b = features_of(candidate), features_of(stored)
    overlap = word_overlap(a, b)
    difference = detail_difference(a, b)
    same_subject = _same_subject(candidate, stored, a, b)
    own_a, own_b = a.words - b.words, b.words - a.words
    if difference == "negation":
        if overlap < 0.5 or not same_subject:
            return Relation("unrelated", "different statements", overlap, cosine)
        if a.change_marked or b.change_marked:
            return Relation("update", "the polarity changed over time", overlap, cosine)
        return Relation("contradiction", "one says the opposite of the other", overlap, cosine)
    if difference is not None:
        if same_subject and overlap >= 0.5:
            return Relation("update", f"same statement with another {difference}", overlap, cosine)
        return Relation("unrelated", f"different {difference}", overlap, cosine)
    if overlap >= DUPLICATE_OVERLAP and (not own_a or not own_b):
        return Relation("duplicate", f"the same words (overlap {overlap:.2f})", overlap, cosine)
    semantic = cosine is not None and threshold is not None and cosine >= threshold
    if semantic and overlap >= SEMANTIC_MIN_OVERLAP and (not own_a or not own_b):
        return Relation(
            "duplicate",
            f"the same meaning (cosine {cosine:.2f}, overlap {overlap:.2f})",
            overlap,
            cosine,
        )
    if same_subject and own_a and own_b and overlap >= UPDATE_MIN_OVERLAP and _shared_core(a, b):
        changed = ", ".join(sorted(own_b)[:3]) + " → " + ", ".join(sorted(own_a)[:3])
        return Relation(
            "update", f"same subject and attribute, new value ({changed})", overlap, cosine
        )
    return Relation("unrelated", "different statements", overlap, cosine)


def _same_subject(candidate: str, stored: str, a: Features, b: Features) -> bool:
    """The statements are about the same subject: same first name/mention, or same opening."""
    first_a, first_b = _first_name(candidate), _first_name(stored)
    if first_a and first_b:
        return first_a == first_b
    return bool(a.words & b.words)


def _first_name(text: str) -> str:
    match = re.search(r"@([^\W\d_][\w.\-]*)|\b([A-Z][\w\-]+)", text)
    if not match:
        return ""
    return (match.group(1) or match.group(2)).casefold()


def _shared_core(a: Features, b: Features) -> bool:
    """Besides the subject, the statements share at least one predicate word."""
    return len(a.words & b.words) >= 2
