"""Prose: a password given in a sentence; only the value is redacted.

"my password is …", "the wifi password: …", "pw for the server is …", "log in with password …",
and Chinese and Japanese ("密码是 …", "パスワードは …"). Anchors are found in the lowercased text.
Prose is the loosest context, so a plain word counts only when quoted or ending its sentence
("my password is sunshine."), never in "the password is stored …".

A key or token given in a sentence goes the same way ("the API key for the weather service is
…", "Datadog API key: …", "the client secret is …", "API密钥是 …", "令牌：…"), with a stricter
value: it must look generated (digits among letters, letters in random case, symbols), so
"the token is valid for 15 minutes" and "the auth token is SHA256-signed" keep their words.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from memstrata.redaction.kinds import Span
from memstrata.redaction.values import _WORDY_ENDINGS, _accept_value, _is_terminal, _read_value

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
# A credential that is no password, named in words: "API key", "access token", "client secret".
# The anchor is the last word (a "key" needs a word before it that makes it a credential), then
# the sentence's verb, English or Chinese ("token是 …"), and a value holding a long run of
# letters and digits: checked in one pattern, so the many "token"s of code cost little.
_KEY_SENTENCE = re.compile(
    r"(?:token|secret|key)(?![\w-])(?:(" + _PROSE_TAIL.pattern.removeprefix("(?i)") + r")|"
    r"(?:就|都|现在|也|还|還)?(?:是|为|為|改成了?|改为|设为|设置为|設為|は|：)[ \t]*)"
    r"(?=(?:\*\*|[「“\"'`])?[^\s\"'`]{0,24}?[A-Za-z0-9]{12})"
)
_KEY_QUALIFIER = re.compile(
    r"(?:api[ -]?|(?:access|secret|private|license|app|client|subscription)[ -])\Z"
)
# "API密钥是 …", "令牌：…"
_CJK_KEY = re.compile(
    r"(?:密钥|秘钥|密鑰|金鑰|令牌)(?:就|都|现在|也|还|還)?"
    r"(是|为|為|改成了?|改为|设为|设置为|設為|は|：|:|=)[ \t]*"
    r"[「“\"']?([!-~]{10,512})"
)
_CJK_VALUE = re.compile(r"[「“\"']?([!-~]{10,512})")


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
    for match in _KEY_SENTENCE.finditer(lowered):
        start = match.start()
        if lowered[start] == "k":
            qualifier = _KEY_QUALIFIER.search(lowered, max(0, start - 14), start)
            if qualifier is None:
                continue
            start = qualifier.start()
        if start and lowered[start - 1] in _WORD_CHARS:
            continue
        if match.group(1) is None:  # a Chinese verb: the value runs to the first non-ASCII
            found = _CJK_VALUE.match(text, match.end())
            if found:
                yield from _generated(text, found.start(1), found.group(1))
            continue
        value = _read_value(text, match.end())
        if value is None or not _is_generated(value.text):
            continue
        terminal = _is_terminal(text, value.end + value.quoted)
        if _accept_value(
            value.text, "generic-secret", strong_context=value.quoted, terminal=terminal
        ):
            yield value.start, value.end, "generic-secret"
    for match in _CJK_KEY.finditer(text):
        yield from _generated(text, match.start(2), match.group(2))
    for match in _CJK.finditer(text):
        secret = match.group(2).rstrip(".,;:!?)]}>\"'")
        if match.group(1) is None and not _is_strong(secret, minimum=6):
            continue  # "密码123456" needs no verb, but then the value must speak for itself
        if _accept_value(secret, "password", strong_context=True):
            yield match.start(2), match.start(2) + len(secret), "password"


def _generated(text: str, start: int, value: str) -> Iterator[Span]:
    """The key that starts at ``start`` after a Chinese verb, when it looks generated."""
    secret = value.rstrip(".,;:!?)]}>\"'")
    if _is_generated(secret) and _accept_value(secret, "generic-secret", strong_context=True):
        yield start, start + len(secret), "generic-secret"


def _is_generated(value: str) -> bool:
    """Does a key or token named in prose look generated, not like words ("SHA256-signed",
    "x86_64-linux-gnu")? A generated key holds a long run of letters and digits."""
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    if value.lower().endswith(_WORDY_ENDINGS) or not _LONG_RUN.search(value):
        return False
    return (letters > 0 and digits >= 2) or _mixed_case(value) or (not letters and digits >= 16)


_LONG_RUN = re.compile(r"[A-Za-z0-9]{12}")


def _mixed_case(value: str) -> bool:
    return sum(c.isupper() for c in value) >= 3 and sum(c.islower() for c in value) >= 3


def _is_strong(value: str, minimum: int) -> bool:
    digits = sum(c.isdigit() for c in value)
    return len(value) >= minimum and (0 < digits < len(value) or digits == len(value))
