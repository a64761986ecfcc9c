"""A ruling never brings back a side that left recall after the proposal was written.

A conflict waits for a person; meanwhile a side can be superseded (by a newer statement or by
another ruling) or archived. Closing the proposal then keeps what is live and leaves that side
as it is; keeping it is refused, since that would undo the later decision.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.gate.verdicts import Conflicted, Superseded


@pytest.fixture
def mem(workspace: Path, fixed_now):
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        yield memory


@pytest.fixture
def chain(mem: Memory):
    """ "Bob drinks tea" (a) conflicts with "Bob does not drink tea" (b); before anyone rules,
    "Bob now drinks coffee" supersedes side a."""
    tea = mem.remember("Bob drinks tea")
    denied = mem.remember("Bob does not drink tea")
    coffee = mem.remember("Bob now drinks coffee")
    assert isinstance(denied, Conflicted) and denied.other_id == tea.topic_id
    assert isinstance(coffee, Superseded) and coffee.old_id == tea.topic_id
    return tea.topic_id, coffee.topic_id, denied


def test_closing_the_other_proposal_does_not_bring_the_superseded_side_back(mem: Memory, chain):
    tea, coffee, denied = chain

    resolved = mem.resolve_proposal(denied.proposal_id, accept=False)

    assert resolved.status == "rejected"
    assert f"side a ({tea}) is superseded by {coffee} since, left as it is" in resolved.ruling
    old = mem.get_topic(tea)
    assert old.meta.state == "superseded" and old.meta.superseded_by == coffee
    assert old.meta.conflicts_with == ()  # no conflict is left open on it
    live = mem.get_topic(denied.topic_id)
    assert live.meta.state == "active" and live.meta.conflicts_with == ()
    assert mem.get_topic(coffee).meta.state == "active"


def test_keeping_the_side_a_newer_statement_superseded_is_refused_and_writes_nothing(
    mem: Memory, chain
):
    tea, _coffee, denied = chain
    before = [len(mem.topic_history(t)) for t in (tea, denied.topic_id)]

    with pytest.raises(InputError, match=f"cannot keep a: side a \\({tea}\\) is superseded"):
        mem.resolve_proposal(denied.proposal_id, accept=True, keep="a")

    assert [len(mem.topic_history(t)) for t in (tea, denied.topic_id)] == before
    assert mem.get_topic(tea).meta.state == "superseded"
    assert mem.proposal(denied.proposal_id).status == "open"


def test_keeping_the_live_side_leaves_the_superseded_one_to_its_later_replacement(
    mem: Memory, chain
):
    tea, coffee, denied = chain

    resolved = mem.resolve_proposal(denied.proposal_id, accept=True, keep="b")

    assert resolved.status == "accepted"
    assert mem.get_topic(denied.topic_id).meta.state == "active"
    assert mem.get_topic(tea).meta.superseded_by == coffee  # not re-pointed by this ruling


def test_a_side_archived_since_stays_archived_when_the_conflict_is_closed(mem: Memory, fixed_now):
    mia = mem.remember("Mia is a doctor")
    other = mem.remember("Mia is not a doctor")
    mem.archive_topic(mia.topic_id, reason="no longer relevant")

    with pytest.raises(InputError, match="restore it first"):
        mem.resolve_proposal(other.proposal_id, accept=True, keep="a")
    resolved = mem.resolve_proposal(other.proposal_id, accept=True, keep="both")

    assert f"side a ({mia.topic_id}) is archived since, left as it is" in resolved.ruling
    assert mem.get_topic(mia.topic_id).meta.state == "archived"
    assert mem.get_topic(other.topic_id).meta.state == "active"


def _cli(workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "memstrata", "--workspace", str(workspace), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_the_cli_says_which_side_it_left_as_it_is_and_refuses_to_keep_it(workspace: Path):
    for text in ("Bob drinks tea", "Bob does not drink tea", "Bob now drinks coffee"):
        assert _cli(workspace, "remember", "--json", text).returncode == 0
    (proposal,) = json.loads(_cli(workspace, "proposals", "list", "--json").stdout)

    refused = _cli(workspace, "proposals", "accept", proposal["id"], "--keep", "a")
    closed = _cli(workspace, "proposals", "reject", proposal["id"])

    assert refused.returncode == 1 and "cannot keep a" in refused.stderr
    assert "is superseded by" in refused.stderr
    assert closed.returncode == 0
    assert "left as it is" in closed.stdout
    assert json.loads(_cli(workspace, "proposals", "list", "--json").stdout) == []
