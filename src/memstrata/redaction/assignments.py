"""Assignments: the value given to a key that names a credential; only the value is redacted.

``DB_PASSWORD=…``, ``"api_key": "…"``, ``token: …``, ``apiKey = '…'`` in code, env, YAML and INI
files, and the same pairing in other file formats: ``.netrc``, requests' ``auth=("user", "pw")``,
``<password>…</password>``. Keys are found in the lowercased text. Whether the line is code (a bare
word is a variable there) or config (a literal) decides how sure the context is.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from memstrata.redaction.kinds import SecretKind, Span
from memstrata.redaction.values import _accept_value, _is_terminal, _read_value

_KEY_END = re.compile(
    r"(passw(?:or)?d|passphrase|passcode|pwd|pass|secret|token|key)(?![a-z0-9])"
    r"[\"']?[ \t]*(:=|=>|=(?![=>])|:(?![:/\\]))[ \t]*"
)
_KEY_CHARS = frozenset(string.ascii_letters + string.digits + "_.-")
# What may stand before a key: a line start, space, a quote, a bracket, a separator. Not ':' or
# '/' — `arn:aws:secretsmanager:…:secret:name` is a path — except npm's `//host/:_authToken=`.
_BEFORE_KEY = frozenset(" \t\r\n\"'`{([,;&?|<$@*")
_SECRET_KEY_NAMES = (
    "apikey", "accesskey", "secretkey", "privatekey", "signingkey", "encryptionkey", "masterkey",
    "appkey", "clientkey", "subscriptionkey", "authkey", "licensekey", "accountkey",
)  # fmt: skip
# Keys ending in "token" that name something public: pagination cursors, idempotency and lock
# tokens, tokenizer vocabulary.
_PUBLIC_TOKEN_NAMES = (
    "pagetoken", "nexttoken", "continuationtoken", "synctoken", "cancellationtoken",
    "canceltoken", "maxtoken", "numtoken", "eostoken", "bostoken", "padtoken", "unktoken",
    "septoken", "clstoken", "masktoken", "specialtoken", "starttoken", "endtoken", "stoptoken",
    "cursortoken", "resumetoken", "prevtoken", "previoustoken", "lasttoken", "firsttoken",
    "imagetoken", "audiotoken", "videotoken", "tooltoken", "locktoken", "changetoken",
    "requesttoken", "idempotencytoken", "inputtoken", "outputtoken", "paginationtoken",
    "clienttoken", "forwardtoken", "backwardtoken", "sequencetoken", "updatetoken",
)  # fmt: skip


def _key_kind(key: str, suffix: str) -> SecretKind | None:
    """Is ``key`` (ending in ``suffix``) the name of a credential, and which kind?"""
    norm = key.lower().replace("_", "").replace("-", "").replace(".", "")
    if suffix in ("password", "passwd", "passphrase", "passcode", "pwd"):
        return "password"
    if suffix == "pass":
        # db_pass, SMTP_PASS — but not bypass, compass, surpass
        head = key[: -len(suffix)]
        return "password" if head and (head[-1] in "_.-" or key.isupper()) else None
    if suffix == "secret":
        return "generic-secret"
    if suffix == "token":
        return None if norm.endswith(_PUBLIC_TOKEN_NAMES) else "generic-secret"
    return "generic-secret" if norm.endswith(_SECRET_KEY_NAMES) else None


def _find_assignments(text: str, lowered: str) -> Iterator[Span]:
    """``DB_PASSWORD=…``, ``"api_key": "…"``, ``token: …``, ``apiKey = '…'`` — the value only."""
    for match in _KEY_END.finditer(lowered):
        suffix_start = match.start(1)
        key_start = suffix_start
        while key_start > 0 and suffix_start - key_start < 64 and text[key_start - 1] in _KEY_CHARS:
            key_start -= 1
        key = text[key_start : match.end(1)].lstrip("-.")
        before = text[key_start - 1] if key_start else "\n"
        if before == ":":  # npm's `//host/:_authToken=`, Ruby's `:password =>`
            if not (key.startswith("_") or key_start < 2 or text[key_start - 2] in " \t\n{(,["):
                continue
        elif before not in _BEFORE_KEY:
            continue
        kind = _key_kind(key, match.group(1))
        if kind is None:
            continue
        # `key = value` with spaces is code, where a bare word is an expression; `KEY=value` and
        # `key: value` at the start of a line are env, properties and YAML, where it is a literal
        code = match.group(2) != ":" and (" " in match.group() or "\t" in match.group())
        if code and _INI_SECTION.search(text, max(0, key_start - 4096), key_start):
            code = False  # `password = hunter2` under `[client]` is an INI file, not Python
        line_start = text.rfind("\n", max(0, key_start - 256), key_start) + 1
        config = (
            not code
            and (line_start > 0 or key_start < 256)
            and _CONFIG_PREFIX.fullmatch(text, line_start, key_start) is not None
        )
        # `passwd:uid` is not YAML, which needs a space after the colon
        cramped = match.group(2) == ":" and match.group()[-1] == ":"
        config = config and not cramped
        value = _read_value(text, match.end(), stop_at_ampersand=before in "?&")
        annotation = _TYPE_ANNOTATION.match(text, value.start) if value else None
        if annotation:
            # `password: str = "…"`: skip the annotation, read the default if there is one
            value = _read_value(text, annotation.end()) if annotation.group(1) else None
        if value is None or (
            (cramped or code) and not value.quoted and _KEYWORD_ARGUMENT.fullmatch(value.text)
        ):
            continue  # `offendingToken:Token=None`
        terminal = _is_terminal(text, value.end + value.quoted) and not cramped
        if _accept_value(
            value.text,
            kind,
            strong_context=config and (terminal or value.quoted),
            terminal=terminal,
            expression=code and not value.quoted,
        ):
            # in .env and YAML the value runs to the end of the line: `DB_PASSWORD=ab,c;d` all goes
            end = _line_value_end(text, value.end) if config and not value.quoted else value.end
            yield value.start, end, kind


def _line_value_end(text: str, pos: int) -> int:
    """Where a config value that reached ``pos`` ends: the line end, before a `` #`` comment."""
    line_end = text.find("\n", pos, pos + 512)
    line = text[pos : line_end if line_end != -1 else pos + 512]
    comment = line.find(" #")
    if comment != -1:
        line = line[:comment]
    return pos + len(line.rstrip())


