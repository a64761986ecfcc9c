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
import functools
import json
import os
import re
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memstrata.errors import ParseError, TopicNotFound, WorkspaceError, WorkspaceReadOnly
from memstrata.index.db import IndexDB
from memstrata.journal.parse import ParsedJournal, day_of
from memstrata.journal.promoted import PROMOTED_FILE, read_promoted
from memstrata.model import HeldEntry, Problem, Topic
from memstrata.wiki.index_file import (
    entry_for,
    index_file_readable,
    update_index_file,
    write_index_file,
)
from memstrata.wiki.store import DETAIL, META, SUMMARY, TopicStore, write_failure
from memstrata.workspace.litter import sweep_litter

if TYPE_CHECKING:
    from memstrata.workspace.layout import Workspace
    from memstrata.workspace.lock import WorkspaceLock

#: between full checks, a read checks this many of the newest daily logs (and any new one)
JOURNAL_DAYS_EVERY_READ = 2
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
#: index meta key: the problems of each journal day and the stamp of the file they were found
#: in (a JSON object of source → ``{"stamp": …, "problems": [[path, line, message], …]}``), so
#: status lists them on every run, not only after a change
_JOURNAL_PROBLEMS = "journal_problems"
#: index meta key: set by the first sync of an index made anew
_FILLED = "filled"
#: a file named like a journal day (``2025-02-30.md`` is no day: not read, so reported)
_DAY_LIKE = re.compile(r"^\d{4}-\d{2}-\d{2}\.md$")


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
    #: journal entries and topics (re)indexed by this sync that are held out of recall
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
        report.problems.extend(topics.finish_pending(writable=False).kept)
        _sync_topics(index, report, workspace, topics, read_only)
        _sync_journals(index, report, workspace, parse_journal_file)
        sync_promoted(index, workspace)
        return report
    with lock.held():
        # An intent that cannot be finished now is kept and named; its topics are read (and
        # indexed) as they are on disk, with no hand edit recorded for what it half wrote.
        pending = topics.finish_pending()
        report.problems.extend(pending.kept)
        # The first sync of an index made anew (a rebuild) reports every topic over its cap,
        # as status does; later ones do not: their problems are what a read could not use.
        filling = index.recreated and index.get_meta(_FILLED) is None
        unread = json.loads(index.get_meta(_UNREAD_TOPICS) or "[]")
        if scan_topics:
            cost_s = _sync_topics(index, report, workspace, topics, read_only, pending.unfinished)
            record_topic_check(workspace, cost_s)
            sweep_litter(workspace)  # as often as the topic files are checked
        elif unread:
            # Between scans, the topics the last scan could not read are read again (a few
            # stats), so a read reports them every time, and a fixed one is back at once.
            _sync_topics(index, report, workspace, topics, read_only, pending.unfinished, unread)
        still = sorted({problem.topic for problem in report.problems if problem.topic})
        if still != unread:
            index.set_meta(_UNREAD_TOPICS, json.dumps(still))
        if filling:
            report.problems.extend(oversized_topics(index, topics))
            index.set_meta(_FILLED, "1")
        repair_index_json(workspace, topics)
        _sync_journals(index, report, workspace, parse_journal_file, every=scan_topics)
        sync_promoted(index, workspace)
        if report.topics_removed or report.journals_removed:
            index.prune_entities()
    return report


def repair_index_json(workspace: Workspace, topics: TopicStore) -> bool:
    """Rebuild ``_index.json`` from the topic files when it is missing or cannot be read;
    return whether it was.

    A stat and a small read when the view cache vouches for the file (see
    :func:`~memstrata.wiki.index_file.index_file_readable`). A file that cannot be rewritten
    either (a folder in its place) is left: the Index channel then fails alone.
    """
    path = workspace.index_json
    if index_file_readable(path, workspace.index_view_path):
        return False
    if not path.exists() and not topics.folder_names():
        return False  # no topics, no index yet: nothing is missing
    try:
        rewrite_index_json(path, topics, workspace.index_view_path)
    except (OSError, WorkspaceReadOnly):
        return False
    return True


def oversized_topics(index: IndexDB, topics: TopicStore) -> list[Problem]:
    """A problem for each indexed topic whose summary.md or detail.md is over its cap.

    Only a file whose size in bytes (in the index's stamp of it) is over its cap in characters
    is read: a character takes at least a byte, so the others cannot be over.
    """
    limits = topics.limits
    problems: list[Problem] = []
    for key, stamp in sorted(index.stamps("topic:").items()):
        sizes = [part.partition(":")[0] for part in stamp.split("|")]
        summary_bytes = int(sizes[0]) if sizes[0].isdigit() else 0
        detail_bytes = int(sizes[1]) if len(sizes) > 1 and sizes[1].isdigit() else 0
        if summary_bytes <= limits.summary_max_chars and detail_bytes <= limits.detail_max_chars:
            continue
        try:
            problems += topics.over_caps(topics.get(key.removeprefix("topic:")))
        except (ParseError, TopicNotFound, OSError):
            continue  # unreadable (sync names it) or removed since
    return problems


