"""``promote(dry_run=True)`` says what ``promote()`` will do: the same verdicts, in the same
order, for the same topics, each fact judged against the wiki as the facts above it leave it;
and it writes nothing."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.gate.verdicts import verdict_name
from memstrata.journal.rehearsal import copy_for_rehearsal
from memstrata.model import Problem
from tests.maintain.messy import file_states

NOW = datetime(2025, 11, 27, 10, 0, tzinfo=UTC)
DAY = "2025-11-27"


def write_retain(workspace: Path, *facts: str, day: str = DAY) -> None:
    text = f"# {day}\n\n## Retain\n" + "".join(f"- {fact}\n" for fact in facts)
    (workspace / "memory" / f"{day}.md").write_text(text, encoding="utf-8")


def canonical_files(workspace: Path) -> dict[str, tuple[bytes, int]]:
    """Every file but the derived ones in ``.memstrata/``, with its bytes and mtime."""
    return {
        path: state
        for path, state in file_states(workspace).items()
        if not path.startswith(".memstrata/")
    }


@pytest.fixture
def mem(workspace: Path):
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        yield memory


@pytest.mark.parametrize(
    ("facts", "verdicts"),
    [
        # stated, taken back, stated again: the third is news again, not the first topic
        (
            ["W Ann drinks tea", "W Ann no longer drinks tea", "W Ann drinks tea"],
            ["admitted", "superseded", "superseded"],
        ),
        # the second finds the topic the first made
        (["W @Ann prefers cortado", "W @Ann prefers cortado"], ["admitted", "merged"]),
        (["W Ann likes jazz", "W Ann does not like jazz"], ["admitted", "conflicted"]),
        (["O(c=0.6) @Ann prefers tea", "O(c=0.9) @Ann prefers tea"], ["admitted", "merged"]),
    ],
)
def test_a_dry_run_gives_the_verdicts_the_real_run_gives(
    mem: Memory, workspace: Path, facts: list[str], verdicts: list[str]
):
    write_retain(workspace, *facts)

    previewed = mem.promote(dry_run=True)
    promoted = mem.promote()

    assert [verdict_name(verdict) for _, verdict in promoted] == verdicts
    assert [fact for fact, _ in previewed] == [fact for fact, _ in promoted]
    # the same verdicts down to their topics, proposals and reasons; only marked as a preview
    assert all(verdict.dry_run for _, verdict in previewed)
    assert [replace(verdict, dry_run=False) for _, verdict in previewed] == [
        verdict for _, verdict in promoted
    ]


def test_a_dry_run_judges_against_the_wiki_as_it_is_and_then_as_the_run_leaves_it(
    mem: Memory, workspace: Path
):
    mem.remember("Ann drinks tea", kind="world", observed="2025-11-20T09:00:00Z")
    write_retain(workspace, "W Ann no longer drinks tea", "W Ann drinks tea")

    previewed = mem.promote(dry_run=True)

    assert [verdict_name(verdict) for _, verdict in previewed] == ["superseded", "superseded"]
    assert [replace(verdict, dry_run=False) for _, verdict in previewed] == [
        verdict for _, verdict in mem.promote()
    ]


def test_a_dry_run_writes_nothing(mem: Memory, workspace: Path):
    mem.remember("Ann likes jazz", kind="world")
    write_retain(workspace, "W Ann does not like jazz", "W Ann drinks tea", "W Ann drinks tea")
    before = canonical_files(workspace)

    previewed = mem.promote(dry_run=True)

    assert len(previewed) == 3
    assert canonical_files(workspace) == before  # no topic, proposal or .promoted line
    assert mem.proposals() == []
    assert len(mem.promote()) == 3  # so every fact is still waiting


def test_a_dry_run_leaves_out_what_was_promoted_and_only_for_the_day_asked(
    mem: Memory, workspace: Path
):
    write_retain(workspace, "W Ann drinks tea", day="2025-11-26")
    mem.promote()
    write_retain(workspace, "W Ann no longer drinks tea")
    write_retain(workspace, "W Bob drinks coffee", day="2025-11-28")

    every_day = mem.promote(dry_run=True)
    one_day = mem.promote(DAY, dry_run=True)

    assert [fact.text for fact, _ in every_day] == ["Ann no longer drinks tea", "Bob drinks coffee"]
    assert [(fact.text, verdict_name(verdict)) for fact, verdict in one_day] == [
        ("Ann no longer drinks tea", "superseded")
    ]


def test_a_dry_run_names_each_problem_once_as_the_real_run_does(mem: Memory, workspace: Path):
    write_retain(workspace, "W Ann drinks tea", "X not a kind")
    previewed: list[Problem] = []
    promoted: list[Problem] = []

    mem.promote(dry_run=True, on_problem=previewed.append)
    mem.promote(on_problem=promoted.append)
    nothing_left: list[Problem] = []
    assert mem.promote(dry_run=True, on_problem=nothing_left.append) == []

    assert [str(problem) for problem in previewed] == [str(problem) for problem in promoted]
    assert [problem.line for problem in previewed] == [5]
    assert nothing_left == previewed  # told when nothing is left to promote as well


def test_a_dry_run_for_a_day_that_is_no_day_or_has_no_journal_is_refused(mem: Memory):
    with pytest.raises(InputError, match="is not a day"):
        mem.promote("2025-02-30", dry_run=True)
    with pytest.raises(InputError, match="no journal for that day"):
        mem.promote(DAY, dry_run=True)


def test_a_dry_run_with_the_embedder_on_gives_the_real_runs_verdicts(workspace: Path):
    write_retain(workspace, "W Ann drinks tea", "W Ann no longer drinks tea", "W Ann drinks tea")
    with Memory(workspace, clock=lambda: NOW) as memory:
        previewed = memory.promote(dry_run=True)
        promoted = memory.promote()

    assert [replace(verdict, dry_run=False) for _, verdict in previewed] == [
        verdict for _, verdict in promoted
    ]


def test_what_another_process_writes_while_the_dry_run_copies_is_in_its_copy(
    mem: Memory, workspace: Path, tmp_path: Path
):
    # The files are copied without the workspace lock; under it, what changed since is
    # brought in step. Here another writer finishes just before the lock is had.
    mem.write_topic("people/ann", "# Ann\nDrinks tea.")
    mem.write_topic("people/bob", "# Bob\nRides to work.")
    write_retain(workspace, "W Ann drinks coffee")

    @contextmanager
    def another_writer_then_the_lock() -> Iterator[None]:
        with Memory(workspace, clock=lambda: NOW, embeddings=False) as other:
            other.write_topic("people/ann", "# Ann\nDrinks coffee now.")
            other.write_topic("places/oslo", "# Oslo\nThe office.")
            other.archive_topic("people/bob")
            other.log("Ann switched to coffee.")
        with mem.lock.held():
            yield

    copy, problems = copy_for_rehearsal(
        mem.workspace, mem.index.db, tmp_path / "copy", another_writer_then_the_lock()
    )

    assert problems == []
    assert canonical_files(copy.root) == {
        path: state
        for path, state in canonical_files(workspace).items()
        if path == "memstrata.toml"
        or path.startswith("memory/topics/")
        or path.startswith("memory/proposals/")
        or path.startswith("memory/.pending/")
        or (path.startswith("memory/") and path.count("/") == 1 and path.endswith(".md"))
    }
    assert "Drinks coffee now." in (copy.root / "memory/topics/people/ann/summary.md").read_text()
