"""Restoring an archived topic brings back the state it had before it was archived, and the
history of a topic that does not exist is an error, not an empty list."""

import json
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import TopicNotFound
from tests.cli.process import run


def superseded_then_archived(memory: Memory) -> tuple[str, str]:
    """Berlin replaced by Paris through the gate, then Berlin archived: ``(old, new)`` ids."""
    old = memory.remember("Ann lives in Berlin").topic_id
    new = memory.remember("Ann lives in Paris").topic_id
    assert memory.get_topic(old).meta.state == "superseded"
    memory.archive_topic(old)
    return old, new


def test_a_superseded_topic_archived_and_restored_is_superseded_again(memory: Memory):
    old, new = superseded_then_archived(memory)

    restored = memory.restore_topic(old)

    assert restored.topic.meta.state == "superseded"
    assert restored.topic.meta.superseded_by == new
    assert restored.entry.op == "restore"
    assert [item.source for item in memory.recall("Where does Ann live?").items] == [new]


def test_a_superseded_topic_edited_while_archived_is_restored_superseded(memory: Memory):
    old, new = superseded_then_archived(memory)
    folder = memory.workspace.topic_dir(old)
    (folder / "summary.md").write_text("Ann lived in Berlin until 2024.\n")

    restored = memory.restore_topic(old)

    # its text changed, so history cannot say; meta.json still names what replaced it
    assert (restored.topic.meta.state, restored.topic.meta.superseded_by) == ("superseded", new)


def test_an_active_topic_archived_and_restored_is_active_again(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    memory.archive_topic("people/ann")

    restored = memory.restore_topic("people/ann")

    assert restored.topic.meta.state == "active"
    assert [entry.op for entry in memory.topic_history("people/ann")][-2:] == [
        "archive",
        "restore",
    ]


def test_topic_restore_says_a_topic_came_back_superseded(memory: Memory):
    old, new = superseded_then_archived(memory)
    root = str(memory.workspace.root)

    restored = run("--workspace", root, "topic", "restore", old)

    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.strip() == f"restored {old} (superseded by {new})"
    meta = json.loads((memory.workspace.topic_dir(old) / "meta.json").read_text())
    assert (meta["state"], meta["superseded_by"]) == ("superseded", new)


# -- the history of a topic that does not exist ------------------------------------------------


def test_the_history_of_no_topic_is_topic_not_found(memory: Memory):
    with pytest.raises(TopicNotFound, match="no topic 'people/nobody'"):
        memory.topic_history("people/nobody")


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_topic_history_of_no_topic_fails_as_topic_show_does(workspace: Path, json_flag: tuple):
    base = ("--workspace", str(workspace))

    history = run(*base, "topic", "history", "people/nobody", *json_flag)
    show = run(*base, "topic", "show", "people/nobody")

    assert history.returncode == show.returncode == 1
    assert history.stdout == ""
    assert history.stderr == show.stderr
    assert "no topic 'people/nobody'" in history.stderr