def journal_problems(index: IndexDB) -> list[Problem]:
    """The problems of every journal day as last parsed (see :data:`_JOURNAL_PROBLEMS`)."""
    return list(_problems_recorded(index.get_meta(_JOURNAL_PROBLEMS) or "{}"))


@functools.lru_cache(maxsize=4)  # every read asks; the record changes only when a day does
def _problems_recorded(value: str) -> tuple[Problem, ...]:
    checked = _parsed_checked(value)
    return tuple(
        Problem(path, line, message)
        for source in sorted(checked)
        for path, line, message in checked[source]["problems"]
    )


def _checked_journals(index: IndexDB) -> dict[str, dict[str, Any]]:
    """:data:`_JOURNAL_PROBLEMS`; a value that is no JSON object is forgotten (every day is
    then parsed again: the index is derived)."""
    return _parsed_checked(index.get_meta(_JOURNAL_PROBLEMS) or "{}")


def _parsed_checked(value: str) -> dict[str, dict[str, Any]]:
    try:
        checked = json.loads(value)
    except ValueError:
        return {}
    return checked if isinstance(checked, dict) else {}


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
    # The time in full (repr round-trips): rounded up, a check just made would read as one
    # ahead of the clock, which the next read takes for a clock set back and checks again.
    with contextlib.suppress(OSError):  # not noted: the next read checks again, only slower
        workspace.topic_check_path.write_text(f"{at_s!r} {cost_s:.6f}\n", "ascii")


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
    unfinished: Collection[str] = (),
    only: list[str] | None = None,
) -> float:
    """Re-read the topics whose files changed: all of them, or ``only`` these folders (which
    then removes none that are gone: that is the full scan's job). A change to an
    ``unfinished`` topic is its kept intent's, half made, not a hand edit.

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
    #: topics whose files cannot be read now: out of the index until they can (as a rebuild
    #: leaves them), or recall would go on injecting what the files no longer say
    unreadable: list[str] = []
    root = str(workspace.topics_dir)
    for name in topics.folder_names() if only is None else only:
        stamp = stamp_files(f"{root}/{name}", (SUMMARY, DETAIL, META))
        if stamp.startswith("-|"):  # no summary.md: not a topic, removed since, or lost
            lost = topics.lost_summary(name)
            if lost is not None:
                report.problems.append(lost)
            continue
        if known.get(f"topic:{name}") == stamp:
            seen.add(f"topic:{name}")  # indexed under this name: a valid id, unchanged
            continue
        reading = time.thread_time()
        topic_id = ""
        try:
            topic_id = topics.id_of_folder(name)
            seen.add(f"topic:{topic_id}")
            if known.get(f"topic:{topic_id}") == stamp:
                continue
            topic = topics.get(topic_id)
            if not read_only and topic_id not in unfinished:
                recorded = False
                try:
                    recorded = topics.pick_up_edit(topic_id, topic, False) is not None
                except (OSError, WorkspaceError) as error:
                    # Indexed as it is, unstamped: every sync tries (and reports) it again.
                    stamp = ""
                    report.problems.append(_edit_not_recorded(f"{root}/{name}", error, name))
                if recorded:
                    report.edits_recorded += 1
                    # Recording it wrote the edit's time to meta.json: indexed as read before,
                    # the topic would show its old time (none, if new) until the next sync saw
                    # meta.json change and read it again.
                    topic = topics.get(topic_id)
                    stamp = stamp_files(f"{root}/{name}", (SUMMARY, DETAIL, META))
        except TopicNotFound:
            # No summary.md file: removed since the listing (the next full scan drops it), or
            # something else in its place, named as a problem.
            seen.discard(f"topic:{topic_id}")
            lost = topics.lost_summary(name)
            if lost is not None:
                report.problems.append(lost)
                if f"topic:{topic_id}" in known:
                    unreadable.append(topic_id)
            continue
        except ParseError as error:
            report.problems.append(Problem(error.path, error.line, error.problem, name))
            if f"topic:{topic_id}" in known:
                unreadable.append(topic_id)
            continue
        finally:
            reading_s += time.thread_time() - reading
        changed.append((topic, stamp))
    cost_s = time.thread_time() - started - reading_s
    if changed:
        report.held.extend(index.put_topics(changed))
    report.topics_indexed += len(changed)
    gone = set(unreadable)
    if only is None:
        gone |= {key.removeprefix("topic:") for key in set(known) - seen}
    for topic_id in sorted(gone):
        index.delete_topic(topic_id)
    report.topics_removed += len(gone)
    if (changed or gone) and not read_only:
        try:
            update_index_file(
                workspace.index_json,
                [topic for topic, _ in changed],
                sorted(gone),
                every_topic=topics.list,
                cache=workspace.index_view_path,
            )
        except (OSError, WorkspaceError) as error:
            # Derived from the topic files, like the index: a read goes on without it.
            path = str(workspace.index_json)
            why = write_failure(error).removeprefix(f"{path}: ")
            report.problems.append(Problem(path, None, f"cannot be updated ({why})"))
    return cost_s


def _edit_not_recorded(folder: str, error: OSError | WorkspaceError, name: str) -> Problem:
    """The problem of a hand edit to the topic ``name`` that could not be recorded."""
    message = (
        f"a hand edit cannot be recorded in the topic's history now ({write_failure(error)}): "
        "the topic is read as it is, and the edit recorded once it can be"
    )
    return Problem(folder, None, message, name)


def _sync_journals(
    index: IndexDB,
    report: SyncReport,
    workspace: Workspace,
    parse_journal_file: Callable[[Path], ParsedJournal],
    every: bool = True,
) -> None:
    """Re-read the daily logs whose files changed; ``every=False`` (between topic scans) checks
    only the newest :data:`JOURNAL_DAYS_EVERY_READ` and days the index does not know yet: a
    log is written at its end, and a hand edit of an older day waits for the next full check
    as a topic's does. A day removed is noticed either way (the names are always listed)."""
    known = index.stamps("journal:")
    seen: set[str] = set()
    folder = workspace.memory_dir
    prefix = workspace.relative(folder)
    days, misnamed = _journal_stamps(folder, None if every else _newest_or_new(known, prefix))
    for name in misnamed:
        report.problems.append(
            Problem(
                f"{prefix}/{name}",
                None,
                f"named like a journal day, but {name.removesuffix('.md')} is no date, so it "
                "is skipped: rename it to the day it logs",
            )
        )
    # A day's problems are kept with the stamp of the file they were found in: a day indexed
    # by another path (``Memory.log``) is parsed again here for its problems.
    checked = _checked_journals(index)
    changed = False
    for name, stamp in days:
        source = f"{prefix}/{name}"
        key = f"journal:{source}"
        seen.add(key)
        if stamp is None:
            continue  # not checked this time: as indexed
        indexed = known.get(key) == stamp
        if indexed and checked.get(source, {}).get("stamp") == stamp:
            continue
        path = folder / name
        try:
            parsed = parse_journal_file(path)
        except ParseError as error:
            # Not stamped, so parsed (and reported) again by every sync until fixed.
            report.problems.append(Problem(error.path, error.line, error.problem))
            changed = checked.pop(source, None) is not None or changed
            continue
        report.problems.extend(parsed.problems)
        found = [[item.path, item.line, item.message] for item in parsed.problems]
        checked[source] = {"stamp": stamp, "problems": found}
        changed = True
        if not indexed:
            report.held.extend(index.put_journal(source, parsed, stamp))
            report.journals_indexed += 1
    for key in sorted(set(known) - seen):
        index.delete_journal(key.removeprefix("journal:"))
        report.journals_removed += 1
    for source in set(checked) - {key.removeprefix("journal:") for key in seen}:
        del checked[source]
        changed = True
    if changed:
        index.set_meta(_JOURNAL_PROBLEMS, json.dumps(checked, ensure_ascii=False, sort_keys=True))


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


