"""One ``Memory`` held for hours, as the MCP server holds it: its clock may be naive or set
again, and its workspace may be moved or deleted underneath it. Each case is the library's own
answer, never a ``TypeError`` from deep inside, nor a write into a folder nobody reads."""

import json
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memstrata import InputError, Memory, WorkspaceNotFound
from memstrata.jsonable import to_jsonable


def test_a_naive_clock_is_read_as_utc_by_every_part(workspace: Path):
    naive = datetime(2025, 11, 27, 10, 0)  # no tzinfo, as datetime.now() and many tests give
    with Memory(workspace, clock=lambda: naive, embeddings=False) as memory:
        memory.remember("Ann prefers cortado", kind="opinion")
        memory.log("met Bob about the launch")

        recalled = memory.recall("Ann cortado", since="30d")
        context = memory.context("Ann cortado")
        tick = memory.tick()
        summary = memory.metrics()

    assert [item.source for item in recalled.items] == ["opinions/ann-prefers-cortado-af497c"]
    assert recalled.items[0].time == "2025-11-27T10:00:00Z"
    assert "Ann prefers cortado" in context.text
    assert tick.time == "2025-11-27T10:00:00Z"
    assert summary.recalls == 1


def test_a_clock_set_after_opening_is_the_one_every_part_reads(workspace: Path):
    first = datetime(2025, 11, 27, 10, 0, tzinfo=UTC)
    with Memory(workspace, clock=lambda: first, embeddings=False) as memory:
        memory.write_topic("people/ann", "Ann leads design.")
        memory.clock = lambda: first + timedelta(days=3)
        memory.write_topic("people/bob", "Bob runs operations.")
        verdict = memory.remember("Cat writes the compiler")

        assert memory.get_topic("people/ann").meta.created == "2025-11-27T10:00:00Z"
        assert memory.get_topic("people/bob").meta.created == "2025-11-30T10:00:00Z"
        assert memory.get_topic(verdict.topic_id).meta.created == "2025-11-30T10:00:00Z"
        assert memory.clock() == first + timedelta(days=3)


@pytest.mark.parametrize("said", ["2025-11-27", None])
def test_a_clock_that_returns_no_datetime_is_refused_before_anything_is_written(
    workspace: Path, said: object
):
    with Memory(workspace, clock=lambda: said, embeddings=False) as memory:
        with pytest.raises(InputError, match=r"the clock returned .*, not a datetime"):
            memory.log("met Bob")
        assert memory.journal_paths() == []


def test_no_clock_at_all_is_refused_when_the_memory_is_opened(workspace: Path):
    with pytest.raises(InputError, match="clock is a function returning the time"):
        Memory(workspace, clock="2025-11-27")  # type: ignore[arg-type]


def test_a_workspace_moved_away_is_said_and_no_new_one_grows_where_it_was(
    workspace: Path, tmp_path: Path
):
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", "Ann leads design.")
        workspace.rename(tmp_path / "moved")

        for call in (
            lambda: memory.recall("Ann"),
            lambda: memory.remember("Dan likes tea"),
            lambda: memory.log("a note"),
            lambda: memory.write_topic("people/eve", "Eve is new"),
            memory.status,
        ):
            with pytest.raises(WorkspaceNotFound, match="the workspace is no longer there"):
                call()

    assert not workspace.exists()  # nothing was written where the workspace used to be
    with Memory(tmp_path / "moved", embeddings=False) as reopened:
        assert [item.source for item in reopened.recall("Ann design").items] == ["people/ann"]


def test_a_workspace_deleted_underneath_is_said_on_the_next_call(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        memory.recall("anything at all")
        shutil.rmtree(workspace)

        with pytest.raises(WorkspaceNotFound, match=re.escape(str(workspace))):
            memory.context("Ann")

    assert not workspace.exists()


@pytest.mark.parametrize("path", [b"/tmp/ws", 5, "", "  "])
def test_a_workspace_path_that_names_no_folder_is_an_input_error(path: object):
    with pytest.raises(InputError):
        Memory(path, embeddings=False)  # type: ignore[arg-type]


def test_init_takes_the_same_keywords_as_memory(tmp_path: Path):
    clock_time = datetime(2025, 11, 27, 10, 0, tzinfo=UTC)
    with Memory.init(tmp_path / "ws", clock=lambda: clock_time, embeddings=False) as memory:
        assert memory.clock() == clock_time
        assert repr(memory) == f"Memory({str((tmp_path / 'ws').resolve())!r})"
    with pytest.raises(InputError, match="needs a path"):
        Memory.init(None)  # type: ignore[arg-type]


def test_results_serialise_to_json_and_repeat_exactly(workspace: Path, fixed_now: datetime):
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        memory.write_topic("people/ann", "Ann leads design.")
        memory.log("met Ann about the launch")
        first = memory.recall("Ann design", record_access=False)
        again = memory.recall("Ann design", record_access=False)
        shown = [memory.context("Ann"), memory.status(), memory.search("Ann"), first]

    assert first == again
    for value in shown:
        json.dumps(to_jsonable(value))
