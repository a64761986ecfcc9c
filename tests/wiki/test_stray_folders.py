"""A folder under memory/topics/ whose name is not a topic id (a renamed namespace, a copied
topic, an editor's backup) is skipped with one problem naming its path; everything else works
and the folder is never touched."""

import hashlib
import json
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.index_sync import record_topic_check
from tests.cli.process import run

STRAYS = ["Old Stuff/misc", "people/ann (copy)", "people/ann~", "People/ann", "people/Ann-Lee"]


def files_of(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def copy_topic(memory: Memory, topic_id: str, name: str) -> Path:
    """Copy a topic's folder to ``memory/topics/<name>``, as a person with a file manager would."""
    folder = memory.workspace.topics_dir / name
    folder.mkdir(parents=True)
    for path in memory.workspace.topic_dir(topic_id).iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    return folder


@pytest.fixture
def ann(memory: Memory) -> Memory:
    memory.write_topic("people/ann", "# Ann\nDesign lead; drinks cortado.")
    return memory


@pytest.mark.parametrize("name", STRAYS)
def test_a_folder_whose_name_is_not_a_topic_id_is_skipped_and_named(ann: Memory, name: str):
    stray = copy_topic(ann, "people/ann", name)
    before = files_of(stray)

    problems = [str(problem) for problem in ann.status().problems]

    assert len(problems) == 1 and problems[0].startswith(f"{stray}: skipped, not a topic id")
    assert ann.topics.ids() == ["people/ann"]
    assert [hit.source for hit in ann.search("cortado", include_raw=False)] == ["people/ann"]
    assert files_of(stray) == before


def test_the_problem_says_what_is_wrong_with_the_name(ann: Memory):
    copy_topic(ann, "people/ann", "Old Stuff/misc")
    copy_topic(ann, "people/ann", "People/ann")
    copy_topic(ann, "people/ann", "people/Bob")

    messages = sorted(problem.message for problem in ann.status().problems)

    assert messages == [
        "skipped, not a topic id: ids are lower case (NFKC normal form); beside 'people/ann'",
        "skipped, not a topic id: ids are lower case (NFKC normal form); rename it to 'people/bob'",
        "skipped, not a topic id: namespace 'Old Stuff' must start with a letter or digit and "
        "hold only letters, digits, '-', '_' and '.' (e.g. 'people/ann-lee')",
    ]


def test_rebuild_garden_and_every_read_carry_on_past_a_stray_folder(ann: Memory):
    copy_topic(ann, "people/ann", "Old Stuff/misc")

    rebuilt = ann.rebuild()
    garden = ann.garden()

    assert [problem.topic for problem in rebuilt.problems] == ["Old Stuff/misc"]
    assert rebuilt.topics_indexed == 1
    assert any("Old Stuff/misc: skipped" in problem for problem in garden.problems)
    assert ann.recall("cortado").items[0].source == "people/ann"
    assert "people/ann" in ann.context("cortado").text
    assert [topic.id for topic in ann.list_topics()] == ["people/ann"]
    index = json.loads(ann.workspace.index_json.read_text())
    assert [entry["id"] for entry in index["topics"]] == ["people/ann"]


def test_recall_names_a_stray_folder_on_every_read_until_it_is_renamed(ann: Memory):
    stray = copy_topic(ann, "people/ann", "people/ann (copy)")
    stray.joinpath("summary.md").write_text("# Ann\nDesign lead; drinks ristretto.")
    ann.sync()
    # As in a large workspace, where reads between topic checks re-read only what failed.
    record_topic_check(ann.workspace, 1.0)

    first = ann.recall("ristretto")
    again = ann.recall("ristretto")
    stray.rename(stray.with_name("ann-copy"))
    ann.sync()
    fixed = ann.recall("ristretto")

    assert not any("ristretto" in item.content for item in (*first.items, *again.items))
    assert all("people/ann (copy): skipped" in " ".join(r.notes) for r in (first, again))
    assert fixed.items[0].source == "people/ann-copy"
    assert not any("skipped" in note for note in fixed.notes)


def test_a_topic_listing_lists_what_it_can_read_and_names_the_rest(ann: Memory):
    ann.write_topic("people/bob", "# Bob\nBackend.")
    (ann.workspace.topic_dir("people/bob") / "meta.json").write_text("{oops")
    stray = copy_topic(ann, "people/ann", "people/ann~")

    listing = ann.topics.read_all()

    assert [topic.id for topic in listing.topics] == ["people/ann"]
    assert [topic.id for topic in ann.list_topics()] == ["people/ann"]
    assert [problem.path for problem in listing.problems] == [
        str(stray),
        str(ann.workspace.topic_dir("people/bob") / "meta.json"),
    ]


def test_a_stray_folder_never_stops_the_cli_or_the_agent_hook(tmp_path: Path):
    root = tmp_path / "ws"
    run("init", str(root))
    ws = ("--workspace", str(root))
    run(*ws, "topic", "write", "people/ann", "--summary-file", "-", stdin="# Ann\nLikes cortado.")
    stray = root / "memory" / "topics" / "Old Stuff" / "misc"
    stray.mkdir(parents=True)
    (stray / "summary.md").write_text("hi\n")
    named = f"{stray}: skipped, not a topic id: namespace 'Old Stuff'"

    status = run(*ws, "status")
    rebuild = run(*ws, "rebuild")
    listed = run(*ws, "topic", "list")
    garden = run(*ws, "garden")
    searched = run(*ws, "search", "cortado")
    recalled = run(*ws, "recall", "cortado")
    hook = run(*ws, "hook", "user-prompt", "--plain", "--prompt", "Does Ann like cortado?")

    assert status.returncode == 0 and named in status.stderr
    assert rebuild.returncode == 1 and named in rebuild.stderr  # as for any unreadable file
    assert "indexed 1 topics" in rebuild.stdout
    assert listed.returncode == 0 and listed.stdout.startswith("people/ann ")
    assert f"problem: {named}" in listed.stderr
    assert garden.returncode == 0 and named in garden.stdout
    assert searched.returncode == 0 and "people/ann" in searched.stdout
    assert recalled.returncode == 0 and "people/ann" in recalled.stdout
    assert named in recalled.stderr  # the note: not recalled until fixed
    assert hook.returncode == 0 and "Likes cortado." in hook.stdout
    assert (stray / "summary.md").read_text() == "hi\n"
