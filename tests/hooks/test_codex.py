"""Codex CLI: hooks.json, the MCP table in config.toml, the AGENTS.md note, and the hooks run."""

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError, ParseError
from memstrata.hooks.codex import GUIDANCE, find_rollout, install, snippet, uninstall
from memstrata.hooks.settings import launcher, our_hooks
from memstrata.workspace.layout import init_workspace

THREAD = "019e1625-789d-76c0-80ab-3724b5ddb799"
ROLLOUT = f"codex/codemie-real-anonymized/rollout-2026-05-11T11-26-55-{THREAD}.first63lines.jsonl"

USER_CONFIG = """\
# my codex settings
model = "gpt-5.4"
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[profiles.review]
model = "o3"
"""

USER_AGENTS = "# Project rules\n\nRun `make test` before you commit.\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".codex").mkdir(parents=True)
    (folder / ".codex" / "config.toml").write_text(USER_CONFIG)
    (folder / "AGENTS.md").write_text(USER_AGENTS)
    return folder


@pytest.fixture
def codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "codex-home"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


@pytest.fixture
def rollout(transcripts: Path, codex_home: Path) -> Path:
    """A rollout where Codex keeps it: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl."""
    folder = codex_home / "sessions" / "2026" / "05" / "11"
    folder.mkdir(parents=True)
    target = folder / f"rollout-2026-05-11T11-26-55-{THREAD}.jsonl"
    return Path(shutil.copy(transcripts / ROLLOUT, target))


def test_install_adds_hooks_the_mcp_table_and_the_guidance(workspace: Path, project: Path):
    install(workspace, "project", project_dir=project)

    hooks = json.loads((project / ".codex" / "hooks.json").read_text())
    assert sorted(event for event, _ in our_hooks(hooks)) == [
        "SessionStart",
        "Stop",
        "UserPromptSubmit",
    ]
    assert dict(our_hooks(hooks))["Stop"].endswith("hook stop --harness codex")
    config_text = (project / ".codex" / "config.toml").read_text()
    assert config_text.startswith(USER_CONFIG)  # the user's text, byte for byte, comes first
    config = tomllib.loads(config_text)
    assert config["mcp_servers"]["docs"] == {"command": "npx", "args": ["-y", "docs-mcp"]}
    assert config["mcp_servers"]["memstrata"]["args"] == ["--workspace", str(workspace), "mcp"]
    assert config["profiles"] == {"review": {"model": "o3"}}
    agents = (project / "AGENTS.md").read_text()
    assert agents.startswith(USER_AGENTS)
    assert GUIDANCE in agents


def test_installing_twice_changes_nothing(workspace: Path, project: Path):
    install(workspace, "project", project_dir=project)
    files = sorted(project.rglob("*"))
    before = {path: path.read_bytes() for path in files if path.is_file()}

    again = install(workspace, "project", project_dir=project)

    assert not any(change.changed for change in again)
    assert {path: path.read_bytes() for path in files if path.is_file()} == before


def test_uninstall_restores_every_file_byte_for_byte(workspace: Path, project: Path):
    install(workspace, "project", project_dir=project)

    uninstall(workspace, "project", project_dir=project)

    assert (project / ".codex" / "config.toml").read_text() == USER_CONFIG
    assert (project / "AGENTS.md").read_text() == USER_AGENTS
    assert not (project / ".codex" / "hooks.json").exists()


def test_windows_line_ends_stay_what_they_were(workspace: Path, project: Path):
    config, agents = project / ".codex" / "config.toml", project / "AGENTS.md"
    config.write_bytes(USER_CONFIG.replace("\n", "\r\n").encode())
    agents.write_bytes(USER_AGENTS.replace("\n", "\r\n").encode())

    install(workspace, "project", project_dir=project)
    installed = config.read_bytes(), agents.read_bytes()
    uninstall(workspace, "project", project_dir=project)

    for text in installed:
        assert b"\r\n" in text and b"\n" not in text.replace(b"\r\n", b"")
    assert tomllib.loads(installed[0].decode())["mcp_servers"]["memstrata"]
    assert config.read_bytes() == USER_CONFIG.replace("\n", "\r\n").encode()
    assert agents.read_bytes() == USER_AGENTS.replace("\n", "\r\n").encode()


def test_reinstalling_replaces_our_table_in_place(workspace: Path, project: Path, tmp_path: Path):
    install(workspace, "project", project_dir=project, program=["/old/bin/memstrata"])
    config = project / ".codex" / "config.toml"
    config.write_text(config.read_text() + "\n[tui]\nnotifications = true\n")

    install(workspace, "project", project_dir=project)

    text = config.read_text()
    assert "/old/bin" not in text
    assert text.count("[mcp_servers.memstrata]") == 1
    assert text.rstrip().endswith("notifications = true")  # ours stayed where it was


