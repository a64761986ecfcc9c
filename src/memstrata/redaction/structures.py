"""Structures: credentials known by their shape and place rather than a vendor prefix.

PEM private-key blocks with a base64 body, JWTs whose header decodes to JSON naming an ``alg``,
the password in ``scheme://user:password@host``, ``Authorization`` header values, and secrets on
command lines (``curl -u``, ``mysql -p``, ``--password`` / ``--token`` flags). Each rule checks that
the structure really holds (the body is base64, the header decodes, curl or mysql runs on that
line), so docs and code that only name the structure keep their text.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import string
from collections.abc import Iterator

from memstrata.redaction.kinds import SecretKind, Span
from memstrata.redaction.provider_formats import _TOKEN_CHARS
from memstrata.redaction.values import (
    _STOPWORDS,
    _accept_value,
    _is_camel_words,
    _is_placeholder,
    _read_value,
)

_PEM_BEGIN = re.compile(
    r"-----BEGIN ((?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP |SSH2 ENCRYPTED )?"
    r"PRIVATE KEY(?: BLOCK)?)-----"
)
_PEM_LINE_BREAK = re.compile(r"\r?\n|(?:\\r)?\\n")
_PEM_LINE_END = re.compile(r"[ \t]*(?:\r?\n|(?:\\r)?\\n|\"|$)")
_PEM_BODY_LINE = re.compile(r"[A-Za-z-]{2,40}: [^\n\\]*|[ \t]*[A-Za-z0-9+/=]*")
_PEM_HEADER = re.compile(r"(?m)^[ \t]*[A-Za-z-]{2,40}: [^\n\\]*")
_PEM_BODY_START = re.compile(
    r"(?:\s|\\r|\\n){0,8}(?:[A-Za-z0-9+/=]{16}|[A-Za-z-]{2,40}: )"
)  # a base64 line or a header (Proc-Type:, Version:) right after BEGIN
_PEM_MAX_BODY = 64 * 1024  # an 8192-bit RSA key is about 6.5 kB of PEM
_BASE64_CHARS = frozenset(string.ascii_letters + string.digits + "+/=")


def _find_private_keys(text: str, lowered: str) -> Iterator[Span]:
    """Whole BEGIN…END blocks; a block cut short runs to the end of its base64 body."""
    end_at: dict[str, int] = {}  # one search per label keeps many unclosed BEGINs linear
    for match in _PEM_BEGIN.finditer(text):
        if not _PEM_BODY_START.match(text, match.end()):
            continue  # prose or code that names the marker: "files start with -----BEGIN …"
        label = match.group(1)
        marker = f"-----END {label}-----"
        found = end_at.get(label)
        if found is None or (found != -1 and found < match.end()):
            found = text.find(marker, match.end())
            end_at[label] = found
        if (
            found != -1
            and found - match.end() <= _PEM_MAX_BODY
            and text.find("-----", match.end(), found) == -1
        ):
            body_end, end = found, found + len(marker)
        else:  # cut short, or the END belongs to a later block: take the base64 body
            body_end = end = _pem_body_end(text, match.end())
        if _is_key_material(text, match.end(), body_end):
            yield match.start(), end, "private-key"


def _pem_body_end(text: str, pos: int) -> int:
    """Where the base64 lines (and headers, and one blank line) after ``pos`` stop."""
    end = cursor = pos
    blank = 0
    while blank < 2:
        brk = _PEM_LINE_BREAK.match(text, cursor)
        if brk is None:
            break
        line = _PEM_BODY_LINE.match(text, brk.end())
        if line is None or not _PEM_LINE_END.match(text, line.end()):
            break  # only whole lines: "that was cut off" after the key is prose
        cursor = line.end()
        if line.end() == brk.end() or not text[brk.end() : line.end()].strip():
            blank += 1  # PGP armour has a blank line after its headers
        else:
            blank, end = 0, cursor
    return end


def _is_key_material(text: str, start: int, end: int) -> bool:
    """A base64 body between the markers — not prose or code that only names them."""
    if end - start > _PEM_MAX_BODY:
        return False
    body = _PEM_HEADER.sub("", text[start:end]).replace("\\n", "").replace("\\r", "")
    compact = "".join(body.split())
    base64_chars = sum(c in _BASE64_CHARS for c in compact)
    return base64_chars >= 64 and base64_chars >= 0.95 * len(compact)


_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){2,4}")


def _find_jwts(text: str, lowered: str) -> Iterator[Span]:
    """Three base64url segments (five for JWE) whose header is JSON naming an ``alg``."""
    for match in _JWT.finditer(text):
        start = match.start()
        if start and text[start - 1] in _TOKEN_CHARS:
            continue
        parts = match.group().split(".")
        header = _decode_json(parts[0])
        if not isinstance(header, dict) or "alg" not in header or not parts[1]:
            continue
        keep = 5 if len(parts) == 5 and "enc" in header else 3
        yield start, start + len(".".join(parts[:keep])), "jwt"


def _decode_json(segment: str) -> object:
    try:
        return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    except (binascii.Error, ValueError):
        return None


_URL_SCHEME_CHARS = frozenset(string.ascii_letters + string.digits + "+.-")
_URL_USERINFO = re.compile(r"[^\s:@/?#\"'<>]{0,128}:([^\s@/\"'<>]{1,256})@")


def _find_url_passwords(text: str, lowered: str) -> Iterator[Span]:
    """The password of ``scheme://user:password@host`` (postgres, mysql, redis, amqp, https …)."""
    pos = text.find("://")
    while pos != -1:
        scheme_start = pos
        while scheme_start > 0 and pos - scheme_start < 32:
            if text[scheme_start - 1] not in _URL_SCHEME_CHARS:
                break
            scheme_start -= 1
        userinfo = _URL_USERINFO.match(text, pos + 3)
        if scheme_start < pos and text[scheme_start].isalpha() and userinfo:
            password = userinfo.group(1)
            if not _is_placeholder(password) and password.lower() not in _STOPWORDS:
                yield userinfo.start(1), userinfo.end(1), "connection-password"
        pos = text.find("://", pos + 3)


