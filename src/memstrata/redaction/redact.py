"""Run every finder over a text and put a typed placeholder where each secret was.

The finders know nothing of each other and may report the same secret twice, or a prefix of it;
the merge unions overlapping spans and types each union by its most specific kind, so a secret is
replaced whole and once.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from memstrata.redaction.assignments import _find_assignments, _find_file_formats
from memstrata.redaction.aws_secrets import _find_aws_secrets
from memstrata.redaction.kinds import SECRET_KINDS, Finder, SecretKind, Span
from memstrata.redaction.prose import _find_prose
from memstrata.redaction.provider_formats import _PROVIDER_RULES, _provider_finder
from memstrata.redaction.structures import (
    _find_auth_headers,
    _find_command_lines,
    _find_jwts,
    _find_private_keys,
    _find_url_passwords,
)

_RANK = {kind: rank for rank, kind in enumerate(SECRET_KINDS)}


@dataclass(frozen=True, slots=True)
class Finding:
    """Where one secret was in the original text, and its kind (never its value)."""

    kind: SecretKind
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Redaction:
    """The text with every secret replaced by ``[REDACTED:<kind>]``, and what was replaced."""

    text: str
    findings: tuple[Finding, ...]


def placeholder(kind: str) -> str:
    """The text that stands in for a secret of ``kind``."""
    return f"[REDACTED:{kind}]"


def redact_secrets(text: str) -> Redaction:
    """Replace every credential in ``text`` with a typed placeholder; report the original spans."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a few non-ASCII letters lower to two characters
        lowered = text.translate(_ASCII_LOWER)
    spans: list[Span] = []
    for find in _FINDERS:
        spans.extend(find(text, lowered))
    findings = _merge(spans)
    if not findings:
        return Redaction(text, ())
    pieces: list[str] = []
    cursor = 0
    for finding in findings:
        pieces.append(text[cursor : finding.start])
        pieces.append(placeholder(finding.kind))
        cursor = finding.end
    pieces.append(text[cursor:])
    return Redaction("".join(pieces), findings)


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _merge(spans: list[Span]) -> tuple[Finding, ...]:
    """Union overlapping spans; each union is typed by its most specific member."""
    merged: list[Finding] = []
    for start, end, kind in sorted(spans, key=lambda span: (span[0], -span[1])):
        if merged and start < merged[-1].end:
            last = merged[-1]
            best = kind if _RANK[kind] < _RANK[last.kind] else last.kind
            merged[-1] = Finding(best, last.start, max(last.end, end))
        else:
            merged.append(Finding(kind, start, end))
    return tuple(merged)


_FINDERS: tuple[Finder, ...] = (
    _find_private_keys,
    *(_provider_finder(kind, pattern, before) for kind, pattern, before in _PROVIDER_RULES),
    _find_jwts,
    _find_aws_secrets,
    _find_url_passwords,
    _find_auth_headers,
    _find_command_lines,
    _find_assignments,
    _find_file_formats,
    _find_prose,
)
