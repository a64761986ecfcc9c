"""Overwriting a topic loses nothing: its history line keeps the text the change replaced.

The files hold only the newest text; ``history.jsonl`` is append-only and names every version
by a hash, and a change of the text also keeps, under ``replaced``, the text of the version it
replaced. ``topic history`` shows it, ``topic show --version`` reads it and ``topic restore
--version`` brings it back. History lines written before (hashes only) load as they always did.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.wiki.store import TopicText
from memstrata.wiki.text import content_hash
from tests.cli.process import run
from tests.conftest import REPO

TEA, CORTADO = "# Ann\nLikes tea.\n", "# Ann\nLikes cortado.\n"


def test_writing_over_a_topic_keeps_the_text_it_replaced(memory: Memory):
    first = memory.write_topic("people/ann", TEA, "Met at the 2019 offsite.")
    memory.write_topic("people/ann", CORTADO, "", reason="changed her mind")

    created, updated = memory.topic_history_records("people/ann")

    assert created.replaced is None  # nothing was replaced
    assert updated.entry.before == first.entry.after
    assert updated.replaced == TopicText(TEA, "Met at the 2019 offsite.")
    assert memory.topic_version("people/ann", first.entry.after) == updated.replaced


def test_a_change_of_state_alone_keeps_no_text(memory: Memory):
    memory.write_topic("people/ann", TEA)

    memory.archive_topic("people/ann")

    assert memory.topic_history_records("people/ann")[-1].replaced is None


def test_topic_restore_version_brings_back_an_overwritten_text(workspace: Path):
    base = ("--workspace", str(workspace))
    run(*base, "topic", "write", "people/ann", "--summary-file", "-", stdin=TEA)
    run(*base, "topic", "write", "people/ann", "--summary-file", "-", stdin=CORTADO)
    tea = content_hash(TEA, "", "active")

    history = run(*base, "topic", "history", "people/ann").stdout
    shown = run(*base, "topic", "show", "people/ann", "--version", tea).stdout
    restored = run(*base, "topic", "restore", "people/ann", "--version", tea)

    assert "    was: # Ann Likes tea." in history.splitlines()
    assert shown == f"# people/ann at version {tea}\n{TEA}"
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith(f"restored people/ann to version {tea} (")
    assert json.loads(run(*base, "topic", "show", "people/ann", "--json").stdout)["summary"] == TEA
    last = json.loads(run(*base, "topic", "history", "people/ann", "--json").stdout)[-1]
    assert (last["op"], last["before"], last["after"]) == (
        "restore",
        content_hash(CORTADO, "", "active"),
        tea,
    )
    assert last["replaced"] == {"summary": CORTADO, "detail": ""}  # the restore is undoable too


def test_a_version_is_found_whatever_state_the_topic_had_then(memory: Memory):
    memory.write_topic("people/ann", TEA)
    memory.archive_topic("people/ann")
    archived_tea = memory.topic_history("people/ann")[-1].after
    memory.write_topic("people/ann", CORTADO)

    assert memory.topic_version("people/ann", archived_tea) == TopicText(TEA, "")


def test_restoring_the_text_a_topic_already_has_writes_nothing(memory: Memory):
    written = memory.write_topic("people/ann", TEA)

    with pytest.raises(InputError, match="already reads as version"):
        memory.restore_topic("people/ann", version=written.entry.after)

    assert len(memory.topic_history("people/ann")) == 1


def test_a_version_history_never_named_is_an_error_naming_the_command_that_lists_them(
    memory: Memory,
):
    memory.write_topic("people/ann", TEA)

    with pytest.raises(InputError, match=r"has no version 'deadbeefdeadbeef'.*topic history"):
        memory.topic_version("people/ann", "deadbeefdeadbeef")


def test_a_secret_typed_into_a_topic_by_hand_is_not_kept_in_its_history(memory: Memory):
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    memory.write_topic("notes/ci", "The CI bot pushes.")
    summary = memory.workspace.topic_dir("notes/ci") / "summary.md"
    summary.write_text(f"The CI bot pushes with {token}.\n")

    memory.write_topic("notes/ci", "The CI bot pushes with the token in the vault.")

    history = (memory.workspace.topic_dir("notes/ci") / "history.jsonl").read_text()
    assert token not in history
    assert "[REDACTED:" in memory.topic_history_records("notes/ci")[-1].replaced.summary


# -- history written before memstrata kept replaced text --------------------------------------


def test_a_history_of_hashes_only_still_loads_and_the_next_overwrite_keeps_the_text(
    memory: Memory,
):
    memory.write_topic("people/ann", TEA)
    path = memory.workspace.topic_dir("people/ann") / "history.jsonl"
    old_line = json.loads(path.read_text())
    old_line.pop("replaced", None)
    path.write_text(json.dumps(old_line) + "\n")  # as an older memstrata wrote it

    assert [entry.op for entry in memory.topic_history("people/ann")] == ["create"]
    memory.write_topic("people/ann", CORTADO)

    assert memory.topic_history_records("people/ann")[-1].replaced == TopicText(TEA, "")


def test_a_version_whose_text_an_older_memstrata_did_not_keep_says_so(memory: Memory):
    memory.write_topic("people/ann", TEA)
    memory.write_topic("people/ann", CORTADO)
    path = memory.workspace.topic_dir("people/ann") / "history.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:  # as an older memstrata wrote them
        line.pop("replaced", None)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))

    with pytest.raises(InputError, match=r"text of version .* was not kept"):
        memory.topic_version("people/ann", lines[0]["after"])


def test_the_documented_history_example_reads_back_its_replaced_text(memory: Memory):
    doc = (REPO / "docs" / "file-format.md").read_text()
    [example] = re.findall(r"```jsonl\n(.*?)```", doc, flags=re.DOTALL)
    memory.write_topic("people/ann", CORTADO)
    (memory.workspace.topic_dir("people/ann") / "history.jsonl").write_text(example)

    created, updated = memory.topic_history_records("people/ann")

    assert (created.entry.op, created.replaced) == ("create", None)
    assert updated.replaced == TopicText(TEA, "")
    assert memory.topic_version("people/ann", updated.entry.before) == TopicText(TEA, "")
    assert updated.entry.after == content_hash(CORTADO, "", "active")


# -- a writer killed mid-change --------------------------------------------------------------

#: overwrites people/ann on the workspace ``sys.argv[1]`` and dies (SIGKILL) just before its
#: second file replace: the intent is on disk, the topic's files are not yet replaced
KILLED_WRITER = """
import os, signal, sys
from memstrata import Memory

