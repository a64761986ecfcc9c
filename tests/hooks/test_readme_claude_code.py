"""The Claude Code section of docs/integrations.md (the README's short version), step by step on a
temporary HOME, with Claude Code's part played by firing the installed hooks as it would."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memstrata.hooks.settings import our_hooks

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "integrations.md").read_text()
SESSION_ID = "9eda1058-9706-484a-b992-d03f9cfa2546"
SAMPLE = "claude-code/codemie-real-v2.1.4/session-9eda1058.jsonl"


def claude_code_steps() -> list[str]:
    """The bash blocks of the '## Claude Code' section, in order."""
    section = DOC.split("\n## Claude Code\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.*?)```", section, flags=re.DOTALL)


class Shell:
    """Runs the doc's steps one by one; what a step exports is there for the later ones."""

    def __init__(self, home: Path) -> None:
        bin_dir = Path(sys.executable).parent
        self.env = {**os.environ, "HOME": str(home), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
        self.env.pop("MEMSTRATA_WORKSPACE", None)
        self.home = home
        self.exports: list[str] = []

    def run(self, step: str) -> subprocess.CompletedProcess[str]:
        script = "\n".join(["set -euo pipefail", *self.exports, step])
        result = subprocess.run(
            ["bash", "-c", script],
            cwd=self.home,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, f"step failed:\n{step}\n{result.stderr}"
        self.exports += [line for line in step.splitlines() if line.startswith("export ")]
        return result


def fire(command: str, payload: dict, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """What Claude Code does with a hook: run the command in a shell, the payload on stdin."""
    clean = {key: value for key, value in env.items() if key != "MEMSTRATA_WORKSPACE"}
    return subprocess.run(
        command,
        shell=True,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=clean,
        timeout=60,
        check=False,
    )


def test_the_claude_code_section_has_its_four_steps():
    install, check, status, uninstall = claude_code_steps()
    assert "memstrata hooks install claude-code --user" in install
    assert "memstrata hook user-prompt" in check
    assert status.strip() == "memstrata status"
    assert uninstall.strip() == "memstrata hooks uninstall claude-code --user"


def test_the_claude_code_section_step_by_step(tmp_path: Path, transcripts: Path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "theme": "dark",
                "hooks": {
                    "Notification": [
                        {"hooks": [{"type": "command", "command": "notify-send claude"}]}
                    ]
                },
            },
            indent=2,
        )
        + "\n"
    )
    (home / ".claude.json").write_text(json.dumps({"numStartups": 3, "userID": "u"}, indent=2))
    originals = {
        name: (home / name).read_bytes() for name in (".claude/settings.json", ".claude.json")
    }
    install, check, status, uninstall = claude_code_steps()
    shell = Shell(home)

    # 1. init, export, install
    shell.run(install)
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    hooks = dict(our_hooks(settings))
    assert sorted(hooks) == ["SessionEnd", "SessionStart", "Stop", "UserPromptSubmit"]
    assert settings["theme"] == "dark" and "Notification" in settings["hooks"]
    server = json.loads((home / ".claude.json").read_text())["mcpServers"]["memstrata"]
    assert server["args"] == ["--workspace", str(home / "agent-memory"), "mcp"]

    # 2. the check before starting Claude Code
    checked = shell.run(check)
    assert "<recall>" in checked.stdout and "cortado" in checked.stdout

    # Claude Code's part: a session starts, a prompt comes, an answer ends
    project = home / "billing"
    project.mkdir()
    folder = home / ".claude" / "projects" / "-home-billing"
    folder.mkdir(parents=True)
    transcript = Path(shutil.copy(transcripts / SAMPLE, folder / f"{SESSION_ID}.jsonl"))
    common = {"session_id": SESSION_ID, "transcript_path": str(transcript), "cwd": str(project)}
    started = fire(
        hooks["SessionStart"],
        {**common, "hook_event_name": "SessionStart", "source": "startup"},
        shell.env,
    )
    assert "<rules>" in json.loads(started.stdout)["hookSpecificOutput"]["additionalContext"]
    prompted = fire(
        hooks["UserPromptSubmit"],
        {**common, "hook_event_name": "UserPromptSubmit", "prompt": "What does Ann drink?"},
        shell.env,
    )
    assert "cortado" in json.loads(prompted.stdout)["hookSpecificOutput"]["additionalContext"]
    stopped = fire(
        hooks["Stop"], {**common, "hook_event_name": "Stop", "stop_hook_active": False}, shell.env
    )
    assert (stopped.returncode, stopped.stderr) == (0, "")

    # 3. the session is in the raw stratum
    assert re.search(r"raw\s+1 sessions", shell.run(status).stdout)

    # 4. uninstall: both files as they were
    shell.run(uninstall)
    for name, content in originals.items():
        assert (home / name).read_bytes() == content, name


@pytest.fixture(autouse=True)
def _need_bash():
    if shutil.which("bash") is None:
        pytest.skip("bash is not available")
