"""A person's ruling on a conflict: applied to every side, or to none."""

import shutil
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError


@pytest.fixture
def mem(workspace: Path, fixed_now):
    with Memory(workspace, clock=lambda: fixed_now) as memory:
        yield memory


@pytest.fixture
def conflict(mem: Memory):
    """A conflict proposal between "Mia is a doctor" (a) and "Mia is not a doctor" (b)."""
    mem.remember("Mia is a doctor")
    return mem.remember("Mia is not a doctor")


def _remove_topic(mem: Memory, topic_id: str) -> None:
    shutil.rmtree(mem.workspace.topic_dir(topic_id))


def _history(mem: Memory, topic_id: str) -> list[str]:
    return [entry.op for entry in mem.topic_history(topic_id)]


@pytest.mark.parametrize("keep", ["a", "b"])
def test_keeping_one_side_when_a_side_is_gone_writes_nothing(mem: Memory, conflict, keep):
    _remove_topic(mem, conflict.other_id)  # side a
    before = _history(mem, conflict.topic_id)

    with pytest.raises(InputError, match=f"side a \\({conflict.other_id}\\) is gone"):
        mem.resolve_proposal(conflict.proposal_id, accept=True, keep=keep)

    assert _history(mem, conflict.topic_id) == before  # no "ruling" line on the other side
    assert mem.get_topic(conflict.topic_id).meta.state == "conflict"
    assert mem.proposal(conflict.proposal_id).status == "open"


@pytest.mark.parametrize(
    ("accept", "keep", "status"), [(False, None, "rejected"), (True, "both", "accepted")]
)
def test_a_conflict_whose_side_is_gone_can_still_be_closed(
    mem: Memory, conflict, accept, keep, status
):
    _remove_topic(mem, conflict.other_id)

    resolved = mem.resolve_proposal(conflict.proposal_id, accept=accept, keep=keep)

    assert resolved.status == status
    assert f"side a ({conflict.other_id}) is gone" in resolved.ruling
    remaining = mem.get_topic(conflict.topic_id)
    assert remaining.meta.state == "active" and remaining.meta.conflicts_with == ()
    assert _history(mem, conflict.topic_id)[-1] == "ruling"
    assert mem.proposals("open") == []


def test_a_conflict_whose_sides_are_both_gone_can_be_rejected(mem: Memory, conflict):
    _remove_topic(mem, conflict.other_id)
    _remove_topic(mem, conflict.topic_id)

    resolved = mem.resolve_proposal(conflict.proposal_id, accept=False)

    assert resolved.status == "rejected" and "are gone" in resolved.ruling