def test_a_server_set_by_hand_is_kept(workspace: Path, project: Path):
    config = project / ".codex" / "config.toml"
    by_hand = USER_CONFIG + '\n[mcp_servers.memstrata]\ncommand = "memstrata"\nargs = ["mcp"]\n'
    config.write_text(by_hand)

    changes = install(workspace, "project", project_dir=project)

    assert config.read_text() == by_hand
    assert any("set by hand; kept" in change.note for change in changes)


def test_an_unrelated_server_named_memstrata_is_refused(workspace: Path, project: Path):
    config = project / ".codex" / "config.toml"
    config.write_text('[mcp_servers.memstrata]\ncommand = "node"\nargs = ["x.js"]\n')

    with pytest.raises(InputError, match="does not run memstrata"):
        install(workspace, "project", project_dir=project)

    assert config.read_text() == '[mcp_servers.memstrata]\ncommand = "node"\nargs = ["x.js"]\n'
    assert not (project / ".codex" / "hooks.json").exists()


def test_a_config_our_table_cannot_join_is_left_untouched(workspace: Path, project: Path):
    config = project / ".codex" / "config.toml"
    inline = 'mcp_servers = { docs = { command = "npx" } }\n'
    config.write_text(inline)

    with pytest.raises(InputError, match="cannot add"):
        install(workspace, "project", project_dir=project)

    assert config.read_text() == inline


def test_malformed_toml_is_a_parse_error_with_the_line(workspace: Path, project: Path):
    config = project / ".codex" / "config.toml"
    config.write_text('model = "gpt"\n[broken\n')

    with pytest.raises(ParseError) as raised:
        install(workspace, "project", project_dir=project)

    assert raised.value.line == 2
    assert config.read_text() == 'model = "gpt"\n[broken\n'


def test_half_of_our_markers_is_an_error_not_a_guess(workspace: Path, project: Path):
    install(workspace, "project", project_dir=project)
    agents = project / "AGENTS.md"
    damaged = agents.read_text().replace("<!-- /memstrata -->", "")
    agents.write_text(damaged)

    with pytest.raises(InputError, match="not paired"):
        uninstall(workspace, "project", project_dir=project)

    assert agents.read_text() == damaged


def test_user_scope_writes_into_codex_home(workspace: Path, codex_home: Path):
    install(workspace, "user")

    assert our_hooks(json.loads((codex_home / "hooks.json").read_text()))
    assert "memstrata" in tomllib.loads((codex_home / "config.toml").read_text())["mcp_servers"]
    assert GUIDANCE in (codex_home / "AGENTS.md").read_text()
    uninstall(workspace, "user")
    assert sorted(path.name for path in codex_home.iterdir()) == []


@pytest.mark.parametrize(
    "agents",
    ["# My agents file\n\nBe nice.", "Be nice.\n", "Be nice.\n\n", "", "a\r\nb"],
    ids=["no-final-newline", "final-newline", "blank-line-last", "empty", "windows-no-final"],
)
def test_install_then_uninstall_gives_agents_md_back_byte_for_byte(
    workspace: Path, project: Path, agents: str
):
    path = project / "AGENTS.md"
    path.write_bytes(agents.encode())

    install(workspace, "project", project_dir=project)
    assert GUIDANCE in path.read_text()
    uninstall(workspace, "project", project_dir=project)

    assert path.read_bytes() == agents.encode()


ENV_TABLE = '\n[mcp_servers.memstrata.env]\nMEMSTRATA_EMBEDDER = "hashing"\n'


def test_an_env_table_added_to_our_server_is_kept_when_installing_again(
    workspace: Path, project: Path
):
    install(workspace, "project", project_dir=project, program=["/old/bin/memstrata"])
    config = project / ".codex" / "config.toml"
    config.write_text(config.read_text() + ENV_TABLE)

    changes = install(workspace, "project", project_dir=project)

    server = tomllib.loads(config.read_text())["mcp_servers"]["memstrata"]
    assert server["env"] == {"MEMSTRATA_EMBEDDER": "hashing"}
    assert server["command"] != "/old/bin/memstrata"
    assert "your mcp_servers.memstrata.env kept" in changes[1].note


def test_uninstall_leaves_the_users_env_table_and_says_codex_cannot_start_it(
    workspace: Path, project: Path
):
    install(workspace, "project", project_dir=project)
    config = project / ".codex" / "config.toml"
    config.write_text(config.read_text() + ENV_TABLE)

    changes = uninstall(workspace, "project", project_dir=project)

    assert config.read_text() == USER_CONFIG + ENV_TABLE
    note = next(change.note for change in changes if change.path == config)
    assert "left your mcp_servers.memstrata.env" in note and "remove it too" in note
    install(workspace, "project", project_dir=project)  # and installing again takes it up
    assert tomllib.loads(config.read_text())["mcp_servers"]["memstrata"]["env"]


def test_hooks_for_another_workspace_are_left_by_install_and_uninstall(
    workspace: Path, project: Path
):
    hooks = project / ".codex" / "hooks.json"
    team = "memstrata --workspace /srv/team-memory hook user-prompt"
    theirs = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": team}]}]}}
    hooks.write_text(json.dumps(theirs, indent=2) + "\n")
    original = hooks.read_bytes()

    install(workspace, "project", project_dir=project)
    prompt_hooks = [
        c for e, c in our_hooks(json.loads(hooks.read_text())) if e == "UserPromptSubmit"
    ]
    assert prompt_hooks[0] == team and len(prompt_hooks) == 2
    uninstall(workspace, "project", project_dir=project)

    assert hooks.read_bytes() == original


