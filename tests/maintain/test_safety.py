"""Safety: edits made during a run are never lost; a killed run leaves no topic half changed."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from memstrata import Memory
from memstrata.maintain.apply import Stale, apply_step
from memstrata.maintain.decay import plan_decay
from memstrata.maintain.ledger import read_ledger, record_for
from memstrata.maintain.state import GardenPaths
from memstrata.maintain.steps import fingerprint_of
from memstrata.wiki.text import content_hash
from tests.maintain.messy import NOW, Truth, garden
from tests.test_concurrency import assert_history_explains_every_topic

WRITER = """
import random, sys, time
from pathlib import Path
from memstrata import Memory
root, name, go, targets = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4].split(",")
rng = random.Random(name)
(go.parent / f"ready-{name}").touch()
# Start once the gardener has read everything and applied its first step.
while not go.exists() or not (Path(root) / "memory" / "ledger.jsonl").exists():
    time.sleep(0.001)
with Memory(root) as memory:
    for i in range(25):
        topic = targets[i % len(targets)] if i % 3 != 2 else f"writers/{name}-{i}"
        memory.write_topic(topic, f"{name} wrote number {i}\\n", actor=name, reason=f"write {i}")
        time.sleep(rng.uniform(0.0, 0.04))
"""

GARDENER = """
import sys
from datetime import UTC, datetime
from memstrata import Memory
from memstrata.maintain.gardener import run_garden
now = datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)
with Memory(sys.argv[1], clock=lambda: now) as memory:
    print("ready", flush=True)
    run_garden(memory, "autonomous", max_mutations=200, max_comparisons=500, now=now)
"""


def test_a_step_is_not_applied_when_its_topic_changed_after_it_was_planned(
    messy: tuple[Path, Truth],
):
    root, truth = messy
    with Memory(root, clock=lambda: NOW) as memory:
        planned = plan_decay(memory.get_topic(truth.decay[0]), "cold", "2025-11-27T10:00:00Z")
        memory.write_topic(truth.decay[0], "A person's edit, made while the gardener planned.\n")
        paths = GardenPaths(memory.workspace)
        outcome = apply_step(
            memory.topics,
            memory.lock,
            paths.ledger,
            paths.intent,
            planned,
            record_for(planned, "r-test", "autonomous", "2025-11-27T10:00:00Z"),
        )
        assert isinstance(outcome, Stale) and outcome.topic_id == truth.decay[0]
        assert memory.get_topic(truth.decay[0]).summary.startswith("A person's edit")
        assert not read_ledger(paths.ledger)


def test_a_hundred_writes_from_other_processes_during_a_run_all_survive(
    messy: tuple[Path, Truth],
):
    root, truth = messy
    go = root.parent / "go"
    # Topics the last phases tend first: the writes surely land between the read and the step.
    targets = ",".join(
        [
            *(orphan for orphan, _target in truth.orphans),
            *truth.bloated,
            *truth.decay,
            *truth.unused,
            *(merged for _keeper, merged in truth.duplicates),
        ]
    )
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root), name, str(go), targets],
            stderr=subprocess.PIPE,
        )
        for name in ("wa", "wb", "wc", "wd")
    ]
    while len(list(root.parent.glob("ready-*"))) < len(writers):
        time.sleep(0.01)
    go.touch()
    report = garden(root, "autonomous")
    for writer in writers:
        _out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err.decode()

    with Memory(root, clock=lambda: NOW) as memory:
        writes = 0
        records = {record.id: record for record in read_ledger(root / "memory" / "ledger.jsonl")}
        for topic in memory.list_topics():
            history = memory.topic_history(topic.id)
            writes += sum(1 for entry in history if entry.actor.startswith("w"))
            for entry in history:
                if entry.actor != "gardener":
                    continue
                # The gardener wrote only over the very state it had planned from.
                record = records[entry.reason.split(":", 1)[0]]
                [change] = [c for c in record.changes if c.topic == topic.id]
                if change.before is not None:
                    planned = content_hash(
                        change.before["summary"],
                        change.before["detail"],
                        change.before["meta"].get("state", "active"),
                    )
                    assert planned == entry.before, (topic.id, record.id)
        assert writes == 100
        assert_history_explains_every_topic(memory)
    # The run saw some of those writes land under its feet, and left those steps alone.
    assert any("changed since the gardener read it" in line for line in report.deferred)


def test_a_run_killed_at_any_moment_leaves_whole_topics_and_the_next_run_completes(
    messy: tuple[Path, Truth],
):
    root, _truth = messy
    reference = root.parent / "reference"
    shutil.copytree(root, reference)
    initial = _fingerprints(root)
    started = time.perf_counter()
    garden(reference, "autonomous")
    duration = time.perf_counter() - started
    final = _fingerprints(reference)
    states: dict[str, set[str]] = {topic_id: {fp} for topic_id, fp in initial.items()}
    for record in read_ledger(reference / "memory" / "ledger.jsonl"):
        for change in record.changes:
            states.setdefault(change.topic, set()).add(change.after_hash)

    interrupted = 0
    for share in (0.1, 0.25, 0.4, 0.55, 0.7, 0.85):  # of what remains, as runs resume
        process = subprocess.Popen(
            [sys.executable, "-c", GARDENER, str(root)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None and process.stdout.readline() == b"ready\n"
        time.sleep(share * duration)
        if process.poll() is not None:
            break  # the work was done before the kill
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        interrupted += 1
        # Any next memstrata process first rolls forward the one topic write that was cut off.
        for topic_id, fp in _fingerprints(root, complete_pending=True).items():
            assert fp in states[topic_id], f"{topic_id} is neither before nor after a step"
    assert interrupted >= 1

    garden(root, "autonomous")

    assert _fingerprints(root) == final
    assert not (root / "memory" / ".garden" / "step.json").exists()
    with Memory(root, clock=lambda: NOW) as memory:
        assert_history_explains_every_topic(memory)
        ids = [record.id for record in read_ledger(root / "memory" / "ledger.jsonl")]
        assert len(ids) == len(set(ids))


def _fingerprints(root: Path, complete_pending: bool = False) -> dict[str, str]:
    with Memory(root, clock=lambda: NOW) as memory:
        if complete_pending:
            memory.topics.complete_pending()
        return {topic.id: fingerprint_of(topic) for topic in memory.list_topics()}
