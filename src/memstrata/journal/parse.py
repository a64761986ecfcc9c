"""Parse a daily log: every paragraph and bullet as an entry, ``## Retain`` bullets as facts.

Retain bullets are typed (the letters follow Hindsight's world / bank / opinion / observation)::

    ## Retain
    - W @Peter: works at Acme since March        world fact
    - B Fixed the flaky login test               experience (what the agent did)
    - O(c=0.95) @Peter prefers cortado           opinion with confidence
    - S The build is slower on Mondays           observation

The confidence is optional: ``- O @Peter prefers cortado`` is an opinion too; and only an opinion
has one (``- W(c=0.5) …`` is reported, as ``log`` and ``remember`` refuse it). Every bullet in the
Retain section is a fact, a nested one as well (a sub-bullet is a line of its own, not more words
of the bullet above); its text starts on the bullet's line. A fenced code block is never part of
a fact unless it is indented under the bullet. A bullet that does not follow this form is
reported as a :class:`~memstrata.model.Problem` with its line, and parsing goes on: one bad bullet
never hides the rest of the file. Pure: the caller reads the file.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from memstrata.errors import InputError, ParseError
from memstrata.lazy_pattern import LazyPattern
from memstrata.model import Fact, FactKind, JournalEntry, Problem
from memstrata.workspace.textfile import split_frontmatter

KIND_LETTERS: dict[str, FactKind] = {
    "W": "world",
    "B": "experience",
    "O": "opinion",
    "S": "observation",
}
LETTER_OF_KIND: dict[str, str] = {kind: letter for letter, kind in KIND_LETTERS.items()}
#: a confidence is how sure an opinion is, ``O(c=…)`` the journal's one form with one: a world
#: fact, an experience or an observation is stated, not weighed
CONFIDENCE_OF_OPINIONS = "a confidence belongs to an opinion"
#: the section of memstrata's own notes on its upkeep (the gardener's summary and health line):
#: the day's record for whoever reads the journal, found by search, never recalled into a prompt
UPKEEP = "Upkeep"

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
#: a fence opening or closing fenced code: its marker, three backticks or three tildes
_FENCE = re.compile(r"^(\s*)(```|~~~)")
_FACT = re.compile(r"^(?P<letter>[A-Za-z])(?:\((?P<args>[^)]*)\))?(?:\s+|:\s*|$)(?P<text>.*)$")
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef"
#: written without spaces: Han, hiragana and katakana
_CJK = f"\u3040-\u30ff{_HAN}"
#: characters that often follow a Chinese name and seldom end one: particles, conjunctions,
#: prepositions, and the first characters of verbs of talking and working (说, 讨论, 负责 …)
_AFTER_NAME = (
    "的了着过们吗呢吧啊和与跟及或等在是说讲问告让请叫把被给对向也都就还又要会想去已"
    "来今昨讨负提发做写看找帮确修认觉"
)
#: words of 一 that follow a name (和@王伟一起, @李娜一直): 一 alone may be a name's (王一博)
_AFTER_NAME_YI = "一[起下直样些点个次同块道]"
#: ``@name`` (or the full-width ``＠`` of a CJK input method), not inside a word, so
#: ``ann@example.com`` mentions nobody, though it may follow a CJK character (``和@王伟``). The
#: name is one of:
#:
#: - Han characters, as Chinese writes them, with no space after the name: the first two
#:   always, then up to two more, stopping at any other character or at one of
#:   :data:`_AFTER_NAME` or a word of 一 such as 一起 (``和@王伟讨论了`` and ``和@王伟一起``
#:   name 王伟, ``@欧阳娜娜说`` 欧阳娜娜, ``@王一博`` 王一博);
#: - a run of katakana, or of hiragana (``@タナカさん`` names タナカ);
#: - a letter, then letters and digits, joined inside by ``.``, ``-``, ``_``, ``&`` and
#:   apostrophes (``@O'Brien``, ``@node.js``, ``@R&D``), up to a character of none of these
#:   (``@Ann说`` names Ann). A name followed by a symbol of code or a path (``@types/node``,
#:   ``@C++``, ``@R&``) is no mention at all, rather than the piece before the symbol.
MENTION = LazyPattern(
    f"(?:(?<![\\w@＠])|(?<=[{_CJK}]))[@＠]("
    f"[{_HAN}]{{1,2}}(?:(?![{_AFTER_NAME}]|{_AFTER_NAME_YI})[{_HAN}]){{0,2}}"
    "|[\u30a1-\u30fa\u30fc-\u30ff]+|[\u3041-\u3096]+"
    f"|[^\\W\\d_{_CJK}](?:[.\\-_&'’]*[^\\W_{_CJK}])*+(?![/\\\\+#=*$%^~|<>{{}}\\[\\]@＠&])"
    ")"
)
_POSSESSIVE = re.compile(r"'s$", re.IGNORECASE)
#: what a name's key drops: apostrophes (``O'Brien`` is ``obrien``)
_APOSTROPHES = re.compile("['’‘`]")
#: what a name's key reads as a space: hyphens, dots, underscores and spaces between its words
_WORD_BREAKS = re.compile(r"[\s\-‐‑–—._]+")
#: code, where ``@`` is a decorator or an annotation, not a person: fenced blocks (an open
#: fence runs to the end) and inline spans
_CODE = re.compile(
    r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)|`[^`\n]+`", re.MULTILINE | re.DOTALL
)
_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
#: what is left of a fact that says nothing once its ``@mentions`` are taken out
_NOTHING_SAID = " \t:;,.-–—"
_NO_TEXT = "has no text after its kind"


@dataclass(frozen=True, slots=True)
class ParsedJournal:
    """Entries (every paragraph and bullet), typed facts, and what could not be parsed."""

    day: str
    entries: tuple[JournalEntry, ...]
    facts: tuple[Fact, ...]
    problems: tuple[Problem, ...]


@functools.lru_cache(maxsize=4096)  # every read checks each day's name: a year is 365 calls
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
    if "@" not in text and "＠" not in text:
        return ()  # the usual text: no pattern to compile (see :mod:`memstrata.lazy_pattern`)
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


def entity_key(name: str) -> str:
    """The key an entity's name is matched by, the name as it is shown kept apart: casefolded,
    without accents or other marks (NFKD), apostrophes dropped, and hyphens, dots and
    underscores read as the space between words: ``José`` is ``jose``, ``O'Brien`` is
    ``obrien``, ``li-na`` and ``Li  Na`` are ``li na``."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _WORD_BREAKS.sub(" ", _APOSTROPHES.sub("", text)).strip()


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


