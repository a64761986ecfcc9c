"""``memstrata recall`` with a filter and no QUERY: the k newest items, and a note on the rest."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.process import run


def _logged(root: Path, lines: int) -> None:
    text = "".join(f"- {9 + n // 60:02d}:{n % 60:02d} coffee with @Ann, cup {n}\n"
                   for n in range(lines))  # fmt: skip
    (root / "memory" / "2026-12-04.md").write_text(f"# 2026-12-04\n\n{text}", encoding="utf-8")


def test_a_filter_without_a_query_says_how_many_more_pass(workspace: Path):
    _logged(workspace, 15)

    shown = run("recall", "--entity", "Ann", "--json", cwd=workspace)
    every = run("recall", "--entity", "Ann", "-k", "15", "--json", cwd=workspace)

    listed = json.loads(shown.stdout)
    assert [item["content"] for item in listed["items"]][:2] == [
        "09:14 coffee with @Ann, cup 14",
        "09:13 coffee with @Ann, cup 13",
    ]
    assert len(listed["items"]) == 10
    assert "5 more items pass the filters; raise k to list them" in listed["notes"]
    assert len(json.loads(every.stdout)["items"]) == 15
    assert not any("more items pass" in note for note in json.loads(every.stdout)["notes"])


def test_the_note_is_printed_beside_the_items(workspace: Path):
    _logged(workspace, 12)

    result = run("recall", "--entity", "Ann", cwd=workspace)

    assert result.returncode == 0
    assert "note: 2 more items pass the filters; raise k to list them" in result.stderr
