"""A damaged line in a topic's history.jsonl is named when the history is read, and never stops
the topic from being written."""

import pytest

from memstrata import Memory
from memstrata.errors import ParseError


def test_a_topic_whose_history_holds_a_damaged_line_can_still_be_written(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    history = memory.workspace.topic_dir("people/ann") / "history.jsonl"
    with history.open("a") as file:
        file.write("garbage\n")
    memory.write_topic("people/ann", "# Ann\nDesign lead, Lisbon.")  # appends after it

    written = memory.write_topic("people/ann", "# Ann\nDesign lead, Porto.")

    assert memory.get_topic("people/ann").summary == "# Ann\nDesign lead, Porto."
    lines = history.read_text().splitlines()
    assert lines[1] == "garbage" and len(lines) == 4
    assert written.entry.before != ""  # compared with the last line that could be read
    with pytest.raises(ParseError, match=r"history.jsonl:2: not a history entry"):
        memory.topic_history("people/ann")


def test_a_hand_edit_is_picked_up_past_a_damaged_history_line(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    folder = memory.workspace.topic_dir("people/ann")
    with (folder / "history.jsonl").open("a") as file:
        file.write("garbage\n")
    memory.write_topic("people/ann", "# Ann\nDesign lead, Lisbon.")
    (folder / "summary.md").write_text("# Ann\nDesign lead, Lisbon. Likes opera.")

    memory.write_topic("people/ann", "# Ann\nDesign lead, Porto.")

    ops = [
        line.split('"op": "')[1].split('"')[0]
        for line in (folder / "history.jsonl").read_text().splitlines()
        if '"op"' in line
    ]
    assert ops == ["create", "update", "edit", "update"]
