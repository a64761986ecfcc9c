"""Installing into Claude Code's settings.json merges, never clobbers, and undoes cleanly."""

import json
import os
import stat
import time
from pathlib import Path

import pytest

from memstrata.errors import InputError, ParseError
from memstrata.hooks.claude_code import install, uninstall
from memstrata.hooks.run import HOOKS
from memstrata.hooks.settings import BACKUP_SUFFIX, HOOK_NAMES, HookEntry, is_our_command, our_hooks

from ..cli.process import run

#: A settings.json as Claude Code writes it (2-space JSON), with the user's own hooks and keys.
USER_SETTINGS = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"], "deny": []},
    "env": {"TEAM": "billing"},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/check-bash.sh"}]}
        ],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "date -u", "timeout": 5}]}],
        "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}

EVENTS = ["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".claude").mkdir(parents=True)
    return folder


@pytest.fixture
def settings(project: Path) -> Path:
    path = project / ".claude" / "settings.json"
    path.write_text(json.dumps(USER_SETTINGS, indent=2) + "\n")
    return path


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_install_adds_one_hook_per_event_and_keeps_the_users_hooks_and_keys(
    workspace: Path, project: Path, settings: Path
):
    install(workspace, "project", project_dir=project)

    installed = load(settings)
    assert {key: installed[key] for key in ("model", "permissions", "env")} == {
        key: USER_SETTINGS[key] for key in ("model", "permissions", "env")
    }
    assert installed["hooks"]["PreToolUse"] == USER_SETTINGS["hooks"]["PreToolUse"]
    assert (
        installed["hooks"]["UserPromptSubmit"][0] == USER_SETTINGS["hooks"]["UserPromptSubmit"][0]
    )
    assert installed["hooks"]["Stop"][0] == USER_SETTINGS["hooks"]["Stop"][0]
    assert sorted(event for event, _ in our_hooks(installed)) == sorted(EVENTS)
    commands = dict(our_hooks(installed))
    assert commands["UserPromptSubmit"].endswith(f"--workspace {workspace} hook user-prompt")


def test_the_users_events_keep_their_order_and_ours_follow(
    workspace: Path, project: Path, settings: Path
):
    install(workspace, "project", project_dir=project)

    assert list(load(settings)["hooks"]) == [
        "PreToolUse",
        "UserPromptSubmit",
        "Stop",
        "SessionStart",
        "SessionEnd",
    ]
    assert not settings.with_name(settings.name + BACKUP_SUFFIX).exists()


def test_uninstall_after_install_restores_the_file_byte_for_byte(
    workspace: Path, project: Path, settings: Path
):
    original = settings.read_bytes()
    install(workspace, "project", project_dir=project)
    assert settings.read_bytes() != original

    uninstall(workspace, "project", project_dir=project)

    assert settings.read_bytes() == original


def test_installing_twice_adds_nothing(workspace: Path, project: Path, settings: Path):
    install(workspace, "project", project_dir=project)
    first = settings.read_bytes()
    mcp_first = (project / ".mcp.json").read_bytes()

    again = install(workspace, "project", project_dir=project)

    assert not any(change.changed for change in again)
    assert settings.read_bytes() == first
    assert (project / ".mcp.json").read_bytes() == mcp_first


def test_installing_from_another_path_updates_our_entries_in_place(
    workspace: Path, project: Path, settings: Path
):
    install(workspace, "project", project_dir=project, program=["/old/venv/bin/memstrata"])
    install(workspace, "project", project_dir=project)

    installed = load(settings)
    assert len(our_hooks(installed)) == len(EVENTS)
    assert not any("/old/venv" in command for _, command in our_hooks(installed))
    server = load(project / ".mcp.json")["mcpServers"]["memstrata"]
    assert server["command"] != "/old/venv/bin/memstrata"


def test_uninstall_removes_only_our_handlers_even_inside_a_shared_group(
    workspace: Path, project: Path, settings: Path
):
    install(workspace, "project", project_dir=project)
    data = load(settings)
    ours = data["hooks"]["UserPromptSubmit"][1]["hooks"][0]
    data["hooks"]["UserPromptSubmit"][0]["hooks"].append(ours)  # a hand-merged group
    data["hooks"]["UserPromptSubmit"].pop(1)
    settings.write_text(json.dumps(data, indent=2) + "\n")

    uninstall(workspace, "project", project_dir=project)

    assert load(settings) == USER_SETTINGS


def test_dry_run_writes_nothing_and_shows_the_diff(workspace: Path, project: Path):
    changes = install(workspace, "project", project_dir=project, dry_run=True)

    assert not (project / ".claude" / "settings.json").exists()
    assert not (project / ".mcp.json").exists()
    assert [change.path.name for change in changes if change.changed] == [
        "settings.json",
        ".mcp.json",
    ]
    assert '+    "SessionStart": [' in changes[0].diff()


def test_dry_run_uninstall_writes_nothing(workspace: Path, project: Path, settings: Path):
    install(workspace, "project", project_dir=project)
    before = settings.read_bytes()

    changes = uninstall(workspace, "project", project_dir=project, dry_run=True)

    assert any(change.changed for change in changes)
    assert settings.read_bytes() == before
    assert (project / ".mcp.json").exists()


def test_the_mcp_server_goes_into_the_projects_mcp_json(workspace: Path, project: Path):
    mcp = project / ".mcp.json"
    mcp.write_text(json.dumps({"mcpServers": {"other": {"command": "other-mcp"}}}, indent=2))

    install(workspace, "project", project_dir=project)

    servers = load(mcp)["mcpServers"]
    assert servers["other"] == {"command": "other-mcp"}
    assert servers["memstrata"]["type"] == "stdio"
    assert servers["memstrata"]["args"] == ["--workspace", str(workspace), "mcp"]
    uninstall(workspace, "project", project_dir=project)
    assert load(mcp) == {"mcpServers": {"other": {"command": "other-mcp"}}}


def test_files_install_created_are_removed_once_nothing_else_is_in_them(
    workspace: Path, project: Path
):
    install(workspace, "project", project_dir=project)

    uninstall(workspace, "project", project_dir=project)

    assert not (project / ".claude" / "settings.json").exists()
    assert not (project / ".mcp.json").exists()
    assert not (workspace / ".memstrata" / "hooks-created.json").exists()


def test_files_install_did_not_create_stay_emptied_byte_for_byte(workspace: Path, project: Path):
    settings, mcp = project / ".claude" / "settings.json", project / ".mcp.json"
    settings.write_text("{}\n")
    mcp.write_text("{}")

    install(workspace, "project", project_dir=project)
    changes = uninstall(workspace, "project", project_dir=project)

    assert (settings.read_text(), mcp.read_text()) == ("{}\n", "{}")
    assert all("nothing says install created it" in change.note for change in changes)


def test_without_its_record_uninstall_removes_no_file(workspace: Path, project: Path):
    install(workspace, "project", project_dir=project)
    (workspace / ".memstrata" / "hooks-created.json").unlink()  # e.g. .memstrata/ cleared

    uninstall(workspace, "project", project_dir=project)

    assert load(project / ".claude" / "settings.json") == {}
    assert load(project / ".mcp.json") == {}


def test_user_scope_writes_home_settings_and_the_mcp_server_into_claude_json(
    workspace: Path, tmp_path: Path
):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    state = {"numStartups": 12, "projects": {"/repo": {"allowedTools": []}}, "userID": "abc"}
    (home / ".claude.json").write_text(json.dumps(state, indent=2))
    original = (home / ".claude.json").read_bytes()

    install(workspace, "user", home=home)

    assert sorted(event for event, _ in our_hooks(load(home / ".claude" / "settings.json"))) == (
        sorted(EVENTS)
    )
    claude_json = load(home / ".claude.json")
    assert {key: claude_json[key] for key in state} == state
    assert claude_json["mcpServers"]["memstrata"]["args"][-1] == "mcp"
    uninstall(workspace, "user", home=home)
    assert (home / ".claude.json").read_bytes() == original


def test_an_unrelated_server_named_memstrata_is_refused_and_left_as_it_is(
    workspace: Path, project: Path
):
    mcp = project / ".mcp.json"
    mcp.write_text('{"mcpServers": {"memstrata": {"command": "node", "args": ["x.js"]}}}')

    with pytest.raises(InputError, match="does not run memstrata"):
        install(workspace, "project", project_dir=project)

    assert mcp.read_text() == '{"mcpServers": {"memstrata": {"command": "node", "args": ["x.js"]}}}'
    assert not (project / ".claude" / "settings.json").exists()


def test_a_settings_file_that_is_a_link_is_written_through_it(
    workspace: Path, project: Path, tmp_path: Path
):
    kept = tmp_path / "dotfiles" / "settings.json"
    kept.parent.mkdir()
    kept.write_text(json.dumps(USER_SETTINGS, indent=2) + "\n")
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.symlink_to(kept)

    install(workspace, "project", project_dir=project)

    assert settings.is_symlink()
    assert our_hooks(load(kept))


def test_another_formatting_is_kept_in_a_backup_before_the_file_is_rewritten(
    workspace: Path, project: Path
):
    settings = project / ".claude" / "settings.json"
    compact = json.dumps(USER_SETTINGS)  # one line: we cannot keep that layout
    settings.write_text(compact)
    settings.chmod(0o600)

    install(workspace, "project", project_dir=project)

    backup = settings.with_name(settings.name + BACKUP_SUFFIX)
    assert backup.read_text() == compact
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # as private as what it copies
    uninstall(workspace, "project", project_dir=project)
    assert load(settings) == USER_SETTINGS


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{\n  "model": "opus",\n  "hooks": {\n}}}\n', "settings.json:4: not valid JSON"),
        ('{"hooks": []}', "'hooks' is not a JSON object"),
        ('{"hooks": {"Stop": {"command": "x"}}}', "hooks.Stop is not a list"),
        ("[1, 2]", "expected a JSON object"),
    ],
)
def test_a_malformed_settings_json_is_a_one_line_error_and_the_file_is_untouched(
    workspace: Path, project: Path, text: str, problem: str
):
    settings = project / ".claude" / "settings.json"
    settings.write_text(text)

    result = run(
        "--workspace",
        str(workspace),
        "hooks",
        "install",
        "claude-code",
        "--project-dir",
        str(project),
    )

    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert problem in result.stderr
    assert settings.read_text() == text
    assert not (project / ".mcp.json").exists()


