"""The journal is shared: lines other programs append while memstrata logs are never lost."""

import subprocess
import sys

import pytest

from memstrata import Memory

# Appends like a shell's `echo ... >> day.md`: open, write one line, close; without our lock.
APPENDER = """
import sys, time
path, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    with open(path, "a") as day:
        day.write(f"- agent append {i}\\n")
    time.sleep(0.001)
"""


@pytest.mark.parametrize(
    "seed",
    [
        pytest.param("", id="notes-go-at-the-end"),
        pytest.param("## Retain\n- W @Ann leads design\n", id="notes-go-above-retain"),
    ],
)
def test_lines_another_program_appends_while_logging_are_all_kept(memory: Memory, seed):
    path = memory.workspace.memory_dir / "2025-11-27.md"
    path.write_text(f"# 2025-11-27\n\n{seed}")
    appender = subprocess.Popen([sys.executable, "-c", APPENDER, str(path), "600"])
    logged = 0
    while appender.poll() is None:
        memory.log(f"note {logged}")
        logged += 1
    assert appender.returncode == 0
    lines = path.read_text().splitlines()
    appended = [line for line in lines if line.startswith("- agent append ")]
    assert sorted(int(line.rsplit(" ", 1)[1]) for line in appended) == list(range(600))
    notes = [line for line in lines if line.startswith("- 10:00 note ")]
    assert notes == [f"- 10:00 note {i}" for i in range(logged)]
    if seed:
        assert lines.index(notes[-1]) < lines.index("## Retain")


def test_a_program_holding_the_journal_open_keeps_writing_into_it(memory: Memory):
    memory.log("first")
    path = memory.workspace.memory_dir / "2025-11-27.md"
    with path.open("a") as agent:  # an agent that keeps its handle open all session
        memory.log("second")
        agent.write("- agent line\n")
    assert path.read_text() == "# 2025-11-27\n\n- 10:00 first\n- 10:00 second\n- agent line\n"


def test_a_note_logged_after_another_programs_append_counts_its_line(memory: Memory):
    memory.log("first")
    path = memory.workspace.memory_dir / "2025-11-27.md"
    with path.open("a") as agent:
        agent.write("- agent line\n")
    written = memory.log("second")
    assert path.read_text().splitlines()[written.line - 1] == "- 10:00 second"


def test_a_typed_fact_inserted_above_later_lines_keeps_them(memory: Memory):
    path = memory.workspace.memory_dir / "2025-11-27.md"
    path.write_text("# 2025-11-27\n\n## Retain\n- W @Ann leads design\n\n## Later\n- kept\n")
    written = memory.log("@Ann prefers cortado", kind="opinion", confidence=0.9)
    assert path.read_text() == (
        "# 2025-11-27\n\n## Retain\n- W @Ann leads design\n- O(c=0.9) @Ann prefers cortado\n"
        "\n## Later\n- kept\n"
    )
    assert written.line == 5


def test_an_empty_journal_file_gets_its_heading(memory: Memory):
    path = memory.workspace.memory_dir / "2025-11-27.md"
    path.touch()  # created by `touch` or an editor before anything was written
    memory.log("first")
    assert path.read_text() == "# 2025-11-27\n\n- 10:00 first\n"


def test_a_note_for_the_end_of_a_journal_with_a_bom_keeps_the_bom(memory: Memory):
    path = memory.workspace.memory_dir / "2025-11-27.md"
    path.write_bytes(b"\xef\xbb\xbf# 2025-11-27\n")
    memory.log("first")
    assert path.read_bytes() == b"\xef\xbb\xbf# 2025-11-27\n\n- 10:00 first\n"
