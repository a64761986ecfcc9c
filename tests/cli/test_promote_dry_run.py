"""``memstrata promote --dry-run`` prints what ``memstrata promote`` then does, and writes
nothing (QA: it judged every fact against the wiki as it was before the run, so a fact stated,
taken back and stated again showed as admitted three times)."""

import json
from pathlib import Path

import pytest

from .process import run


def canonical_files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and mtime of every file but the derived ones in ``.memstrata/``."""
    return {
        path.relative_to(root).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".memstrata" not in path.parts
    }


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    assert run("init", str(root)).returncode == 0
    for fact in ("Ann drinks tea", "Ann no longer drinks tea", "Ann drinks tea"):
        assert run("log", "--kind", "world", fact, cwd=root).returncode == 0
    return root


def test_a_dry_run_prints_the_verdicts_promote_then_gives_and_writes_nothing(ws: Path):
    before = canonical_files(ws)

    previewed = run("promote", "--dry-run", cwd=ws)
    after_preview = canonical_files(ws)
    promoted = run("promote", cwd=ws)

    assert previewed.returncode == promoted.returncode == 0, previewed.stderr + promoted.stderr
    assert after_preview == before
    *verdicts, note = previewed.stdout.splitlines()
    assert note == "(dry run: nothing written)"
    assert verdicts == promoted.stdout.splitlines()
    assert [line.split()[1] for line in verdicts] == ["admitted", "superseded", "superseded"]
    assert run("promote", "--dry-run", cwd=ws).stdout == "nothing new to promote\n"


def test_a_dry_run_in_json_is_the_real_run_marked_as_a_preview(ws: Path):
    previewed = json.loads(run("promote", "--dry-run", "--json", cwd=ws).stdout)
    promoted = json.loads(run("promote", "--json", cwd=ws).stdout)

    assert [item.pop("dry_run") for item in previewed] == [True, True, True]
    assert [item.pop("dry_run") for item in promoted] == [False, False, False]
    assert previewed == promoted
