"""A topic edited by hand is what every read sees next: search, recall, context and its Index
channel, the agent hooks and the MCP server, as for the journal.

Each read checks the size and mtime of every topic's files when that check is cheap (a few
hundred topics); in a large workspace, once the last check is 50 times its own cost old
(~0.13 s at 10k topics: every ~6 s), and at least every 30 s.
"""

import json
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from memstrata import Memory, index_sync
from memstrata.index_sync import (
    TOPIC_SCAN_COST_FACTOR,
    TOPIC_SCAN_INTERVAL_MAX_S,
    record_topic_check,
)
from tests.cli.process import run
from tests.mcp import PYTHON, memstrata_args, python_env


class WallClock:
    """The ``time`` module as the index sync sees it, but its ``time()`` stands still until a
    test moves it: whether a topic check is due then does not hang on how fast the machine is."""

    def __init__(self, at_s: float) -> None:
        self.at_s = at_s

    def time(self) -> float:
        return self.at_s

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)


@pytest.fixture
def wall_clock(monkeypatch: pytest.MonkeyPatch) -> WallClock:
    clock = WallClock(time.time())
    monkeypatch.setattr(index_sync, "time", clock)
    return clock


def edit_summary(memory: Memory, topic_id: str, text: str) -> None:
    (memory.workspace.topic_dir(topic_id) / "summary.md").write_text(text)


def edit_state(memory: Memory, topic_id: str, state: str) -> None:
    path = memory.workspace.topic_dir(topic_id) / "meta.json"
    meta = json.loads(path.read_text())
    path.write_text(json.dumps({**meta, "state": state}, indent=2))


