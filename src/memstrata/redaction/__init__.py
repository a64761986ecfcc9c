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

from memstrata.redaction.kinds import SECRET_KINDS, SecretKind
from memstrata.redaction.redact import Finding, Redaction, placeholder, redact_secrets

__all__ = ["SECRET_KINDS", "Finding", "Redaction", "SecretKind", "placeholder", "redact_secrets"]
