"""``memory/.promoted``: the journal facts that went through the gate, ``source<TAB>digest``.

A fact is its file and its text: the digest is of the text, so a fact edited since is promoted
again, while one that only moved (lines logged above ``## Retain`` push it down) is the fact
already promoted, whatever line the record names. Taking a moved fact for a new one would send
it through the gate again, and a fact the wiki holds as superseded or ruled out would come back
as a live topic. The same text stated again in the same file ("Ann drinks tea", "Ann no longer
drinks tea", then "Ann drinks tea" once more) is a new statement: a file's n-th fact of one text
is promoted when fewer than n of that text are recorded for the file.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

from memstrata.errors import ParseError
from memstrata.model import Fact
from memstrata.workspace.atomic import append_line
from memstrata.workspace.textfile import read_text

PROMOTED_FILE = ".promoted"


def fact_digest(text: str) -> str:
    """Identity of a fact's text in the record: the first 12 hex digits of its sha256."""
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def promotion_key(source: str, text: str) -> str:
    """The record's line for the fact ``text`` at ``source`` (``memory/<day>.md#L<n>``)."""
    return f"{source}\t{fact_digest(text)}"


def read_promoted(path: Path) -> set[tuple[str, str]]:
    """``(source, digest)`` of every promoted fact; none when the file is missing.

    A line that is not ``source<TAB>digest`` (a hand edit, a torn write) is skipped: at worst
    that fact is promoted again, and the gate merges it with itself.
    """
    if not path.exists():
        return set()
    try:
        lines = read_text(path).splitlines()
    except ParseError:
        return set()
    found = set()
    for line in lines:
        source, tab, digest = line.partition("\t")
        if tab and source and digest:
            found.add((source, digest))
    return found


def promoted_facts(records: set[tuple[str, str]]) -> Counter[tuple[str, str]]:
    """How many facts of each ``(file, digest)`` were promoted: what makes a file's n-th fact
    of one text one already promoted."""
    return Counter((fact_file(source), digest) for source, digest in records)


def fact_file(source: str) -> str:
    """The file of a fact's source ``memory/<day>.md#L<n>``."""
    return source.rpartition("#L")[0] or source


class PromotedRecord:
    """``memory/.promoted`` as read, read again only when it grew (another process promoted)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._size = -1
        self._facts: Counter[tuple[str, str]] = Counter()

    def holds(self, fact: Fact, occurrence: int = 0) -> bool:
        """Whether ``fact`` (its file and text), the ``occurrence``-th fact of its text in its
        file (from 0), was promoted, by this process or another."""
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            size = 0
        if size != self._size:
            self._facts = promoted_facts(read_promoted(self.path))
            self._size = size
        return self._facts[(fact_file(fact.source), fact_digest(fact.text))] > occurrence

    def add(self, fact: Fact) -> None:
        """Record ``fact`` as promoted (the caller holds the lock: no one else appends)."""
        append_line(self.path, promotion_key(fact.source, fact.text))
        self._facts[(fact_file(fact.source), fact_digest(fact.text))] += 1
        self._size = self.path.stat().st_size
