"""``memory/.promoted``: the journal facts that went through the gate, ``source<TAB>digest``.

The digest is of the fact's text, so a fact edited since (or a line that now holds another fact,
after lines were added above it) is not taken for one already promoted.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from memstrata.errors import ParseError
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
