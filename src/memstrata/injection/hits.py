"""A hit: what one rule found in a text, how much it weighs, and the evidence a reviewer sees.

Every detector (the rule matcher, exfiltration, hidden text, de-obfuscation, the decoded views)
reports ``_Hit`` values, and ``THRESHOLD`` is the score that makes a verdict (de-obfuscation also
uses it to keep only hits that decide alone); they live apart from all of those, so each can
import them without importing the others.
"""

from __future__ import annotations

from dataclasses import dataclass

THRESHOLD = 0.5
EVIDENCE_CHARS = 48


@dataclass(frozen=True, slots=True)
class _Hit:
    rule: str
    family: str
    weight: float
    evidence: str
    note: str = ""


def _evidence(matched: str) -> str:
    compact = " ".join(matched.split()).strip(" .:;,>*-•\"'(")
    if len(compact) > EVIDENCE_CHARS:
        return compact[: EVIDENCE_CHARS - 1] + "…"
    return compact
