"""Append to today's daily log: a timestamped line, or a typed ``## Retain`` fact.

Agents, hooks and editors append to the journal without memstrata's lock, so it is written with
:func:`update_shared_file`: a line at the end is appended in place, and a line that goes higher
up replaces the file only while nothing but appends happened to it, keeping those appends.
"""

from __future__ import annotations

import codecs
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memstrata.errors import InputError, ParseError
from memstrata.journal.parse import LETTER_OF_KIND, UPKEEP, check_fact_text, code_lines
from memstrata.model import FactKind
from memstrata.workspace.atomic import update_shared_file
from memstrata.workspace.textfile import decode_text, require_utf8

MAX_LOG_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class LogWrite:
    """Where a log line landed."""

    path: Path
    line: int
    text: str
    #: why the line is held out of recall (it reads as an instruction to the model), else ""
    held: str = ""
    #: why the derived index could not take the line in now (a full disk), else "": the line
    #: is written all the same, and the next read indexes it
    index_note: str = ""


def _first_control(text: str) -> int | None:
    """Where the first control character is that is no white space (tabs and line ends are
    folded into spaces), or ``None``."""
    return next(
        (
            at
            for at, char in enumerate(text)
            if unicodedata.category(char) == "Cc" and not char.isspace()
        ),
        None,
    )


#: the sections memstrata writes into; a plain note goes above the first of them
_OWN_SECTIONS = ("retain", UPKEEP.casefold())


def append_log(
    path: Path,
    text: str,
    now: datetime,
    kind: FactKind | None = None,
    confidence: float | None = None,
    upkeep: bool = False,
) -> LogWrite:
    """Add ``text`` to the journal at ``path`` (created with a ``# day`` heading if missing).

    Plain text becomes ``- HH:MM text`` at the end of the log, above any ``## Retain`` or
    ``## Upkeep`` section; with ``kind`` it becomes a typed bullet at the end of ``## Retain``,
    with ``upkeep`` a timed bullet at the end of ``## Upkeep``. A fact the journal would report
    (``@Ann:``, a name and nothing said) is refused. The caller holds the lock.
    """
    require_utf8("log text", text)
    body = " ".join(text.split())
    if not body:
        raise InputError("nothing to log: the text is empty")
    if len(body) > MAX_LOG_CHARS:
        raise InputError(f"log text is {len(body)} chars; at most {MAX_LOG_CHARS} fit in one entry")
    if any(line.strip().casefold() == "## retain" for line in text.splitlines()):
        # folded into one line, the section would be a note that reads "## Retain - W …": no
        # fact would be promoted, and nothing would say so
        raise InputError(
            "log text holds a '## Retain' heading, and one entry is one line: log each fact "
            "with its kind (--kind world|experience|opinion|observation), or write the section "
            "into the day's file; nothing was written"
        )
    control = _first_control(text)
    if control is not None:
        # as the gate refuses them: a terminal escape or a NUL is no note, and would reach the
        # model (and the terminal of whoever reads the day) as it is
        raise InputError(
            f"log text holds a control character (U+{ord(text[control]):04X} at character "
            f"{control + 1}): binary data or a terminal escape, not a note; nothing was written"
        )
    if kind is not None and upkeep:
        raise ValueError("an upkeep note has no kind")  # a caller's mistake, not a user's
    unsaid = check_fact_text(body) if kind is not None else None
    if unsaid is not None:
        # the parser's own test: written, "- W @Ann:" would be reported by every status
        # as a broken fact, and promote nothing
        raise InputError(
            f"{body!r} is no {kind} fact: it {unsaid}; say what is true, "
            "e.g. '@Ann: leads the design team'; nothing was written"
        )
    if kind is None:
        new_line = f"- {now.strftime('%H:%M')} {body}"
    else:
        marker = LETTER_OF_KIND[kind]
        if confidence is not None:
            marker += f"(c={confidence:g})"
        new_line = f"- {marker} {body}"
    heading = f"# {now.date().isoformat()}\n"

    def add_line(data: bytes | None) -> tuple[bytes, int]:
        # A file that does not decode is never rewritten: decode_text raises and nothing changes.
        existing = decode_text(data, path) if data else ""
        # Kept, so that a note for the end of a file that opens with a BOM is still an append.
        bom = codecs.BOM_UTF8 if data and data.startswith(codecs.BOM_UTF8) else b""
        # A journal saved with CRLF line ends throughout (a Windows editor) stays so.
        crlf = "\r\n" in existing and existing.count("\r\n") == existing.count("\n")
        if crlf:
            existing = existing.replace("\r\n", "\n")
        section = "Retain" if kind is not None else UPKEEP if upkeep else None
        lines, index = place_line(existing if existing.strip() else heading, new_line, section)
        if crlf:
            lines = lines.replace("\n", "\r\n")
        return bom + lines.encode("utf-8"), index

    if path.exists() and not path.is_file():
        raise InputError(
            f"{path}: the day's journal is a folder or another non-file; nothing was written"
        )
    try:
        index = update_shared_file(path, add_line)
    except UnclosedFence as unclosed:
        raise ParseError(
            path,
            unclosed.at + 1,
            "a code fence opened here is never closed, so the line would be code; close it "
            "(``` or ~~~ on a line of its own) and log again; nothing was written",
        ) from None
    except ParseError as error:
        # never rewritten around a bad byte: the day would be saved with U+FFFD for it
        raise ParseError(
            error.path, error.line, f"{error.problem}; nothing was written: save the file as UTF-8"
        ) from error
    return LogWrite(path, index + 1, new_line)


