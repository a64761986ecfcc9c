"""A change that spans topics is carried out whole: a writer killed at any file replace of a
supersession, a conflict or a ruling leaves either nothing done or, once the next process has
rolled its intent forward, all of it: never a superseded fact still live beside its successor,
never a conflict no proposal asks about, never a ruling applied to one side."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.gate.verdicts import Conflicted, Rejected, Superseded
from memstrata.model import Topic

#: runs one write of ``sys.argv[2]`` on the workspace ``sys.argv[1]`` and, with ``KILL_AT=N``,
#: dies (SIGKILL) just before its N-th file replace; prints how many replaces it made
WRITER = """
import json, os, signal, sys
from memstrata import Memory

kill_at = int(os.environ.get("KILL_AT", "0"))
count = 0
real_replace = os.replace

def replace(source, target, *args, **kwargs):
    global count
    count += 1
    if count == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
    return real_replace(source, target, *args, **kwargs)

os.replace = replace
call = json.loads(sys.argv[2])
with Memory(sys.argv[1], embeddings=False) as memory:
    if call["op"] == "remember":
        memory.remember(call["text"], observed=call["observed"])
    else:
        memory.resolve_proposal(call["pid"], accept=True, keep="a")
print(count)
"""

BERLIN = "2025-11-20T00:00:00Z"
#: a statement stated after Berlin's supersedes it; one stated before it conflicts
PARIS_LATER, PARIS_BEFORE = "2025-11-25T00:00:00Z", "2025-11-01T00:00:00Z"


def run_writer(workspace: Path, call: str, kill_at: int = 0) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", WRITER, str(workspace), call],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "KILL_AT": str(kill_at)},
    )


def killed_at_every_replace(set_up: Path, tmp_path: Path, call: str) -> list[Memory]:
    """One copy of ``set_up`` per file replace ``call`` makes, its writer killed there, each
    opened again (which finishes what an intent left pending)."""
    finished = run_writer(_copy(set_up, tmp_path, 0), call)
    assert finished.returncode == 0, finished.stderr
    replaces = int(finished.stdout.split()[-1])
    assert replaces > 2
    opened = []
    for kill_at in range(1, replaces + 1):
        workspace = _copy(set_up, tmp_path, kill_at)
        killed = run_writer(workspace, call, kill_at)
        assert killed.returncode == -9, killed.stderr
        memory = Memory(workspace, embeddings=False)
        memory.sync()
        opened.append(memory)
    return opened


def _copy(set_up: Path, tmp_path: Path, number: int) -> Path:
    return Path(shutil.copytree(set_up, tmp_path / f"run-{number}"))


def by_id(memory: Memory) -> dict[str, Topic]:
    return {topic.id: topic for topic in memory.list_topics()}


@pytest.fixture
def berlin(tmp_path: Path, workspace: Path) -> tuple[Path, str]:
    """A workspace that holds "Ann lives in Berlin", and that topic's id."""
    with Memory(workspace, embeddings=False) as memory:
        topic_id = memory.remember("Ann lives in Berlin", observed=BERLIN).topic_id
    return workspace, topic_id


def test_a_supersession_killed_midway_is_finished_whole_or_not_begun(berlin, tmp_path: Path):
    workspace, old_id = berlin
    with Memory(workspace, embeddings=False) as memory:
        preview = memory.remember("Ann lives in Paris", observed=PARIS_LATER, dry_run=True)
    assert isinstance(preview, Superseded)
    call = json.dumps({"op": "remember", "text": "Ann lives in Paris", "observed": PARIS_LATER})

    outcomes = set()
    for memory in killed_at_every_replace(workspace, tmp_path, call):
        topics = by_id(memory)
        old = topics[old_id]
        if preview.topic_id not in topics:
            assert old.meta.state == "active"
            outcomes.add("not begun")
        else:
            new = topics[preview.topic_id]
            assert (old.meta.state, old.meta.superseded_by) == ("superseded", new.id)
            assert (new.meta.state, new.meta.supersedes) == ("active", (old_id,))
            outcomes.add("finished")
        assert not list(memory.workspace.pending_dir.glob("*.json"))
        memory.close()
    assert outcomes == {"not begun", "finished"}


def test_a_conflict_killed_midway_never_leaves_its_sides_without_the_proposal(
    berlin, tmp_path: Path
):
    workspace, old_id = berlin
    with Memory(workspace, embeddings=False) as memory:
        preview = memory.remember("Ann lives in Paris", observed=PARIS_BEFORE, dry_run=True)
    assert isinstance(preview, Conflicted)
    call = json.dumps({"op": "remember", "text": "Ann lives in Paris", "observed": PARIS_BEFORE})

    outcomes = set()
    for memory in killed_at_every_replace(workspace, tmp_path, call):
        topics = by_id(memory)
        proposals = memory.proposals()
        if preview.topic_id not in topics:
            assert topics[old_id].meta.state == "active"
            assert proposals == []
            outcomes.add("not begun")
        else:
            old, new = topics[old_id], topics[preview.topic_id]
            assert (old.meta.state, old.meta.conflicts_with) == ("conflict", (new.id,))
            assert (new.meta.state, new.meta.conflicts_with) == ("conflict", (old_id,))
            [proposal] = proposals
            assert (proposal.id, proposal.status) == (preview.proposal_id, "open")
            outcomes.add("finished")
        memory.close()
    assert outcomes == {"not begun", "finished"}


def test_a_ruling_killed_midway_is_applied_to_both_sides_or_to_neither(berlin, tmp_path: Path):
    workspace, old_id = berlin
    with Memory(workspace, embeddings=False) as memory:
        verdict = memory.remember("Ann lives in Paris", observed=PARIS_BEFORE)
    assert isinstance(verdict, Conflicted)
    call = json.dumps({"op": "rule", "pid": verdict.proposal_id})

    outcomes = set()
    for memory in killed_at_every_replace(workspace, tmp_path, call):
        topics = by_id(memory)
        kept, other = topics[old_id], topics[verdict.topic_id]  # side a is the stored topic
        proposal = memory.proposal(verdict.proposal_id)
        if proposal.status == "open":
            assert (kept.meta.state, other.meta.state) == ("conflict", "conflict")
            outcomes.add("not begun")
        else:
            assert proposal.status == "accepted"
            assert (kept.meta.state, kept.meta.conflicts_with) == ("active", ())
            assert (other.meta.state, other.meta.superseded_by) == ("superseded", old_id)
            outcomes.add("finished")
        memory.close()
    assert outcomes == {"not begun", "finished"}


def test_a_file_outside_the_workspace_is_refused_before_any_topic_is_written(memory: Memory):
    from memstrata.wiki.store import TopicEdit

    edit = TopicEdit("people/ann", "Design lead.", actor="user")
    outside = memory.workspace.root.parent / "elsewhere.md"

    with pytest.raises(ValueError, match="outside the workspace"):
        memory.topics.write_together([edit], {outside: "text"})

    assert memory.list_topics() == []
    assert not outside.exists()


def test_superseding_a_topic_that_is_superseded_already_names_its_successor(memory: Memory):
    old = memory.remember("The staging database is on host db1")
    new = memory.remember("Staging moved to the new cluster", supersedes=old.topic_id)

    again = memory.remember("Staging is on the blue cluster", supersedes=old.topic_id)

    assert isinstance(again, Rejected)
    assert f"superseded already by {new.topic_id}" in again.reason
    assert f"supersede {new.topic_id} instead" in again.reason
    assert memory.get_topic(new.topic_id).meta.state == "active"
