"""Decay: cold topics lose importance step by step; the coldest are archived, never deleted.

For each active, unpinned topic, the first rule that holds (DESIGN.md §4 defaults):

1. a ``lessons/`` topic unused for 30 days                         → archive
2. marked ``<!-- stale -->`` for more than 7 days                  → archive
3. unused (not updated, not recalled) for 90 days                  → archive
4. no activity for 30 days (updated, recalled or decayed)          → importance − 1, never below
   the floor (1); the decay itself counts as activity, so one step per 30 idle days
5. more than ``max_active`` (100) active topics after the above    → the coldest are archived:
   lowest importance first, then least recently used; a topic created less than 30 days
   (``decay_after_days``) before ``now`` is too new to call cold and is never among them, so
   the cap may stay exceeded until the newcomers have had one decay window to be recalled

Archives are destructive (proposals in propose mode); an importance step is not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from memstrata.config import Config
from memstrata.maintain.steps import Step, change_of, preview_of
from memstrata.maintain.survey import days_since, last_activity, last_use, older_than
from memstrata.model import IMPORTANCE_FLOOR, Topic
from memstrata.recall.access import Access

if TYPE_CHECKING:
    from memstrata.maintain.run import GardenRun

STALE_MARKER = "<!-- stale"
STALE_MARKER_DAYS = 7
LESSONS = "lessons"


@dataclass(frozen=True, slots=True)
class Decision:
    """What decay does to one topic, and why."""

    topic_id: str
    action: str  # "archive" or "decay"
    why: str


def plan_decay_phase(
    topics: Mapping[str, Topic],
    access: Mapping[str, Access],
    marked_since: Callable[[str], str],
    now: datetime,
    config: Config,
) -> list[Decision]:
    """Every decision, coldest topic first; ``marked_since(id)`` says when a marker was set."""
    active = [t for t in topics.values() if t.meta.state == "active"]
    active.sort(key=lambda t: (last_activity(t, access.get(t.id)), t.id))
    decisions: dict[str, Decision] = {}
    for topic in active:
        if topic.meta.pinned:
            continue
        found = _decide(topic, access.get(topic.id), marked_since, now, config)
        if found is not None:
            decisions[topic.id] = found
    archived = sum(1 for d in decisions.values() if d.action == "archive")
    excess = len(active) - archived - config.topics.max_active
    if excess > 0:
        coldest = sorted(
            (
                t
                for t in active
                if not t.meta.pinned
                and _kept(decisions.get(t.id))
                and not is_too_new_to_be_cold(t, now, config)
            ),
            key=lambda t: (t.meta.importance, last_use(t, access.get(t.id)), t.id),
        )
        for topic in coldest[:excess]:
            decisions[topic.id] = Decision(
                topic.id,
                "archive",
                f"one of the {excess} coldest of {len(active) - archived} active topics "
                f"(cap {config.topics.max_active})",
            )
    order = {t.id: position for position, t in enumerate(active)}
    return sorted(decisions.values(), key=lambda d: order[d.topic_id])


def is_too_new_to_be_cold(topic: Topic, now: datetime, config: Config) -> bool:
    """``topic`` was created within one decay window (``garden.decay_after_days``) of ``now``.

    Coldness is read from use, and a topic written minutes ago has had no chance to be used:
    its lowest importance and oldest use would make it the "coldest" the day it is learnt.
    The window counts from creation, not the last edit: an old topic edited today has had its
    chance. No ``created``: from ``updated``; no time at all: never cold, as in the rules above.
    """
    born = topic.meta.created or topic.meta.updated
    return not older_than(born, now, config.garden.decay_after_days)


def over_cap(topics: Mapping[str, Topic], decisions: Sequence[Decision], config: Config) -> int:
    """How many active topics stay over ``max_active`` once ``decisions`` are carried out."""
    active = sum(1 for topic in topics.values() if topic.meta.state == "active")
    archived = sum(1 for decision in decisions if decision.action == "archive")
    return max(0, active - archived - config.topics.max_active)


def _kept(decision: Decision | None) -> bool:
    return decision is None or decision.action != "archive"


def _decide(
    topic: Topic,
    use: Access | None,
    marked_since: Callable[[str], str],
    now: datetime,
    config: Config,
) -> Decision | None:
    used = last_use(topic, use)
    if topic.namespace == LESSONS and older_than(used, now, config.garden.decay_after_days):
        return Decision(topic.id, "archive", f"lesson not used for {days_since(used, now)} days")
    if STALE_MARKER in topic.summary or STALE_MARKER in topic.detail:
        since = marked_since(topic.id)
        if older_than(since, now, STALE_MARKER_DAYS):
            return Decision(topic.id, "archive", f"marked stale {days_since(since, now)} days ago")
    if older_than(used, now, config.recall.stale_after_days):
        return Decision(topic.id, "archive", f"not used for {days_since(used, now)} days")
    active_at = last_activity(topic, use)
    if older_than(active_at, now, config.garden.decay_after_days) and (
        topic.meta.importance > IMPORTANCE_FLOOR
    ):
        return Decision(
            topic.id,
            "decay",
            f"no use for {days_since(active_at, now)} days: importance "
            f"{topic.meta.importance} → {topic.meta.importance - 1}",
        )
    return None


def plan_decay(topic: Topic, why: str, now_iso: str) -> Step:
    """One importance step down; ``updated`` is kept (housekeeping is not news)."""
    change = change_of(topic, op="decay", importance=topic.meta.importance - 1, decayed=now_iso)
    return Step("decay", "decay", (topic.id,), why, preview_of(topic), (change,))


def plan_archive(topic: Topic, why: str, now_iso: str, phase: str = "decay") -> Step:
    """Archive: the topic leaves recall and the index, and stays on disk with its history."""
    change = change_of(topic, op="archive", state="archived", updated=now_iso)
    return Step(phase, "archive", (topic.id,), why, preview_of(topic), (change,), destructive=True)


def tend_decay(run: GardenRun) -> None:
    """Lower, or archive, the coldest topics first."""

    def marked_since(topic_id: str) -> str:
        # The marker has been there at least since the last change of the text.
        history = run.memory.topics.history(topic_id)
        updated = run.view[topic_id].meta.updated
        return max(updated, history[-1].time) if history else updated

    decisions = plan_decay_phase(run.view, run.survey.access, marked_since, run.now, run.config)
    left = over_cap(run.view, decisions, run.config)
    if left:
        # Said, not silent: a cap that is not held would otherwise look like a bug.
        run.defer(
            f"topics: {left} active over the cap of {run.config.topics.max_active} left as they "
            f"are: pinned, or created less than {run.config.garden.decay_after_days} days ago "
            "(too new to call cold)"
        )
    by_id = {decision.topic_id: decision for decision in decisions}
    for topic_id in run.items("decay", list(by_id)):
        topic = run.live(topic_id)
        if topic is None:
            continue
        decision = by_id[topic_id]
        if decision.action == "archive":
            run.submit(plan_archive(topic, decision.why, run.now_iso))
        else:
            run.submit(plan_decay(topic, decision.why, run.now_iso))
