"""A wiki page as the gate reads it: its statements, and the subject its heading names.

A statement is a sentence or a semicolon clause of a paragraph or list item (in Chinese also a
comma clause), an exact substring of the summary, so the gate can replace it in place. A page
``# Ann Weber`` leaves its subject to the heading: "Drinks a flat white" is Ann Weber's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memstrata.fts import STOP_WORDS, without_clitic
from memstrata.gate.statements import features_of, is_cjk

#: a statement ends at a sentence's end or a semicolon ("Drinks a flat white; prefers jazz"); in
#: Chinese a full stop needs no space after it, and a comma chains clauses about one subject
#: ("后端工程师，负责支付网关"), where the enumeration comma 、 only lists
_STATEMENT_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\s*[;；，]\s*")
_FULL_STOPS = ".!?。！？"
_LIST_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)


def subject_of(summary: str) -> str:
    """What the page's first ``#`` heading names, or "" when it has none."""
    heading = _HEADING.search(summary)
    return heading.group(1) if heading else ""


def in_place(summary: str, statement: str, text: str) -> str:
    """``summary`` with ``statement`` replaced by ``text``, keeping the statement's full stop
    (the sentence after it still needs one between)."""
    end = statement[-1:]
    if end and end in _FULL_STOPS and not text.endswith(tuple(_FULL_STOPS)):
        text += end
    return summary.replace(statement, text, 1)


def appended(summary: str, text: str) -> str:
    """``summary`` with ``text`` added as a statement of its own, on its own line.

    After a list item it is another item; after a sentence it gets a full stop if it has none
    (else the next one added would run into it: a paragraph wrapped over lines is one text);
    after a heading, or a line with no full stop written by hand, it starts a paragraph, so
    neither runs into the other."""
    body = summary.rstrip()
    last = body.rsplit("\n", 1)[-1].strip()
    item = _LIST_ITEM.match(last)
    if item:
        return f"{body}\n{item.group(0)}{text}\n"
    if not text.endswith(tuple(_FULL_STOPS)):
        text += "。" if is_cjk(text[-1]) else "."
    if not body:
        return text + "\n"
    ended = last.endswith(tuple(_FULL_STOPS)) and not last.startswith("#")
    return f"{body}\n{text}\n" if ended else f"{body}\n\n{text}\n"


def statements_of(summary: str) -> list[str]:
    """The statements of a summary: the sentences and semicolon clauses (and Chinese comma
    clauses) of its paragraphs and list items (headings and comments dropped).

    A paragraph wrapped over several lines is one text, so a sentence that runs across a line
    break is one statement. Each statement is an exact substring of ``summary``, so the gate
    can replace it in place.
    """
    found: list[str] = []
    block: list[str] = []

    def flush() -> None:
        text = "\n".join(block).strip()
        found.extend(part.strip() for part in _STATEMENT_END.split(text) if part.strip())
        block.clear()

    for line in summary.split("\n"):
        text = line.strip()
        item = _LIST_ITEM.match(text)
        if not text or text.startswith(("#", "<!--")) or item:
            flush()
            if item:
                block.append(line.lstrip()[item.end() :])
            continue
        block.append(line)
    flush()
    return found


def with_subject(statement: str, subject: str | None, candidate: str = "") -> str:
    """A page's statement with the page's subject put back where the page leaves it out.

    On the page ``# Ann Weber``, "Drinks a flat white" says "Ann Weber drinks a flat white":
    so "Ann now drinks cortado" is an update of it, and "Peter drinks a flat white" is not.
    The subject is put the way ``candidate`` names it when it names part of it ("Ann"), so a
    first name alone is not read as another person. A statement that names any word of the
    subject already has one, and so does one opening with a name of its own, the one the
    candidate opens with ("Ann likes X" written on Li Na's page). Only the subject's content
    words name it: "Adds a step" does not name the page ``# Plan A``.
    """
    if not subject:
        return statement
    naming = _naming_words(subject)
    if _names_any(statement, naming):
        return statement
    if features_of(statement).sequence[:1] == ((features_of(candidate).subject, True),):
        return statement
    named = [part for part in subject.split() if _names_any(candidate, _naming_words(part))]
    said = " ".join(part.strip("()[],") for part in named) if named else subject
    return f"{said} {statement[:1].lower()}{statement[1:]}"


def _naming_words(subject: str) -> list[str]:
    """The words of a subject that name it: its content words, or all of them when it has
    none ("Plan A" → plan; "The billing service" → billing, service)."""
    words = _words(subject)
    return [word for word in words if word not in STOP_WORDS] or words


def _words(text: str) -> list[str]:
    """Folded words as the gate compares them: "O'Brien's" is o'brien, not o and brien."""
    folded = text.casefold().replace("\u2019", "'")
    return [without_clitic(word) for word in re.findall(r"[^\W_]+(?:'[^\W_]+)*", folded)]


def _names_any(text: str, words: Sequence[str]) -> bool:
    folded = text.casefold()
    present = set(_words(folded))
    # Chinese runs are not split into words: 李娜 is found inside 李娜喜欢咖啡
    return any(word in present or (not word.isascii() and word in folded) for word in words)