class UnclosedFence(Exception):
    """The line would land in fenced code that is never closed (from line ``at``, from 0)."""

    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at


def place_line(existing: str, new_line: str, section: str | None) -> tuple[str, int]:
    """The journal ``existing`` with ``new_line`` in its place, and that line's index from 0:
    at the end of ``## <section>`` (the section added at the end if missing), or with no
    ``section`` at the end of the log, above the first section memstrata writes into.

    Fenced code is the user's: a heading in it is no section, and no line goes into it. Where
    the place is inside a fence that is never closed, :class:`UnclosedFence` is raised."""
    lines = existing.rstrip("\n").split("\n")
    code, unclosed = code_lines(lines)

    def outside(at: int) -> int:
        if unclosed is not None and at > unclosed:
            raise UnclosedFence(unclosed)
        return at

    if section is None:
        own_at = next(
            (i for i, line in enumerate(lines) if not code[i] and _own_heading(line)), None
        )
        if own_at is None:
            lines = [*lines, "", new_line] if _needs_gap(lines) else [*lines, new_line]
            return "\n".join(lines) + "\n", outside(len(lines) - 1)
        head = lines[:own_at]
        while head and not head[-1].strip():
            head.pop()
        head = [*head, "", new_line] if _needs_gap(head) else [*head, new_line]
        lines = [*head, "", *lines[own_at:]]
        return "\n".join(lines) + "\n", len(head) - 1
    heading = f"## {section}"
    at = next(
        (
            i
            for i, line in enumerate(lines)
            if not code[i] and line.strip().casefold() == heading.casefold()
        ),
        None,
    )
    if at is None:
        lines = [*lines, "", heading, new_line]
        return "\n".join(lines) + "\n", outside(len(lines) - 1)
    end = outside(_section_end(lines, at, code))
    lines = [*lines[:end], new_line, *lines[end:]]
    return "\n".join(lines) + "\n", end


def _own_heading(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("## ") and stripped[3:].strip().casefold() in _OWN_SECTIONS


def _needs_gap(lines: list[str]) -> bool:
    """A blank line separates a new bullet from a heading or a paragraph, not from bullets."""
    return bool(lines) and not lines[-1].lstrip().startswith(("-", "*", "+"))


def _section_end(lines: list[str], heading_at: int, code: list[bool]) -> int:
    """Index just past the last non-blank line of the section that starts at ``heading_at``
    (a heading in fenced code does not end it)."""
    end = heading_at + 1
    for i in range(heading_at + 1, len(lines)):
        if not code[i] and lines[i].startswith("#") and lines[i].lstrip("#").startswith(" "):
            break
        if lines[i].strip():
            end = i + 1
    return end
