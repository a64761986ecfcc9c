"""AWS secret access keys: 40 base64 characters with no prefix, found only near their context.

A key counts when it stands shortly after "aws", "secret" or an access key id, and reads as random
base64 (digits, both cases, few lowercase runs), so paths and CamelCase names near the word "aws"
(``AWSEC2CapacityReservationFleetRole``) keep their text.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from memstrata.redaction.kinds import Span
from memstrata.redaction.provider_formats import _ALNUM

_AWS_CONTEXT = re.compile(r"aws|secret|akia|asia")
_AWS_SECRET = re.compile(r"[A-Za-z0-9/+]{40}")
_AWS_BOUNDARY = frozenset(string.ascii_letters + string.digits + "/+=_-")
_AWS_BEFORE = (_AWS_BOUNDARY - {"="}) | {"."}  # `KEY=…` yes; a path after a host name no
_AWS_WINDOW = 160
_LOWER_RUN = re.compile(r"[a-z]{4,}")


def _find_aws_secrets(text: str, lowered: str) -> Iterator[Span]:
    windows: list[list[int]] = []
    for context in _AWS_CONTEXT.finditer(lowered):
        if context.start() and lowered[context.start() - 1] in _ALNUM:
            continue  # inside a random word: "bafy…awsq…"
        end = min(len(text), context.end() + _AWS_WINDOW + 40)
        if windows and context.end() <= windows[-1][1]:
            windows[-1][1] = end
        else:
            windows.append([context.end(), end])
    for start, end in windows:
        for match in _AWS_SECRET.finditer(text, start, end):
            s, e = match.start(), match.end()
            if (s and text[s - 1] in _AWS_BEFORE) or (e < len(text) and text[e] in _AWS_BOUNDARY):
                continue
            if _is_aws_secret(match.group()):
                yield s, e, "aws-secret-key"


def _is_aws_secret(word: str) -> bool:
    """Random base64, not a path or a CamelCase name (``AWSEC2CapacityReservationFleetRole``)."""
    return (
        word.count("/") <= 8
        and any(c.isdigit() for c in word)
        and sum(c.islower() for c in word) >= 4
        and sum(c.isupper() for c in word) >= 4
        and "EXAMPLE" not in word  # AWS documentation's published sample keys
        # in 40 random base64 characters few letters sit in lowercase runs of four or more
        # (over 55% in one word of 10,000); in a CamelCase name 60% and more do
        and sum(len(run) for run in _LOWER_RUN.findall(word)) <= 0.55 * len(word)
    )
