"""``memstrata hooks install|uninstall`` as a person runs them: what they say, and what they
refuse, with HOME in a temporary folder."""

import json
import shutil
from pathlib import Path

import pytest

from ..cli.process import run


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def memstrata(home: Path, *args: str, cwd: Path | None = None):
    return run(*args, cwd=cwd or home, env={"HOME": str(home), "CODEX_HOME": str(home / ".codex")})


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_a_project_dir_that_does_not_exist_is_a_usage_error(
    workspace: Path, tmp_path: Path, home: Path, harness: str
):
    missing = tmp_path / "typo-in-name"

    for command in ("install", "uninstall"):
        result = memstrata(
            home, "-w", str(workspace), "hooks", command, harness, "--project-dir", str(missing)
        )

        assert result.returncode == 2
        assert f"Directory '{missing}' does not exist" in result.stderr
    assert not missing.exists()


@pytest.mark.parametrize(("harness", "name"), [("claude-code", "Claude Code"), ("codex", "Codex")])
def test_uninstall_where_nothing_is_installed_says_so_in_one_line(
    home: Path, harness: str, name: str
):
    result = memstrata(home, "hooks", "uninstall", harness, "--user")

    assert result.returncode == 0, result.stderr
    assert result.stdout == f"nothing to remove: memstrata is not installed for {name} (user)\n"
    assert sorted(home.iterdir()) == []


def test_uninstall_never_says_removed_of_what_was_not_there(home: Path, workspace: Path):
    (home / ".claude").mkdir()
    settings = home / ".claude" / "settings.json"
    settings.write_text('{"model": "x"}\n')

    result = memstrata(home, "-w", str(workspace), "hooks", "uninstall", "claude-code", "--user")

    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "nothing to remove: memstrata is not installed for Claude Code (user) with workspace "
        f"{workspace}\n"
    )
    assert settings.read_text() == '{"model": "x"}\n'


def test_uninstall_names_the_hooks_of_another_workspace_it_leaves(home: Path, workspace: Path):
    (home / ".claude").mkdir()
    team = "memstrata --workspace ~/team-memory hook user-prompt"
    hooks = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": team}]}]}}
    (home / ".claude" / "settings.json").write_text(json.dumps(hooks, indent=2) + "\n")

    result = memstrata(home, "-w", str(workspace), "hooks", "uninstall", "claude-code", "--user")

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "nothing to remove: memstrata is not installed for Claude Code (user) with workspace "
        f"{workspace}",
        f"unchanged {home / '.claude' / 'settings.json'} (kept 1 other memstrata hook in "
        "UserPromptSubmit for ~/team-memory)",
    ]


def test_uninstall_with_no_workspace_in_effect_asks_which_one(home: Path, workspace: Path):
    memstrata(home, "-w", str(workspace), "hooks", "install", "codex", "--user")

    result = memstrata(home, "hooks", "uninstall", "codex", "--user")

    assert result.returncode == 1
    assert f"memstrata -w {workspace} hooks uninstall codex --user" in result.stderr
    assert (home / ".codex" / "hooks.json").exists()


def test_a_workspace_that_is_gone_can_still_be_uninstalled_and_its_files_stay_emptied(
    home: Path, workspace: Path
):
    installed = memstrata(home, "-w", str(workspace), "hooks", "install", "claude-code", "--user")
    assert installed.returncode == 0, installed.stderr
    shutil.rmtree(workspace)  # with it, the record of the files install created

    result = memstrata(home, "-w", str(workspace), "hooks", "uninstall", "claude-code", "--user")

    assert result.returncode == 0, result.stderr
    assert "removed " not in result.stdout
    assert result.stdout.count("nothing says install created it") == 2
    assert json.loads((home / ".claude" / "settings.json").read_text()) == {}
    assert json.loads((home / ".claude.json").read_text()) == {}