def test_a_malformed_settings_json_raises_a_parse_error_naming_file_and_line(
    workspace: Path, project: Path
):
    (project / ".claude" / "settings.json").write_text('{\n  "hooks": {,}\n}\n')

    with pytest.raises(ParseError) as raised:
        install(workspace, "project", project_dir=project)

    assert raised.value.line == 2
    assert raised.value.path.endswith("settings.json")


def test_the_cli_install_reports_each_file_and_a_second_run_reports_unchanged(
    workspace: Path, project: Path
):
    base = ("--workspace", str(workspace), "hooks", "install", "claude-code")

    first = run(*base, "--project-dir", str(project))
    second = run(*base, "--project-dir", str(project))

    assert first.returncode == 0, first.stderr
    assert f"wrote {project / '.claude' / 'settings.json'}" in first.stdout
    assert f"wrote {project / '.mcp.json'}" in first.stdout
    assert second.stdout.count("unchanged") == 2


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--user", "--project"), "--project and --user exclude each other"),
        (("--user", "--project-dir", "."), "--project-dir goes with --project, not --user"),
    ],
)
def test_scope_flags_that_contradict_each_other_are_refused(
    workspace: Path, project: Path, flags: tuple[str, ...], message: str
):
    before = sorted(path.read_bytes() for path in project.rglob("*") if path.is_file())

    for command in ("install", "uninstall"):
        result = run("--workspace", str(workspace), "hooks", command, "claude-code", *flags)

        assert result.returncode == 2 and message in result.stderr
    assert sorted(path.read_bytes() for path in project.rglob("*") if path.is_file()) == before


