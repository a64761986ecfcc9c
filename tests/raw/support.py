"""Helpers shared by the importer tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memstrata.raw.importers import ParsedFile


def only_session(parsed: ParsedFile) -> list[tuple[str, str]]:
    assert len(parsed.sessions) == 1
    return [(turn.role, turn.text) for turn in parsed.sessions[0].turns]


def assert_prefix_stable(path: Path, parse: Callable[[Path, str], ParsedFile], tmp: Path) -> None:
    """Every whole-line prefix parses to the full file's sessions and turns but the last."""
    lines = path.read_bytes().splitlines(keepends=True)
    full = {item.session.id: item.turns for item in parse(path, "a").sessions}
    for count in range(1, len(lines) + 1):
        copy = tmp / f"prefix-{count}" / path.name
        copy.parent.mkdir()
        copy.write_bytes(b"".join(lines[:count]))
        part = parse(copy, "a")
        assert not part.problems
        for item in part.sessions:
            whole = [(t.index, t.role, t.text) for t in full[item.session.id]]
            turns = [(t.index, t.role, t.text) for t in item.turns]
            assert turns[:-1] == whole[: len(turns) - 1]
            index, role, text = turns[-1]
            assert whole[index][:2] == (index, role)
            assert whole[index][2].startswith(text)
