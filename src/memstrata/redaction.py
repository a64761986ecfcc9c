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
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
_RANK = {kind: rank for rank, kind in enumerate(SECRET_KINDS)}


@dataclass(frozen=True, slots=True)
class Finding:
    """Where one secret was in the original text, and its kind (never its value)."""

    kind: SecretKind
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Redaction:
    """The text with every secret replaced by ``[REDACTED:<kind>]``, and what was replaced."""

    text: str
    findings: tuple[Finding, ...]


def placeholder(kind: str) -> str:
    """The text that stands in for a secret of ``kind``."""
    return f"[REDACTED:{kind}]"


def redact_secrets(text: str) -> Redaction:
    """Replace every credential in ``text`` with a typed placeholder; report the original spans."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a few non-ASCII letters lower to two characters
        lowered = text.translate(_ASCII_LOWER)
    spans: list[Span] = []
    for find in _FINDERS:
        spans.extend(find(text, lowered))
    findings = _merge(spans)
    if not findings:
        return Redaction(text, ())
    pieces: list[str] = []
    cursor = 0
    for finding in findings:
        pieces.append(text[cursor : finding.start])
        pieces.append(placeholder(finding.kind))
        cursor = finding.end
    pieces.append(text[cursor:])
    return Redaction("".join(pieces), findings)


Span = tuple[int, int, SecretKind]
Finder = Callable[[str, str], Iterator[Span]]  # (text, its ASCII-lowercased twin) -> spans
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _merge(spans: list[Span]) -> tuple[Finding, ...]:
    """Union overlapping spans; each union is typed by its most specific member."""
    merged: list[Finding] = []
    for start, end, kind in sorted(spans, key=lambda span: (span[0], -span[1])):
        if merged and start < merged[-1].end:
            last = merged[-1]
            best = kind if _RANK[kind] < _RANK[last.kind] else last.kind
            merged[-1] = Finding(best, last.start, max(last.end, end))
        else:
            merged.append(Finding(kind, start, end))
    return tuple(merged)


# ---------------------------------------------------------------------------------------------
# 1. Provider formats: a literal prefix, then the provider's alphabet and length. Patterns start
# with the literal so the regex engine can search for it; the left boundary is checked after.

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


# ---------------------------------------------------------------------------------------------
# 2. Structures.

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


# ---------------------------------------------------------------------------------------------
# 3. Context: key = value assignments and prose. Anchors are found in the lowercased text.

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


# ---------------------------------------------------------------------------------------------
# Values.


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


# ---------------------------------------------------------------------------------------------
# AWS secret access keys have no prefix: a 40-character base64 word shortly after "aws",
# "secret" or an access key id.

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


_FINDERS: tuple[Finder, ...] = (
    _find_private_keys,
    *(_provider_finder(kind, pattern, before) for kind, pattern, before in _PROVIDER_RULES),
    _find_jwts,
    _find_aws_secrets,
    _find_url_passwords,
    _find_auth_headers,
    _find_command_lines,
    _find_assignments,
    _find_file_formats,
    _find_prose,
)