def test_hooks_print_shows_the_commands_for_claude_code(workspace: Path):
    result = run("--workspace", str(workspace), "hooks", "print", "claude-code")

    assert result.returncode == 0, result.stderr
    assert f"--workspace {workspace} hook user-prompt" in result.stdout
    assert "claude mcp add --scope user memstrata --" in result.stdout


def test_every_hooks_command_has_help_that_ends_with_an_example():
    from memstrata.cli.hooks import COMMANDS

    for group in COMMANDS:
        for command in [group, *group.commands.values()]:
            last = command.help.strip().splitlines()[-1].strip()
            assert last.startswith("Example: "), command.name


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        ("/home/me/.venv/bin/memstrata --workspace /home/me/mem hook user-prompt", True),
        ("'/opt/my tools/memstrata' --workspace /home/me/mem hook user-prompt", True),
        ("/usr/bin/python3 -m memstrata --workspace /home/me/mem hook user-prompt", True),
        ("memstrata --workspace ~/mem hook user-prompt", True),  # the shell expands ~
        ("memstrata --workspace /home/me/mem/ hook user-prompt", True),
        ("memstrata --workspace ~/team-memory hook user-prompt", False),  # another workspace
        ("memstrata hook user-prompt", False),  # no workspace: the one found from cwd
        ("memstrata -w /home/me/mem hook user-prompt", False),  # written by hand
        ("memstrata --workspace /home/me/mem hook user-prompt --plain", False),
        ("memstrata --workspace /home/me/mem hook stop", False),  # another hook
        ("python3 my_hook.py --workspace /home/me/mem hook user-prompt", False),
        ("echo 'unbalanced", False),
        ("", False),
    ],
)
def test_install_owns_a_hook_only_as_it_writes_it_for_the_same_workspace(
    command: str, ours: bool, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("HOME", "/home/me")
    entry = HookEntry("UserPromptSubmit", ("user-prompt",), 15)

    assert entry.is_installed_as(command, Path("/home/me/mem")) is ours


@pytest.mark.parametrize(
    ("command", "runs_a_hook"),
    [
        ("memstrata --workspace ~/team-memory hook stop --harness jsonl", True),
        ("/usr/bin/python3 -m memstrata hook session-start", True),
        ("memstrata --workspace /w search cortado", False),
        ("~/bin/check-bash.sh hook stop", False),
    ],
)
def test_any_command_that_runs_a_memstrata_hook_is_told_apart_from_others(command, runs_a_hook):
    assert is_our_command(command) is runs_a_hook


def test_every_hook_name_the_installer_knows_is_a_hook_that_runs():
    assert set(HOOK_NAMES) == set(HOOKS)


# -- what is not ours: another workspace's hooks and server ------------------------------------

#: Hooks a user wrote by hand for a team workspace: one in an event install uses, one in an
#: event it never touches.
TEAM_HOOKS = {
    "hooks": {
        "UserPromptSubmit": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "memstrata --workspace ~/team-memory hook user-prompt",
                    }
                ]
            }
        ],
        "PostToolUse": [
            {
                "matcher": "Write",
                "hooks": [
                    {
                        "type": "command",
                        "command": "memstrata --workspace ~/team-memory hook stop --harness jsonl",
                    }
                ],
            }
        ],
    }
}


