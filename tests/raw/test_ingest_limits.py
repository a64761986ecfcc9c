"""``[raw] max_line_bytes`` is the longest transcript line an import reads, in every format;
and a path named to ``ingest`` that is not there is a problem, not the end of the import."""

import json
from pathlib import Path

import pytest

from tests.cli.process import run


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    assert run("init", str(root)).returncode == 0
    config = root / "memstrata.toml"
    settings = config.read_text().replace("max_line_bytes = 8388608", "max_line_bytes = 200")
    config.write_text(settings)
    return root


def _jsonl(path: Path) -> Path:
    rows = [
        {"role": "user", "content": "where do zeppelins dock"},
        {"role": "assistant", "content": "a mooring mast " * 40},  # ~600 bytes as a line
        {"role": "user", "content": "and in Oslo?"},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _aider(path: Path) -> Path:
    path.write_text(
        "# aider chat started at 2025-11-27 10:00:00\n\n"
        "#### where do zeppelins dock\n\n"
        + "At a mooring mast, " * 30
        + "\n\n#### and in Oslo?\n\nAt the harbour mast.\n"
    )
    return path


@pytest.mark.parametrize(
    ("make", "name", "turns"),
    [(_jsonl, "chat.jsonl", "2 turns added"), (_aider, "h.aider.chat.history.md", "3 turns")],
    ids=["jsonl", "aider"],
)
def test_a_line_longer_than_the_setting_is_named_and_the_rest_imports(
    ws: Path, tmp_path: Path, make, name: str, turns: str
):
    path = make(tmp_path / name)

    result = run("--workspace", str(ws), "ingest", str(path))

    assert result.returncode == 1
    assert "line longer than 200 bytes, skipped" in result.stderr
    assert str(path) in result.stderr
    assert turns in result.stdout


def test_a_missing_path_is_a_problem_and_the_paths_that_are_there_import(ws: Path, tmp_path: Path):
    there = tmp_path / "claude"
    there.mkdir()
    (there / "chat.jsonl").write_text(json.dumps({"role": "user", "content": "hello"}) + "\n")
    missing = tmp_path / "codex-sessions"

    result = run("--workspace", str(ws), "ingest", str(there), str(missing))

    assert result.returncode == 1
    assert f"problem: {missing}: no such file or folder" in result.stderr
    assert "1 file, 1 session" in result.stdout
