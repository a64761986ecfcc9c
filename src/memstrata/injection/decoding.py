"""Decode the encodings an instruction may be wrapped in, so the verdict can score what they hide.

Base64 and hex blobs, percent-encoding, HTML entities, right-to-left overrides, snake_case runs
and concatenated quoted pieces are decoded whenever they appear; ROT13 and reversed text only
when the text says so ("rot13", "reversed", "倒"), since any text can be read backwards. Decoded
bytes count only when they read as words. The verdict runs every detector on each decoding.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
from collections.abc import Iterator
from urllib.parse import unquote_plus

from memstrata.injection.folding import _CJK

_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{20,}={0,2}")
_HEX_BLOB = re.compile(r"(?:\\x[0-9a-fA-F]{2}){8,}|(?:[0-9a-fA-F]{2}){16,}")
_WRAPPING = "\"'`()[]{}<>.,;:!?"
_CONCATENATION = re.compile(r"[a-z0-9_]\s*\+\s*[a-z0-9_]|concatenat|join the")
_QUOTED_PIECES = re.compile(r"'([^'\n]{2,200})'|\"([^\"\n]{2,200})\"")
_SNAKE_HINT = re.compile(r"_[A-Za-z]+_")
_SNAKE = re.compile(r"[A-Za-z]+(?:_[A-Za-z]+){2,}")
_PERCENT = re.compile(r"%[0-9a-fA-F]{2}")


def _decodings(text: str, folded: str) -> Iterator[tuple[str, str]]:
    blobs = [word.strip(_WRAPPING) for word in text.split() if len(word) >= 20][:12]
    for blob in blobs:
        if _HEX_BLOB.fullmatch(blob):
            decoded = _printable(bytes.fromhex(blob.replace("\\x", "")))
            if decoded:
                yield decoded, "hex"
                continue
        if _BASE64.fullmatch(blob):
            decoded = _printable(_b64(blob.replace("-", "+").replace("_", "/")))
            if decoded:
                yield decoded, "base64"
    if text.count("%") >= 3 and len(_PERCENT.findall(text)) >= 3:
        # percent-encoding leaves letters as they are: "ignore%20all%20previous…"
        yield unquote_plus(text), "percent"
    if "&" in text and ";" in text and (unescaped := html.unescape(text)) != text:
        yield unescaped, "html-entities"
    if "\u202e" in text or "\u2067" in text:  # right-to-left override: read as displayed
        yield text[::-1], "right-to-left"
    if (
        ("+" in folded or "concatenat" in folded or "join the" in folded)
        and _CONCATENATION.search(folded)
        and len(pieces := _QUOTED_PIECES.findall(text)) >= 2
    ):
        yield "".join(single or double for single, double in pieces), "concatenated"
    if "_" in text and _SNAKE_HINT.search(text) and _SNAKE.search(text):
        yield _SNAKE.sub(lambda m: m.group().replace("_", " "), text), "underscored"
    if "rot13" in folded or "rot-13" in folded or "rot 13" in folded:
        yield codecs.decode(text, "rot13"), "rot13"
    if "revers" in folded or "backwards" in folded or "倒" in folded:
        yield text[::-1], "reversed"


def _b64(blob: str) -> bytes:
    try:
        return base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True)
    except (binascii.Error, ValueError):
        return b""


def _printable(raw: bytes) -> str:
    """Decoded bytes as text when they read as words, else empty."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    if len(decoded) < 8 or (" " not in decoded and not _CJK.search(decoded)):
        return ""
    printable = sum(1 for ch in decoded if ch.isprintable() or ch in "\n\t")
    return decoded if printable >= 0.95 * len(decoded) else ""
