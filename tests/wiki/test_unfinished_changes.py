"""A change whose files cannot be written now (a read-only topic folder, a folder where its
``summary.md`` should be) keeps its intent in ``memory/.pending/`` for later. Reads go on
meanwhile: they serve the topic as it is on disk and name the unfinished change as a problem,
and the first run that can write the files finishes it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import ParseError, WorkspaceError
from tests.cli.process import READ_ONLY_MOUNT, can_mount_read_only, run
from tests.wiki.test_crash_litter import KILLED_WRITER

ANN = Path("memory", "topics", "people", "ann")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace (hashing embedder: no model to load) holding the topic people/ann."""
    root = tmp_path / "ws"
    assert run("init", str(root)).returncode == 0
    config = root / "memstrata.toml"
    config.write_text(config.read_text().replace("'use-multilingual'", "'hashing'"))
    with Memory(root, embeddings=False) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead.")
    return root


def run_with_read_only(folder: Path, script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (sh; ``$MEMSTRATA`` is the command) while ``folder`` cannot be written:
    a read-only mount in a private namespace for root, the folder's mode for anyone else."""
    env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    env["MEMSTRATA"] = f"{sys.executable} -m memstrata"
    command = ["sh", "-c", script]
    if os.geteuid() == 0:
        command = [*READ_ONLY_MOUNT, str(folder), *command]
    else:
        folder.chmod(0o555)
    try:
        return subprocess.run(
            command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
        )
    finally:
        folder.chmod(0o755)


def pending(workspace: Path) -> list[str]:
    return sorted(path.name for path in (workspace / "memory" / ".pending").glob("*.json"))


@pytest.fixture
def read_only_ann(ws: Path) -> Path:
    """The folder of people/ann, once we know it can be made read-only here."""
    if os.geteuid() == 0 and not can_mount_read_only(ws):
        pytest.skip("needs mount namespaces to make a folder read-only as root")
    return ws / ANN


def test_a_change_a_read_only_folder_stops_is_kept_while_reads_serve_the_topic_as_on_disk(
    ws: Path, read_only_ann: Path
):
    script = """
printf '# Ann\\nDesign director.\\n' | $MEMSTRATA topic write people/ann --summary-file -
echo "write=$?"
$MEMSTRATA status; echo "status=$?"
$MEMSTRATA recall ann; echo "recall=$?"
printf '# Ann\\nCEO.\\n' | $MEMSTRATA topic write people/ann --summary-file -
echo "again=$?"
"""

    result = run_with_read_only(read_only_ann, script, cwd=ws)

    out, err = result.stdout, result.stderr
    assert "write=1" in out and "status=0" in out and "recall=0" in out and "again=1" in out
    write_error, status_problem, recall_note, again_error = err.splitlines()
    summary = ws / ANN / "summary.md"
    # the write names the file it could not write, and that its change is kept for later
    assert write_error.startswith(f"Error: {summary}: cannot write (")
    [intent] = pending(ws)
    assert f"the change is kept in {ws}/memory/.pending/{intent}" in write_error
    # every read names the kept change: its intent, its topic and why it is not finished
    assert status_problem.startswith(
        f"problem: {ws}/memory/.pending/{intent}: a change to people/ann cannot be finished "
        f"now ({summary}: cannot write ("
    )
    assert status_problem.endswith("until then it reads as on disk")
    assert status_problem.removeprefix("problem: ") in recall_note
    assert "wiki      1 active" in out
    assert "Design lead." in out.split("status=0")[1]  # recalled as on disk
    # a later write to the topic waits for it: finished after, it would undo that write
    assert again_error.startswith("Error: people/ann not written: ")

    with Memory(ws, embeddings=False) as memory:  # the folder can be written again
        status = memory.status()
        assert status.problems == ()
        assert memory.get_topic("people/ann").summary == "# Ann\nDesign director.\n"
        assert [entry.op for entry in memory.topic_history("people/ann")] == ["create", "update"]
        assert [item.content for item in memory.recall("ann").items] == ["Design director."]
    assert pending(ws) == []


def test_a_hand_edit_a_read_only_folder_keeps_out_of_history_is_read_and_named(
    ws: Path, read_only_ann: Path
):
    (ws / ANN / "summary.md").write_text("# Ann\nDesign director.\n")

    result = run_with_read_only(read_only_ann, "$MEMSTRATA recall ann", cwd=ws)

    assert result.returncode == 0, result.stderr
    assert "Design director." in result.stdout
    assert f"{ws / ANN}: a hand edit cannot be recorded in the topic's history now" in (
        result.stderr
    )
    with Memory(ws, embeddings=False) as memory:  # recorded by the first read that can
        assert memory.status().problems == ()
        assert memory.topic_history("people/ann")[-1].actor == "user"


def test_a_read_only_workspace_names_a_change_left_unfinished(ws: Path):
    if os.geteuid() == 0 and not can_mount_read_only(ws):
        pytest.skip("needs mount namespaces to make a folder read-only as root")
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER, str(ws)], capture_output=True, check=False
    )
    assert killed.returncode == -9
    [intent] = pending(ws)

    result = run("--workspace", str(ws), "status", readonly=ws)

    assert result.returncode == 0, result.stderr
    assert (
        f"problem: {ws}/memory/.pending/{intent}: a change to people/ann cannot be finished "
        "now (the workspace is read-only)"
    ) in result.stderr
    assert pending(ws) == [intent]