def check_fact_text(text: str) -> str | None:
    """Why ``text``, what a Retain bullet says after its kind, is no fact, or ``None`` if it is
    one: it is empty, or it only names who it is about (``@Ann:``).

    The parser reports such a bullet, and :func:`~memstrata.journal.log.append_log` refuses to
    write one, so a fact the journal would reject is never logged.
    """
    if MENTION.sub("", text).strip(_NOTHING_SAID):
        return None
    return "names who it is about but says nothing" if MENTION.search(text) else _NO_TEXT


@dataclass(frozen=True, slots=True)
class _Block:
    line: int
    text: str
    section: str
    in_retain: bool
    is_bullet: bool
    #: a bullet indented under another one
    is_nested: bool = False


def code_lines(lines: list[str]) -> tuple[list[bool], int | None]:
    """Which of ``lines`` are fenced code (the fences included), as :func:`parse_journal`
    reads them, and the index of a fence that is never closed (it runs to the end), if any.
    A heading or a bullet in code is code: writers place lines by this too."""
    code: list[bool] = []
    fence, opened = "", None
    for at, line in enumerate(lines):
        if fence:
            code.append(True)
            if line.strip().startswith(fence):
                fence, opened = "", None
            continue
        opening = _FENCE.match(line)
        if opening:
            fence, opened = opening.group(2), at
        code.append(bool(opening))
    return code, opened


