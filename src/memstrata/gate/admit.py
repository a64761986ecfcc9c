"""``Gate.admit``: the one function every write of knowledge passes.

In order: validate (empty, binary, over cap → Rejected), redact secrets, quarantine text that
tries to instruct the model (→ a proposal, never recall, never the rules files), then compare
with what is stored — the target topic and the most related live topics — and act on the
strongest relation found:

    duplicate       → Merged into that topic (union of details; counts and confidence: the max)
    update          → Superseded when the candidate is clearly newer (or ``supersedes`` says so),
                      else Conflicted
    contradiction   → Conflicted: both kept, both marked, a proposal asks a person to rule
    nothing related → Admitted as a new topic (or appended to the named one)

A topic holding one statement and no heading (a note) is superseded as a whole (a new topic,
links both ways). A page (a ``# heading`` naming its subject, as ``people/ann``, or several
statements) has just the changed sentence replaced, and its history keeps the old one.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from memstrata.clock import Clock, to_iso
from memstrata.config import Config
from memstrata.errors import (
    EmbedderFailed,
    InputError,
    InvalidTopicId,
    ParseError,
    TopicNotFound,
)
from memstrata.gate.compare import says_more
from memstrata.gate.page import appended, in_place, statements_of, subject_of, with_subject
from memstrata.gate.relation import Relation, relate
from memstrata.gate.statements import features_of
from memstrata.gate.verdicts import (
    Admitted,
    Conflicted,
    Merged,
    Quarantined,
    Rejected,
    Superseded,
    Verdict,
)
from memstrata.injection import detect_injection
from memstrata.journal.parse import find_entities
from memstrata.model import FactKind, Proposal, ProposalSide, Topic, TopicMeta, TopicState
from memstrata.proposals import ProposalStore, proposal_id, render_proposal
from memstrata.redaction import redact_secrets
from memstrata.wiki.store import TopicEdit, TopicStore
from memstrata.workspace.names import parse_topic_id, slugify
from memstrata.workspace.textfile import undecodable_at

NAMESPACE_OF_KIND: dict[str | None, str] = {
    "world": "world",
    "experience": "experiences",
    "opinion": "opinions",
    "observation": "observations",
    None: "notes",
}
RELATED_TOPICS = 8
_PRIORITY = {"duplicate": 3, "contradiction": 2, "update": 1, "unrelated": 0}

#: cosine of one text against several: ``similarity(text, others) -> [cos, …]``
Similarity = Callable[[str, Sequence[str]], Sequence[float]]
#: live topic ids related to a text and its entities, best first
FindRelated = Callable[[str, Sequence[str], int], Sequence[str]]


@dataclass(frozen=True, slots=True)
class Candidate:
    """Knowledge someone wants stored."""

    text: str | bytes
    topic: str | None = None
    kind: FactKind | None = None
    entities: tuple[str, ...] = ()
    confidence: float | None = None
    source: str = ""
    #: when it was stated (ISO); defaults to now. Orders supersession.
    observed: str = ""
    actor: str = "agent"
    supersedes: str | None = None


@dataclass(frozen=True, slots=True)
class _Match:
    topic: Topic
    statement: str
    relation: Relation
    whole: bool  # the topic is a note holding this one statement only (no heading)
    said: str  # the statement as compared: with the page's subject when it leaves it out


class Gate:
    """Admits candidates into the wiki. The caller holds the workspace lock around ``admit``."""

    def __init__(
        self,
        topics: TopicStore,
        proposals: ProposalStore,
        find_related: FindRelated,
        config: Config,
        clock: Clock,
        similarity: Similarity | None = None,
        threshold: float | None = None,
        on_write: Callable[[str], None] = lambda _topic_id: None,
    ) -> None:
        self.topics = topics
        self.proposals = proposals
        self.find_related = find_related
        self.config = config
        self.clock = clock
        self.similarity = similarity
        self.threshold = threshold
        self.on_write = on_write

    # -- the decision --------------------------------------------------------------------------

    def admit(self, candidate: Candidate, dry_run: bool = False, trusted: bool = False) -> Verdict:
        """Decide what ``candidate`` is and, unless ``dry_run``, write the outcome.

        ``trusted`` skips the injection check: only for text a person released from quarantine.
        """
        text = _validate(candidate.text, self.config.topics.summary_max_chars)
        if isinstance(text, Rejected):
            return replace(text, dry_run=dry_run)
        unstorable = _unstorable_field(candidate)
        if unstorable:
            return Rejected(unstorable, dry_run)
        redaction = redact_secrets(text)
        text = redaction.text
        candidate, in_fields = _without_secrets(candidate)
        redacted = tuple(finding.kind for finding in redaction.findings) + in_fields
        now = to_iso(self.clock())
        injection = detect_injection(text)
        if injection.is_injection and not trusted:
            return self._quarantine(candidate, text, "; ".join(injection.reasons), now, dry_run)
        if len(text) > self.config.topics.summary_max_chars:
            return Rejected(_over_cap(len(text), self.config.topics.summary_max_chars), dry_run)
        try:
            target = parse_topic_id(candidate.topic) if candidate.topic else None
            supersedes = parse_topic_id(candidate.supersedes) if candidate.supersedes else None
        except InvalidTopicId as error:
            return Rejected(str(error), dry_run)
        if target is not None and self.topics.exists(target):
            _check_live(self.topics.get(target))
        entities = tuple(dict.fromkeys((*candidate.entities, *find_entities(text))))
        observed = candidate.observed or now
        fact = replace(candidate, text=text, entities=entities, observed=observed)
        if supersedes is not None:
            if not self.topics.exists(supersedes):
                return Rejected(f"--supersedes {supersedes}: no such topic", dry_run)
            old = self.topics.get(supersedes)
            if old.meta.state in ("superseded", "archived"):
                return Rejected(_not_live(old), dry_run)
            return self._supersede(fact, target, old, "explicitly superseded", redacted, dry_run)
        match = self._strongest_match(text, entities, target)
        if match is None or match.relation.kind == "unrelated":
            return self._admit_new(fact, target, redacted, dry_run)
        relation = match.relation
        if relation.kind == "duplicate":
            return self._merge(fact, match, redacted, dry_run)
        stored = match.topic.meta.observed or match.topic.meta.created
        # Times are kept to the second: a fact stamped now that ties with what is stored
        # arrived after it (two writes in one second), and of two facts of one journal day (its
        # facts carry the day, not a time) the later line was logged later; any other tie of
        # given times stays a conflict.
        if relation.kind == "update" and (
            observed > stored
            or (
                observed == stored
                and (not candidate.observed or _logged_after(fact.source, match.topic))
            )
        ):
            if not match.whole or match.topic.id == target:
                # a page, or the topic the caller named: the statement is replaced in place
                return self._replace_sentence(fact, match, redacted, dry_run)
            return self._supersede(fact, target, match.topic, relation.reason, redacted, dry_run)
        why = (
            relation.reason
            if relation.kind == "contradiction"
            else (f"{relation.reason}, and it is not newer than what is stored")
        )
        return self._conflict(fact, target, match, why, redacted, now, dry_run)

    def _strongest_match(
        self, text: str, entities: Sequence[str], target: str | None
    ) -> _Match | None:
        ids = list(self.find_related(text, entities, RELATED_TOPICS))
        if target is not None and self.topics.exists(target):
            ids.insert(0, target)
        best: _Match | None = None
        seen: set[str] = set()
        for topic_id in ids:
            if topic_id in seen:
                continue
            seen.add(topic_id)
            try:
                topic = self.topics.get(topic_id)
            except TopicNotFound:
                continue
            except ParseError:
                if topic_id == target:
                    raise  # the topic the caller named: what it holds cannot be weighed
                continue  # a related topic that cannot be read (status names it) weighs nothing
            if topic.meta.state not in ("active", "conflict"):
                continue
            statements = statements_of(topic.summary)
            subject = subject_of(topic.summary)
            said = [with_subject(statement, subject, text) for statement in statements]
            cosines = self._cosines(text, said)
            for statement, full, cosine in zip(statements, said, cosines, strict=True):
                relation = relate(text, full, cosine, self.threshold, subject)
                # a note of one statement is replaced whole; a page keeps its name and heading
                whole = len(statements) == 1 and not subject
                found = _Match(topic, statement, relation, whole, full)
                if best is None or _rank(found) > _rank(best):
                    best = found
        return best

    def _cosines(self, text: str, statements: list[str]) -> list[float | None]:
        if self.similarity is None or not statements:
            return [None] * len(statements)
        try:
            return [float(value) for value in self.similarity(text, statements)]
        except EmbedderFailed:
            return [None] * len(statements)  # as without an embedder: the lexical checks decide

    # -- the outcomes --------------------------------------------------------------------------

    def _admit_new(
        self, fact: Candidate, target: str | None, redacted: tuple[str, ...], dry_run: bool
    ) -> Verdict:
        text = str(fact.text)
        if target is not None and self.topics.exists(target):
            placed = self._placed(target, text)
            if isinstance(placed, Rejected):
                return replace(placed, dry_run=dry_run)
            summary, _ = placed
            if not dry_run:
                self._write(
                    self._edit(target, summary, fact, reason="new statement added", op="update")
                )
            return Admitted(target, "added to the topic", False, redacted, dry_run)
        topic_id = target or self._new_topic_id(text, fact.kind)
        if not dry_run:
            self._write(self._edit(topic_id, text + "\n", fact, reason="admitted", op="create"))
        return Admitted(topic_id, "new knowledge", True, redacted, dry_run)

    def _merge(
        self, fact: Candidate, match: _Match, redacted: tuple[str, ...], dry_run: bool
    ) -> Verdict:
        topic = match.topic
        reason = f"duplicate of {topic.id}: {match.relation.reason}"
        if dry_run:
            return Merged(topic.id, reason, redacted, True)
        summary = topic.summary
        if says_more(features_of(str(fact.text)), features_of(match.said)):
            # The candidate says all the stored statement says, and more: keep the fuller one.
            # (Naming the subject the page leaves to its heading is not more.)
            summary = in_place(summary, match.statement, str(fact.text))
        meta = topic.meta
        changes = {
            "refs": meta.refs + 1,
            "confidence": _max_confidence(meta.confidence, fact.confidence),
            "entities": tuple(dict.fromkeys((*meta.entities, *fact.entities))),
            "lineage": _lineage(meta.lineage, fact.source),
        }
        self._write(
            TopicEdit(
                topic.id,
                summary,
                actor=fact.actor,
                reason=reason,
                meta_changes=changes,
                op="merge",
            )
        )
        return Merged(topic.id, reason, redacted)

    def _supersede(
        self,
        fact: Candidate,
        target: str | None,
        old: Topic,
        why: str,
        redacted: tuple[str, ...],
        dry_run: bool,
    ) -> Verdict:
        text = str(fact.text)
        new_id = (
            target if target and target != old.id else self._new_topic_id(text, fact.kind, old.id)
        )
        placed = self._placed(new_id, text)
        if isinstance(placed, Rejected):
            return replace(placed, dry_run=dry_run)
        summary, kept = placed
        reason = f"supersedes {old.id}: {why}" + _elsewhere(
            target, old.id, "it is the topic superseded"
        )
        if dry_run:
            return Superseded(new_id, old.id, reason, redacted, True)
        # one change: a crash between the two never leaves both live
        self._write(
            self._edit(
                new_id,
                summary,
                fact,
                reason=reason,
                op="update" if kept else "create",
                extra={
                    "supersedes": tuple(
                        dict.fromkeys(
                            (*(kept.supersedes if kept else ()), *old.meta.supersedes, old.id)
                        )
                    ),
                    "links": _add(kept.links if kept else old.meta.links, old.id),
                },
            ),
            TopicEdit(
                old.id,
                old.summary,
                actor=fact.actor,
                reason=f"superseded by {new_id}: {why}",
                state="superseded",
                meta_changes={"superseded_by": new_id, "links": _add(old.meta.links, new_id)},
                op="supersede",
            ),
        )
        return Superseded(new_id, old.id, reason, redacted)

    def _replace_sentence(
        self, fact: Candidate, match: _Match, redacted: tuple[str, ...], dry_run: bool
    ) -> Verdict:
        topic = match.topic
        reason = f"replaced {match.statement!r}: {match.relation.reason}"
        if not dry_run:
            summary = in_place(topic.summary, match.statement, str(fact.text))
            meta = topic.meta
            changes = {
                "lineage": _lineage(meta.lineage, fact.source),
                "entities": tuple(dict.fromkeys((*meta.entities, *fact.entities))),
                # the topic now holds a statement made then: what comes later is newer than it
                "observed": max(meta.observed or meta.created, fact.observed),
            }
            self._write(
                TopicEdit(
                    topic.id,
                    summary,
                    actor=fact.actor,
                    reason=reason,
                    meta_changes=changes,
                    op="supersede",
                )
            )
        return Superseded(topic.id, topic.id, reason, redacted, dry_run)

    def _conflict(
        self,
        fact: Candidate,
        target: str | None,
        match: _Match,
        why: str,
        redacted: tuple[str, ...],
        now: str,
        dry_run: bool,
    ) -> Verdict:
        text = str(fact.text)
        other = match.topic
        new_id = (
            target
            if target and target != other.id
            else self._new_topic_id(text, fact.kind, other.id)
        )
        placed = self._placed(new_id, text)
        if isinstance(placed, Rejected):
            return replace(placed, dry_run=dry_run)
        summary, kept = placed
        pid = proposal_id("conflict", new_id, other.id)
        reason = f"conflicts with {other.id}: {why}" + _elsewhere(
            target, other.id, "the two sides of a conflict stay in two topics until a person rules"
        )
        if dry_run:
            return Conflicted(new_id, other.id, pid, reason, redacted, True)
        proposal = Proposal(
            id=pid,
            kind="conflict",
            status="open",
            created=now,
            reason=f"These two say things that cannot both be true ({why}). Which stands?",
            sides=(
                ProposalSide(
                    "a",
                    other.id,
                    match.statement,
                    other.meta.observed or other.meta.created,
                    ", ".join(other.meta.lineage),
                ),
                ProposalSide("b", new_id, text, fact.observed, fact.source),
            ),
        )
        # one change: both sides marked and the proposal that asks about them, or none of it
        self._write(
            self._edit(
                new_id,
                summary,
                fact,
                reason=reason,
                op="update" if kept else "create",
                state="conflict",
                extra={
                    "conflicts_with": _add(kept.conflicts_with if kept else (), other.id),
                    "links": _add(kept.links if kept else (), other.id),
                },
            ),
            TopicEdit(
                other.id,
                other.summary,
                actor=fact.actor,
                reason=f"conflicts with {new_id}: {why}",
                state="conflict",
                meta_changes={
                    "conflicts_with": _add(other.meta.conflicts_with, new_id),
                    "links": _add(other.meta.links, new_id),
                },
                op="conflict",
            ),
            files={self.proposals.path(pid): render_proposal(proposal)},
        )
        return Conflicted(new_id, other.id, pid, reason, redacted)

    def _quarantine(self, fact: Candidate, text: str, why: str, now: str, dry_run: bool) -> Verdict:
        pid = proposal_id("quarantine", text)
        reason = f"looks like an instruction to the model ({why})"
        if self.proposals.exists(pid):
            ruled = self.proposals.get(pid)
            if ruled.status == "rejected":
                return Rejected(f"{reason}; {pid} ruled it out already: kept out", dry_run)
            if ruled.status == "accepted":
                return Rejected(f"{reason}; {pid} released it already: it was stored then", dry_run)
        if not dry_run and not self.proposals.exists(pid):
            self.proposals.put(
                Proposal(
                    id=pid,
                    kind="quarantine",
                    status="open",
                    created=now,
                    reason=f"Held back from memory: it {reason}. It is not recalled and can never "
                    "reach the rules files.",
                    text=text,
                    source=fact.source,
                )
            )
        return Quarantined(pid, reason, dry_run)

    def _new_topic_id(self, text: str, kind: str | None, other: str = "") -> str:
        """The automatic id of ``text``, unless a topic recall no longer shows (superseded,
        archived) or ``other``, the topic it is compared with, holds that id: a fact stated again
        after it was superseded ("Ann lives in Paris" after "… in Rome") gets a topic of its own,
        ``-2``, ``-3`` … after the id."""
        base = topic_id = auto_topic_id(text, kind)
        count = 1
        while topic_id == other or (
            self.topics.exists(topic_id)
            and self.topics.get(topic_id).meta.state not in ("active", "conflict")
        ):
            count += 1
            topic_id = f"{base}-{count}"
        return topic_id

    def _placed(self, topic_id: str, text: str) -> tuple[str, TopicMeta | None] | Rejected:
        """The summary ``topic_id`` gets to hold ``text``, and the meta it has if it exists: the
        text alone for a new topic; an existing one (a named ``--topic``) keeps all it says and
        gets the text appended, and its links are the caller's to keep."""
        if not self.topics.exists(topic_id):
            return text + "\n", None
        current = self.topics.get(topic_id)
        summary = appended(current.summary, text)
        if len(summary) > self.config.topics.summary_max_chars:
            return Rejected(
                f"{topic_id}: adding this would take its summary over "
                f"{self.config.topics.summary_max_chars} chars; write the detail page with "
                "'memstrata topic write' or name another topic"
            )
        return summary, current.meta

    def _edit(
        self,
        topic_id: str,
        summary: str,
        fact: Candidate,
        *,
        reason: str,
        op: str,
        state: TopicState | None = None,
        extra: dict[str, object] | None = None,
    ) -> TopicEdit:
        """The edit that stores ``fact`` in ``topic_id``: its kind, entities, confidence, time
        and source go into the topic's meta."""
        changes: dict[str, object] = {
            "kind": fact.kind or "",
            "entities": tuple(fact.entities),
            "confidence": fact.confidence,
            "observed": fact.observed,
            "lineage": _lineage((), fact.source),
            **(extra or {}),
        }
        if self.topics.exists(topic_id):
            current = self.topics.get(topic_id).meta
            changes["lineage"] = _lineage(current.lineage, fact.source)
        return TopicEdit(
            topic_id,
            summary,
            actor=fact.actor,
            reason=reason,
            state=state,
            meta_changes=changes,
            op=op,
        )

    def _write(self, *edits: TopicEdit, files: dict[Path, str] | None = None) -> None:
        """Carry out ``edits`` (and write ``files``) as one change, then tell the index."""
        self.topics.write_together(edits, files)
        for edit in edits:
            self.on_write(edit.topic_id)


