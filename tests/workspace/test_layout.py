from pathlib import Path

import pytest

from memstrata.errors import WorkspaceNotFound
from memstrata.workspace.layout import ENV_VAR, find_workspace, init_workspace


def test_init_lays_out_every_stratum(tmp_path: Path):
    root = init_workspace(tmp_path / "ws").root
    for name in (
        "memstrata.toml",
        "prompt/SOUL.md",
        "prompt/IDENTITY.md",
        "prompt/USER.md",
        "MEMORY.md",
        ".gitignore",
    ):
        assert (root / name).is_file(), name
    for folder in ("memory", "memory/topics", "raw", ".memstrata"):
        assert (root / folder).is_dir(), folder
    assert ".memstrata/" in (root / ".gitignore").read_text()


def test_init_keeps_files_that_are_already_there(tmp_path: Path):
    root = init_workspace(tmp_path).root
    (root / "MEMORY.md").write_text("mine")
    init_workspace(root)
    assert (root / "MEMORY.md").read_text() == "mine"


def test_discovery_prefers_the_explicit_path(tmp_path: Path, monkeypatch):
    one = init_workspace(tmp_path / "one").root
    two = init_workspace(tmp_path / "two").root
    monkeypatch.setenv(ENV_VAR, str(two))
    assert find_workspace(one).root == one


def test_discovery_uses_the_environment_variable(tmp_path: Path, monkeypatch):
    root = init_workspace(tmp_path / "ws").root
    monkeypatch.setenv(ENV_VAR, str(root))
    assert find_workspace(start=tmp_path).root == root


def test_discovery_walks_up_from_the_current_folder(tmp_path: Path, monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    root = init_workspace(tmp_path / "ws").root
    deep = root / "memory" / "topics"
    assert find_workspace(start=deep).root == root


def test_a_missing_workspace_says_how_to_make_one(tmp_path: Path, monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    with pytest.raises(WorkspaceNotFound, match="memstrata init"):
        find_workspace(start=tmp_path)
    with pytest.raises(WorkspaceNotFound, match=str(tmp_path / "nope")):
        find_workspace(tmp_path / "nope")
