"""Frozen values that flow between the strata. No I/O here.

Times are ISO-8601 strings in UTC (``2025-11-27T10:00:00Z``) so that values compare, sort and
serialise the same everywhere; :mod:`memstrata.clock` makes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

TopicState = Literal["active", "conflict", "superseded", "archived"]
TOPIC_STATES: tuple[TopicState, ...] = ("active", "conflict", "superseded", "archived")

FactKind = Literal["world", "experience", "opinion", "observation"]
FACT_KINDS: tuple[FactKind, ...] = ("world", "experience", "opinion", "observation")


def is_confidence(value: object) -> bool:
    """Whether ``value`` is a confidence: a number from 0 to 1 (not a bool, not NaN)."""
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 <= value <= 1


Stratum = Literal["wiki", "journal", "raw"]


#: a topic's importance steps: the gardener's decay never goes below the floor
IMPORTANCE_FLOOR, IMPORTANCE_DEFAULT, IMPORTANCE_MAX = 1, 3, 5


@dataclass(frozen=True, slots=True)
class TopicMeta:
    """What ``meta.json`` says about a topic besides its text."""

    state: TopicState = "active"
    created: str = ""
    updated: str = ""
    refs: int = 0
    access_count: int = 0
    owner_agent: str = ""
    links: tuple[str, ...] = ()
    lineage: tuple[str, ...] = ()
    #: what kind of knowledge (world / experience / opinion / observation), when typed
    kind: str = ""
    entities: tuple[str, ...] = ()
    confidence: float | None = None
    #: when the knowledge was stated (orders supersession); ``created`` is when it was stored
    observed: str = ""
    superseded_by: str = ""
    supersedes: tuple[str, ...] = ()
    conflicts_with: tuple[str, ...] = ()
    #: how much the topic matters, IMPORTANCE_FLOOR..IMPORTANCE_MAX; the gardener's decay
    #: lowers it one step after each 30 days without use
    importance: int = IMPORTANCE_DEFAULT
    #: a person's "keep this": the gardener never decays, archives, merges or splits it
    pinned: bool = False
    #: when the gardener last lowered the importance (counts as activity for the next step)
    decayed: str = ""


@dataclass(frozen=True, slots=True)
class Topic:
    """A wiki topic: the summary is the recall unit, the detail is read on demand."""

    id: str
    title: str
    summary: str
    detail: str
    meta: TopicMeta

    @property
    def namespace(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def slug(self) -> str:
        return self.id.split("/", 1)[1]


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One line of a topic's append-only ``history.jsonl``."""

    time: str
    actor: str
    op: str
    before: str
    after: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One line of ``_index.json``: enough for the model to know a topic exists."""

    id: str
    title: str
    gist: str
    state: TopicState
    updated: str


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """A paragraph or bullet of a daily log, with the line it starts on."""

    day: str
    line: int
    text: str
    source: str
    section: str = ""


@dataclass(frozen=True, slots=True)
class HeldEntry:
    """A journal entry or topic kept out of recall because it reads as an instruction to the
    model."""

    source: str  # memory/<day>.md#L<line>, or a topic id
    day: str
    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class Fact:
    """A typed fact from a journal's ``## Retain`` section."""

    kind: FactKind
    text: str
    entities: tuple[str, ...]
    confidence: float | None
    day: str
    source: str
    line: int


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in an input that could not be used; the rest still was."""

    path: str
    line: int | None
    message: str
    #: the wiki topic the file belongs to, if any
    topic: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class Session:
    """One transcript of an agent harness run."""

    id: str
    harness: str
    agent: str
    started: str
    ended: str
    source_path: str
    title: str = ""


@dataclass(frozen=True, slots=True)
class Turn:
    """One message of a session. ``tool_calls`` is a JSON string (``"[]"`` when none)."""

    session_id: str
    index: int
    role: str
    time: str
    text: str
    tool_calls: str = "[]"


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A search result from any stratum, with where it came from."""

    stratum: Stratum
    source: str
    text: str
    score: float
    time: str = ""
    title: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def holds_a_word(self) -> bool:
        """Found by words: every wiki and journal hit (lexical search), a raw turn by its
        lexical arm (not by nearness of meaning, its neighbours, its session or a time window
        alone)."""
        return self.stratum != "raw" or "lexical" in self.extra.get("arms", "").split(",")


#: conflict and quarantine come from the gate; archive, merge and split from the gardener
ProposalKind = Literal["conflict", "quarantine", "archive", "merge", "split"]
ProposalStatus = Literal["open", "accepted", "rejected"]


@dataclass(frozen=True, slots=True)
class ProposalSide:
    """One side of a conflict: a topic and what it says."""

    label: str
    topic_id: str
    text: str
    observed: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class Proposal:
    """Something only a person may decide, written to ``memory/proposals/<id>.md``."""

    id: str
    kind: ProposalKind
    status: ProposalStatus
    created: str
    reason: str
    sides: tuple[ProposalSide, ...] = ()
    text: str = ""
    source: str = ""
    ruling: str = ""
    resolved: str = ""


@dataclass(frozen=True, slots=True)
class RecallItem:
    """One recalled item: what it says, what kind, when, about whom, where from, and why found."""

    stratum: Stratum
    kind: str
    time: str
    entities: tuple[str, ...]
    content: str
    source: str
    score: float
    arms: tuple[str, ...]
    state: str = "active"
    title: str = ""


@dataclass(frozen=True, slots=True)
class RecallResult:
    """Recall's answer; ``notes`` say what was degraded or filtered (never silent)."""

    query: str
    items: tuple[RecallItem, ...]
    notes: tuple[str, ...] = ()
