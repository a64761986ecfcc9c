"""A failing endpoint rests for the whole workspace: the next command, in another process, reads
by words at once instead of waiting on the endpoint again; `rebuild` tries it at once."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.cli.process import run
from tests.providers.fake_endpoint import FakeEmbeddings, workspace_on

DAY = "# 2025-11-26\n\n- @Ann drinks a flat white with oat milk before reviews\n"


def _workspace(root: Path, base_url: str) -> Path:
    return workspace_on(root, f"openai:tiny@{base_url}", DAY)


def _asked() -> int:
    return len(FakeEmbeddings.requests)


def test_the_next_command_does_not_ask_a_failing_endpoint_again(tmp_path: Path, endpoint: str):
    root = _workspace(tmp_path / "ws", endpoint)
    FakeEmbeddings.mode = "http-500"

    first = run("--workspace", str(root), "recall", "flat white")
    asked = _asked()
    second = run("--workspace", str(root), "recall", "flat white")
    search = run("--workspace", str(root), "search", "flat white")

    assert asked >= 1
    assert _asked() == asked  # neither later process waited on the endpoint
    for result in (first, second, search):
        assert result.returncode == 0, result.stderr
        assert "flat white" in result.stdout
    assert "HTTP 500" in first.stderr
    assert "HTTP 500" in second.stderr and "tried again after" in second.stderr
    rest = json.loads((root / ".memstrata" / "embedder-rest.json").read_text("utf-8"))
    assert rest["model"] == f"openai:tiny@{endpoint}" and "HTTP 500" in rest["reason"]


def test_rebuild_tries_a_resting_endpoint_at_once(tmp_path: Path, endpoint: str):
    root = _workspace(tmp_path / "ws", endpoint)
    FakeEmbeddings.mode = "http-500"
    run("--workspace", str(root), "recall", "flat white")
    FakeEmbeddings.mode = "ok"

    rebuilt = run("--workspace", str(root), "rebuild")
    recalled = run("--workspace", str(root), "recall", "--explain", "coffee before reviews")

    assert rebuilt.returncode == 0 and "without vectors" not in rebuilt.stderr
    assert "semantic" in recalled.stdout and "semantic arm off" not in recalled.stderr
    assert not (root / ".memstrata" / "embedder-rest.json").exists()


@pytest.mark.parametrize(
    "record",
    [
        {"model": "openai:other@http://127.0.0.1:9/v1", "until": 4e9, "reason": "down"},
        {"model": "MODEL", "until": 1.0, "reason": "down long ago"},
        "not json at all",
    ],
    ids=["another model", "ended", "unreadable"],
)
def test_a_rest_of_another_model_an_ended_one_or_a_broken_file_is_none(
    tmp_path: Path, endpoint: str, record: object
):
    root = _workspace(tmp_path / "ws", endpoint)
    if isinstance(record, dict):
        record = json.dumps(
            {**record, "model": record["model"].replace("MODEL", f"openai:tiny@{endpoint}")}
        )
    (root / ".memstrata").mkdir(exist_ok=True)
    (root / ".memstrata" / "embedder-rest.json").write_text(str(record), encoding="utf-8")

    recalled = run("--workspace", str(root), "recall", "--explain", "coffee before reviews")

    assert _asked() >= 1
    assert "semantic arm off" not in recalled.stderr
    assert "semantic" in recalled.stdout


def test_a_rest_another_process_began_is_kept_and_named(tmp_path: Path, endpoint: str):
    root = _workspace(tmp_path / "ws", endpoint)
    path = root / ".memstrata" / "embedder-rest.json"
    path.parent.mkdir(exist_ok=True)
    record = {"model": f"openai:tiny@{endpoint}", "until": time.time() + 600, "reason": "down"}
    path.write_text(json.dumps(record), encoding="utf-8")

    resting = run("--workspace", str(root), "recall", "flat white")

    assert _asked() == 0
    assert "flat white" in resting.stdout
    assert "semantic arm off: down (tried again after" in resting.stderr
