"""``memory/topics/_index.json`` is derived from the topic files: one that is damaged or missing
is rebuilt from them, by the next read and by the next write, never patched from nothing."""

import json

import pytest

from memstrata import Memory
from tests.cli.process import run

TOPICS = {
    "people/ann": "# Ann\nDesign lead.",
    "people/bob": "# Bob\nBackend engineer.",
    "projects/billing": "# Billing\nPayments backend.",
}


@pytest.fixture
def wiki(memory: Memory) -> Memory:
    for topic_id, summary in TOPICS.items():
        memory.write_topic(topic_id, summary)
    return memory


def listed(memory: Memory) -> list[str]:
    """The ids ``_index.json`` lists (it must parse)."""
    return [row["id"] for row in json.loads(memory.workspace.index_json.read_text())["topics"]]


def damage(memory: Memory) -> None:
    memory.workspace.index_json.write_text("{oops\n")


def test_a_damaged_index_file_is_rebuilt_from_the_topic_files_by_the_next_read(wiki: Memory):
    damage(wiki)

    view = wiki.index_view()

    assert view.shown == 3 and all(topic_id in view.text for topic_id in TOPICS)
    assert listed(wiki) == sorted(TOPICS)


def test_a_write_after_the_index_file_was_damaged_keeps_every_other_topic_in_it(wiki: Memory):
    damage(wiki)

    # the store alone, without the sync a read does first: the write itself rebuilds the file
    wiki.topics.write("people/cleo", "# Cleo\nLikes sushi.", actor="user")

    assert listed(wiki) == sorted([*TOPICS, "people/cleo"])


def test_a_missing_index_file_is_rebuilt_by_the_next_write(wiki: Memory):
    wiki.workspace.index_json.unlink()

    wiki.topics.write("people/cleo", "# Cleo\nLikes sushi.", actor="user")

    assert listed(wiki) == sorted([*TOPICS, "people/cleo"])


def test_a_missing_index_file_is_rebuilt_by_the_next_read(wiki: Memory):
    wiki.workspace.index_json.unlink()

    assert wiki.context().text.count("\n- ") == 3
    assert listed(wiki) == sorted(TOPICS)


def test_a_read_in_a_workspace_without_topics_writes_no_index_file(memory: Memory):
    memory.context()

    assert not memory.workspace.index_json.exists()


def test_context_and_status_work_after_the_index_file_was_damaged(wiki: Memory):
    root = wiki.workspace.root
    damage(wiki)

    context = run("--workspace", str(root), "context")
    status = run("--workspace", str(root), "status")

    assert context.returncode == 0, context.stderr
    assert all(topic_id in context.stdout for topic_id in TOPICS)
    assert status.returncode == 0 and "problem" not in status.stderr
    assert listed(wiki) == sorted(TOPICS)


def test_the_cli_remember_after_damage_keeps_every_topic_in_the_index(wiki: Memory):
    root = wiki.workspace.root
    damage(wiki)

    remembered = run("--workspace", str(root), "remember", "Paul likes sushi")

    assert remembered.returncode == 0, remembered.stderr
    assert set(TOPICS) < set(listed(wiki)) and len(listed(wiki)) == 4