def _check_live(topic: Topic) -> None:
    """Refuse a named topic that recall no longer shows: what went into it would be lost."""
    meta = topic.meta
    if meta.state == "superseded":
        by = f" (by {meta.superseded_by})" if meta.superseded_by else ""
        raise InputError(
            f"{topic.id} is superseded{by}: nothing it holds is recalled; store this in a live "
            "topic or as a new one (leave out --topic)"
        )
    if meta.state == "archived":
        raise InputError(
            f"{topic.id} is archived: nothing it holds is recalled; restore it first "
            f"('memstrata topic restore {topic.id}') or store this elsewhere"
        )


def _without_secrets(candidate: Candidate) -> tuple[Candidate, tuple[str, ...]]:
    """``candidate`` with the secrets of what is stored beside its text (its source, entities and
    actor: a URL with a token, a key passed as a name) redacted, and the kinds found."""
    kinds: list[str] = []

    def clean(value: str) -> str:
        redaction = redact_secrets(value)
        kinds.extend(finding.kind for finding in redaction.findings)
        return redaction.text

    cleaned = replace(
        candidate,
        source=clean(candidate.source),
        actor=clean(candidate.actor),
        entities=tuple(clean(entity) for entity in candidate.entities),
    )
    return cleaned, tuple(kinds)


