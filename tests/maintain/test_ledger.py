"""Never hard-delete: every step is a ledger line, and every ledger line can be undone."""

from datetime import timedelta
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.maintain.ledger import read_ledger, scan_ledger
from memstrata.maintain.steps import fingerprint_of
from memstrata.maintain.undo import undo_step
from tests.cli.process import run
from tests.maintain.messy import NOW, Truth, garden

LATER = NOW + timedelta(hours=1)


def _states(root: Path) -> dict[str, str]:
    with Memory(root, clock=lambda: NOW) as memory:
        return {topic.id: fingerprint_of(topic) for topic in memory.list_topics()}


def _undo(root: Path, step_id: str, dry_run: bool = False):
    with Memory(root, clock=lambda: LATER) as memory:
        return undo_step(memory, step_id, LATER, dry_run)


def test_undoing_every_step_newest_first_brings_back_every_topic(messy: tuple[Path, Truth]):
    root, _truth = messy
    before = _states(root)
    garden(root, "autonomous")
    records = read_ledger(root / "memory" / "ledger.jsonl")
    assert records and all(record.changes for record in records)

    for record in reversed(records):
        _undo(root, record.id)

    after = _states(root)
    created = set(after) - set(before)
    with Memory(root, clock=lambda: NOW) as memory:
        # split children are archived, never deleted; everything else is as it was
        assert all(memory.get_topic(topic_id).meta.state == "archived" for topic_id in created)
    assert {topic_id: after[topic_id] for topic_id in before} == before


def test_an_undo_is_itself_a_ledger_line_and_cannot_be_done_twice(messy: tuple[Path, Truth]):
    root, truth = messy
    garden(root, "autonomous")
    [merge] = [
        r
        for r in read_ledger(root / "memory" / "ledger.jsonl")
        if r.action == "merge" and r.topics == truth.duplicates[0]
    ]

    result = _undo(root, merge.id)

    last = read_ledger(root / "memory" / "ledger.jsonl")[-1]
    assert last.action == "undo" and last.undoes == merge.id and last.id == result.step
    assert set(result.restored) == set(truth.duplicates[0])
    with pytest.raises(InputError, match="undone already"):
        _undo(root, merge.id)


def test_undo_refuses_when_a_topic_changed_since_and_names_it(messy: tuple[Path, Truth]):
    root, truth = messy
    garden(root, "autonomous")
    [decay] = [
        r
        for r in read_ledger(root / "memory" / "ledger.jsonl")
        if r.action == "decay" and r.topics[0] == truth.decay[0]
    ]
    with Memory(root, clock=lambda: LATER) as memory:
        memory.write_topic(truth.decay[0], "Edited by a person after the gardener.\n")

    with pytest.raises(InputError, match=truth.decay[0]):
        _undo(root, decay.id)
    assert topic_summary(root, truth.decay[0]) == "Edited by a person after the gardener.\n"


def test_a_dry_run_undo_says_what_it_would_do_and_writes_nothing(messy: tuple[Path, Truth]):
    root, _truth = messy
    garden(root, "autonomous")
    [split] = [r for r in read_ledger(root / "memory" / "ledger.jsonl") if r.action == "split"][:1]
    lines = len(read_ledger(root / "memory" / "ledger.jsonl"))

    preview = _undo(root, split.id, dry_run=True)

    assert preview.dry_run and preview.restored == (split.topics[0],)
    assert set(preview.archived) == set(split.topics[1:])
    assert len(read_ledger(root / "memory" / "ledger.jsonl")) == lines


def test_a_step_undone_by_a_person_is_not_redone_but_proposed(messy: tuple[Path, Truth]):
    root, truth = messy
    garden(root, "autonomous")
    target = truth.unused[0]
    [archive] = [
        r
        for r in read_ledger(root / "memory" / "ledger.jsonl")
        if r.action == "archive" and r.topics[0] == target
    ]
    _undo(root, archive.id)

    again = garden(root, "autonomous", now=LATER)

    with Memory(root, clock=lambda: NOW) as memory:
        assert memory.get_topic(target).meta.state == "active"
        assert any(
            p.kind == "archive" and p.sides[0].topic_id == target for p in memory.proposals("open")
        )
    assert any(
        op.verb == "PROPOSED" and op.note == "done before and undone since"
        for op in again.destructive
    )


def topic_summary(root: Path, topic_id: str) -> str:
    with Memory(root, clock=lambda: NOW) as memory:
        return memory.get_topic(topic_id).summary


