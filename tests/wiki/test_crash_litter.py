"""A writer killed mid-write leaves its intent, which the next process rolls forward, and temp
files, which that roll-forward removes: no ``.summary.md.<random>.tmp`` stays forever."""

import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from memstrata import Memory
from memstrata.model import HistoryEntry, TopicMeta
from memstrata.wiki.store import meta_to_dict
from memstrata.wiki.text import content_hash
from memstrata.workspace.atomic import write_json_atomic
from tests.killed_writer import killed_writer

#: writes a topic and is killed (SIGKILL) the moment its new summary.md is about to replace the
#: old one: the temp file is written and synced, the intent is on disk, nothing else happened
KILLED_WRITER = killed_writer("summary.md")


def temp_files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


def test_the_roll_forward_removes_the_temp_file_of_a_writer_killed_mid_write(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead.")
    folder = workspace / "memory" / "topics" / "people" / "ann"

    killed = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER, str(workspace)], capture_output=True, check=False
    )

    assert killed.returncode == -9
    [litter] = temp_files(folder)
    assert litter.startswith(".summary.md.")
    with Memory(workspace, embeddings=False) as memory:
        assert memory.topics.complete_pending() == ["people/ann"]
        assert memory.get_topic("people/ann").summary == "# Ann\nDesign director."
    assert temp_files(folder) == []


def write_intent(memory: Memory) -> Path:
    """The intent a killed writer of people/ann left (as ``_apply`` writes it)."""
    store = memory.topics
    entry = HistoryEntry(
        "2025-11-27T11:00:00Z",
        "user",
        "update",
        content_hash("Design lead.", "", "active"),
        content_hash("Design director.", "", "active"),
    )
    path = store._intent_path("people/ann")
    meta = meta_to_dict(TopicMeta(created="2025-11-27T10:00:00Z", updated="2025-11-27T11:00:00Z"))
    intent = {
        "topic": "people/ann",
        "summary": "Design director.",
        "detail": "",
        "meta": meta,
        "entry": asdict(entry),
    }
    write_json_atomic(path, intent)
    return path


def test_only_temp_files_of_the_intents_files_or_older_than_it_are_removed(memory: Memory):
    memory.write_topic("people/ann", "Design lead.")
    folder = memory.workspace.topic_dir("people/ann")
    topics = memory.workspace.topics_dir
    intent = write_intent(memory)
    at_s = intent.stat().st_mtime
    made = {
        folder / ".summary.md.k1.tmp": at_s + 1,  # the killed writer's, after its intent
        folder / ".meta.json.k2.tmp": at_s + 1,
        folder / ".notes.txt.e1.tmp": at_s - 60,  # an earlier crash's
        folder / ".notes.txt.n1.tmp": at_s + 60,  # not ours to judge: kept
        topics / "._index.json.e2.tmp": at_s - 60,
        topics / "._index.json.n2.tmp": at_s + 60,
    }
    for path, mtime_s in made.items():
        path.write_text("partial")
        os.utime(path, (mtime_s, mtime_s))

    assert memory.topics.complete_pending() == ["people/ann"]

    assert temp_files(folder) == [".notes.txt.n1.tmp"]
    assert temp_files(topics) == ["._index.json.n2.tmp"]
