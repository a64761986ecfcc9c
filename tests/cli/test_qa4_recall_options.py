"""Recall's options: a value that cannot be used is a usage error (exit 2), whichever
option holds it, and is refused before any workspace is read."""

from pathlib import Path

import pytest

from .process import run


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    run("init", str(root))
    run("--workspace", str(root), "log", "--kind", "world", "@Ann prefers cortado")
    return root


@pytest.mark.parametrize("entity", ["", "@", " @ "])
def test_an_empty_entity_is_a_bad_option_value_like_a_bad_k(ws: Path, entity: str):
    result = run("--workspace", str(ws), "recall", "cortado", "--entity", entity)

    assert result.returncode == 2
    assert "Invalid value for '--entity': entity is empty" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("since", "until", "said"),
    [
        ("2021-01-01", "2020-01-01", "since '2021-01-01' starts after until '2020-01-01' ends"),
        ("2025-11-27T10:00:00Z", "2025-11-27T10:00:00Z", "starts at 2025-11-27T10:00:00Z, where"),
        ("2025-11", "2025-10", "since '2025-11' starts at 2025-11-01T00:00:00Z, where until"),
    ],
)
def test_bounds_with_no_time_between_them_are_a_usage_error(
    ws: Path, since: str, until: str, said: str
):
    result = run("--workspace", str(ws), "recall", "cortado", "--since", since, "--until", until)

    assert result.returncode == 2
    assert said in result.stderr and "no time lies between" in result.stderr
    assert "Traceback" not in result.stderr


def test_bounds_of_one_day_hold_that_day(ws: Path):
    day = run("--workspace", str(ws), "log", "probe").stdout.split(":", 1)[0]
    date = day.removeprefix("memory/").removesuffix(".md")

    result = run("--workspace", str(ws), "recall", "cortado", "--since", date, "--until", date)

    assert result.returncode == 0, result.stderr
    assert "@Ann prefers cortado" in result.stdout


def test_the_options_are_refused_before_the_workspace_is_looked_for(tmp_path: Path):
    nowhere = str(tmp_path / "no-workspace")

    entity = run("--workspace", nowhere, "recall", "x", "--entity", "")
    window = run("--workspace", nowhere, "recall", "x", "--since", "2d", "--until", "3d")

    assert entity.returncode == window.returncode == 2
    assert "memstrata.toml" not in entity.stderr + window.stderr
