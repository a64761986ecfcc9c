"""Detect text hidden from a human reader but not from a model.

Unicode tag characters spell ASCII invisibly, variation selectors and zero-width runs encode
bits, bidirectional overrides make text display other than it reads, and look-alike letters
disguise a word; HTML comments, ``[//]: #`` comments and blocks styled invisible carry text a
rendered page never shows. A human reviewing a note would not see any of it, so hidden text is
weighed as a payload, never as a mention; comments and hidden blocks count when they carry an
instruction. Legitimate uses pass: flag emoji, joined emoji, Persian and Hindi shaping,
byte-order marks, right-to-left scripts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memstrata.injection.folding import _INVISIBLE, _LOOKALIKES
from memstrata.injection.hits import _evidence, _Hit
from memstrata.injection.rules import AI

_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e")
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_HIDDEN_CHARS = re.compile(
    "[" + _INVISIBLE + "\ufe00-\ufe0e\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)
_RTL = re.compile("[\u0590-\u08ff]")
_EMOJI = re.compile("[\u2600-\u27bf\U0001f000-\U0001faff]")
_CYRILLIC_GREEK = re.compile("[\u0370-\u03ff\u0400-\u04ff]")
# A Latin word with a look-alike Cyrillic or Greek letter in it ("pаssword"); "θcos" is maths.
_MIXED_SCRIPT = re.compile(rf"\w*(?:[a-zA-Z][{_LOOKALIKES}]|[{_LOOKALIKES}][a-zA-Z])\w*")
_HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)|^\[//\]:\s*#\s*[(\"<](.*)$", re.DOTALL | re.M)
# The opening tag of an HTML block a reader would not see; its text runs to the closing tag.
_HIDDEN_OPENING = re.compile(
    r"<(div|span|p|font|section|small)\b[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|"
    r"font-size\s*:\s*0|opacity\s*:\s*0|color\s*:\s*(?:white|#fff\b|#ffffff)|\bhidden\b)[^>]*>"
)
_COMMENT_INSTRUCTION = re.compile(
    rf"(?:\b{AI}s?\s*[:,]|\binstructions?\b|system\s+prompt|\byou\s+(?:must|should|will|are|"
    r"shall)\b|\bignore\s+(?:all|previous|prior|the\s+above|everything)\b|from\s+now\s+on|"
    r"\breveal\b|\boverride\b|\bsoul\b|memory\.md|user\.md|identity\.md|do\s+not\s+tell|"
    rf"exfiltrate|\b(?:the|any|an?)\s+{AI}s?\b|指令|系统|提示词|你必须|忽略)"
)


def _html_comments(folded: str) -> Iterator[_Hit]:
    """HTML comments, ``[//]: #`` comments and invisible HTML blocks that carry instructions."""
    if "<!--" in folded or "[//]" in folded:
        for found in _HTML_COMMENT.finditer(folded):
            body = found.group(1) or found.group(2) or ""
            if _COMMENT_INSTRUCTION.search(body):
                yield _Hit("hidden-comment", "hidden-text", 0.65, _evidence(body))
                break
    if "<" in folded and "</" in folded:
        for count, found in enumerate(_HIDDEN_OPENING.finditer(folded)):
            close = folded.find(f"</{found.group(1)}", found.end(), found.end() + 4000)
            body = folded[found.end() : close] if close != -1 else ""
            if _COMMENT_INSTRUCTION.search(body):
                yield _Hit("hidden-html-instruction", "hidden-text", 0.65, _evidence(body))
                break
            if count == 16:
                break


def _hidden_unicode(text: str) -> Iterator[_Hit]:
    hidden = [(found.start(), found.group()) for found in _HIDDEN_CHARS.finditer(text)]
    tags = "".join(chr(ord(ch) - 0xE0000) for _, ch in hidden if 0xE0020 <= ord(ch) <= 0xE007E)
    if tags and not _is_flag_tags(text, tags):
        evidence = _evidence(f"{len(tags)} tag characters: {tags}")
        yield _Hit("tag-characters", "hidden-unicode", 0.9, evidence)
    selectors = sum(1 for _, ch in hidden if 0xE0100 <= ord(ch) <= 0xE01EF)
    if selectors >= 4:
        yield _Hit("variation-selectors", "hidden-unicode", 0.8, f"{selectors} selectors")
    if any(ch in _BIDI for _, ch in hidden) and not _RTL.search(text):
        yield _Hit("bidi-override", "hidden-unicode", 0.45, "bidirectional control characters")
    longest = _longest_run([i for i, ch in hidden if ch in _ZERO_WIDTH])  # bits spelled in ZW
    zero_width = [i for i, ch in hidden if ch in _ZERO_WIDTH and _hides(text, i)]
    if longest >= 8:
        yield _Hit("zero-width-run", "hidden-unicode", 0.85, f"{longest} zero-width in a row")
    elif zero_width:
        weight = 0.6 if len(zero_width) >= 3 else 0.2
        yield _Hit("zero-width", "hidden-unicode", weight, f"{len(zero_width)} zero-width chars")
    mixed = _MIXED_SCRIPT.search(text) if _CYRILLIC_GREEK.search(text) else None
    if mixed:
        yield _Hit("homoglyphs", "obfuscated", 0.3, _evidence(mixed.group()))


def _is_flag_tags(text: str, tags: str) -> bool:
    """Tag characters after a black flag spell a subdivision flag (🏴 gbeng), not a message."""
    return "\U0001f3f4" in text and len(tags) <= 6 * text.count("\U0001f3f4")


def _hides(text: str, i: int) -> bool:
    """A zero-width character inside Latin text hides something; beside an emoji it joins it, in
    Persian or Hindi it shapes letters, at the start it is a byte-order mark."""
    if i == 0 and text[0] == "\ufeff":
        return False
    before, after = text[i - 1 : i], text[i + 1 : i + 2]
    if _EMOJI.match(before) or _EMOJI.match(after):
        return False
    return (before.isascii() and before.isalpha()) or (after.isascii() and after.isalpha())


def _longest_run(positions: list[int]) -> int:
    longest = run = 0
    previous = -2
    for position in positions:
        run = run + 1 if position == previous + 1 else 1
        longest = max(longest, run)
        previous = position
    return longest