def _logged_after(source: str, topic: Topic) -> bool:
    """Whether ``source`` (``memory/<day>.md#L<n>``) is a line of a journal file below every
    line of that file that ``topic`` came from (and there is one)."""
    path, mark, line = source.rpartition("#L")
    if not mark or not line.isdecimal():
        return False
    lines = [
        int(number)
        for ref in topic.meta.lineage
        for ref_path, ref_mark, number in [ref.rpartition("#L")]
        if ref_mark and ref_path == path and number.isdecimal()
    ]
    return bool(lines) and int(line) > max(lines)


def _not_live(old: Topic) -> str:
    """Why ``--supersedes`` of a topic recall no longer shows is refused, and what to do."""
    if old.meta.state == "archived":
        return (
            f"--supersedes {old.id}: it is archived, so nothing it holds is recalled; store "
            f"this without --supersedes, or restore it first ('memstrata topic restore {old.id}')"
        )
    by = old.meta.superseded_by
    instead = f"supersede {by} instead" if by else "store this without --supersedes"
    return f"--supersedes {old.id}: it is superseded already{f' by {by}' if by else ''}; {instead}"


def _elsewhere(target: str | None, other_id: str, why: str) -> str:
    """Say so when the fact is not stored in the topic the caller named, and why."""
    if target != other_id:
        return ""
    return f"; not stored in {target} as asked: {why}"


