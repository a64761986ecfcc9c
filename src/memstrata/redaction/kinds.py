"""The kinds of secret, most specific first, and the shape every finder shares.

A finder takes the text and its ASCII-lowercased twin (anchors are searched in the lowercased one,
offsets stay valid in both) and yields ``(start, end, kind)`` spans; ``redact`` merges them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Literal, get_args

SecretKind = Literal[
    "private-key",
    "anthropic-key",
    "openai-key",
    "aws-access-key-id",
    "aws-secret-key",
    "github-token",
    "gitlab-token",
    "slack-token",
    "slack-webhook",
    "google-api-key",
    "google-oauth",
    "stripe-key",
    "twilio-key",
    "sendgrid-key",
    "npm-token",
    "pypi-token",
    "huggingface-token",
    "jwt",
    "connection-password",
    "bearer-token",
    "basic-auth",
    "password",
    "generic-secret",
]
# Most specific first (the order of SecretKind): overlapping matches merge into the earliest.
SECRET_KINDS: tuple[SecretKind, ...] = get_args(SecretKind)


Span = tuple[int, int, SecretKind]
Finder = Callable[[str, str], Iterator[Span]]  # (text, its ASCII-lowercased twin) -> spans
