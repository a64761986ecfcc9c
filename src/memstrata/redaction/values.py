"""Values: where a value after a key or an anchor ends, and whether it could be the secret itself.

The structures, assignments and prose finders locate where a value starts; these decide what it is
and which to leave alone: placeholders (``${DB_PASSWORD}``, ``<your-token>``, ``****``), password
hashes, ordinary words ("the password is stored …"), code expressions, paths, URLs and names that
say what they stand for (``session-token``). The surer the context, the plainer a value may be.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from memstrata.redaction.kinds import SecretKind


@dataclass(frozen=True, slots=True)
class _Value:
    text: str
    start: int
    end: int
    quoted: bool


_QUOTED = {q: re.compile(q + r"((?:[^" + q + r"\\\n]|\\.){1,512})" + q) for q in ('"', "'", "`")}
_BARE_VALUE = re.compile(r"[^\s,;\\\"'`“”‘’，。；：！？、（）「」]{1,512}")
_BARE_VALUE_NO_AMP = re.compile(r"[^\s,;\\\"'`“”‘’，。；：！？、（）「」&]{1,512}")
_TRAILING_PUNCT = ".,;:?)]}>"
_OPENERS = {")": "(", "]": "[", "}": "{", ">": "<"}
_CLOSERS = {"“": "”", "‘": "’", "「": "」"}


def _read_value(text: str, pos: int, *, stop_at_ampersand: bool = False) -> _Value | None:
    """The quoted or bare value that starts at ``pos``; bare values lose sentence punctuation."""
    if pos >= len(text):
        return None
    first = text[pos]
    if first in _QUOTED:
        match = _QUOTED[first].match(text, pos)
        if match is None:
            return None
        return _Value(match.group(1), match.start(1), match.end(1), True)
    if first in _CLOSERS:
        close = text.find(_CLOSERS[first], pos + 1, pos + 130)
        if close == -1:
            return None
        return _Value(text[pos + 1 : close], pos + 1, close, True)
    bare = _BARE_VALUE_NO_AMP if stop_at_ampersand else _BARE_VALUE
    match = bare.match(text, pos)
    if match is None:
        return None
    value = match.group()
    if len(value) > 4 and value.startswith("**") and value.rstrip(_TRAILING_PUNCT).endswith("**"):
        inner = value.rstrip(_TRAILING_PUNCT)[2:-2]  # Markdown bold: **hunter2**
        return _Value(inner, pos + 2, pos + 2 + len(inner), True) if inner else None
    while value and value[-1] in _TRAILING_PUNCT:
        closer = value[-1]
        opener = _OPENERS.get(closer)
        if opener and value.count(opener) >= value.count(closer):
            break  # "{error_msg}", "getpass()": the bracket belongs to the value
        value = value[:-1]
    if not value:
        return None
    return _Value(value, pos, pos + len(value), False)


_TERMINAL = re.compile(r"[ \t.,;:!?)\]}\"'”’。！？，]*(?:(?:#|//).*)?(?:\r?\n|$)")


def _is_terminal(text: str, pos: int) -> bool:
    """Nothing but punctuation or a comment follows on the line: the value ends the statement."""
    return _TERMINAL.match(text, pos) is not None


_PLACEHOLDER = re.compile(
    r"(?i)"
    r"(?-i:\$\{?(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)\}?)|"  # $DB_PASSWORD, ${token}
    r"\$\{\{.*|\$\(.*|\{\{.*|#?\{[^{}]*\}|%\(?[A-Za-z_]+\)?s?%?|"
    r"<[^>]*>?|\[REDACTED:[a-z-]+\]|\*+|x{3,}|.*\.{3}|.*…|[-_.]+|"
    r".*\{[^{}\s]{0,40}\}.*|(?-i:(?:[^%\s]{0,20}%[sdr]){2,}[^%\s]{0,20}|%[sdr])|"  # {x}, %s:%s
    r"your[-_ ]?[\w -]*|(?:insert|enter|replace|put)[-_ ][\w -]*|"
    r".*(?:example|placeholder|changeme|dummy|redacted|[-_ ]here).*|"
    r"\$(?:2[abxy]?|argon2(?:id|i|d)|pbkdf2[\w-]*|scrypt|[156y7])\$.*"  # password hashes
)


def _is_placeholder(value: str) -> bool:
    return _PLACEHOLDER.fullmatch(value) is not None


_STOPWORDS = frozenset(
    """
    a an the is was are be been being not no none null nil empty blank missing required optional
    incorrect correct wrong invalid valid expired weak strong too very still now also only just
    same different stored hashed encrypted set reset changed saved sent shown hidden visible masked
    secret password passwd passphrase pass token pw pwd pin key in on at of for to from with by my
    your our their his her its this that these those it what which who how why when where whatever
    something nothing anything unknown unset undefined true false yes ok okay n/a na tbd todo see
    check ask use using short long secure insecure simple easy hard complex protected test
    case-sensitive sensitive mandatory needed necessary important managed rotated generated random
    temporary default here there below above attached inside and or but so if then than because
    should must can could would will may might shall need needs has have had do does did get got
    str string int bool bytes number any object field confidential private personal known length
    policy rules requirements manager vault expires never always sometimes usually probably
    definitely actually really currently already again new old current first last next previous
    please sorry thanks stuff one two three four five six seven eight nine ten twelve sixteen
    characters chars digits letters numbers symbols least most minimum maximum free public fine
    good bad less more lost forgotten leaked compromised rotating disabled enabled auth
    authentication based secretstr secretbytes tuple list dict float sequence mapping callable
    array boolean integer char varchar uuid datetime date json hash bytearray
    """.split()
)
_WORDY_ENDINGS = ("ed", "ing", "ly", "tion", "ment", "ness", "able", "ible", "ful", "ous")
# os.environ, settings.API_KEY, getpass(, Optional[str, (self.password, x=None
_CODE_EXPRESSION = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z_][\w.]*[(\[].*|[(\[].*")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+")  # FG_DEFAULT
_NAMESPACED = re.compile(r"[A-Za-z]+:[A-Za-z]+")  # serverlessrepo:applicationId
_SELF_NAMING = ("secret", "token", "passw", "pass", "pwd", "key", "auth", "credential")
_BAD_FIRST = frozenset(")]}|,;:<>\\")
_NEGATED = re.compile(r"-(?:[A-Za-z_]\w*|\d+|-.*)")  # `pw = -pw`, `-1`, `--flag`
_URL_OR_ARN = re.compile(r"(?:[a-z][a-z0-9+.-]*://|arn:|urn:).*")
_PATH = re.compile(r"(?:~|\.{1,2})?/[\w.@~-]*(?:/[\w.@~-]*)*|[A-Za-z]:\\.*")
_PATH_CHARS = frozenset(string.ascii_lowercase + string.digits + "._-")
_HEX = frozenset(string.hexdigits)
_WORD_HUMP = re.compile(r"[A-Z]?[a-z]{2,}")


def _accept_value(
    value: str,
    kind: SecretKind,
    *,
    strong_context: bool,
    terminal: bool = True,
    expression: bool = False,
) -> bool:
    """Could ``value`` be the credential itself, given how sure the context is?

    A value mixing letters and digits, or with symbols, is accepted; a plain word or number needs
    a context that leaves no doubt (a config line it ends, a quoted string) and must be neither an
    ordinary word ("the password is stored …", "password: required") nor name what it stands for
    ("session-token", "FORCE_CHANGE_PASSWORD"). Where ``expression`` (the right side of
    ``key = value`` in code), an identifier is a variable, not a secret.
    """
    if not (3 if kind == "password" else 10) <= len(value) <= 512 or value[0] in _BAD_FIRST:
        return False
    if _NEGATED.fullmatch(value):
        return False
    lowered = value.lower()
    if lowered in _STOPWORDS or any(c.isspace() for c in value) or _is_placeholder(value):
        return False
    if _CODE_EXPRESSION.fullmatch(value) or _URL_OR_ARN.fullmatch(value) or _is_path(value):
        return False
    if expression and _IDENTIFIER.fullmatch(value):
        return False
    if kind == "generic-secret" and len(value) < 32 and all(c in _HEX for c in value):
        return False  # short hex: an id or a checksum, not a key
    has_alpha = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() and c not in "_-." for c in value)
    if not has_alpha:  # a number: a PIN, never a version (3.11) or a time (1556311319.069)
        minimum = 4 if kind == "password" else 16
        return (strong_context or terminal) and value.isdigit() and len(value) >= minimum
    if _IDENTIFIER.fullmatch(value) and _is_camel_words(value) and _names_itself(lowered):
        return False  # PKCS7PrivateKeyTypes, SomeKindOfPassword123: a name, not a value
    random_letters = _is_random_letters(value) and not _names_itself(lowered)
    if (has_digit or has_symbol or random_letters) and not _NAMESPACED.fullmatch(value):
        return True
    # a plain word
    if not (strong_context or terminal):
        return False
    if lowered.endswith(_WORDY_ENDINGS) or _CONSTANT.fullmatch(value):
        return False
    if _names_itself(lowered) or _is_camel_words(value):
        return False
    return strong_context or (terminal and kind == "password")


def _is_path(value: str) -> bool:
    """``/run/secrets/db``, ``~/.aws/credentials``; not base64 that happens to start with '/'."""
    if not _PATH.fullmatch(value):
        return False
    segments = [s for s in re.split(r"[/\\]", value) if s not in ("", "~", ".", "..")]
    return len(segments) >= 2 or all(set(s) <= _PATH_CHARS for s in segments)


def _is_random_letters(value: str) -> bool:
    """Letters in random case (``yzdwTvyYnapGlFKZvQx``), not CamelCase words."""
    letters = [c for c in value if c.isalpha()]
    upper = sum(c.isupper() for c in letters)
    return (
        len(letters) >= 12
        and upper >= 3
        and len(letters) - upper >= 3
        and len(letters) / upper < 4  # words average more than four letters per capital
        and not _is_camel_words(value)
    )


def _names_itself(lowered: str) -> bool:
    return any(word in lowered for word in _SELF_NAMING)


def _is_camel_words(value: str) -> bool:
    humps = sum(len(hump) for hump in _WORD_HUMP.findall(value))
    return any(c.isupper() for c in value[1:]) and humps >= 0.7 * len(value)