_KEYWORD_ARGUMENT = re.compile(r"[A-Za-z_]\w*=(?:[A-Za-z_][\w.]*(?:\(.*)?|\d+)")  # Token=None
_INI_SECTION = re.compile(r"(?m)^[ \t]*(?:[-*][ \t]+)?\[[\w .:-]{1,64}\][ \t]*\r?$")
_CONFIG_PREFIX = re.compile(r"[ \t]*(?:export[ \t]+|set[ \t]+|-[ \t]+|\$env:)?[\"']?")
_TYPE_ANNOTATION = re.compile(
    r"(?i)(?:str|string|int|bool|bytes|secretstr|secretbytes|optional|any|text|number)(?![\w.])"
    r"(?:\[[^\]\n]{0,64}\])?(?:[ \t]*\|[ \t]*None)?[ \t]*(=(?!=)[ \t]*)?"
)


_NETRC = re.compile(
    r"machine[ \t]+\S{1,256}\s{1,64}(?:login[ \t]+\S{1,256}\s{1,64})?password[ \t]+(\S{1,256})"
)
_AUTH_TUPLE = re.compile(
    r"auth[ \t]*=[ \t]*\([ \t]*[\"'][^\"'\n]{1,128}[\"'][ \t]*,[ \t]*[\"']([^\"'\n]{1,256})[\"']"
)
_XML_ELEMENT = re.compile(
    r"<([a-z0-9_.:-]{0,40}?(passw(?:or)?d|secret|token|key))>([^<\n]{1,256})</"
)


def _find_file_formats(text: str, lowered: str) -> Iterator[Span]:
    """``.netrc`` passwords, ``requests`` ``auth=("user", "pw")``, ``<password>…</password>``."""
    for match in _NETRC.finditer(text):
        if _accept_value(match.group(1), "password", strong_context=True):
            yield match.start(1), match.end(1), "password"
    for match in _AUTH_TUPLE.finditer(text):
        if _accept_value(match.group(1), "password", strong_context=True):
            yield match.start(1), match.end(1), "password"
    for match in _XML_ELEMENT.finditer(lowered):
        suffix = "password" if match.group(2).startswith("pass") else match.group(2)
        kind = _key_kind(text[match.start(1) : match.end(1)], suffix)
        value = text[match.start(3) : match.end(3)]
        if kind and _accept_value(value, kind, strong_context=True):
            yield match.start(3), match.end(3), kind
