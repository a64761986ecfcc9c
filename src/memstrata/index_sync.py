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

#: reads re-scan topic files for hand edits at most this often (see Memory.refresh)
TOPIC_SCAN_INTERVAL_S = 30.0
#: index meta key: the topics the last sync could not read (a JSON list of ids)
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

    ``scan_topics=False`` skips the per-topic stat scan (the costly part at 10k topics).
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
            _sync_topics(index, report, workspace, topics, read_only)
            index.set_meta("topics_scanned_at", f"{time.time():.3f}")
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


def topic_scan_due(index: IndexDB, read_only: bool) -> bool:
    """Whether the topic scan is due: always when read-only, else ``TOPIC_SCAN_INTERVAL_S``
    after the last one (or when the clock went back)."""
    scanned = float(index.get_meta("topics_scanned_at") or 0)
    return read_only or not 0 <= time.time() - scanned < TOPIC_SCAN_INTERVAL_S


def _sync_topics(
    index: IndexDB,
    report: SyncReport,
    workspace: Workspace,
    topics: TopicStore,
    read_only: bool,
    only: list[str] | None = None,
) -> None:
    """Re-read the topics whose files changed: all of them, or ``only`` these (which then
    removes none that are gone: that is the full scan's job)."""
    known = index.stamps("topic:")
    seen: set[str] = set()
    changed: list[tuple[Topic, str]] = []
    root = str(workspace.topics_dir)
    for topic_id in topics.ids() if only is None else only:
        key = f"topic:{topic_id}"
        seen.add(key)
        stamp = stamp_files(f"{root}/{topic_id}", (SUMMARY, DETAIL, META))
        if known.get(key) == stamp:
            continue
        try:
            topic = topics.get(topic_id)
            if not read_only and topics.pick_up_edit(topic_id, topic, False):
                report.edits_recorded += 1
        except TopicNotFound:
            continue  # removed since the last scan; the next full scan drops it
        except ParseError as error:
            report.problems.append(Problem(error.path, error.line, error.problem, topic_id))
            continue
        changed.append((topic, stamp))
    index.put_topics(changed)
    report.topics_indexed += len(changed)
    if changed and not read_only:
        update_index_file(workspace.index_json, [topic for topic, _ in changed])
    if only is not None:
        return
    for key in sorted(set(known) - seen):
        index.delete_topic(key.removeprefix("topic:"))
        report.topics_removed += 1


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
    """Write ``_index.json`` afresh from every topic that parses."""
    entries = []
    for topic_id in topics.ids():
        try:
            entries.append(entry_for(topics.get(topic_id)))
        except ParseError:
            continue  # already reported by sync
    write_index_file(index_json, entries)


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
