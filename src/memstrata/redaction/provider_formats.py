"""Provider formats: keys and tokens whose vendor fixed a literal prefix, alphabet and length.

``ghp_…``, ``sk-ant-…``, ``AKIA…``, ``AIza…``, ``xoxb-…``, Slack webhooks and the rest need no
context: the shape alone says what they are. Patterns start with the literal so the regex engine
can search for it; the left boundary is checked after. The token alphabets defined here are the
boundaries the other finders use too.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from memstrata.redaction.kinds import Finder, SecretKind, Span

_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "_-")
_ALNUM = frozenset(string.ascii_letters + string.digits)
_STOP = r"(?![A-Za-z0-9_-])"

_PROVIDER_RULES: tuple[tuple[SecretKind, str, frozenset[str]], ...] = (
    # (kind, pattern, characters that may not stand just before a match)
    ("anthropic-key", r"sk-ant-[A-Za-z0-9_-]{32,}", _TOKEN_CHARS),
    ("openai-key", r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}", _TOKEN_CHARS),
    ("openai-key", r"sk-[A-Za-z0-9]{32,}" + _STOP, _TOKEN_CHARS),
    (
        "aws-access-key-id",
        # AWS documentation's sample keys end in EXAMPLE: published, not secret
        r"A(?:KIA|SIA|BIA|CCA)(?![A-Z0-9]{0,9}EXAMPLE)[A-Z0-9]{16}(?![A-Za-z0-9])",
        _ALNUM,
    ),
    ("github-token", r"gh[pousr]_[A-Za-z0-9]{36,255}" + _STOP, _TOKEN_CHARS),
    ("github-token", r"github_pat_[A-Za-z0-9_]{50,255}" + _STOP, _TOKEN_CHARS),
    (
        "gitlab-token",
        r"gl(?:pat|dt|ptt|rt|cbt|soat|ft)-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*",
        _TOKEN_CHARS,
    ),
    ("slack-token", r"xox[abposre]-[A-Za-z0-9-]{10,}", _TOKEN_CHARS),
    ("slack-token", r"xapp-\d-[A-Za-z0-9-]{10,}", _TOKEN_CHARS),
    (
        "slack-webhook",
        r"hooks\.slack\.com/(?:services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}|"
        r"(?:workflows|triggers)/[A-Za-z0-9_/-]{16,})",
        frozenset(),
    ),
    ("google-api-key", r"AIza[0-9A-Za-z_-]{35}" + _STOP, _TOKEN_CHARS),
    ("google-oauth", r"GOCSPX-[A-Za-z0-9_-]{28}" + _STOP, _TOKEN_CHARS),
    ("google-oauth", r"ya29\.[0-9A-Za-z_-]{20,}", _TOKEN_CHARS),
    ("stripe-key", r"sk_(?:live|test)_[0-9A-Za-z]{16,}", _TOKEN_CHARS),
    ("stripe-key", r"rk_(?:live|test)_[0-9A-Za-z]{16,}", _TOKEN_CHARS),
    ("stripe-key", r"whsec_[A-Za-z0-9]{24,}", _TOKEN_CHARS),
    ("twilio-key", r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])", _ALNUM),
    ("sendgrid-key", r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}" + _STOP, _TOKEN_CHARS),
    ("npm-token", r"npm_[A-Za-z0-9]{36}" + _STOP, _TOKEN_CHARS),
    ("pypi-token", r"pypi-AgE[A-Za-z0-9_-]{50,}", _TOKEN_CHARS),
    ("huggingface-token", r"hf_[A-Za-z0-9]{30,40}" + _STOP, _TOKEN_CHARS),
)
_WEBHOOK_SCHEME = re.compile(r"(?i)https?://$")


def _literal_prefix(pattern: str) -> str:
    """The plain characters a pattern starts with: ``gh`` for ``gh[pousr]_…``."""
    prefix = re.match(r"(?:[A-Za-z0-9_-]|\\\.)*", pattern)
    return prefix.group().replace("\\", "") if prefix else ""


def _provider_finder(kind: SecretKind, pattern: str, not_before: frozenset[str]) -> Finder:
    compiled = re.compile(pattern)
    needle = _literal_prefix(pattern)

    def find(text: str, lowered: str) -> Iterator[Span]:
        if needle not in text:  # a substring test is far cheaper than starting the regex
            return
        for match in compiled.finditer(text):
            start = match.start()
            if start and text[start - 1] in not_before:
                continue
            if kind == "slack-webhook":  # the whole URL goes, scheme included
                scheme = _WEBHOOK_SCHEME.search(text, max(0, start - 8), start)
                start = scheme.start() if scheme else start
            yield start, match.end(), kind

    return find
