"""A gardener step: the topic writes one decision makes, and the states it was planned from.

A step is planned from topics as read and carries each one's *fingerprint* (a hash of its summary,
detail and every meta field). It is applied only if every topic still has that fingerprint, so an
edit made by anyone after the gardener read the topic is never overwritten. Pure values, no I/O.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields, replace
from typing import Any

from memstrata.model import Topic, TopicMeta
from memstrata.wiki.store import meta_to_dict
from memstrata.wiki.text import clip, gist_of, title_of

ACTOR = "gardener"
PREVIEW_CHARS = 60


def fingerprint(summary: str, detail: str, meta: TopicMeta) -> str:
    """Identity of a topic's whole state: sha256 of its text and every meta field, 16 hex."""
    payload = json.dumps([summary, detail, meta_to_dict(meta)], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def fingerprint_of(topic: Topic | None) -> str:
    """The fingerprint of ``topic``; ``""`` for a topic that does not exist."""
    return "" if topic is None else fingerprint(topic.summary, topic.detail, topic.meta)


@dataclass(frozen=True, slots=True)
class TopicChange:
    """One topic's new state; ``before`` is the topic as planned from (``None``: created)."""

    topic_id: str
    before: Topic | None
    summary: str
    detail: str
    meta: TopicMeta
    op: str

    @property
    def before_hash(self) -> str:
        return fingerprint_of(self.before)

    @property
    def after_hash(self) -> str:
        return fingerprint(self.summary, self.detail, self.meta)

    def after(self) -> Topic:
        """The topic as it will be once the change is applied."""
        slug = self.topic_id.split("/", 1)[1]
        return Topic(
            self.topic_id, title_of(self.summary, slug), self.summary, self.detail, self.meta
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of the gardener: what it changes, why, and whether a person must agree."""

    phase: str
    action: str  # merge · decay · archive · split · supersede · link · undo
    topics: tuple[str, ...]  # the topics it is about, the main one first
    why: str
    preview: str
    changes: tuple[TopicChange, ...]
    #: archive, merge-away and split: proposals in propose mode
    destructive: bool = False
    #: the accepted proposal this step carries out
    proposal: str = ""
    #: the ledger step this one reverses
    undoes: str = ""

    @property
    def key(self) -> str:
        """What the step does to which states: the same key twice means it keeps recurring.

        Topics the step creates are left out: a split undone leaves its children archived, so
        the same split planned again names new ones (``…-preferences-2``), yet it is the same
        step on the same parent."""
        existing = [change for change in self.changes if change.before_hash] or self.changes
        parts = sorted(f"{change.topic_id}@{change.before_hash}" for change in existing)
        return hashlib.sha256("\x00".join((self.action, *parts)).encode()).hexdigest()[:16]


def change_of(
    topic: Topic,
    *,
    op: str,
    summary: str | None = None,
    detail: str | None = None,
    **meta_changes: Any,
) -> TopicChange:
    """A change of ``topic``: new text where given, and ``meta_changes`` applied to its meta."""
    return TopicChange(
        topic.id,
        topic,
        topic.summary if summary is None else summary,
        topic.detail if detail is None else detail,
        replace(topic.meta, **meta_changes),
        op,
    )


def meta_fields(meta: TopicMeta) -> dict[str, Any]:
    """Every field of ``meta`` but its state, as ``TopicStore.write`` takes them."""
    return {item.name: getattr(meta, item.name) for item in fields(meta) if item.name != "state"}


def preview_of(topic: Topic) -> str:
    """A short quote of a topic for reports and proposals."""
    return clip(gist_of(topic.summary) or topic.title, PREVIEW_CHARS)


def add_item(items: tuple[str, ...], *new: str) -> tuple[str, ...]:
    """``items`` with ``new`` appended, each once, order kept."""
    return tuple(dict.fromkeys((*items, *new)))
