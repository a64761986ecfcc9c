"""Carrying out a person's ruling on a proposal; every ruling goes into the topics' history.

The gardener's proposals (archive, merge, split) are only marked accepted or rejected here: the
next ``garden`` run carries an accepted one out, once, if its topics are still as proposed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from memstrata.clock import to_iso
from memstrata.errors import InputError
from memstrata.gate.admit import Candidate, Gate
from memstrata.gate.verdicts import Verdict, verdict_name
from memstrata.model import Proposal, Topic, TopicState
from memstrata.proposals import GARDEN_KINDS, render_proposal
from memstrata.wiki.store import TopicEdit

Keep = Literal["a", "b", "both"]


def rule_on(
    gate: Gate, pid: str, accept: bool, keep: Keep | None = None, actor: str = "user"
) -> Proposal:
    """Accept (with ``keep`` for conflicts) or reject proposal ``pid``; return it resolved.

    Accepting a conflict needs ``keep``: "accept" alone does not say which side stands, and a
    guess would either supersede a side nobody chose or quietly do what a rejection does."""
    proposal = gate.proposals.get(pid)
    if proposal.status != "open":
        raise InputError(f"{pid} is already {proposal.status} ({proposal.ruling})")
    now = to_iso(gate.clock())
    if keep is not None and proposal.kind != "conflict":
        raise InputError(f"{pid} is a {proposal.kind} proposal: keep is for conflicts only")
    if proposal.kind == "quarantine":
        if not accept:
            return gate.proposals.resolve(pid, "rejected", "kept out of memory", now)
        verdict = _admit_quarantined(gate, proposal, actor)
        return gate.proposals.resolve(
            pid, "accepted", f"stored through the gate ({verdict_name(verdict)})", now
        )
    if proposal.kind in GARDEN_KINDS:
        # The gardener carries accepted steps out on its next run, under its hash checks.
        if accept:
            return gate.proposals.resolve(
                pid, "accepted", "the next garden run carries it out", now
            )
        return gate.proposals.resolve(pid, "rejected", "left as it is", now)
    sides = {side.label: side.topic_id for side in proposal.sides}
    if not accept and keep in ("a", "b"):
        # a rejection keeps both: taking keep a for it would record the opposite of the intent
        raise InputError(
            f"{pid}: rejecting keeps both sides; to keep only {keep}, accept with keep {keep}"
        )
    if accept and keep is None:
        raise InputError(
            f"{pid} is a conflict: say which side stands, keep a ({sides['a']}), "
            f"b ({sides['b']}) or both (--keep on the command line)"
        )
    if accept and keep not in ("a", "b", "both"):
        raise InputError(f"--keep must be a, b or both, not {keep!r}")
    ruling = keep if accept and keep else "both"
    # Every side is checked before anything is written: a ruling is carried out whole or not
    # at all. A side whose topic is gone (deleted by hand) cannot be kept or superseded, but
    # the proposal can still be closed, keeping what is left.
    gone = {
        label: topic_id for label, topic_id in sides.items() if not gate.topics.exists(topic_id)
    }
    if gone and ruling != "both":
        raise InputError(
            f"{pid}: cannot keep {ruling}: {_gone(gone)}; reject the proposal (or accept it "
            "with keep both) to close it and keep what is left"
        )
    # A side that left recall since the proposal was written (superseded by a newer statement
    # or another ruling, archived) is not brought back by this one: that would undo a later
    # decision. It cannot be kept; closing the proposal leaves it as it is.
    past = {
        label: topic
        for label, topic_id in sides.items()
        if topic_id not in gone.values()
        and (topic := gate.topics.get(topic_id)).meta.state in ("superseded", "archived")
    }
    if ruling in past:
        topic = past[ruling]
        again = (
            f"restore it first (memstrata topic restore {topic.id}), or "
            if topic.meta.state == "archived"
            else ""
        )
        raise InputError(
            f"{pid}: cannot keep {ruling}: {_past(past)[ruling]}; {again}reject the proposal "
            "(or accept it with keep both) to close it and keep what is live"
        )
    why = f"ruling on {pid}: keep {ruling}"
    if ruling == "both":
        edits = [
            _edit(gate, topic_id, "active", why, actor, clear_conflict=tuple(sides.values()))
            for label, topic_id in sides.items()
            if topic_id not in gone.values() and label not in past
        ]
    else:
        winner, loser = sides[ruling], sides["b" if ruling == "a" else "a"]
        edits = [_edit(gate, winner, "active", why, actor, clear_conflict=(loser,))]
        if loser not in gone.values() and _other(ruling) not in past:
            edits.append(
                _edit(gate, loser, "superseded", why, actor, (winner,), superseded_by=winner)
            )
    for topic in past.values():
        # out of recall already: only the conflict is cleared, its state stays
        edits.append(
            _edit(
                gate, topic.id, topic.meta.state, why, actor, clear_conflict=tuple(sides.values())
            )
        )
    left = [_gone(gone)] if gone else []
    left += [f"{note}, left as it is" for note in _past(past).values()]
    closed = f"kept {ruling}" + "".join(f"; {note}" for note in left)
    resolved = replace(
        proposal, status="accepted" if accept else "rejected", ruling=closed, resolved=now
    )
    # one change: both sides and the closed proposal, so a crash never leaves it half ruled
    gate.topics.write_together(edits, {gate.proposals.path(pid): render_proposal(resolved)})
    for edit in edits:
        gate.on_write(edit.topic_id)
    return resolved


def _gone(gone: dict[str, str]) -> str:
    """``side a (notes/x) is gone``, or ``sides a (…) and b (…) are gone``."""
    named = " and ".join(f"{label} ({topic_id})" for label, topic_id in sorted(gone.items()))
    return f"side {named} is gone" if len(gone) == 1 else f"sides {named} are gone"


def _other(label: str) -> str:
    return "b" if label == "a" else "a"


def _past(past: dict[str, Topic]) -> dict[str, str]:
    """``side a (notes/x) is superseded by notes/y since`` for each side out of recall."""
    notes: dict[str, str] = {}
    for label, topic in sorted(past.items()):
        by = f" by {topic.meta.superseded_by}" if topic.meta.superseded_by else ""
        state = f"{topic.meta.state}{by}" if topic.meta.state == "superseded" else "archived"
        notes[label] = f"side {label} ({topic.id}) is {state} since"
    return notes


def _edit(
    gate: Gate,
    topic_id: str,
    state: TopicState,
    why: str,
    actor: str,
    clear_conflict: tuple[str, ...],
    superseded_by: str = "",
) -> TopicEdit:
    topic = gate.topics.get(topic_id)
    remaining = tuple(item for item in topic.meta.conflicts_with if item not in clear_conflict)
    changes: dict[str, object] = {"conflicts_with": remaining}
    if superseded_by:
        changes["superseded_by"] = superseded_by
    new_state: TopicState = "conflict" if remaining and state == "active" else state
    return TopicEdit(
        topic_id,
        topic.summary,
        actor=actor,
        reason=why,
        state=new_state,
        meta_changes=changes,
        op="ruling",
    )


def _admit_quarantined(gate: Gate, proposal: Proposal, actor: str) -> Verdict:
    """A person vouched for the text: it goes through the gate again, minus the injection check."""
    candidate = Candidate(
        proposal.text, source=proposal.source or f"proposal {proposal.id}", actor=actor
    )
    return gate.admit(candidate, trusted=True)