def test_a_split_undone_by_a_person_is_not_redone_under_new_child_names(workspace: Path):
    # the undone split leaves its children archived, so a new plan names them "…-2": the same
    # split of the same parent all the same
    sections = "\n\n".join(
        f"## {name}\n\n" + f"Jo's notes on {name.lower()}, kept at some length. " * 4
        for name in ("Preferences", "Projects", "Schedule", "Team", "Travel")
    )
    with Memory(workspace, clock=lambda: NOW) as memory:
        memory.write_topic("people/jo", f"# Jo\n\n{sections}\n")
    first = garden(workspace, "autonomous")
    [split] = [r for r in read_ledger(workspace / "memory" / "ledger.jsonl") if r.action == "split"]
    _undo(workspace, split.id)

    again = garden(workspace, "autonomous", now=LATER)

    assert any(op.verb == "EXECUTED" and "SPLIT" in str(op).upper() for op in first.destructive)
    splits = [r for r in read_ledger(workspace / "memory" / "ledger.jsonl") if r.action == "split"]
    assert splits == [split]
    assert any(
        op.verb == "PROPOSED" and op.note == "done before and undone since"
        for op in again.destructive
    )


# -- lines that are no step ---------------------------------------------------------------------


def _with_bad_lines(ledger: Path) -> None:
    """A hand edit, bytes that are no UTF-8 and a JSON line of the wrong shape after line 1."""
    first, rest = ledger.read_bytes().split(b"\n", 1)
    ledger.write_bytes(first + b'\n{torn\n\xff\xfe not text\n["an", "array"]\n' + rest)


def test_lines_that_are_no_step_are_skipped_and_named_and_the_steps_around_them_undo(
    messy: tuple[Path, Truth],
):
    # A bad line used to stop every 'ledger show' and 'ledger undo' while the gardener went on
    # adding steps behind it that could then not be undone.
    root, _truth = messy
    garden(root, "autonomous")
    ledger = root / "memory" / "ledger.jsonl"
    steps = read_ledger(ledger)
    _with_bad_lines(ledger)
    later = next(step for step in reversed(steps) if step.action == "merge")

    scan = scan_ledger(ledger)
    result = _undo(root, later.id)

    assert list(scan.records) == steps
    assert [str(line) for line in scan.skipped] == [
        "memory/ledger.jsonl:2: not a ledger line (Expecting property name enclosed in double "
        "quotes: line 1 column 2 (char 1)); skipped",
        "memory/ledger.jsonl:3: not a ledger line (not UTF-8 at byte 1); skipped",
        "memory/ledger.jsonl:4: not a ledger line (a JSON list, not an object); skipped",
    ]
    assert result.undone == later.id and result.skipped == tuple(map(str, scan.skipped))
    assert read_ledger(ledger)[-1].undoes == later.id


def test_undo_of_a_step_it_cannot_find_names_the_lines_it_could_not_read(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    garden(root, "autonomous")
    _with_bad_lines(root / "memory" / "ledger.jsonl")

    with pytest.raises(InputError) as refused:
        _undo(root, "g-0123456789")

    assert str(refused.value) == (
        "no step 'g-0123456789' in memory/ledger.jsonl ('memstrata ledger show' lists them); "
        "memory/ledger.jsonl:2 is no ledger line (Expecting property name enclosed in double "
        "quotes: line 1 column 2 (char 1)) (and 2 more lines): the step may be on it"
    )


def test_a_last_line_an_append_left_without_its_newline_is_passed_over_unnamed(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    garden(root, "autonomous")
    ledger = root / "memory" / "ledger.jsonl"
    steps = read_ledger(ledger)
    with ledger.open("ab") as handle:
        handle.write(b'{"id": "g-cut-sh')

    scan = scan_ledger(ledger)

    assert list(scan.records) == steps and scan.skipped == ()


def test_ledger_show_lists_the_steps_around_a_line_that_is_no_step(messy: tuple[Path, Truth]):
    root, _truth = messy
    garden(root, "autonomous")
    ledger = root / "memory" / "ledger.jsonl"
    _with_bad_lines(ledger)

    shown = run("-w", str(root), "ledger", "show", "--limit", "1000")

    assert shown.returncode == 0, shown.stderr
    assert len(shown.stdout.splitlines()) == len(read_ledger(ledger))
    named = [line for line in shown.stderr.splitlines() if "not a ledger line" in line]
    assert [line.split(":")[2] for line in named] == ["2", "3", "4"]
