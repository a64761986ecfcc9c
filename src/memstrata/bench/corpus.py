"""What a benchmark hands the harness: corpora of sessions, with questions and their gold keys.

Each corpus is searched on its own (a LoCoMo conversation, a LongMemEval question's haystack).
``keys`` maps a stored turn (``session#idx``) to the benchmark's id for it at each level
(``turn``, and ``session`` for LongMemEval), so every method is scored on the same ids.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memstrata.model import Session, Turn


@dataclass(frozen=True, slots=True)
class Question:
    """A question, what counts as found at each level, and its categories for reporting."""

    text: str
    gold: Mapping[str, frozenset[str]]
    categories: tuple[str, ...]
    now: datetime


@dataclass(frozen=True, slots=True)
class Corpus:
    """One searchable history and the questions asked of it."""

    id: str
    sessions: Sequence[tuple[Session, Sequence[Turn]]]
    keys: Mapping[str, Mapping[str, str]]
    #: the baseline's documents per level: (benchmark id, text)
    baseline_docs: Mapping[str, Sequence[tuple[str, str]]]
    questions: Sequence[Question]

    @property
    def levels(self) -> tuple[str, ...]:
        return tuple(self.baseline_docs)


def read_json(path: Path) -> Any:
    """The JSON a benchmark's data file holds, gzipped or not.

    Told by the file's first bytes, not its name, so either benchmark reads either form.
    """
    with path.open("rb") as handle:
        gzipped = handle.read(2) == b"\x1f\x8b"
    opener = gzip.open if gzipped else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def ranked_keys(sources: Sequence[str], keys: Mapping[str, str]) -> list[str]:
    """Benchmark ids of ranked turn sources, first occurrence kept (sessions repeat)."""
    seen: dict[str, None] = {}
    for source in sources:
        key = keys.get(source)
        if key is not None and key not in seen:
            seen[key] = None
    return list(seen)