def test_a_change_a_folder_in_the_summarys_place_stops_is_kept_and_named_by_its_real_path(
    ws: Path,
):
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER, str(ws)], capture_output=True, check=False
    )
    assert killed.returncode == -9
    summary = ws / ANN / "summary.md"
    summary.unlink()
    summary.mkdir()

    with Memory(ws, embeddings=False) as memory:
        status = memory.status()
        recalled = memory.recall("ann")
        with pytest.raises(WorkspaceError, match="people/ann not written: "):
            memory.write_topic("people/ann", "# Ann\nCEO.")

    [intent] = pending(ws)
    problems = [str(problem) for problem in status.problems]
    assert problems == [
        f"{ws}/memory/.pending/{intent}: a change to people/ann cannot be finished now "
        f"({summary}: Is a directory): it is kept, and made by the next memstrata run that can "
        "write there; until then it reads as on disk",
        f"{summary}: is not a file, so the topic cannot be read: put the topic's summary back "
        "in its place",
    ]
    assert ".tmp" not in "".join(problems)
    assert recalled.items == ()

    summary.rmdir()
    with Memory(ws, embeddings=False) as memory:
        assert memory.status().problems == ()
        assert memory.get_topic("people/ann").summary == "# Ann\nDesign director."
    assert pending(ws) == []


def test_a_topic_whose_summary_became_a_folder_leaves_the_index_and_is_named(ws: Path):
    with Memory(ws, embeddings=False) as memory:
        memory.write_topic("people/bo", "# Bo\nBarista.")
        assert memory.status().topics_by_state == {"active": 2}
    summary = ws / ANN / "summary.md"
    summary.unlink()
    summary.mkdir()

    with Memory(ws, embeddings=False) as memory:
        status = memory.status()
        recalled = memory.recall("ann lead")
        with pytest.raises(ParseError, match=r"summary\.md: is not a file, so the topic cannot"):
            memory.write_topic("people/ann", "# Ann\nCEO.")

    assert status.topics_by_state == {"active": 1}
    assert [str(problem) for problem in status.problems] == [
        f"{summary}: is not a file, so the topic cannot be read: put the topic's summary back "
        "in its place"
    ]
    assert "Design lead." not in [item.content for item in recalled.items]
    assert pending(ws) == []  # the write was refused before anything was written


def test_a_detail_that_became_a_folder_leaves_the_topic_unread_and_named(ws: Path):
    detail = ws / ANN / "detail.md"
    detail.mkdir()

    with Memory(ws, embeddings=False) as memory:
        status = memory.status()
        recalled = memory.recall("ann lead")

    assert status.topics_by_state == {}
    assert [str(problem) for problem in status.problems] == [
        f"{detail}: cannot be read (Is a directory)"
    ]
    assert recalled.items == ()