def test_search_recall_and_context_see_a_hand_edited_summary_at_once(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    memory.search("lead")  # a read: the topic files were just checked

    edit_summary(memory, "people/ann", "# Ann\nDesign lead. Loves rambutan.")

    assert [hit.source for hit in memory.search("rambutan", include_raw=False)] == ["people/ann"]
    assert memory.recall("rambutan").items[0].content == "Design lead. Loves rambutan."
    assert "Loves rambutan." in memory.context("rambutan").text
    last = memory.topic_history("people/ann")[-1]
    assert (last.op, last.actor) == ("edit", "user")


def test_a_page_written_or_edited_by_a_person_is_recalled_as_stated_then(workspace: Path):
    now = [datetime(2025, 11, 1, 9, 0, tzinfo=UTC)]
    with Memory(workspace, clock=lambda: now[0], embeddings=False) as memory:
        memory.write_topic("projects/billing", "# Billing\nUses the kestrel broker.")
        now[0] = datetime(2025, 11, 27, 9, 0, tzinfo=UTC)
        memory.write_topic("projects/billing", "# Billing\nNow uses the quokka broker.")
        memory.write_topic("people/ann", "# Ann\nDesign lead.")
        now[0] = datetime(2025, 12, 20, 9, 0, tzinfo=UTC)
        edit_summary(memory, "people/ann", "# Ann\nDesign director.")

        def recalled(query: str, **bounds: str) -> list[str]:
            result = memory.recall(query, record_access=False, **bounds)
            return [f"{item.source} {item.time}" for item in result.items]

        assert recalled("quokka", since="2025-11-20") == ["projects/billing 2025-11-27T09:00:00Z"]
        assert recalled("quokka", until="2025-11-10") == []
        assert recalled("director", since="2025-12-01") == ["people/ann 2025-12-20T09:00:00Z"]


def test_a_topic_made_active_again_in_meta_json_is_recalled_at_once(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nLoves rambutan.")
    memory.archive_topic("people/ann")
    assert memory.recall("rambutan").items == ()

    edit_state(memory, "people/ann", "active")

    assert [item.source for item in memory.recall("rambutan").items] == ["people/ann"]


def test_a_topic_whose_meta_json_breaks_leaves_every_read_until_it_is_mended(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDrinks a flat white.")
    meta = memory.workspace.topic_dir("people/ann") / "meta.json"
    sound = meta.read_text()
    memory.recall("flat white")

    meta.write_text('{"state": "active", broken')  # a slip while editing by hand
    edit_summary(memory, "people/ann", "# Ann\nNow drinks matcha only.")
    recalled = memory.recall("Ann flat white matcha")
    context = memory.context("what does Ann drink")

    # what the files no longer say is not injected, and the note says why
    assert recalled.items == ()
    assert any("meta.json" in note for note in recalled.notes)
    assert "people/ann" not in context.text and "flat white" not in context.text
    assert memory.search("flat white", include_raw=False) == []

    meta.write_text(sound)
    assert [item.content for item in memory.recall("matcha").items] == ["Now drinks matcha only."]
    assert "people/ann" in memory.context().text


def test_the_index_channel_follows_topics_archived_or_removed_by_hand(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    memory.write_topic("people/bob", "# Bob\nBackend.")
    memory.write_topic("people/cy", "# Cy\nSupport.")
    assert memory.context().text.count("- people/") == 3

    edit_state(memory, "people/ann", "archived")
    shutil.rmtree(memory.workspace.topic_dir("people/bob"))
    edit_summary(memory, "people/cy", "# Cy Lin\nSupport lead.")
    index = memory.context().text

    assert "people/ann" not in index and "people/bob" not in index
    assert "- people/cy — Cy Lin: Support lead." in index
    listed = json.loads(memory.workspace.index_json.read_text())["topics"]
    assert [(entry["id"], entry["state"]) for entry in listed] == [
        ("people/ann", "archived"),
        ("people/cy", "active"),
    ]


def test_a_large_workspace_checks_topic_files_once_the_last_check_is_old_enough(
    memory: Memory, wall_clock: WallClock
):
    memory.write_topic("people/ann", "# Ann\nLikes zeppelins.")
    # As at 10k topics: the last check cost 0.1 s and ran just now, so reads skip it for 5 s.
    last_check_s = 0.1
    wait_s = last_check_s * TOPIC_SCAN_COST_FACTOR
    record_topic_check(memory.workspace, last_check_s)
    edit_summary(memory, "people/ann", "# Ann\nLikes airships.")

    wall_clock.at_s += wait_s - 0.1
    assert memory.search("airships", include_raw=False) == []
    wall_clock.at_s += 0.2
    assert memory.search("airships", include_raw=False)[0].source == "people/ann"
    # That check was cheap (one topic), so from now on every read checks again.
    edit_summary(memory, "people/ann", "# Ann\nLikes balloons.")
    assert memory.search("balloons", include_raw=False)[0].source == "people/ann"


def test_between_checks_a_read_sees_the_newest_days_and_new_ones_older_days_at_the_check(
    memory: Memory, wall_clock: WallClock
):
    folder = memory.workspace.memory_dir
    for day in ("2025-11-20", "2025-11-26", "2025-11-27"):
        (folder / f"{day}.md").write_text(f"# {day}\n\n- a note\n")
    memory.search("note")  # indexed
    record_topic_check(memory.workspace, 0.1)  # a large workspace that was just checked

    (folder / "2025-11-27.md").write_text("# 2025-11-27\n\n- shipped the zeppelin\n")
    (folder / "2025-11-20.md").write_text("# 2025-11-20\n\n- fixed the airship\n")
    (folder / "2025-11-21.md").write_text("# 2025-11-21\n\n- a new day about balloons\n")

    assert [hit.source for hit in memory.search("zeppelin", include_raw=False)] == [
        "memory/2025-11-27.md#L3"
    ]
    assert [hit.source for hit in memory.search("balloons", include_raw=False)] == [
        "memory/2025-11-21.md#L3"
    ]
    assert memory.search("airship", include_raw=False) == []  # an old day: at the next check
    wall_clock.at_s += TOPIC_SCAN_INTERVAL_MAX_S
    assert [hit.source for hit in memory.search("airship", include_raw=False)] == [
        "memory/2025-11-20.md#L3"
    ]


def test_however_slow_the_check_reads_run_it_at_least_every_30_seconds(
    memory: Memory, wall_clock: WallClock
):
    memory.write_topic("people/ann", "# Ann\nLikes zeppelins.")
    slow_s = 5.0  # 50 times that would be 250 s
    record_topic_check(memory.workspace, slow_s)
    edit_summary(memory, "people/ann", "# Ann\nLikes airships.")

    wall_clock.at_s += 29
    assert memory.search("airships", include_raw=False) == []
    wall_clock.at_s += 2
    assert memory.search("airships", include_raw=False)[0].source == "people/ann"
    assert TOPIC_SCAN_INTERVAL_MAX_S == 30


def test_a_read_in_the_same_millisecond_as_the_last_check_does_not_check_again(
    memory: Memory, wall_clock: WallClock
):
    memory.write_topic("people/ann", "# Ann\nLikes zeppelins.")
    wall_clock.at_s = 1_764_237_600.0006  # to the millisecond, rounds up: ahead of the clock
    record_topic_check(memory.workspace, 0.1)
    edit_summary(memory, "people/ann", "# Ann\nLikes airships.")

    assert memory.search("airships", include_raw=False) == []


def test_a_clock_set_back_since_the_last_check_makes_the_next_read_check(
    memory: Memory, wall_clock: WallClock
):
    memory.write_topic("people/ann", "# Ann\nLikes zeppelins.")
    record_topic_check(memory.workspace, 0.1)
    edit_summary(memory, "people/ann", "# Ann\nLikes airships.")

    wall_clock.at_s -= 60  # the last check now looks a minute ahead: its age says nothing
    assert memory.search("airships", include_raw=False)[0].source == "people/ann"


def test_a_small_workspace_notes_no_check_time_and_commits_nothing_to_the_index(
    memory: Memory,
):
    memory.write_topic("people/ann", "# Ann\nLikes zeppelins.")
    memory.recall("zeppelins")  # embeds the new topic: a change to the index
    changes = memory.index.db.total_changes

    memory.search("zeppelins")
    memory.recall("zeppelins")

    assert not memory.workspace.topic_check_path.exists()  # every read checks: no time needed
    assert memory.index.db.total_changes == changes  # a commit would make recall reload vectors


def test_status_always_checks_every_topic_file(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nLikes zeppelins.")
    record_topic_check(memory.workspace, 1.0)
    edit_state(memory, "people/ann", "archived")

    assert memory.status().topics_by_state == {"archived": 1}


def test_the_agent_hook_sees_a_hand_edit_made_right_after_a_write(workspace: Path):
    ws = ("--workspace", str(workspace))
    run(*ws, "topic", "write", "people/ann", "--summary-file", "-", stdin="# Ann\nDesign lead.\n")
    summary = workspace / "memory" / "topics" / "people" / "ann" / "summary.md"
    summary.write_text("# Ann\nDesign lead. Loves rambutan.\n")

    searched = run(*ws, "search", "rambutan")
    hook = run(*ws, "hook", "user-prompt", "--plain", "--prompt", "What does Ann love? rambutan")

    assert searched.stdout.startswith("[wiki] people/ann"), searched.stdout
    assert "Loves rambutan." in hook.stdout, hook.stdout + hook.stderr


def test_a_running_mcp_server_sees_hand_edits_between_calls(workspace: Path):
    with Memory(workspace) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead.")
    summary = workspace / "memory" / "topics" / "people" / "ann" / "summary.md"
    params = StdioServerParameters(
        command=PYTHON, args=memstrata_args(workspace, "mcp"), env=python_env()
    )

    async def scenario():
        async with Client(params, read_timeout_seconds=60) as client:
            before = await client.call_tool("recall", {"query": "rambutan"})
            summary.write_text("# Ann\nDesign lead. Loves rambutan.\n")
            after = await client.call_tool("recall", {"query": "rambutan"})
            return before.structured_content, after.structured_content

    before, after = anyio.run(scenario)

    assert all("rambutan" not in item["content"] for item in before["items"])
    assert after["items"][0]["content"] == "Design lead. Loves rambutan."


def test_a_hand_edit_counts_as_an_update_for_the_gardener(workspace: Path):
    # written a year ago, edited by hand today: not "unused for 367 days"
    then, now = datetime(2024, 11, 27, tzinfo=UTC), datetime(2025, 11, 28, tzinfo=UTC)
    with Memory(workspace, clock=lambda: then) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead.")
    with Memory(workspace, clock=lambda: now) as memory:
        edit_summary(memory, "people/ann", "# Ann\nDesign lead. Leads the on-call rotation.")
        memory.sync()
        extra = json.loads((memory.workspace.topic_dir("people/ann") / "meta.json").read_text())

        report = memory.garden(mode="autonomous")

        assert memory.get_topic("people/ann").meta.updated == "2025-11-28T00:00:00Z"
        assert extra["updated"] == "2025-11-28T00:00:00Z"
        assert not any("people/ann" in str(step) for step in report.destructive)
        assert memory.get_topic("people/ann").meta.state == "active"
