"""Symbolic links among the canonical files: a snapshot holds what they point to (as memstrata
reads them), and a restore writes back through them, the links kept."""

from pathlib import Path

from memstrata import Memory
from memstrata.maintain.restore import restore_snapshot
from memstrata.maintain.snapshot import canonical_files, take_snapshot
from tests.maintain.messy import NOW


def moved_out(workspace: Path, relative: str, outside: Path) -> Path:
    """Move a file or folder of the workspace to ``outside`` and put a link to it in its
    place (a dotfiles repository, a folder shared between workspaces); return where it is."""
    target = outside / Path(relative).name
    outside.mkdir(parents=True, exist_ok=True)
    (workspace / relative).rename(target)
    (workspace / relative).symlink_to(target)
    return target


def test_linked_rules_files_are_snapshotted_and_restored_through_their_links(
    workspace: Path, tmp_path: Path
):
    dotfiles = tmp_path / "dotfiles"
    memory_md = moved_out(workspace, "MEMORY.md", dotfiles)
    user_md = moved_out(workspace, "prompt/USER.md", dotfiles)
    before = {memory_md: memory_md.read_text(), user_md: user_md.read_text()}
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        taken = take_snapshot(memory, "with links", NOW)
    for path in before:
        with path.open("a") as handle:
            handle.write("- written after the snapshot\n")

    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        result = restore_snapshot(memory, taken.id, NOW)

    assert set(result.written) == {"MEMORY.md", "prompt/USER.md"}
    assert (workspace / "MEMORY.md").readlink() == memory_md
    assert (workspace / "prompt" / "USER.md").readlink() == user_md
    assert {path: path.read_text() for path in before} == before


def test_a_linked_topic_folder_is_snapshotted_as_the_folder_it_points_to(
    workspace: Path, tmp_path: Path
):
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        memory.write_topic("team/standup", "# Standup\nAt nine, in the small room.")
    shared = moved_out(workspace, "memory/topics/team", tmp_path / "shared")
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        taken = take_snapshot(memory, "with a linked folder", NOW)
        memory.write_topic("team/standup", "# Standup\nAt ten, in the big room.")
        restore_snapshot(memory, taken.id, NOW)

    summary = "memory/topics/team/standup/summary.md"
    assert summary in set(canonical_files(workspace / taken.path))
    assert (workspace / "memory" / "topics" / "team").is_symlink()
    assert "At nine" in (shared / "standup" / "summary.md").read_text()


def test_a_link_that_leads_back_into_the_workspace_is_not_followed(workspace: Path):
    (workspace / "memory" / "loop").symlink_to(workspace / "memory")
    (workspace / "memory" / "everything").symlink_to(workspace)
    (workspace / "memory" / "state").symlink_to(workspace / ".memstrata")

    found = set(canonical_files(workspace))

    assert "MEMORY.md" in found and "prompt/USER.md" in found
    assert not any(
        path.startswith(("memory/loop/", "memory/everything/", "memory/state/")) for path in found
    )


def test_a_link_to_nothing_is_replaced_by_the_file_and_never_followed_out(
    workspace: Path, tmp_path: Path
):
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        taken = take_snapshot(memory, "plain", NOW)
    nowhere = tmp_path / "elsewhere" / "MEMORY.md"
    (workspace / "MEMORY.md").unlink()
    (workspace / "MEMORY.md").symlink_to(nowhere)

    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        restore_snapshot(memory, taken.id, NOW)

    assert not (workspace / "MEMORY.md").is_symlink()
    assert (workspace / "MEMORY.md").read_bytes() == (
        workspace / taken.path / "MEMORY.md"
    ).read_bytes()
    assert not nowhere.parent.exists()
