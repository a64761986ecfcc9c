"""``promote`` leaves alone what it cannot take in whole, says so, and sends each fact once."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from memstrata import Memory
from memstrata.model import Problem
from tests.cli.process import run

NOW = datetime(2025, 11, 27, 10, 0, tzinfo=UTC)


def _day(workspace: Path, day: str, data: bytes) -> Path:
    path = workspace / "memory" / f"{day}.md"
    path.write_bytes(data)
    return path


def test_a_fact_with_bytes_that_are_no_utf8_waits_for_them_to_be_fixed(workspace: Path):
    day = _day(
        workspace, "2025-11-20", b"# d\n\n## Retain\n- W @Lu drinks caf\xe9\n- W @Lu likes tea\n"
    )
    told: list[Problem] = []
    with Memory(workspace, clock=lambda: NOW) as memory:
        first = memory.promote(on_problem=told.append)
        day.write_bytes("# d\n\n## Retain\n- W @Lu drinks café\n- W @Lu likes tea\n".encode())
        fixed = memory.promote()

    assert [fact.text for fact, _ in first] == ["@Lu likes tea"]
    assert "memory/2025-11-20.md:4: not promoted: the fact holds bytes that are no UTF-8" in (
        "\n".join(str(problem) for problem in told)
    )
    # never a mangled "caf\ufffd" topic that the mended line would then conflict with
    assert [(fact.text, type(verdict).__name__) for fact, verdict in fixed] == [
        ("@Lu drinks café", "Admitted")
    ]


def test_a_day_that_cannot_be_read_is_named_and_the_other_days_promote(workspace: Path):
    (workspace / "memory" / "2025-11-09.md").mkdir()
    _day(workspace, "2025-11-20", b"# d\n\n## Retain\n- W @Lu likes tea\n")
    told: list[Problem] = []
    with Memory(workspace, clock=lambda: NOW) as memory:
        results = memory.promote(on_problem=told.append)

    assert [fact.text for fact, _ in results] == ["@Lu likes tea"]
    assert [str(problem) for problem in told] == [
        "memory/2025-11-09.md: cannot read it (Is a directory)"
    ]


def test_the_cli_names_what_it_left_alone_and_why_a_fact_was_rejected(workspace: Path):
    long_fact = "- W " + "x" * 1500 + "\n"
    _day(workspace, "2025-11-21", ("# d\n\n## Retain\n" + long_fact + "- Q no kind\n").encode())

    result = run("--workspace", str(workspace), "promote")

    assert result.returncode == 0, result.stderr
    assert (
        "memory/2025-11-21.md#L4: rejected (1500 chars is over the 1000-char cap" in result.stdout
    )
    assert result.stderr.startswith("problem: memory/2025-11-21.md:5: retain bullet must start")


PROMOTE = """
import sys
from memstrata import Memory
with Memory(sys.argv[1]) as memory:
    print(len(memory.promote()))
"""


def test_two_promotes_at_once_send_each_fact_through_the_gate_once(workspace: Path):
    facts = "".join(f"- W @Person{n} works on project {n}\n" for n in range(15))
    _day(workspace, "2025-11-20", f"# d\n\n## Retain\n{facts}".encode())
    command = [sys.executable, "-c", PROMOTE, str(workspace)]

    both = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    counts = [int(process.communicate(timeout=300)[0]) for process in both]

    assert sorted(counts)[1] <= 15 and sum(counts) == 15
    record = (workspace / "memory" / ".promoted").read_text().splitlines()
    assert len(record) == 15
    with Memory(workspace) as memory:
        assert len(memory.list_topics()) == 15
        assert all(len(memory.topic_history(t.id)) == 1 for t in memory.list_topics())
