"""A topic made or edited by hand is recalled at the time its edit was picked up, at once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memstrata import Memory
from memstrata.context.compile import recall_line

NOW = datetime(2026, 12, 5, 9, 48, 9, tzinfo=UTC)


def test_a_topic_created_by_hand_has_its_time_on_the_first_recall(workspace: Path):
    with Memory(workspace, embeddings=False, clock=lambda: NOW) as memory:
        memory.write_topic("animals/okapi", "# Okapi\nThe okapi lives in forests.")
        folder = workspace / "memory" / "topics" / "animals" / "sloth"
        folder.mkdir(parents=True)
        (folder / "summary.md").write_text("# Sloth\nThe sloth is slow.\n", encoding="utf-8")

        [item] = memory.recall("sloth").items
        again = memory.refresh()

    assert item.time == "2026-12-05T09:48:09Z"
    assert recall_line(item).startswith("[world 2026-12-05T09:48:09Z animals/sloth]")
    assert again.topics_indexed == 0  # indexed with the meta.json the pick-up wrote


def test_a_topic_edited_by_hand_has_the_time_of_the_edit_on_the_next_recall(workspace: Path):
    written = datetime(2026, 11, 1, tzinfo=UTC)
    with Memory(workspace, embeddings=False, clock=lambda: written) as memory:
        memory.write_topic("animals/okapi", "# Okapi\nThe okapi lives in forests.")
    summary = workspace / "memory" / "topics" / "animals" / "okapi" / "summary.md"
    summary.write_text("# Okapi\nThe okapi lives in the Ituri forest.\n", encoding="utf-8")

    with Memory(workspace, embeddings=False, clock=lambda: NOW) as memory:
        [item] = memory.recall("okapi").items

    assert item.time == "2026-12-05T09:48:09Z"
    assert item.content == "The okapi lives in the Ituri forest."