def auto_topic_id(text: str, kind: str | None) -> str:
    """``<namespace by kind>/<first words>-<hash>``: the same text always gets the same id."""
    normal = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    digest = hashlib.sha256(normal.encode()).hexdigest()[:6]
    words = " ".join(re.findall(r"[^\W_]+", text)[:6])
    stem = slugify(words, fallback="note")[:40].strip("-_.")
    return f"{NAMESPACE_OF_KIND.get(kind, 'notes')}/{stem or 'note'}-{digest}"


def _validate(raw: str | bytes, cap: int) -> str | Rejected:
    if isinstance(raw, bytes):
        if b"\x00" in raw:
            return Rejected("binary data (NUL bytes) is not knowledge")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            return Rejected(f"invalid UTF-8 at byte {error.start}")
    elif (at := undecodable_at(raw)) is not None:
        # undecodable command-line bytes, or a JSON \udcff escape: no UTF-8 text holds one
        return Rejected(f"invalid UTF-8 at character {at + 1}")
    text = raw.strip()
    if not text:
        return Rejected("empty: nothing to remember")
    controls = sum(1 for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\n\t\r")
    if controls:
        return Rejected(f"binary or control characters ({controls}) are not knowledge")
    # Caps are checked after redaction (a placeholder may be shorter than a secret), but an
    # input far over the cap is refused before any work is spent on it.
    if len(text) > 4 * cap:
        return Rejected(_over_cap(len(text), cap))
    return text


def _unstorable_field(candidate: Candidate) -> str:
    """Why a field beside the text cannot be stored, or "". They are written to meta.json and
    the index, which take UTF-8 only, and each is one line where it is shown (``@Ann`` beside
    a hit, a source in a citation): a line break or a terminal escape there breaks the line or
    reaches the reader's terminal as it was."""
    fields = {
        "topic": candidate.topic,
        "entity": candidate.entities,
        "source": candidate.source,
        "observed": candidate.observed,
        "actor": candidate.actor,
        "supersedes": candidate.supersedes,
    }
    for name, value in fields.items():
        for text in (value,) if isinstance(value, str) else value or ():
            at = undecodable_at(text)
            if at is not None:
                return f"{name} {text!r}: invalid UTF-8 at character {at + 1}"
            control = next((ch for ch in text if unicodedata.category(ch) == "Cc"), None)
            if control is not None:
                return (
                    f"{name} {text!r}: control character U+{ord(control):04X} at character "
                    f"{text.index(control) + 1}; {name} is one line of plain text"
                )
    return ""


def _over_cap(length: int, cap: int) -> str:
    return (
        f"{length} chars is over the {cap}-char cap of a summary; remember the gist and keep the "
        "full text in a topic's detail page ('memstrata topic write --detail-file') or the journal"
    )


def _rank(match: _Match) -> tuple[int, float]:
    return (_PRIORITY[match.relation.kind], match.relation.overlap)


def _max_confidence(a: float | None, b: float | None) -> float | None:
    values = [value for value in (a, b) if value is not None]
    return max(values) if values else None


def _lineage(existing: Sequence[str], source: str) -> tuple[str, ...]:
    return tuple(existing) if not source or source in existing else (*existing, source)


def _add(items: Sequence[str], item: str) -> tuple[str, ...]:
    return tuple(items) if item in items else (*items, item)