@pytest.fixture
def team_settings(project: Path) -> Path:
    path = project / ".claude" / "settings.json"
    path.write_text(json.dumps(TEAM_HOOKS, indent=2) + "\n")
    return path


def test_install_adds_its_hook_beside_one_for_another_workspace(
    workspace: Path, project: Path, team_settings: Path
):
    changes = install(workspace, "project", project_dir=project)

    installed = load(team_settings)
    prompt_hooks = [
        h["command"] for g in installed["hooks"]["UserPromptSubmit"] for h in g["hooks"]
    ]
    assert prompt_hooks[0] == "memstrata --workspace ~/team-memory hook user-prompt"
    assert prompt_hooks[1].endswith(f"--workspace {workspace} hook user-prompt")
    assert installed["hooks"]["PostToolUse"] == TEAM_HOOKS["hooks"]["PostToolUse"]
    assert "kept 2 other memstrata hooks in UserPromptSubmit, PostToolUse for ~/team-memory" in (
        changes[0].note
    )


def test_uninstall_takes_out_only_what_install_wrote_for_this_workspace(
    workspace: Path, project: Path, team_settings: Path
):
    original = team_settings.read_bytes()
    install(workspace, "project", project_dir=project)

    uninstall(workspace, "project", project_dir=project)

    assert team_settings.read_bytes() == original


def test_uninstall_where_only_another_workspaces_hooks_are_changes_nothing(
    workspace: Path, project: Path, team_settings: Path
):
    original = team_settings.read_bytes()

    changes = uninstall(workspace, "project", project_dir=project)

    assert not any(change.changed for change in changes)
    assert team_settings.read_bytes() == original


def test_uninstall_with_no_workspace_in_effect_names_the_installed_one_and_takes_nothing(
    workspace: Path, project: Path
):
    install(workspace, "project", project_dir=project)
    before = {path: path.read_bytes() for path in project.rglob("*") if path.is_file()}

    with pytest.raises(InputError, match=f"entries here name {workspace}: say whose to remove"):
        uninstall(None, "project", project_dir=project)

    assert {path: path.read_bytes() for path in project.rglob("*") if path.is_file()} == before


def test_an_mcp_server_for_another_workspace_is_refused_not_re_pointed(
    workspace: Path, project: Path, tmp_path: Path
):
    mcp = project / ".mcp.json"
    team = {"command": "memstrata", "args": ["--workspace", str(tmp_path / "team"), "mcp"]}
    mcp.write_text(json.dumps({"mcpServers": {"memstrata": team}}, indent=2))
    original = mcp.read_bytes()

    with pytest.raises(InputError, match="installed for another workspace") as refused:
        install(workspace, "project", project_dir=project)

    assert f"memstrata -w {tmp_path / 'team'} hooks uninstall claude-code" in str(refused.value)
    assert mcp.read_bytes() == original
    assert not (project / ".claude" / "settings.json").exists()
    assert not any(
        change.changed for change in uninstall(workspace, "project", project_dir=project)
    )


def test_install_removes_the_temp_file_a_killed_install_left_and_nothing_else(
    workspace: Path, project: Path, settings: Path
):
    folder = settings.parent
    left = folder / ".settings.json.0123abcd.tmp"  # a killed install's, an hour old
    fresh = folder / ".settings.json.89abcdef.tmp"  # a live writer's, maybe: left alone
    theirs = folder / ".other.json.0123abcd.tmp"  # not a file memstrata writes
    for path in (left, fresh, theirs):
        path.write_text("{")
    hour_ago = time.time() - 3600
    os.utime(left, (hour_ago, hour_ago))
    os.utime(theirs, (hour_ago, hour_ago))

    install(workspace, "project", project_dir=project)

    assert not left.exists()
    assert fresh.exists() and theirs.exists()
