"""Prose: a password given in a sentence; only the value is redacted.

"my password is …", "the wifi password: …", "pw for the server is …", "log in with password …",
and Chinese and Japanese ("密码是 …", "パスワードは …"). Anchors are found in the lowercased text.
Prose is the loosest context, so a plain word counts only when quoted or ending its sentence
("my password is sunshine."), never in "the password is stored …".
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from memstrata.redaction.kinds import Span
from memstrata.redaction.values import _accept_value, _is_terminal, _read_value

_PROSE_ANCHOR = re.compile(r"(?:pass(?:word|wd|code|phrase)|pwd?|pin|wi-?fi key)(?![\w-])")
_PROSE_TAIL = re.compile(
    r"(?i)(?:\*\*)?(?:[ \t]+(?:for|to|of|on|at)[ \t]+(?:[^\n.,;:!?=\"'*]|\.(?=\S)){1,40}?)?"
    r"(?:[ \t]*(?::\*\*|\*\*:|:)[ \t]*|[ \t]+(?:is now|is still|is|was|"
    r"has been (?:changed |re)?set to|has been changed to|(?:changed|set|reset) to)[ \t]*:?[ \t]*)"
)
_PROSE_USE = re.compile(r"(?:with|using|use)[ \t]+(?:the[ \t]+)?(?:password|pw)[ \t]+")
_CJK = re.compile(
    r"(?:密码|密碼|口令|パスワード)(?:就|都|现在|也|还|還)?"
    r"(是|为|為|改成了?|改为|设为|设置为|設為|は|：|:|=)?[ \t]*"
    r"[「“\"']?([!-~]{3,128})"
)
_WORD_CHARS = frozenset(string.ascii_letters + string.digits + "_-")


def _find_prose(text: str, lowered: str) -> Iterator[Span]:
    """Prose: "my password is …", "the wifi password: …", "pw for the server is …", "密码是 …"."""
    for match in _PROSE_ANCHOR.finditer(lowered):
        if match.start() and lowered[match.start() - 1] in _WORD_CHARS:
            continue
        tail = _PROSE_TAIL.match(text, match.end())
        if tail is None:
            continue
        value = _read_value(text, tail.end())
        if value is None:
            continue
        terminal = _is_terminal(text, value.end + value.quoted)
        if tail.group()[-1] == ":":  # "passwd:dir" with no space reads as code, not a sentence
            terminal = False
        if _accept_value(value.text, "password", strong_context=value.quoted, terminal=terminal):
            yield value.start, value.end, "password"
    for match in _PROSE_USE.finditer(lowered):
        if match.start() and lowered[match.start() - 1] in _WORD_CHARS:
            continue
        value = _read_value(text, match.end())
        if value and _accept_value(value.text, "password", strong_context=False, terminal=False):
            yield value.start, value.end, "password"
    for match in _CJK.finditer(text):
        secret = match.group(2).rstrip(".,;:!?)]}>\"'")
        if match.group(1) is None and not _is_strong(secret, minimum=6):
            continue  # "密码123456" needs no verb, but then the value must speak for itself
        if _accept_value(secret, "password", strong_context=True):
            yield match.start(2), match.start(2) + len(secret), "password"


def _is_strong(value: str, minimum: int) -> bool:
    digits = sum(c.isdigit() for c in value)
    return len(value) >= minimum and (0 < digits < len(value) or digits == len(value))
