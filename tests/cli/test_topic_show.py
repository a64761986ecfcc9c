"""``memstrata topic show``: a topic with how often recall returned it, from the access log."""

import json
from datetime import UTC, datetime
from pathlib import Path

from memstrata import Memory

from .process import run


def test_topic_show_counts_the_recalls_from_the_access_log_and_writes_nothing(tmp_path: Path):
    ws = tmp_path / "ws"
    now = [datetime(2025, 11, 25, 10, tzinfo=UTC)]
    with Memory.init(ws, clock=lambda: now[0]) as memory:
        memory.write_topic("people/ann", "# Ann\n\nAnn prefers cortado.\n")
        for day in (26, 27):  # recalled twice, last on the 27th
            now[0] = datetime(2025, 11, day, 10, tzinfo=UTC)
            assert [item.source for item in memory.recall("cortado", k=1).items] == ["people/ann"]
    meta = ws / "memory" / "topics" / "people" / "ann" / "meta.json"
    before = meta.read_bytes()

    shown = json.loads(run("--workspace", str(ws), "topic", "show", "people/ann", "--json").stdout)
    text = run("--workspace", str(ws), "topic", "show", "people/ann").stdout

    assert shown["access"] == {"count": 2, "last": "2025-11-27T10:00:00Z"}
    # meta.json's own access_count is never kept up: it is not shown beside the real count
    assert "access_count" not in shown["meta"]
    assert text.splitlines()[0] == (
        "# people/ann [active] updated 2025-11-25T10:00:00Z, "
        "recalled 2 times, last 2025-11-27T10:00:00Z"
    )
    assert meta.read_bytes() == before


def test_a_topic_never_recalled_says_so(tmp_path: Path):
    ws = tmp_path / "ws"
    with Memory.init(ws) as memory:
        memory.write_topic("people/bo", "# Bo\n\nBo bakes sourdough.\n")

    shown = json.loads(run("--workspace", str(ws), "topic", "show", "people/bo", "--json").stdout)
    text = run("--workspace", str(ws), "topic", "show", "people/bo").stdout

    assert shown["access"] == {"count": 0, "last": ""}
    assert text.splitlines()[0].endswith(", never recalled")
