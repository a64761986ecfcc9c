"""``memory/topics/_index.json``: one line per topic, and its rendering for the model (≤ 2 KB).

The file lists every topic (id, title, gist, state, updated), sorted by id, so that it diffs well.
The rendering injected every turn shows only live topics (active or conflict), most recently
updated first, and says how many it left out when the budget runs out. A line that reads as an
instruction to the model (a topic written without the gate) is never shown.

The file is derived from the topic files: one that is missing or cannot be read is rebuilt from
them (by the next write, or the next read's sync), never patched from nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from memstrata.errors import ParseError, WorkspaceReadOnly
from memstrata.model import IndexEntry, Topic
from memstrata.wiki.text import gist_of
from memstrata.workspace.atomic import write_atomic
from memstrata.workspace.textfile import decode_text

LIVE_STATES = ("active", "conflict")
#: the layout of the file; one of another version is rebuilt from the topic files
INDEX_FILE_VERSION = 1


def entry_for(topic: Topic) -> IndexEntry:
    return IndexEntry(
        id=topic.id,
        title=topic.title,
        gist=gist_of(topic.summary),
        state=topic.meta.state,
        updated=topic.meta.updated,
    )


def read_index_file(path: Path) -> list[IndexEntry]:
    """Read ``_index.json``; a missing file is an empty index."""
    if not path.exists():
        return []
    text = decode_text(path.read_bytes(), path)
    try:
        rows = json.loads(text)
        version = rows.get("version")
        if version != INDEX_FILE_VERSION:
            # another version's file may keep its topics elsewhere: read as none, it would
            # empty the injected Index; unreadable, it is rebuilt from the topic files
            raise ParseError(path, None, f"version {version!r}, not {INDEX_FILE_VERSION}")
        return [IndexEntry(**row) for row in rows["topics"]]
    except json.JSONDecodeError as error:
        raise ParseError(path, error.lineno, f"invalid JSON: {error.msg}") from error
    except (KeyError, TypeError, AttributeError) as error:
        raise ParseError(path, None, f"not a topic index: {error}") from error


def write_index_file(path: Path, entries: Iterable[IndexEntry], cache: Path | None = None) -> None:
    """Write the whole index, sorted by id, one topic per line (diffs well, encodes fast).

    ``cache`` (see :func:`index_file_readable`) is told the new file is sound: the next read
    need not parse it to know.
    """
    rows = [
        json.dumps(
            {"gist": e.gist, "id": e.id, "state": e.state, "title": e.title, "updated": e.updated},
            ensure_ascii=False,
            sort_keys=True,
        )
        for e in sorted(entries, key=lambda entry: entry.id)
    ]
    topics = "[\n    " + ",\n    ".join(rows) + "\n  ]" if rows else "[]"
    write_atomic(path, f'{{\n  "topics": {topics},\n  "version": {INDEX_FILE_VERSION}\n}}\n')
    if cache is not None:
        _remember(cache, {"file": _file_key(path.stat())})


def update_index_file(
    path: Path,
    topics: Iterable[Topic],
    removed: Iterable[str] = (),
    *,
    every_topic: Callable[[], Iterable[Topic]],
    cache: Path | None = None,
) -> None:
    """Replace the lines of ``topics`` and drop those of the ``removed`` ids (topic folders
    gone from disk); ``cache`` as for :func:`write_index_file`.

    A missing or damaged file is first rebuilt from ``every_topic()`` (the topic files are the
    truth): starting from nothing would leave every other topic out of the injected Index.
    """
    try:
        entries: dict[str, IndexEntry] | None = (
            {entry.id: entry for entry in read_index_file(path)} if path.exists() else None
        )
    except (ParseError, OSError):
        entries = None
    changed = entries is None
    if entries is None:
        entries = {topic.id: entry_for(topic) for topic in every_topic()}
    for topic in topics:
        entry = entry_for(topic)
        if entries.get(topic.id) != entry:
            entries[topic.id] = entry
            changed = True
    for topic_id in removed:
        changed = entries.pop(topic_id, None) is not None or changed
    if changed:
        write_index_file(path, entries.values(), cache)


@dataclass(frozen=True, slots=True)
class RenderedIndex:
    """The injected index text, what did not fit, and what was held (its line reads as an
    instruction to the model, so it is neither shown nor counted as left out)."""

    text: str
    shown: int
    omitted: int
    held: int = 0


def render_index(entries: Iterable[IndexEntry], budget_bytes: int) -> RenderedIndex:
    """Render live topics as ``- id — title: gist`` lines within ``budget_bytes`` of UTF-8.

    Whole lines only: a line that does not fit is left out, never cut, and the last line
    says how many topics were left out (that line's bytes are reserved within the budget).
    """
    # imported here: its rules cost ~40 ms to import, and a read mostly finds the view cached
    from memstrata.injection import detect_injection

    live = [entry for entry in entries if entry.state in LIVE_STATES]
    live.sort(key=lambda entry: (entry.updated, entry.id), reverse=True)
    lines: list[str] = []
    used = 0
    held = 0
    for position, entry in enumerate(live):
        line = _line(entry)
        if detect_injection(line).is_injection:
            # written without the gate, it reads as an instruction: never injected (status
            # names it); checked for the lines shown only, a few dozen
            held += 1
            continue
        remaining = len(live) - position - 1
        reserve = len(_omitted_line(remaining).encode()) + 1 if remaining else 0
        cost = len(line.encode()) + 1
        if used + cost + reserve > budget_bytes:
            break
        lines.append(line)
        used += cost
    omitted = len(live) - held - len(lines)
    if omitted:
        note = _omitted_line(omitted)
        while lines and used + len(note.encode()) + 1 > budget_bytes:
            used -= len(lines.pop().encode()) + 1
            omitted += 1
            note = _omitted_line(omitted)
        if len(note.encode()) + 1 <= budget_bytes:
            lines.append(note)
    text = "\n".join(lines) + ("\n" if lines else "")
    return RenderedIndex(text, len(live) - held - omitted, omitted, held)


#: bump when the rendering changes, so views cached by an older version are redrawn
RENDERING = 2


def render_index_file(path: Path, budget_bytes: int, cache: Path | None = None) -> RenderedIndex:
    """:func:`render_index` of ``path``, kept in ``cache`` until ``path`` or the budget changes.

    Parsing and sorting every entry is most of a turn's context at 10k topics (~30 ms) while
    the file changes only with a wiki write. The cache is derived: any doubt (missing, damaged,
    another file's key) redraws it, and a cache that cannot be written is only slower.
    """
    try:
        status = path.stat()
    except FileNotFoundError:
        return render_index([], budget_bytes)
    file_key = _file_key(status)
    key = f"{RENDERING}:{budget_bytes}:{file_key}"
    if cache is not None:
        cached = _cached_view(cache, key)
        if cached is not None:
            return cached
    view = render_index(read_index_file(path), budget_bytes)
    if cache is not None:
        record = {
            "key": key,
            "file": file_key,
            "text": view.text,
            "shown": view.shown,
            "omitted": view.omitted,
            "held": view.held,
        }
        _remember(cache, record)
    return view


def index_file_readable(path: Path, cache: Path | None = None) -> bool:
    """Whether ``path`` exists and parses as a topic index.

    ``cache`` (the view cache of :func:`render_index_file`) vouches for the file as it is now
    when a view was drawn from it, or an earlier check parsed it: then this costs a stat and a
    small read, which every read can afford. Otherwise the file is parsed, and a good one noted
    in ``cache`` (replacing a view of an older file, which could not be used anyway).
    """
    try:
        file_key = _file_key(path.stat())
    except OSError:
        return False
    if cache is not None and _cached_file_key(cache) == file_key:
        return True
    try:
        read_index_file(path)
    except (ParseError, OSError):
        return False
    if cache is not None:
        _remember(cache, {"file": file_key})
    return True


def _file_key(status: os.stat_result) -> str:
    # A write replaces the file (a new inode); an edit in place changes its time or size.
    return f"{status.st_ino}:{status.st_size}:{status.st_mtime_ns}"


def _remember(cache: Path, record: dict[str, object]) -> None:
    # A read-only or full disk: the finding is right, only not remembered.
    with contextlib.suppress(OSError, WorkspaceReadOnly):
        write_atomic(cache, json.dumps(record, ensure_ascii=False) + "\n")


def _cached_view(cache: Path, key: str) -> RenderedIndex | None:
    try:
        record = json.loads(cache.read_bytes())
        if record["key"] != key:
            return None
        return RenderedIndex(
            str(record["text"]),
            int(record["shown"]),
            int(record["omitted"]),
            int(record.get("held", 0)),  # a view remembered before holds were counted
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _cached_file_key(cache: Path) -> str | None:
    try:
        record = json.loads(cache.read_bytes())
        return str(record["file"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def headline(entry: IndexEntry, marker: str = "") -> str:
    """``title: gist``, or the gist alone when it restates the title: a topic with no heading
    is titled by its opening words, cut short. ``marker`` follows the title."""
    opening = entry.title.removesuffix("…").rstrip()
    if entry.gist and opening and entry.gist.startswith(opening):
        return f"{entry.gist}{marker}"
    gist = f": {entry.gist}" if entry.gist else ""
    return f"{entry.title}{marker}{gist}"


def _line(entry: IndexEntry) -> str:
    marker = " [conflict]" if entry.state == "conflict" else ""
    return f"- {entry.id} — {headline(entry, marker)}"


def _omitted_line(count: int) -> str:
    return (
        f"(+{count} more topic{'s' if count != 1 else ''} not shown; search or recall to find them)"
    )