def _blocks(lines: list[str], first_line: int) -> list[_Block]:
    """Split Markdown into paragraphs, bullets (with their continuation lines) and fenced code.

    Every bullet is a block of its own, however deep it is nested: a sub-bullet is its own line
    in the log, and under ``## Retain`` its own fact, not more words of the bullet above it. A
    fenced block runs to its closing fence (a heading or a bullet in it is code) and is a block
    of its own, unless it is indented under a bullet, which it is then part of.
    """
    blocks: list[_Block] = []
    section = ""
    in_retain = False
    current: list[str] = []
    start = 0
    is_bullet = is_nested = False
    fence = ""  # the open fence's marker, "" outside fenced code
    fence_in_bullet = False

    def flush() -> None:
        nonlocal current
        text = "\n".join(current).strip()
        if text:
            blocks.append(_Block(start, text, section, in_retain, is_bullet, is_nested))
        current = []

    for offset, line in enumerate(lines):
        number = first_line + offset
        if fence:
            current.append(line)
            if line.strip().startswith(fence):  # as _CODE reads it: ``` closes ```, not ~~~
                fence = ""
                if not fence_in_bullet:
                    flush()  # a line right below the code is no more code
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = opening.group(2)
            # Indented under a bullet, the code is part of it (its example); otherwise it ends
            # the bullet or paragraph above, as in CommonMark, and is never a fact's text.
            fence_in_bullet = bool(current) and is_bullet and len(opening.group(1)) >= 2
            if not fence_in_bullet:
                flush()
                start, is_bullet, is_nested = number, False, False
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
        if bullet:
            flush()
            start, is_bullet, is_nested = number, True, len(bullet.group(1)) >= 2
            current.append(bullet.group(3))
            continue
        if not current:
            start, is_bullet, is_nested = number, False, False
        current.append(line.strip() if is_bullet else line)
    flush()
    return blocks


def require_opinion_for_confidence(kind: FactKind | None, confidence: float | None) -> None:
    """Refuse a confidence given with any kind but opinion (or none): ``log``, ``remember``
    and a Retain bullet hold to one rule, so a fact is stored alike whichever way it came."""
    if confidence is not None and kind != "opinion":
        raise InputError(f"{CONFIDENCE_OF_OPINIONS}: give it with kind opinion, or leave it out")


def _parse_fact(block: _Block, source: str, day: str) -> Fact | Problem:
    first = block.text.split("\n", 1)[0]
    match = _FACT.match(first)
    letter = match.group("letter") if match else ""
    if not match or letter not in KIND_LETTERS:
        # A nested bullet meant as a detail of the one above learns why it is reported.
        bullet = "a nested retain bullet is a fact too, and" if block.is_nested else "retain bullet"
        return Problem(
            source,
            block.line,
            f"{bullet} must start with W, B, O, O(c=0.0-1.0) or S, e.g. '- W @Ann: works at Acme'",
        )
    confidence: float | None = None
    args = match.group("args")
    if args is not None and letter != "O":
        return Problem(
            source,
            block.line,
            f"{CONFIDENCE_OF_OPINIONS}: write O({args}), or {letter} without ({args})",
        )
    if args is not None:
        parsed = re.fullmatch(r"\s*c\s*=\s*([0-9]*\.?[0-9]+)\s*", args)
        if not parsed or not 0.0 <= float(parsed.group(1)) <= 1.0:
            return Problem(source, block.line, f"bad confidence ({args}); write O(c=0.8)")
        confidence = float(parsed.group(1))
    said = match.group("text")
    text = (said + block.text[len(first) :]).strip()
    # A fact starts on its bullet's line, as `memstrata log` writes it. Below a bare "- W" the
    # next line is a slip ("-W no space": a bullet without its space), not the fact's text.
    reason = _NO_TEXT if check_fact_text(said) == _NO_TEXT else check_fact_text(text)
    if reason is not None:
        return Problem(source, block.line, f"retain bullet {reason}")
    return Fact(
        kind=KIND_LETTERS[letter],
        text=text,
        entities=find_entities(text),
        confidence=confidence,
        day=day,
        source=f"{source}#L{block.line}",
        line=block.line,
    )
