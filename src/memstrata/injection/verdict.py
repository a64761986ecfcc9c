"""Judge a text: run every detector, keep each family's strongest hit, combine them by noisy-OR.

This is the entry point, ``detect_injection``: it folds the text, collects hits from the rule
matcher, exfiltration, hidden text, de-obfuscation and the decoded views (decoding again, up to
``MAX_DECODE_DEPTH``, since an encoded text may hide another encoding), and turns them into an
``InjectionVerdict`` with a score and the reasons a reviewer reads. Scoring a decoded view runs
the whole collection again, so ``_decoded`` lives here rather than in ``decoding``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from memstrata.injection.decoding import _decodings
from memstrata.injection.exfiltration import _exfiltration
from memstrata.injection.folding import _fold
from memstrata.injection.hidden import _hidden_unicode, _html_comments
from memstrata.injection.hits import THRESHOLD, _evidence, _Hit
from memstrata.injection.match import _match_rules
from memstrata.injection.obfuscation import _deobfuscated
from memstrata.injection.rules import RULES

MAX_DECODE_DEPTH = 2


@dataclass(frozen=True, slots=True)
class InjectionVerdict:
    """Whether text tries to instruct its reader, how strongly, and which rules said so."""

    is_injection: bool
    score: float
    reasons: tuple[str, ...]


# "You are DAN" / "you're Max": an identity given to the reader by name (raw text, case kept).
_NAMED_PERSONA = re.compile(
    r"(?<!\w)[Yy]ou(?:'re| are)(?: now)? (?:called |named )?(?:[A-Z]{2,}[A-Za-z0-9]*|"
    r"[A-Z][a-z]+(?:[A-Z][a-z]+)*)\b(?!'s)"
)


def detect_injection(text: str) -> InjectionVerdict:
    """Judge whether ``text`` tries to instruct the model that will read it back."""
    best = _strongest(_collect(text, 0))
    score = round(_noisy_or(best), 3)
    ranked = sorted(best, key=lambda hit: -hit.weight)
    reasons = tuple(
        f'{hit.rule}: "{hit.evidence}"' + (f" ({hit.note})" if hit.note else "") for hit in ranked
    )
    return InjectionVerdict(score >= THRESHOLD, score, reasons)


def _collect(text: str, depth: int) -> list[_Hit]:
    folded = _fold(text)
    hits = list(_match_rules(folded, RULES))
    hits.extend(_exfiltration(folded))
    hits.extend(_html_comments(folded))
    named = None
    if "you're" in folded or "you are" in folded:
        named = _NAMED_PERSONA.search(text)
    if named:  # case matters here, so the raw text: "you are DAN", "you are Max"
        hits.append(_Hit("persona-named", "persona", 0.45, _evidence(named.group())))
    if not text.isascii():
        hits.extend(_hidden_unicode(text))
    hits.extend(_deobfuscated(folded, {hit.family for hit in hits if hit.weight >= THRESHOLD}))
    if depth < MAX_DECODE_DEPTH:
        hits.extend(_decoded(text, folded, depth))
    return hits


# What decoded text must say to count: an instruction, not merely a marker or odd characters.
_SEMANTIC = frozenset(
    "override reveal persona unrestricted directive future new-instructions covert exfiltration "
    "rules-file note-to-ai authority".split()
)


def _decoded(text: str, folded: str, depth: int) -> Iterator[_Hit]:
    """Decode base64, hex, percent-encoding, ROT13, reversed text; score what they hide."""
    for decoded, how in _decodings(text, folded):
        inner = [hit for hit in _collect(decoded, depth + 1) if hit.family in _SEMANTIC]
        if _noisy_or(_strongest(inner)) >= THRESHOLD:
            yield _Hit(f"encoded-{how}", "encoded", 0.9, _evidence(decoded))
            return


def _strongest(hits: Iterable[_Hit]) -> list[_Hit]:
    """The strongest hit of each family: a family is one piece of evidence."""
    best: dict[str, _Hit] = {}
    for hit in hits:
        if hit.weight > 0 and (hit.family not in best or hit.weight > best[hit.family].weight):
            best[hit.family] = hit
    return list(best.values())


def _noisy_or(hits: Iterable[_Hit]) -> float:
    """``1 - Π(1 - w)``: independent pieces of evidence, any of which may suffice."""
    miss = 1.0
    for hit in hits:
        miss *= 1.0 - min(hit.weight, 0.99)
    return 1.0 - miss
