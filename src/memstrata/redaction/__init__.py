"""Find credentials in text and replace each with a typed placeholder (``[REDACTED:jwt]``).

Three layers of rules, written for this project rather than borrowed from a scanner:

1. exact provider formats (``ghp_…``, ``sk-ant-…``, ``AKIA…``, ``AIza…``, …);
2. structures: JWTs whose header decodes to JSON with ``alg``, PEM private-key blocks with a
   base64 body, URLs with a password, ``Authorization`` headers, ``curl -u`` and ``mysql -p``;
3. context: ``password = …`` / ``api_key: "…"`` assignments in code, config and env files,
   command flags, and prose ("my password is …", "密码是 …"), where only the value is redacted.

Overlapping matches merge into one finding typed by the most specific rule, so a secret goes
whole, never a prefix. Findings keep offsets into the original text, never the secret itself.
Every pattern starts with a literal (found by a fast search) or runs on a short window, uses
bounded repetition, and has no nested quantifier that can split a run two ways, so the cost stays
linear on pathological input.

The modules follow the layers: ``provider_formats``, ``structures`` (with command flags),
``assignments`` and ``prose``; ``aws_secrets`` finds the one provider secret with no prefix by its
context. ``values`` decides, for structures and context, where a value ends and whether it could
be a credential. ``redact`` runs every finder and merges what they find; ``kinds`` names the
kinds of secret, most specific first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memstrata.redaction.kinds import SECRET_KINDS, SecretKind

if TYPE_CHECKING:
    from memstrata.redaction.redact import Finding, Redaction, placeholder

__all__ = ["SECRET_KINDS", "Finding", "Redaction", "SecretKind", "placeholder", "redact_secrets"]

#: loaded on first use: the finders' rules cost ~15 ms to import, which a read that indexes
#: nothing new (every prompt hook) need not pay
_LAZY = frozenset({"Finding", "Redaction", "placeholder"})


def redact_secrets(text: str) -> Redaction:
    """:func:`memstrata.redaction.redact.redact_secrets`, its rules imported on first use."""
    from memstrata.redaction.redact import redact_secrets as redact

    return redact(text)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from memstrata.redaction import redact

        return getattr(redact, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
