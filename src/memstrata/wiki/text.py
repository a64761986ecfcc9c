"""Pure text helpers of the wiki: content hashes, titles and one-line gists."""

from __future__ import annotations

import hashlib
import re

GIST_MAX_CHARS = 120
TITLE_MAX_CHARS = 60


def content_hash(summary: str, detail: str, state: str) -> str:
    """Identity of a topic's state for history lines: sha256 of its text and state, 16 hex."""
    digest = hashlib.sha256(f"{summary}\x00{detail}\x00{state}".encode()).hexdigest()
    return digest[:16]


def capped_length(text: str) -> int:
    """The length a topic file's cap is held to: its characters without trailing whitespace,
    since every editor ends a file with a newline and the cap is about what the file says."""
    return len(text.rstrip())


def title_of(summary: str, slug: str) -> str:
    """The first ``# heading`` of the summary, else its first line (clipped), else the slug."""
    for line in summary.splitlines():
        match = re.match(r"^#{1,6}\s+(.+?)\s*#*\s*$", line)
        if match:
            return match.group(1).strip()
        if line.strip():
            return clip(line.strip(), TITLE_MAX_CHARS)
    words = re.sub(r"[-_.]+", " ", slug).strip()
    return words[:1].upper() + words[1:] if words else slug


def gist_of(summary: str, max_chars: int = GIST_MAX_CHARS) -> str:
    """The first paragraph of body text without Markdown markers, cut near ``max_chars``."""
    paragraph: list[str] = []
    for line in summary.splitlines():
        text = line.strip()
        if text.startswith("#") or text.startswith("<!--"):
            if paragraph:
                break
            continue
        if not text:
            if paragraph:
                break
            continue
        text = re.sub(r"^([-*+]|\d+[.)])\s+", "", text)
        text = re.sub(r"[*_`]{1,3}", "", text).strip()
        if text:
            paragraph.append(text)
    return clip(" ".join(paragraph), max_chars)


def clip(text: str, max_chars: int) -> str:
    """Cut ``text`` to at most ``max_chars`` characters at a word boundary, marking the cut."""
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1]
    space = cut.rfind(" ")
    if space > max_chars // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"
