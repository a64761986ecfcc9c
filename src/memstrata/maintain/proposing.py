"""Destructive steps as proposals, and accepted proposals back as steps — carried out once.

In propose mode an archive, a merge or a split is written to ``memory/proposals/<id>.md``
instead of being done. Its id is a hash of the kind and of each topic's id and content hash, so
proposing the same thing again finds the same file (and a rejected one is never proposed again),
while a topic that changed gets a fresh proposal.

After ``memstrata proposals accept``, the next run re-plans the step from the topics as they are.
If they still have the content they were proposed with (the id comes out the same), the step is
carried out, its ledger line names the proposal, and the proposal's ruling says so — the ledger is
what makes it exactly once. Otherwise the proposal lapses, with the reason in its ruling.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from memstrata.config import Config
from memstrata.maintain.decay import plan_archive
from memstrata.maintain.dedup import plan_merge
from memstrata.maintain.split import plan_split
from memstrata.maintain.steps import Step
from memstrata.model import Proposal, ProposalSide, Topic
from memstrata.proposals import proposal_id
from memstrata.wiki.text import content_hash

CARRIED_OUT = "carried out"
LAPSED = "lapsed"


def step_proposal_id(step: Step) -> str:
    parts = [
        f"{change.topic_id}@"
        + content_hash(change.before.summary, change.before.detail, change.before.meta.state)
        for change in step.changes
        if change.before is not None
    ]
    return proposal_id(step.action, *parts)  # type: ignore[arg-type]


def proposal_for(step: Step, now_iso: str, run_id: str) -> Proposal:
    """The proposal a person reads for ``step``."""
    sides = [
        ProposalSide(
            label,
            change.topic_id,
            change.before.summary,
            change.before.meta.observed or change.before.meta.created,
            ", ".join(change.before.meta.lineage),
        )
        for label, change in zip(
            "ab", [c for c in step.changes if c.before is not None], strict=False
        )
    ]
    text = ""
    if step.action == "split":
        text = "\n".join(
            f"- {change.topic_id}: {change.summary.splitlines()[0].lstrip('# ')}"
            for change in step.changes
            if change.before is None
        )
    return Proposal(
        id=step_proposal_id(step),
        kind=step.action,  # type: ignore[arg-type]
        status="open",
        created=now_iso,
        reason=f"The gardener proposes to {step.action} ({step.why}).",
        sides=tuple(sides),
        text=text,
        source=f"garden run {run_id}",
    )


def is_settled(proposal: Proposal) -> bool:
    """Carried out or lapsed already: nothing left to do for it."""
    return proposal.ruling.startswith((CARRIED_OUT, LAPSED))


def replan(
    proposal: Proposal, view: Mapping[str, Topic], now_iso: str, config: Config
) -> Step | str:
    """The accepted proposal as a step on the topics as they are now, or why it lapsed."""
    sides = {side.label: side.topic_id for side in proposal.sides}
    topics: dict[str, Topic] = {}
    for label, topic_id in sides.items():
        topic = view.get(topic_id)
        if topic is None or topic.meta.state != "active":
            return f"{topic_id} is no longer active"
        topics[label] = topic
    why = f"accepted {proposal.id}"
    step: Step | str
    if proposal.kind == "archive":
        step = plan_archive(topics["a"], why, now_iso)
    elif proposal.kind == "merge":
        step = plan_merge(topics["a"], topics["b"], why, now_iso, config.topics.detail_max_chars)
    elif proposal.kind == "split":
        step = plan_split(topics["a"], view.keys(), now_iso, config)
    else:
        return f"not a gardener proposal ({proposal.kind})"
    if isinstance(step, str):
        return step
    if step_proposal_id(step) != proposal.id:
        return "a topic changed since it was proposed"
    return replace(
        step,
        why=f"{why}: {step.why}" if proposal.kind == "split" else step.why,
        proposal=proposal.id,
    )
