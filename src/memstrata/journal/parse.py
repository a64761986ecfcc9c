"""Parse a daily log: every paragraph and bullet as an entry, ``## Retain`` bullets as facts.

Retain bullets are typed (the letters follow Hindsight's world / bank / opinion / observation)::

    ## Retain
    - W @Peter: works at Acme since March        world fact
    - B Fixed the flaky login test               experience (what the agent did)
    - O(c=0.95) @Peter prefers cortado           opinion with confidence
    - S The build is slower on Mondays           observation

A bullet in the Retain section that does not follow this form is reported as a
:class:`~memstrata.model.Problem` with its line, and parsing goes on: one bad bullet never hides
the rest of the file. Pure: the caller reads the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from memstrata.errors import ParseError
from memstrata.model import Fact, FactKind, JournalEntry, Problem
from memstrata.workspace.textfile import split_frontmatter

KIND_LETTERS: dict[str, FactKind] = {
    "W": "world",
    "B": "experience",
    "O": "opinion",
    "S": "observation",
}
LETTER_OF_KIND: dict[str, str] = {kind: letter for letter, kind in KIND_LETTERS.items()}
#: the section of memstrata's own notes on its upkeep (the gardener's summary and health line):
#: the day's record for whoever reads the journal, found by search, never recalled into a prompt
UPKEEP = "Upkeep"

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_FACT = re.compile(r"^(?P<letter>[A-Za-z])(?:\((?P<args>[^)]*)\))?(?:\s+|:\s*|$)(?P<text>.*)$")
#: ``@name``: a letter, then letters, digits, ``.``, ``-`` and apostrophes (``@O'Brien``); not
#: inside a word, so ``ann@example.com`` mentions nobody
MENTION = re.compile(r"(?<![\w@])@([^\W\d_][\w.\-'’]*)", re.UNICODE)
_POSSESSIVE = re.compile(r"'s$", re.IGNORECASE)
#: code, where ``@`` is a decorator or an annotation, not a person: fenced blocks (an open
#: fence runs to the end) and inline spans
_CODE = re.compile(
    r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)|`[^`\n]+`", re.MULTILINE | re.DOTALL
)
_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")


@dataclass(frozen=True, slots=True)
class ParsedJournal:
    """Entries (every paragraph and bullet), typed facts, and what could not be parsed."""

    day: str
    entries: tuple[JournalEntry, ...]
    facts: tuple[Fact, ...]
    problems: tuple[Problem, ...]


def day_of(filename: str) -> str | None:
    """``2025-11-27.md`` → ``2025-11-27``; ``None`` for files that are not daily logs."""
    match = _DAY.match(filename)
    if not match:
        return None
    try:  # 2025-02-30.md is no day
        date.fromisoformat(match.group(1))
    except ValueError:
        return None
    return match.group(1)


def find_entities(text: str) -> tuple[str, ...]:
    """``@mentions`` in order of first appearance, each as :func:`mention_name` reads it;
    none in code (``@dataclass`` in a fenced block or a `span`)."""
    seen: dict[str, None] = {}
    for match in MENTION.finditer(_CODE.sub(" ", text)):
        seen.setdefault(mention_name(match.group(1)), None)
    return tuple(seen)


def mention_name(written: str) -> str:
    """The entity a :data:`MENTION` names: ``O’Brien's.`` → ``O'Brien``, ``Ann.`` → ``Ann``
    (a typographic apostrophe as a plain one, no possessive, no punctuation that ends the
    sentence)."""
    name = written.replace("’", "'")
    return _POSSESSIVE.sub("", name.rstrip(".-'")).rstrip(".-'")


def parse_journal(text: str, source: str, day: str) -> ParsedJournal:
    """Parse a journal's text; ``source`` is the path cited in sources (``memory/<day>.md``)."""
    problems: list[Problem] = []
    try:
        front = split_frontmatter(text, source)
        body, first_line = front.body, front.body_line
    except ParseError as error:
        # A broken header must not hide the log below it.
        problems.append(Problem(source, error.line, error.problem))
        body, first_line = text, 1
    entries: list[JournalEntry] = []
    facts: list[Fact] = []
    for block in _blocks(body.split("\n"), first_line):
        entries.append(
            JournalEntry(day, block.line, block.text, f"{source}#L{block.line}", block.section)
        )
        if block.in_retain and block.is_bullet:
            fact = _parse_fact(block, source, day)
            if isinstance(fact, Problem):
                problems.append(fact)
            else:
                facts.append(fact)
    return ParsedJournal(day, tuple(entries), tuple(facts), tuple(problems))


@dataclass(frozen=True, slots=True)
class _Block:
    line: int
    text: str
    section: str
    in_retain: bool
    is_bullet: bool


def _blocks(lines: list[str], first_line: int) -> list[_Block]:
    """Split Markdown into paragraphs and bullets (with their continuation lines)."""
    blocks: list[_Block] = []
    section = ""
    in_retain = False
    current: list[str] = []
    start = 0
    is_bullet = False
    in_fence = False

    def flush() -> None:
        nonlocal current
        text = "\n".join(current).strip()
        if text:
            blocks.append(_Block(start, text, section, in_retain, is_bullet))
        current = []

    for offset, line in enumerate(lines):
        number = first_line + offset
        if line.strip().startswith(("```", "~~~")):
            if not current:
                start, is_bullet = number, False
            current.append(line)
            in_fence = not in_fence
            continue
        if in_fence:
            current.append(line)
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            level, title = len(heading.group(1)), heading.group(2)
            section = title
            if level <= 2:
                in_retain = title.strip().casefold() == "retain"
            continue
        if not line.strip():
            flush()
            continue
        bullet = _BULLET.match(line)
        if bullet and len(bullet.group(1)) < 2:
            flush()
            start, is_bullet = number, True
            current.append(bullet.group(3))
            continue
        if not current:
            start, is_bullet = number, False
        current.append(line.strip() if is_bullet else line)
    flush()
    return blocks


def _parse_fact(block: _Block, source: str, day: str) -> Fact | Problem:
    first = block.text.split("\n", 1)[0]
    match = _FACT.match(first)
    letter = match.group("letter") if match else ""
    if not match or letter not in KIND_LETTERS:
        return Problem(
            source,
            block.line,
            "retain bullet must start with W, B, O(c=0.0-1.0) or S, e.g. '- W @Ann: works at Acme'",
        )
    confidence: float | None = None
    args = match.group("args")
    if args is not None:
        parsed = re.fullmatch(r"\s*c\s*=\s*([0-9]*\.?[0-9]+)\s*", args)
        if not parsed or not 0.0 <= float(parsed.group(1)) <= 1.0:
            return Problem(source, block.line, f"bad confidence ({args}); write O(c=0.8)")
        confidence = float(parsed.group(1))
    text = (match.group("text") + block.text[len(first) :]).strip()
    if not text:
        return Problem(source, block.line, "retain bullet has no text after its kind")
    if not MENTION.sub("", text).strip(" \t:;,.-–—"):  # "- W @Ann:": a name, nothing said
        return Problem(source, block.line, "retain bullet names who it is about but says nothing")
    return Fact(
        kind=KIND_LETTERS[letter],
        text=text,
        entities=find_entities(text),
        confidence=confidence,
        day=day,
        source=f"{source}#L{block.line}",
        line=block.line,
    )
