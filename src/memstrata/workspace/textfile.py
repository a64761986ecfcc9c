"""Reading canonical text files strictly: UTF-8 or a clear error, and optional frontmatter."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from memstrata.errors import InputError, ParseError

#: a UTF-16 surrogate on its own: what undecodable command-line bytes and JSON ``\ud800``
#: escapes become in a Python string; no UTF-8 text holds one
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def undecodable_at(text: str) -> int | None:
    """Where (from 0) the first character UTF-8 cannot hold is in ``text``, or ``None``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error.start
    return None


def require_utf8(what: str, text: str | None) -> None:
    """Raise :class:`InputError` naming ``what`` when ``text`` cannot be written as UTF-8 (or
    is no text at all), so a write refuses it before touching any file (it would fail halfway
    otherwise)."""
    if text is not None and not isinstance(text, str):
        raise InputError(f"{what} is text, not {type(text).__name__}; nothing was written")
    at = None if text is None else undecodable_at(text)
    if at is not None:
        raise InputError(
            f"{what}: invalid UTF-8 at character {at + 1} (bytes that do not decode, or a "
            "lone surrogate escape such as \\udcff); nothing was written"
        )


def require_text(what: str, text: object) -> None:
    """:func:`require_utf8` for a value that must be there: ``None`` is refused too."""
    if text is None:
        raise InputError(f"{what} is text, not None; nothing was written")
    require_utf8(what, text)  # type: ignore[arg-type]  # it refuses what is no str


@dataclass(frozen=True, slots=True)
class ControlChar:
    """Where a control character stands in a text: its index, line and column (from 1)."""

    char: str
    at: int
    line: int
    column: int

    def __str__(self) -> str:
        return f"control character U+{ord(self.char):04X}"


def first_control(text: str, *, one_line: bool = False) -> ControlChar | None:
    """The first control character of ``text`` (an escape sequence, a bell, a NUL), or
    ``None``: tabs and line ends are plain text, except in ``one_line`` text."""
    allowed = "" if one_line else "\t\n\r"
    at = next(
        (i for i, ch in enumerate(text) if unicodedata.category(ch) == "Cc" and ch not in allowed),
        None,
    )
    if at is None:
        return None
    line = text.count("\n", 0, at) + 1
    return ControlChar(text[at], at, line, at - text.rfind("\n", 0, at))


#: control characters (category Cc: U+0000-U+001F, U+007F-U+009F) but tab and line feed, and
#: the invisible characters that reorder what follows them (bidi embeddings, overrides and
#: isolates), with which shown text reads otherwise than it is ("Trojan Source")
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible_text(text: str) -> str:
    """``text`` as it may be shown in a terminal or given to a model: each control character
    (an escape sequence's ESC, a bell, a NUL, a lone carriage return; tabs and line ends
    excepted) as its picture (``␛``, ``␇``, ``␀`` …; U+FFFD for DEL and the C1 range) and each
    bidi control as U+FFFD. Writes refuse these (:func:`require_plain`); this is for what was
    not written through memstrata: raw transcripts and files edited by hand."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_picture, text.replace("\r\n", "\n"))


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\ufffd"


#: why plain text is asked for, said with each refusal
PLAIN_TEXT = "an escape sequence or a bell is no knowledge"


def require_plain(what: str, text: str | None, *, one_line: bool = False) -> None:
    """:func:`require_utf8`, and refuse a control character (see :func:`first_control`),
    naming where it stands; nothing is written."""
    require_utf8(what, text)
    found = None if text is None else first_control(text, one_line=one_line)
    if found is None:
        return
    if one_line and found.char in "\n\r":
        raise InputError(
            f"{what}: a line break at character {found.at + 1}; {what} is one line; nothing "
            "was written"
        )
    where = f"character {found.at + 1}" if one_line else f"line {found.line}, column {found.column}"
    raise InputError(
        f"{what}: {found} at {where}; {what} is plain text ({PLAIN_TEXT}); nothing was written"
    )


def mend_utf8(text: str) -> str:
    """``text`` with each character UTF-8 cannot hold made U+FFFD (for text that is read, not
    kept as said: a query, an imported transcript); ``text`` itself when it holds none."""
    return text if undecodable_at(text) is None else _LONE_SURROGATE.sub("\ufffd", text)


def read_text(path: Path) -> str:
    """Read ``path`` as UTF-8; invalid bytes are a :class:`ParseError` naming the line."""
    return decode_text(_read_bytes(path), path)


def read_mending(path: Path) -> tuple[str, tuple[int, ...]]:
    """Read ``path`` as :func:`decode_mending` does: the text, and the lines that held a byte
    that is no UTF-8 (read as U+FFFD)."""
    return decode_mending(_read_bytes(path))


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except PermissionError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from error


def decode_text(data: bytes, path: Path | str) -> str:
    """Decode UTF-8 (a leading BOM is dropped), naming the line of the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ParseError(path, line, f"invalid UTF-8 at byte {error.start}") from error


def decode_mending(data: bytes) -> tuple[str, tuple[int, ...]]:
    """Decode UTF-8 with every invalid byte read as U+FFFD; the text and the lines that held
    one (from 1). For files where one bad byte must not hide the rest (a journal day)."""
    try:
        return data.decode("utf-8-sig"), ()
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8-sig", errors="replace")
    bad = tuple(
        number
        for number, line in enumerate(text.split("\n"), start=1)
        if "\ufffd" in line and "\ufffd".encode() not in data.split(b"\n")[number - 1]
    )
    return text, bad


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """``key: value`` pairs from a leading ``---`` block, and the body after it."""

    fields: dict[str, str]
    body: str
    body_line: int


def split_frontmatter(text: str, path: Path | str) -> Frontmatter:
    """Split an optional ``---`` frontmatter block of ``key: value`` lines from the body.

    Only flat string values are supported (that is all memstrata writes); anything else is a
    :class:`ParseError` with the line, so a broken header is reported instead of guessed at.
    """
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return Frontmatter({}, text, 1)
    fields: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            return Frontmatter(fields, "\n".join(lines[number:]), number + 1)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, colon, value = line.partition(":")
        if not colon or not key.strip() or key != key.strip() or " " in key.strip():
            raise ParseError(path, number, f"frontmatter line is not 'key: value': {line[:60]!r}")
        fields[key.strip()] = value.strip().strip("'\"")
    raise ParseError(path, 1, "frontmatter opened with '---' is never closed")
