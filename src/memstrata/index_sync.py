"""Keep the derived index in step with the workspace files it is built from.

The Markdown and JSON files are the truth; ``.memstrata/index.db`` is derived from them and can
be deleted and rebuilt at any time. memstrata's own writes update the index as they happen, so a
sync is for what changed behind its back (hand edits, files copied in, crashed writers): it
compares each file's size and mtime with the stamp the index last saw and re-reads only what
differs. :class:`~memstrata.index.db.IndexDB` never reads the files itself (the index package
never imports the workspace); this module, beside the facade, is where they are read and fed
to it, with the workspace, topic store, lock and journal parser passed in by ``Memory``.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memstrata.errors import ParseError, TopicNotFound
from memstrata.index.db import IndexDB
from memstrata.journal.parse import ParsedJournal, day_of
from memstrata.journal.promoted import PROMOTED_FILE, read_promoted
from memstrata.model import HeldEntry, Problem, Topic
from memstrata.wiki.index_file import entry_for, update_index_file, write_index_file
from memstrata.wiki.store import DETAIL, META, SUMMARY, TopicStore

if TYPE_CHECKING:
    from memstrata.workspace.layout import Workspace
    from memstrata.workspace.lock import WorkspaceLock

#: a topic check (a stat of each topic's files) that cost at most this runs on every read
TOPIC_SCAN_EVERY_READ_S = 0.005
#: a costlier one runs once the last is this many times its cost old: a busy reader spends
#: ≤ ~2 % of its time on it (less would leave hand edits unseen for longer)
TOPIC_SCAN_COST_FACTOR = 50
#: … and at least this often, however slow
TOPIC_SCAN_INTERVAL_MAX_S = 30.0
#: index meta key: the topic folders the last sync could not read (a JSON list of
#: ``namespace/slug`` as named on disk: ids, and folders whose names are not ids)
_UNREAD_TOPICS = "unread_topics"


@dataclass(slots=True)
class SyncReport:
    """What a sync found changed on disk, and what it could not read."""

    topics_indexed: int = 0
    topics_removed: int = 0
    journals_indexed: int = 0
    journals_removed: int = 0
    edits_recorded: int = 0
    #: items given a vector (rebuild embeds every topic, journal entry and raw turn)
    embedded: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: journal entries (re)indexed by this sync that are held out of recall
    held: list[HeldEntry] = field(default_factory=list)


def sync_index(
    index: IndexDB,
    workspace: Workspace,
    topics: TopicStore,
    lock: WorkspaceLock,
    parse_journal_file: Callable[[Path], ParsedJournal],
    *,
    read_only: bool,
    scan_topics: bool,
) -> SyncReport:
    """Bring ``index`` in step with the files; record hand edits to topics in history.

    ``scan_topics=False`` skips the per-topic stat scan (the costly part at 10k topics) but
    for the topics the last scan could not read.
    """
    report = SyncReport()
    if read_only:
        # Nothing can be recorded: index what the files say, as they are.
        _sync_topics(index, report, workspace, topics, read_only)
        _sync_journals(index, report, workspace, parse_journal_file)
        sync_promoted(index, workspace)
        return report
    with lock.held():
        topics.complete_pending()
        unread = json.loads(index.get_meta(_UNREAD_TOPICS) or "[]")
        if scan_topics:
            cost_s = _sync_topics(index, report, workspace, topics, read_only)
            record_topic_check(workspace, cost_s)
        elif unread:
            # Between scans, the topics the last scan could not read are read again (a few
            # stats), so a read reports them every time, and a fixed one is back at once.
            _sync_topics(index, report, workspace, topics, read_only, unread)
        still = sorted({problem.topic for problem in report.problems if problem.topic})
        if still != unread:
            index.set_meta(_UNREAD_TOPICS, json.dumps(still))
        _sync_journals(index, report, workspace, parse_journal_file)
        sync_promoted(index, workspace)
        if report.topics_removed or report.journals_removed:
            index.prune_entities()
    return report


def record_topic_check(workspace: Workspace, cost_s: float, at_s: float | None = None) -> None:
    """Note that every topic file was checked at ``at_s`` (epoch seconds, default now) for
    ``cost_s`` CPU seconds, in ``.memstrata/topic-check`` (``<at_s> <cost_s>``).

    A file beside the index, not a row in it: a commit to the index makes the next recall reload
    its vectors (~80 ms at 10k topics). A cheap check after a cheap one writes nothing: every
    read checks then anyway.
    """
    if max(_last_topic_check(workspace)[1], cost_s) <= TOPIC_SCAN_EVERY_READ_S:
        return
    at_s = time.time() if at_s is None else at_s
    with contextlib.suppress(OSError):  # not noted: the next read checks again, only slower
        workspace.topic_check_path.write_text(f"{at_s:.3f} {cost_s:.6f}\n", "ascii")


def topic_scan_due(workspace: Workspace, read_only: bool) -> bool:
    """Whether a read should check every topic's files for hand edits.

    Always when the last check was cheap (``TOPIC_SCAN_EVERY_READ_S``: a few hundred topics)
    or the workspace is read-only; else once the last check is ``TOPIC_SCAN_COST_FACTOR``
    times its own cost old (~12 ms at 1k topics: every ~0.6 s; ~0.13 s at 10k: every ~6 s),
    and at least every ``TOPIC_SCAN_INTERVAL_MAX_S``. A file's contents can change without any
    folder above it changing, so no cheaper signature finds every hand edit.
    """
    if read_only:
        return True
    at_s, cost_s = _last_topic_check(workspace)
    if cost_s <= TOPIC_SCAN_EVERY_READ_S:
        return True
    wait_s = min(cost_s * TOPIC_SCAN_COST_FACTOR, TOPIC_SCAN_INTERVAL_MAX_S)
    return not 0 <= time.time() - at_s < wait_s  # a clock gone back checks too


def _last_topic_check(workspace: Workspace) -> tuple[float, float]:
    """``(when, CPU seconds)`` of the last topic check; ``(0, 0)`` if unknown or unreadable."""
    try:
        at_s, cost_s = workspace.topic_check_path.read_text("ascii").split()
        return float(at_s), float(cost_s)
    except (OSError, ValueError):
        return 0.0, 0.0


def _sync_topics(
    index: IndexDB,
    report: SyncReport,
    workspace: Workspace,
    topics: TopicStore,
    read_only: bool,
    only: list[str] | None = None,
) -> float:
    """Re-read the topics whose files changed: all of them, or ``only`` these folders (which
    then removes none that are gone: that is the full scan's job).

    A folder whose name is not a topic id is reported and skipped. Returns the CPU seconds the
    check itself took (listing and stats, not re-reading or indexing what changed): what the
    next reads decide by whether to check again (:func:`topic_scan_due`). CPU time, not wall
    time: a check preempted on a busy machine is no costlier, and must not look so.
    """
    started = time.thread_time()
    reading_s = 0.0
    known = index.stamps("topic:")
    seen: set[str] = set()
    changed: list[tuple[Topic, str]] = []
    root = str(workspace.topics_dir)
    for name in topics.folder_names() if only is None else only:
        stamp = stamp_files(f"{root}/{name}", (SUMMARY, DETAIL, META))
        if stamp.startswith("-|"):
            continue  # no summary.md: not a topic, or removed since
        if known.get(f"topic:{name}") == stamp:
            seen.add(f"topic:{name}")  # indexed under this name: a valid id, unchanged
            continue
        reading = time.thread_time()
        try:
            topic_id = topics.id_of_folder(name)
            seen.add(f"topic:{topic_id}")
            if known.get(f"topic:{topic_id}") == stamp:
                continue
            topic = topics.get(topic_id)
            if not read_only and topics.pick_up_edit(topic_id, topic, False):
                report.edits_recorded += 1
        except TopicNotFound:
            continue  # removed since the listing; the next full scan drops it
        except ParseError as error:
            report.problems.append(Problem(error.path, error.line, error.problem, name))
            continue
        finally:
            reading_s += time.thread_time() - reading
        changed.append((topic, stamp))
    cost_s = time.thread_time() - started - reading_s
    if changed:
        index.put_topics(changed)
    report.topics_indexed += len(changed)
    if only is None:
        gone = sorted(key.removeprefix("topic:") for key in set(known) - seen)
        for topic_id in gone:
            index.delete_topic(topic_id)
        report.topics_removed += len(gone)
    else:
        gone = []
    if (changed or gone) and not read_only:
        update_index_file(workspace.index_json, [topic for topic, _ in changed], gone)
    return cost_s


def _sync_journals(
    index: IndexDB,
    report: SyncReport,
    workspace: Workspace,
    parse_journal_file: Callable[[Path], ParsedJournal],
) -> None:
    known = index.stamps("journal:")
    seen: set[str] = set()
    folder = workspace.memory_dir
    prefix = workspace.relative(folder)
    for name, stamp in _journal_stamps(folder):
        source = f"{prefix}/{name}"
        key = f"journal:{source}"
        seen.add(key)
        if known.get(key) == stamp:
            continue
        path = folder / name
        try:
            parsed = parse_journal_file(path)
        except ParseError as error:
            report.problems.append(Problem(error.path, error.line, error.problem))
            continue
        report.problems.extend(parsed.problems)
        report.held.extend(index.put_journal(source, parsed, stamp))
        report.journals_indexed += 1
    for key in sorted(set(known) - seen):
        index.delete_journal(key.removeprefix("journal:"))
        report.journals_removed += 1


def sync_promoted(index: IndexDB, workspace: Workspace) -> None:
    """Re-read ``memory/.promoted`` when it changed (one stat otherwise)."""
    stamp = stamp_files(str(workspace.memory_dir), (PROMOTED_FILE,))
    if index.stamps("promoted:").get("promoted:") != stamp:
        index.put_promoted(read_promoted(workspace.memory_dir / PROMOTED_FILE), stamp)


def recreate_index(db_path: Path) -> IndexDB:
    """Delete the index database (with its WAL and shared-memory files) and open it anew."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    return IndexDB.open(db_path)


def rewrite_index_json(index_json: Path, topics: TopicStore) -> None:
    """Write ``_index.json`` afresh from every topic that parses (sync reports the rest)."""
    write_index_file(index_json, [entry_for(topic) for topic in topics.list()])


def _journal_stamps(folder: Path) -> list[tuple[str, str]]:
    """``(file name, stamp)`` of each daily log in ``folder``, by name.

    Every read runs this (a year of logs is 365 files): one ``scandir`` and one ``stat`` per
    file, no ``Path`` objects, which cost ~30 ms per read under pathlib. Same stamp as
    ``stamp_files``.
    """
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for entry in entries:
        if not entry.name.endswith(".md") or not day_of(entry.name):
            continue
        try:
            info = entry.stat()
        except FileNotFoundError:
            continue  # removed since the scan
        found.append((entry.name, f"{info.st_size}:{info.st_mtime_ns}"))
    return sorted(found)


def stamp_files(folder: str, names: tuple[str, ...]) -> str:
    """Size and mtime of each named file: cheap evidence that a file changed."""
    parts = []
    for name in names:
        try:
            info = os.stat(f"{folder}/{name}")
            parts.append(f"{info.st_size}:{info.st_mtime_ns}")
        except FileNotFoundError:
            parts.append("-")
    return "|".join(parts)
