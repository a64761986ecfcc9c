"""``status`` names every problem the files have now, on every run: topic files over their caps
(made so by hand) and each journal day's bad Retain bullets, not only those found by the sync
that just ran. ``rebuild`` names them too."""

from datetime import datetime
from pathlib import Path

import pytest

from memstrata import Memory
from tests.cli.process import run

BAD_DAY = """# 2025-11-27

## Retain
- X bad bullet
- O(c=1.7) too confident
- W @Ann likes tea
"""


def statuses(workspace: Path, fixed_now: datetime, runs: int = 3) -> list[list[str]]:
    """The problems of ``runs`` status calls, each by a new process's worth of Memory."""
    found = []
    for _ in range(runs):
        with Memory(workspace, clock=lambda: fixed_now) as memory:
            found.append([str(problem) for problem in memory.status().problems])
    return found


# -- topic files over their caps ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("summary.md", "# Ann\n" + "Design lead. " * 100, "over its 1000-char cap"),
        ("detail.md", "Long story. " * 700, "over its 8000-char cap"),
    ],
)
def test_a_topic_file_over_its_cap_is_a_problem_in_every_status(
    workspace: Path, fixed_now: datetime, name: str, text: str, said: str
):
    with Memory(workspace, clock=lambda: fixed_now) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead.", "Joined in 2019.")
        path = memory.workspace.topic_dir("people/ann") / name
    path.write_text(text)  # by hand: `topic write` refuses this text

    first, second, third = statuses(workspace, fixed_now)

    [problem] = first
    counted = len(text.rstrip())  # trailing whitespace (an editor's final newline) is not
    assert problem.startswith(f"{path}: {name.removesuffix('.md')} is {counted} chars, {said}")
    assert first == second == third
    with Memory(workspace, clock=lambda: fixed_now) as memory:
        assert memory.get_topic("people/ann").meta.state == "active"  # still readable


def test_a_topic_over_its_cap_is_recalled_without_a_note(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    summary = memory.workspace.topic_dir("people/ann") / "summary.md"
    summary.write_text("# Ann\n" + "Design lead who loves rambutan. " * 40)

    result = memory.recall("rambutan")

    assert [item.source for item in result.items] == ["people/ann"]
    assert not any("cap" in note or "not read" in note for note in result.notes)


def test_a_summary_of_wide_characters_within_its_cap_is_no_problem(memory: Memory):
    # 900 characters, 2700 bytes: the cap counts characters
    memory.write_topic("people/li-na", "# 李娜\n" + "负" * 900)

    assert memory.status().problems == ()


def test_a_summary_cut_back_under_its_cap_is_no_longer_a_problem(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    summary = memory.workspace.topic_dir("people/ann") / "summary.md"
    summary.write_text("# Ann\n" + "x" * 1200)
    assert len(memory.status().problems) == 1

    summary.write_text("# Ann\nDesign lead.")

    assert memory.status().problems == ()


def test_rebuild_names_a_summary_over_its_cap(workspace: Path):
    with Memory(workspace) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead.")
        summary = memory.workspace.topic_dir("people/ann") / "summary.md"
    summary.write_text("# Ann\n" + "x" * 1200)

    rebuilt = run("--workspace", str(workspace), "rebuild")

    assert rebuilt.returncode == 1
    assert f"problem: {summary}: summary is 1206 chars, over its 1000-char cap" in rebuilt.stderr


# -- journal days ------------------------------------------------------------------------------


def test_status_lists_the_problems_of_every_journal_day_on_every_run(
    workspace: Path, fixed_now: datetime
):
    (workspace / "memory" / "2025-11-27.md").write_text(BAD_DAY)

    first, second, third = statuses(workspace, fixed_now)

    assert first == [
        "memory/2025-11-27.md:4: retain bullet must start with W, B, O, O(c=0.0-1.0) or S, "
        "e.g. '- W @Ann: works at Acme'",
        "memory/2025-11-27.md:5: bad confidence (c=1.7); write O(c=0.8)",
    ]
    assert first == second == third


def test_a_fixed_or_removed_journal_day_is_no_longer_a_problem(
    workspace: Path, fixed_now: datetime
):
    bad = workspace / "memory" / "2025-11-27.md"
    other = workspace / "memory" / "2025-11-28.md"
    bad.write_text(BAD_DAY)
    other.write_text(BAD_DAY.replace("27", "28"))
    assert len(statuses(workspace, fixed_now, 1)[0]) == 4

    bad.write_text(BAD_DAY.replace("- X bad bullet\n", "").replace("c=1.7", "c=0.7"))
    other.unlink()

    assert statuses(workspace, fixed_now, 2) == [[], []]


def test_a_file_named_like_a_journal_day_that_is_no_date_is_a_problem(
    workspace: Path, fixed_now: datetime
):
    (workspace / "memory" / "2025-02-30.md").write_text("- W @Ann likes tea\n")

    first, second = statuses(workspace, fixed_now, 2)

    assert (
        first
        == second
        == [
            "memory/2025-02-30.md: named like a journal day, but 2025-02-30 is no date, so it is "
            "skipped: rename it to the day it logs"
        ]
    )


def test_a_bad_bullet_added_by_hand_before_a_log_line_is_still_a_problem(memory: Memory):
    day = memory.workspace.memory_dir / "2025-11-27.md"  # the fixed clock's today
    memory.log("Deployed the billing canary")
    assert memory.status().problems == ()
    day.write_text(day.read_text() + "\n## Retain\n- X bad bullet\n")

    memory.log("Rolled the canary back")  # indexes the day itself, bad bullet and all

    # at its line now: the log line went in above the Retain section
    assert [problem.line for problem in memory.status().problems] == [7]


def test_a_bad_bullet_fixed_by_hand_before_a_log_line_is_no_longer_a_problem(memory: Memory):
    day = memory.workspace.memory_dir / "2025-11-27.md"
    day.write_text(BAD_DAY)
    assert len(memory.status().problems) == 2
    day.write_text(BAD_DAY.replace("- X bad bullet\n", "").replace("c=1.7", "c=0.7"))

    memory.log("Rolled the canary back")

    assert memory.status().problems == ()


@pytest.mark.parametrize("odd", ["folder", "link in a loop"])
def test_an_entry_named_like_a_day_that_cannot_be_read_is_named_and_the_days_still_read(
    workspace: Path, fixed_now: datetime, odd: str
):
    memory_dir = workspace / "memory"
    (memory_dir / "2025-11-20.md").write_text("# 2025-11-20\n\n- Ann likes tea\n")
    entry = memory_dir / "2025-11-09.md"
    if odd == "folder":
        entry.mkdir()
    else:
        entry.symlink_to(entry)

    with Memory(workspace, clock=lambda: fixed_now) as memory:
        problems = [str(problem) for problem in memory.status().problems]
        recalled = [item.content for item in memory.recall("tea").items]

    assert len(problems) == 1
    assert problems[0].startswith("memory/2025-11-09.md: cannot read it (")
    assert recalled == ["Ann likes tea"]


def test_a_journal_day_after_today_is_named(workspace: Path, fixed_now: datetime):
    (workspace / "memory" / "2099-01-01.md").write_text("# 2099-01-01\n\n- from the future\n")
    (workspace / "memory" / "2025-11-20.md").write_text("# 2025-11-20\n\n- Ann likes tea\n")

    [problems, *_] = statuses(workspace, fixed_now, runs=1)

    assert problems == [
        "memory/2099-01-01.md: dated in the future (today is 2025-11-27): its facts count as "
        "newer than anything said since; rename it to the day it logs"
    ]
