"""The README is honest: each command in it runs, here or in .ci/run."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from memstrata import Memory
from memstrata.demo import data_dir

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()


def bash_blocks(markdown: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", markdown, flags=re.DOTALL)


def python_blocks(markdown: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.DOTALL)


def run_at_home(argv: list[str], home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``argv`` run as a user whose home is ``home``, with this venv's commands on the PATH and
    no workspace named in the environment."""
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "HOME": str(home), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    env.pop("MEMSTRATA_WORKSPACE", None)
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_quick_start_is_two_commands_and_ci_runs_both():
    setup, tests = bash_blocks(README)[:2]
    assert setup.strip().endswith("memstrata demo")
    assert tests.strip() == ".venv/bin/pytest"
    ci = (REPO / ".ci" / "run").read_text()
    assert 'pip install --quiet -e ".[test]"' in ci
    assert ".venv/bin/pytest" in ci.splitlines()[-1]


def test_every_usage_and_agents_command_in_the_readme_runs(tmp_path: Path):
    home = tmp_path / "home"
    claude = home / ".claude" / "projects" / "-home-user-billing"
    codex = home / ".codex" / "sessions" / "2025" / "11" / "27"
    claude.mkdir(parents=True)
    codex.mkdir(parents=True)
    for transcript in (data_dir() / "transcripts").iterdir():
        target = claude if transcript.name.startswith("claude") else codex
        shutil.copy(transcript, target / transcript.name)
    usage, agents = bash_blocks(README)[2:4]
    result = run_at_home(["bash", "-c", "set -euo pipefail\n" + usage + agents], home, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "cortado" in result.stdout
    assert "[session] codex:" in result.stdout
    assert (home / "agent-memory" / "memory" / "topics" / "people" / "ann" / "summary.md").exists()
    settings = (home / ".claude" / "settings.json").read_text()
    assert "hook user-prompt" in settings and "hook session-start" in settings


def test_the_python_example_in_the_readme_runs(tmp_path: Path):
    home = tmp_path / "home"
    Memory.init(home / "agent-memory", embeddings=False).close()
    [example] = python_blocks(README)
    result = run_at_home([sys.executable, "-c", example], home, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Admitted(" in result.stdout
    assert "opinions/ann-prefers-oat-milk" in result.stdout
    assert "<recall>" in result.stdout
