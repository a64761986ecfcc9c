"""Dedup: fold unambiguous duplicates into one topic, as the gate's merge does.

Candidates are pairs whose content words are contained in each other at ≥ 0.90 (the gardener's
similarity threshold, DESIGN.md §4; lexical: the gardener loads no embedder). A candidate is merged
only when the gate's ``relate`` calls it a duplicate *and* the words overlap at least 0.85 (the
"85 % shared core meaning"). Anything less is deferred with a note; updates and contradictions are
left to invalidate and to the gate's conflict proposals.

A merge keeps the older topic (the first statement of the fact) and folds the other into it, as
``Gate._merge`` folds a candidate: the fuller text wins, details are joined (within the cap), refs
and access add up, confidence is the max, entities, lineage and links are united. The other
topic is kept, marked superseded by the keeper.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memstrata.gate.statements import features_of
from memstrata.maintain.pairs import body_of
from memstrata.maintain.steps import Step, add_item, change_of, preview_of
from memstrata.model import Topic

if TYPE_CHECKING:
    from memstrata.maintain.run import GardenRun


def keeper_of(a: Topic, b: Topic) -> tuple[Topic, Topic]:
    """(keeper, merged away): the older topic stays."""
    return (a, b) if (a.meta.created, a.id) <= (b.meta.created, b.id) else (b, a)


def plan_merge(keeper: Topic, other: Topic, why: str, now_iso: str, detail_max_chars: int) -> Step:
    """Fold ``other`` into ``keeper``; ``other`` is kept, marked superseded by the keeper."""
    mine, theirs = features_of(body_of(keeper)).words, features_of(body_of(other)).words
    summary = other.summary if theirs > mine else keeper.summary  # the fuller one says more
    detail = keeper.detail
    extra = other.detail.strip()
    if extra and extra not in keeper.detail:
        joined = f"{keeper.detail.rstrip()}\n\n{extra}\n" if keeper.detail.strip() else extra + "\n"
        if len(joined) <= detail_max_chars:
            detail = joined
    k, o = keeper.meta, other.meta
    confidences = [value for value in (k.confidence, o.confidence) if value is not None]
    kept = change_of(
        keeper,
        op="merge",
        summary=summary,
        detail=detail,
        refs=k.refs + o.refs + 1,
        access_count=k.access_count + o.access_count,
        confidence=max(confidences) if confidences else None,
        entities=add_item(k.entities, *o.entities),
        lineage=add_item(k.lineage, *o.lineage, other.id),
        links=tuple(x for x in add_item(k.links, *o.links) if x not in (keeper.id, other.id)),
        importance=max(k.importance, o.importance),
        updated=now_iso,
    )
    merged = change_of(
        other,
        op="merge",
        state="superseded",
        superseded_by=keeper.id,
        links=add_item(o.links, keeper.id),
        updated=now_iso,
    )
    return Step(
        "dedup",
        "merge",
        (keeper.id, other.id),
        why,
        preview_of(other),
        (kept, merged),
        destructive=True,
    )


def tend_dedup(run: GardenRun) -> None:
    """Merge the unambiguous duplicates among topics new since the last run."""
    threshold = run.config.dedup.garden_containment
    core = run.config.dedup.merge_core_share
    for topic_id in run.items("dedup", run.survey.scope):
        for pair in run.words.pairs_of(topic_id, 0.0):
            topic, other = run.live(topic_id), run.live(pair.b)
            if topic is None:
                break
            if other is None or pair.containment < threshold:
                continue
            relation = run.judge.relation(topic, other)
            names = " ~ ".join(sorted((topic.id, other.id)))
            if relation.kind == "unrelated":
                run.defer(
                    f"{names}: alike (containment {pair.containment:.2f}) but {relation.reason}"
                )
                continue
            if relation.kind != "duplicate":
                continue  # an update or a contradiction: invalidate and the gate's business
            if relation.overlap < core:
                run.defer(f"{names}: near duplicates, overlap {relation.overlap:.2f} < {core}")
                continue
            if topic.meta.pinned or other.meta.pinned:
                run.defer(f"{names}: duplicates, but pinned")
                continue
            keeper, merged = keeper_of(topic, other)
            why = f"duplicate of {keeper.id}: {relation.reason}"
            run.submit(
                plan_merge(keeper, merged, why, run.now_iso, run.config.topics.detail_max_chars)
            )
