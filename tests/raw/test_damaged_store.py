"""A raw database that is no SQLite database: the other strata still work, and it is named.

``raw/sessions.db`` is canonical but can be made again (from the transcripts, or a snapshot).
What reads every stratum (status, search, rebuild) goes on without it and names it as a
problem; what reads raw alone (ingest, a session search) stops with that same message; tick's
flush fails and stays due. None of them is a traceback or a silent "0 sessions".
"""

from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import RawStoreDamaged
from memstrata.maintain.tick import run_tick
from memstrata.workspace.layout import init_workspace
from tests.cli.process import run
from tests.maintain.messy import NOW

REMEDY = "move it aside and import the transcripts again ('memstrata ingest')"


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """A workspace of one topic whose raw database was overwritten by something else."""
    root = tmp_path / "ws"
    init_workspace(root)
    with Memory(root, embeddings=False) as memory:
        memory.write_topic("ops/deploy", "The deploy runs on Fridays.")
    (root / "raw" / "sessions.db").write_bytes(b"not a database, a page of notes\n" * 200)
    return root


def test_status_search_and_rebuild_read_the_wiki_and_name_the_raw_database(damaged: Path):
    with Memory(damaged, embeddings=False) as memory:
        status = memory.status()
        hits = memory.search("deploy fridays")
        notes = memory.search_notes("deploy fridays")
        rebuilt = memory.rebuild()

    assert status.topics_by_state == {"active": 1} and status.raw_sessions == 0
    [problem] = [p for p in status.problems if p.path == "raw/sessions.db"]
    assert problem.message.startswith("not a usable SQLite database (file is not a database)")
    assert REMEDY in problem.message
    assert [hit.source for hit in hits] == ["ops/deploy"]
    assert notes == (f"raw transcripts not searched: raw/sessions.db: {problem.message}",)
    assert [str(p) for p in rebuilt.problems] == [str(problem)]


def test_what_reads_raw_alone_stops_with_the_same_message(damaged: Path):
    with Memory(damaged, embeddings=False) as memory, pytest.raises(RawStoreDamaged) as error:
        memory.search_sessions("deploy")
    assert str(error.value).endswith(REMEDY + ", or restore a snapshot ('memstrata snapshot list')")


def test_tick_reports_the_flush_failed_and_keeps_it_due(damaged: Path):
    with Memory(damaged, clock=lambda: NOW, embeddings=False) as memory:
        first = {job.name: job for job in run_tick(memory, NOW).jobs}
        again = {job.name: job for job in run_tick(memory, NOW).jobs}

    assert first["flush"].status == "failed" and REMEDY in first["flush"].detail
    assert again["flush"].status == "failed"


def test_on_the_command_line_status_shows_it_as_a_problem_and_ingest_as_one_error(
    damaged: Path, tmp_path: Path
):
    transcript = tmp_path / "session.jsonl"
    transcript.write_text('{"role": "user", "content": "hello"}\n')

    status = run("--workspace", str(damaged), "status")
    ingest = run("--workspace", str(damaged), "ingest", str(transcript))

    assert status.returncode == 0, status.stderr
    assert "raw       0 sessions, 0 turns" in status.stdout
    assert "problem: raw/sessions.db: not a usable SQLite database" in status.stderr
    assert ingest.returncode == 1 and "Traceback" not in ingest.stderr
    assert ingest.stderr.startswith(f"Error: {damaged / 'raw' / 'sessions.db'}: not a usable")
    assert REMEDY in ingest.stderr