_AUTH_HEADER = re.compile(
    r"authorization[\"']?(?:[ \t]*[:=][ \t]*|[ \t]+)[\"']?[ \t]*"
    r"(bearer|token|basic|apikey|api-key)[ \t]+"
)
_AUTH_VALUE = re.compile(r"[A-Za-z0-9._~+/=-]{8,4096}")
_BARE_BEARER = re.compile(r"Bearer[ \t]+([A-Za-z0-9._~+/-]{20,4096}=*)")


def _find_auth_headers(text: str, lowered: str) -> Iterator[Span]:
    """``Authorization: Bearer …`` / ``Basic …`` values, and a bare ``Bearer <token>``."""
    for match in _AUTH_HEADER.finditer(lowered):
        value = _AUTH_VALUE.match(text, match.end())
        if value is None:
            continue
        if match.group(1) == "basic":
            if _is_basic_credential(value.group()):
                yield value.start(), value.end(), "basic-auth"
        elif _is_token_like(value.group()):
            yield value.start(), value.end(), "bearer-token"
    for match in _BARE_BEARER.finditer(text):
        if match.start() and text[match.start() - 1] in _TOKEN_CHARS:
            continue
        if _is_token_like(match.group(1)):
            yield match.start(1), match.end(1), "bearer-token"


def _is_basic_credential(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded and decoded.isascii()


def _is_token_like(value: str) -> bool:
    """An opaque token: not a word, not an ALL_CAPS placeholder like ``YOUR_TOKEN``."""
    if len(value) < 12 or _is_placeholder(value) or _is_camel_words(value):
        return False
    lower = any(c.islower() for c in value)
    upper = any(c.isupper() for c in value)
    if any(c.isdigit() for c in value):
        return lower or upper
    return len(value) >= 20 and lower and upper  # letters only: long and mixed, or a word


# The option is found first; the command name is then looked for earlier on the same line.
_CURL_USER = re.compile(
    r"[ \t](?:-u|--user)(?:[ \t]+|=)[\"']?([^\s:\"'`$]{1,128}):([^\s\"'`]{1,256})"
)
_MYSQL_PASSWORD = re.compile(r"[ \t]-p([^\s\"'`-][^\s\"'`]{0,255})")
_COMMAND_WINDOW = 300
_FLAG = re.compile(
    r"--(password|passwd|pass|passphrase|token|api-key|apikey|secret|auth-token|"
    r"access-token|client-secret)(?:=|[ \t]+)"
)


def _command_precedes(lowered: str, command: str, pos: int) -> bool:
    """``command`` runs earlier on this line (``mysql -u root -pPW``, ``curl -s -u u:pw``)."""
    start = max(0, pos - _COMMAND_WINDOW)
    line_start = lowered.rfind("\n", start, pos) + 1
    found = lowered.rfind(command, max(start, line_start), pos)
    return found != -1 and not any(c in lowered[found:pos] for c in "|;&")


def _find_command_lines(text: str, lowered: str) -> Iterator[Span]:
    """``curl -u user:pw``, ``mysql -pPW``, ``--password PW`` / ``--token=TOKEN``."""
    for command, pattern, group in (("curl", _CURL_USER, 2), ("mysql", _MYSQL_PASSWORD, 1)):
        for match in pattern.finditer(text):
            if not _command_precedes(lowered, command, match.start()):
                continue
            if _accept_value(match.group(group), "password", strong_context=True):
                yield match.start(group), match.end(group), "password"
    for match in _FLAG.finditer(lowered):
        if match.start() and lowered[match.start() - 1] in _TOKEN_CHARS:
            continue
        kind: SecretKind = "password" if match.group(1).startswith("pass") else "generic-secret"
        value = _read_value(text, match.end())
        if value and _accept_value(value.text, kind, strong_context=value.quoted, terminal=False):
            yield value.start, value.end, kind