def rewrite_index_json(index_json: Path, topics: TopicStore, cache: Path | None = None) -> None:
    """Write ``_index.json`` afresh from every topic that parses (sync reports the rest);
    ``cache`` as for :func:`~memstrata.wiki.index_file.write_index_file`."""
    write_index_file(index_json, [entry_for(topic) for topic in topics.list()], cache)


def _newest_or_new(known: dict[str, str], prefix: str) -> Callable[[list[str]], set[str]]:
    """Of the journal names given, those to check between full checks: the newest few (a log
    goes to today's file) and any the index has no stamp for."""

    def wanted(names: list[str]) -> set[str]:
        newest = sorted(names)[-JOURNAL_DAYS_EVERY_READ:]
        return {*newest, *(name for name in names if f"journal:{prefix}/{name}" not in known)}

    return wanted


def _journal_stamps(
    folder: Path, wanted: Callable[[list[str]], set[str]] | None = None
) -> tuple[list[tuple[str, str | None]], list[str]]:
    """``(file name, stamp)`` of each daily log in ``folder``, by name, and the names of files
    named like one that are no date (``2025-02-30.md``). With ``wanted``, only the names it
    picks are stamped; the others are listed with ``None``.

    Every read runs this (a year of logs is 365 files): one ``scandir`` and one ``stat`` per
    file, no ``Path`` objects, which cost ~30 ms per read under pathlib. Same stamp as
    ``stamp_files``.
    """
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return [], []
    logs = []
    misnamed = []
    for entry in entries:
        if not entry.name.endswith(".md"):
            continue
        if not day_of(entry.name):
            if _DAY_LIKE.match(entry.name):
                misnamed.append(entry.name)
            continue
        logs.append(entry)
    picked = None if wanted is None else wanted([entry.name for entry in logs])
    found: list[tuple[str, str | None]] = []
    for entry in logs:
        if picked is not None and entry.name not in picked:
            found.append((entry.name, None))
            continue
        try:
            info = entry.stat()
        except FileNotFoundError:
            continue  # removed since the scan, or a link to nothing
        except OSError:
            # a link in a loop: reading it names the problem, and it is read every time
            found.append((entry.name, "unreadable"))
            continue
        found.append((entry.name, f"{info.st_size}:{info.st_mtime_ns}"))
    return sorted(found), sorted(misnamed)


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