def test_our_table_for_another_workspace_is_refused_and_kept_by_its_uninstall(
    workspace: Path, project: Path, tmp_path: Path
):
    other = tmp_path / "other-ws"
    init_workspace(other)
    install(other, "project", project_dir=project)
    before = {path: path.read_bytes() for path in project.rglob("*") if path.is_file()}

    with pytest.raises(InputError, match=f"installed for another workspace \\({other}\\)"):
        install(workspace, "project", project_dir=project)
    changes = uninstall(workspace, "project", project_dir=project)

    assert not any(change.changed for change in changes)
    assert {path: path.read_bytes() for path in project.rglob("*") if path.is_file()} == before


def test_a_rollout_is_found_by_its_thread_id(rollout: Path):
    assert find_rollout(THREAD) == rollout
    assert find_rollout("0000-unknown") is None
    assert find_rollout("../../etc/passwd") is None


def test_the_snippet_has_hooks_mcp_table_notify_and_guidance(workspace: Path):
    text = snippet(workspace)

    assert '"UserPromptSubmit"' in text
    assert "[mcp_servers.memstrata]" in text
    assert "notify = [" in text and '"codex-notify"]' in text
    assert GUIDANCE in text


# -- the hooks, run as Codex runs them --------------------------------------------------------


def fire(command: str | list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    return subprocess.run(
        command,
        shell=isinstance(command, str),
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
        check=False,
    )


def codex_payload(event: str, cwd: Path, transcript: Path | None, **fields: object) -> str:
    """The fields of Codex's hook input schemas (codex-rs/hooks/schema/generated)."""
    return json.dumps(
        {
            "session_id": THREAD,
            "turn_id": "turn-1",
            "transcript_path": str(transcript) if transcript else None,
            "cwd": str(cwd),
            "hook_event_name": event,
            "model": "gpt-5.4",
            "permission_mode": "default",
            **fields,
        }
    )


@pytest.fixture
def commands(workspace: Path, project: Path) -> dict[str, str]:
    install(workspace, "project", project_dir=project)
    return dict(our_hooks(json.loads((project / ".codex" / "hooks.json").read_text())))


@pytest.mark.parametrize("named", [True, False], ids=["transcript_path", "found-by-session-id"])
def test_the_stop_hook_imports_the_rollout(
    commands: dict[str, str], project: Path, rollout: Path, workspace: Path, named: bool
):
    stdin = codex_payload(
        "Stop",
        project,
        rollout if named else None,
        stop_hook_active=False,
        last_assistant_message="done",
    )

    result = fire(commands["Stop"], stdin, project)

    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    with Memory(workspace) as memory:
        assert any(hit.stratum == "raw" for hit in memory.search("compart"))
        assert all(session.agent.startswith("codex:") for session in memory.raw.sessions())


def test_user_prompt_gives_codex_additional_context(
    commands: dict[str, str], project: Path, workspace: Path
):
    with Memory(workspace) as memory:
        memory.log("The staging cluster is called hawthorn")

    result = fire(
        commands["UserPromptSubmit"],
        codex_payload("UserPromptSubmit", project, None, prompt="which cluster is staging?"),
        project,
    )

    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "UserPromptSubmit"
    assert "hawthorn" in output["additionalContext"]


def test_codex_notify_imports_the_finished_turns_rollout(rollout: Path, workspace: Path):
    notification = {
        "type": "agent-turn-complete",
        "thread-id": THREAD,
        "turn-id": "12345",
        "cwd": "/Users/example/project",
        "input-messages": ["show tools"],
        "last-assistant-message": "done",
    }
    argv = [*launcher(), "--workspace", str(workspace), "hook", "codex-notify"]

    result = fire([*argv, json.dumps(notification)], "", workspace)

    assert (result.returncode, result.stderr) == (0, "")
    with Memory(workspace) as memory:
        assert memory.raw.counts()["sessions"] >= 1


def test_codex_notify_for_an_unknown_thread_is_one_line(codex_home: Path, workspace: Path):
    argv = [*launcher(), "--workspace", str(workspace), "hook", "codex-notify"]

    result = fire([*argv, '{"type": "agent-turn-complete", "thread-id": "abc-1"}'], "", workspace)

    assert result.returncode == 0
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(
        "memstrata codex-notify hook: no Codex rollout for thread abc-1"
    )


def test_codex_notify_with_a_garbled_argument_says_the_argument_is_not_json(
    codex_home: Path, workspace: Path
):
    argv = [*launcher(), "--workspace", str(workspace), "hook", "codex-notify"]

    result = fire([*argv, "garbage"], "", workspace)

    assert result.returncode == 0
    assert "the hook payload (argument) is not JSON" in result.stderr
