from pathlib import Path

import pytest

from memstrata.errors import WorkspaceError, WorkspaceNotFound
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


@pytest.mark.parametrize(
    ("in_the_way", "said"),
    [
        ("memory", "a file"),
        ("raw", "a file"),
        (".memstrata", "a file"),
        ("memory/topics", "a file"),
    ],
)
def test_a_file_where_init_needs_a_folder_is_named_and_nothing_is_made(
    tmp_path: Path, in_the_way: str, said: str
):
    root = tmp_path / "ws"
    (root / in_the_way).parent.mkdir(parents=True)
    (root / in_the_way).write_text("a note\n")
    before = sorted(path.relative_to(root).as_posix() for path in root.rglob("*"))

    with pytest.raises(WorkspaceError, match=f"^{root / in_the_way}: {said} where the workspace"):
        init_workspace(root)

    assert sorted(path.relative_to(root).as_posix() for path in root.rglob("*")) == before


def test_a_file_above_the_workspace_folder_is_named_too(tmp_path: Path):
    (tmp_path / "notes").write_text("a note\n")

    with pytest.raises(WorkspaceError, match=f"^{tmp_path / 'notes'}: a file where the workspace"):
        init_workspace(tmp_path / "notes" / "ws")


def test_a_link_to_nothing_where_init_needs_a_folder_is_named(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "memory").symlink_to(tmp_path / "gone")

    with pytest.raises(WorkspaceError, match="memory: a link to nothing where the workspace"):
        init_workspace(root)


def test_a_folder_named_memstrata_toml_is_named_by_init_and_by_discovery(tmp_path: Path):
    root = tmp_path / "ws"
    (root / "memstrata.toml").mkdir(parents=True)

    with pytest.raises(WorkspaceError, match=r"memstrata\.toml: a folder where the settings file"):
        init_workspace(root)
    with pytest.raises(WorkspaceNotFound, match=r"memstrata\.toml: a folder where the workspace's"):
        find_workspace(root)
    assert sorted(path.name for path in root.iterdir()) == ["memstrata.toml"]


# -- never a folder inside a workspace's .memstrata/ --------------------------------------------


def snapshot_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace and a snapshot in it: a copy of its files, memstrata.toml included."""
    root = init_workspace(tmp_path / "ws").root
    snapshot = root / ".memstrata" / "snapshots" / "snap-20251127T100000Z"
    (snapshot / "memory").mkdir(parents=True)
    (snapshot / "memstrata.toml").write_text((root / "memstrata.toml").read_text())
    return root, snapshot


def test_discovery_from_inside_a_snapshot_refuses_it_and_names_the_workspace(
    tmp_path: Path, monkeypatch
):
    # Each snapshot holds a memstrata.toml; taken for a workspace, a recall there would append
    # to the metrics file it shares with the snapshots before it.
    monkeypatch.delenv(ENV_VAR, raising=False)
    root, snapshot = snapshot_folder(tmp_path)

    with pytest.raises(WorkspaceNotFound) as refused:
        find_workspace(start=snapshot / "memory")

    assert str(refused.value) == (
        f"snapshot snap-20251127T100000Z of the workspace at {root}, not a workspace of its "
        f"own: run memstrata there, or with --workspace {root} "
        "('memstrata snapshot restore snap-20251127T100000Z' brings its state back)"
    )


@pytest.mark.parametrize("origin", ["--workspace", ENV_VAR])
@pytest.mark.parametrize("inner", ["", "memory"])
def test_a_snapshot_named_as_the_workspace_is_refused_too(
    tmp_path: Path, monkeypatch, origin: str, inner: str
):
    monkeypatch.delenv(ENV_VAR, raising=False)
    root, snapshot = snapshot_folder(tmp_path)
    named = snapshot / inner if inner else snapshot

    with pytest.raises(WorkspaceNotFound, match=f"of the workspace at {root}, not a workspace of "):
        if origin == ENV_VAR:
            monkeypatch.setenv(ENV_VAR, str(named))
            find_workspace()
        else:
            find_workspace(named)


def test_a_settings_file_copied_elsewhere_into_dot_memstrata_makes_no_workspace(
    tmp_path: Path, monkeypatch
):
    monkeypatch.delenv(ENV_VAR, raising=False)
    root = init_workspace(tmp_path / "ws").root
    copy = root / ".memstrata" / "old-settings"
    copy.mkdir()
    (copy / "memstrata.toml").write_text("")

    with pytest.raises(WorkspaceNotFound, match=r"inside the \.memstrata/ folder \(derived data\)"):
        find_workspace(start=copy)


def test_discovery_from_dot_memstrata_itself_finds_its_workspace(tmp_path: Path, monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    root = init_workspace(tmp_path / "ws").root
    (root / ".memstrata" / "snapshots").mkdir()

    assert find_workspace(start=root / ".memstrata" / "snapshots").root == root
