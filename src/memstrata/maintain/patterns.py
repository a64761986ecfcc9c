"""Cross-topic patterns for ``garden --dry-run``: names in several topics, stale markers, conflicts.

A read-only scan; it changes nothing and costs no budget.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime

from memstrata.maintain.decay import STALE_MARKER
from memstrata.maintain.reconnect import LIVE, entities_of
from memstrata.maintain.survey import days_since
from memstrata.model import Proposal, Topic

MIN_TOPICS_FOR_A_NAME = 3
MAX_NAMES = 20


def patterns_of(
    topics: Mapping[str, Topic], proposals: Iterable[Proposal], now: datetime
) -> list[str]:
    """One line per pattern, the strongest first."""
    holders: dict[str, list[str]] = defaultdict(list)
    lines: list[str] = []
    for topic in sorted(topics.values(), key=lambda t: t.id):
        if topic.meta.state not in LIVE:
            continue
        for name in entities_of(topic):
            holders[name].append(topic.id)
    names = sorted(
        ((name, ids) for name, ids in holders.items() if len(ids) >= MIN_TOPICS_FOR_A_NAME),
        key=lambda item: (-len(item[1]), item[0]),
    )
    for name, ids in names[:MAX_NAMES]:
        shown = ", ".join(ids[:4]) + (", …" if len(ids) > 4 else "")
        lines.append(f"name “{name}” in {len(ids)} topics: {shown}")
    for topic in sorted(topics.values(), key=lambda t: t.id):
        if topic.meta.state in LIVE and (
            STALE_MARKER in topic.summary or STALE_MARKER in topic.detail
        ):
            lines.append(
                f"stale marker in {topic.id} (updated "
                f"{days_since(topic.meta.updated, now)} days ago)"
            )
    pairs = sorted(
        {
            tuple(sorted((topic.id, other)))
            for topic in topics.values()
            if topic.meta.state == "conflict"
            for other in topic.meta.conflicts_with
        }
    )
    lines.extend(f"conflict: {one} ↔ {other}" for one, other in pairs)  # each pair once
    for proposal in proposals:
        if proposal.status == "open" and proposal.kind == "conflict":
            sides = " vs ".join(side.topic_id for side in proposal.sides)
            lines.append(f"open conflict proposal {proposal.id}: {sides}")
    return lines