count = 0
real_replace = os.replace

def replace(source, target, *args, **kwargs):
    global count
    count += 1
    if count == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return real_replace(source, target, *args, **kwargs)

with Memory(sys.argv[1], embeddings=False) as memory:
    os.replace = replace
    memory.write_topic("people/ann", sys.argv[2])
"""


def test_an_overwrite_finished_by_the_next_process_keeps_the_text_it_replaced(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", TEA)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER, str(workspace), CORTADO],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        check=False,
    )
    assert killed.returncode == -9, killed.stderr
    folder = workspace / "memory" / "topics" / "people" / "ann"
    assert (folder / "summary.md").read_text() == TEA  # killed before the files were replaced
    assert len((folder / "history.jsonl").read_text().splitlines()) == 1

    with Memory(workspace, embeddings=False) as memory:
        memory.topics.complete_pending()
        assert memory.get_topic("people/ann").summary == CORTADO
        assert memory.topic_history_records("people/ann")[-1].replaced == TopicText(TEA, "")


def test_writing_the_text_a_topic_holds_already_changes_nothing(memory: Memory, tmp_path: Path):
    memory.write_topic("people/ann", "# Ann\nLikes tea.\n", "Since 2020.")
    before = memory.get_topic("people/ann")

    again = memory.write_topic("people/ann", "# Ann\nLikes tea.\n")  # detail left as it is
    same_detail = memory.write_topic("people/ann", "# Ann\nLikes tea.\n", "Since 2020.")

    assert again.unchanged and same_detail.unchanged and not again.created
    assert memory.get_topic("people/ann") == before  # not made to look newly stated
    assert [entry.op for entry in memory.topic_history("people/ann")] == ["create"]
    root = memory.workspace.root
    result = run("--workspace", str(root), "topic", "write", "people/ann", "--summary-file", "-",
                 stdin="# Ann\nLikes tea.\n")  # fmt: skip
    assert result.stdout == (
        f"unchanged people/ann ({before_hash(before)}): it holds this text already\n"
    )


def before_hash(topic) -> str:
    return content_hash(topic.summary, topic.detail, topic.meta.state)
