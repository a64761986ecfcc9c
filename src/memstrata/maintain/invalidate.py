"""Invalidate: a later statement of the same subject and attribute supersedes the earlier one.

Unambiguous, and so carried out in both modes (superseding hides nothing: the old topic is kept,
marked, linked both ways, and recall shows it when asked): two single-statement topics that the
gate's ``relate`` calls an update, where the difference is an exact detail — a number, a date, a
name, or a polarity with a marker of change ("no longer") — and one was stated later than the
other. Updates by other words ("prefers cortado" / "prefers flat white"), statements inside
multi-statement pages, and pairs stated at the same time are deferred with a note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memstrata.gate.compare import detail_difference
from memstrata.gate.statements import features_of
from memstrata.maintain.pairs import body_of, newer_first, single_statement, stated
from memstrata.maintain.steps import Step, add_item, change_of, preview_of
from memstrata.model import Topic

if TYPE_CHECKING:
    from memstrata.maintain.run import GardenRun

EXACT_DETAILS = ("number", "date", "name")


def clear_detail(newer: Topic, older: Topic) -> str:
    """The exact detail that changed (``""`` when the change is only in other words)."""
    a, b = features_of(body_of(newer)), features_of(body_of(older))
    difference = detail_difference(a, b)
    if difference in EXACT_DETAILS:
        return str(difference)
    if difference == "negation" and (a.change_marked or b.change_marked):
        return "polarity, marked as a change"
    return ""


def plan_supersede(newer: Topic, older: Topic, why: str, now_iso: str) -> Step:
    """Mark ``older`` superseded by ``newer``, linked both ways; neither text changes."""
    new = change_of(
        newer,
        op="supersede",
        supersedes=add_item(newer.meta.supersedes, older.id),
        links=add_item(newer.meta.links, older.id),
    )
    old = change_of(
        older,
        op="supersede",
        state="superseded",
        superseded_by=newer.id,
        links=add_item(older.meta.links, newer.id),
        updated=now_iso,
    )
    return Step("invalidate", "supersede", (older.id, newer.id), why, preview_of(older), (old, new))


def tend_invalidate(run: GardenRun) -> None:
    """Supersede earlier statements that a later one clearly replaces."""
    for topic_id in run.items("invalidate", run.survey.scope):
        for pair in run.words.pairs_of(topic_id, run.min_pair_overlap):
            topic, other = run.live(topic_id), run.live(pair.b)
            if topic is None:
                break
            if other is None:
                continue
            relation = run.judge.relation(topic, other)
            if relation.kind != "update":
                continue
            newer, older = newer_first(topic, other)
            names = f"{older.id} → {newer.id}"
            detail = clear_detail(newer, older)
            if stated(newer) == stated(older):
                run.defer(f"{names}: {relation.reason}, but stated at the same time")
            elif not (single_statement(newer) and single_statement(older)):
                run.defer(f"{names}: {relation.reason}, inside a page of several statements")
            elif not detail:
                run.defer(f"{names}: may be a newer value ({relation.reason})")
            elif older.meta.pinned:
                run.defer(f"{names}: {relation.reason}, but {older.id} is pinned")
            else:
                why = (
                    f"superseded by {newer.id}: same statement with another {detail}, "
                    f"stated later ({stated(newer)})"
                )
                run.submit(plan_supersede(newer, older, why, run.now_iso))
