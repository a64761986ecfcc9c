"""Reconnect: an orphan (no links either way) is linked to the one clearly right topic.

A topic's entities are its ``entities`` meta, its ``@mentions`` and, for an ``entities/`` page,
its title. The clearly right topic is, in order:

1. the one live topic whose slug *is* one of the orphan's entities (``people/ann`` for ``@Ann``);
2. else the one live topic sharing strictly more of its entities than any other.

Two pages, or a tie, is ambiguous: left as it is and noted. An orphan sharing no entity with any
topic is left alone. At most ``max_reconnects`` (10) links a run; only the orphan is written.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING

from memstrata.journal.parse import find_entities
from memstrata.maintain.steps import Step, add_item, change_of, preview_of
from memstrata.model import Topic
from memstrata.workspace.names import slugify

if TYPE_CHECKING:
    from memstrata.maintain.run import GardenRun

LIVE = ("active", "conflict")


def entities_of(topic: Topic) -> frozenset[str]:
    names = [*topic.meta.entities, *find_entities(f"{topic.summary}\n{topic.detail}")]
    if topic.namespace == "entities":
        names.append(topic.title)
    return frozenset(name.casefold() for name in names if name.strip())


def orphans(topics: Mapping[str, Topic]) -> list[str]:
    """Active topics with no link out and none in from a live topic, oldest first."""
    linked = {dst for t in topics.values() if t.meta.state in LIVE for dst in t.meta.links}
    found = [
        t
        for t in topics.values()
        if t.meta.state == "active" and not t.meta.links and t.id not in linked
    ]
    found.sort(key=lambda t: (t.meta.created, t.id))
    return [t.id for t in found]


class EntityMap:
    """Which live topics hold each entity, and which topics are pages of one."""

    def __init__(self, topics: Mapping[str, Topic]) -> None:
        self.holders: dict[str, set[str]] = defaultdict(set)
        self.pages: dict[str, set[str]] = defaultdict(set)
        for topic in topics.values():
            if topic.meta.state not in LIVE:
                continue
            self.pages[topic.slug].add(topic.id)
            for name in entities_of(topic):
                self.holders[name].add(topic.id)

    def choose(self, orphan: Topic) -> str | tuple[str]:
        """The target's id, ``("why",)`` when ambiguous, or ``""`` when there is none."""
        names = entities_of(orphan)
        if not names:
            return ""
        pages = sorted(
            {
                page
                for name in names
                for page in self.pages.get(slugify(name), ())
                if page != orphan.id
            }
        )
        if len(pages) == 1:
            return pages[0]
        if pages:
            return (f"pages for several of its entities ({', '.join(pages[:3])})",)
        shared: Counter[str] = Counter()
        for name in names:
            shared.update(holder for holder in self.holders.get(name, ()) if holder != orphan.id)
        if not shared:
            return ""
        ranked = shared.most_common()
        if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
            tied = sorted(topic for topic, count in ranked if count == ranked[0][1])
            return (f"{len(tied)} topics share as many entities ({', '.join(tied[:3])})",)
        return ranked[0][0]


def plan_link(orphan: Topic, target: str, why: str) -> Step:
    """Link ``orphan`` to ``target``; ``updated`` is kept (housekeeping is not news)."""
    change = change_of(orphan, op="link", links=add_item(orphan.meta.links, target))
    return Step("reconnect", "link", (orphan.id, target), why, preview_of(orphan), (change,))


def tend_reconnect(run: GardenRun) -> None:
    """Link up to ``max_reconnects`` orphans to their one clearly right topic."""
    entity_map = EntityMap(run.view)
    done = 0
    linked: set[str] = set()  # targets linked to in this run are no longer orphans
    for topic_id in run.items("reconnect", orphans(run.view)):
        orphan = run.live(topic_id)
        if orphan is None or orphan.meta.links or topic_id in linked:
            continue
        target = entity_map.choose(orphan)
        if isinstance(target, tuple):
            run.defer(f"{topic_id}: orphan, ambiguous: {target[0]}")
            continue
        if not target:
            continue
        if done >= run.config.garden.max_reconnects:
            run.defer(
                f"{topic_id}: orphan, left for the next run (≤ "
                f"{run.config.garden.max_reconnects} reconnects a run)"
            )
            continue
        why = f"orphan; {target} is the one topic about its entities"
        if run.submit(plan_link(orphan, target, why)) == "executed":
            done += 1
            linked.add(target)
