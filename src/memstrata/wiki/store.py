"""The wiki's canonical files: create, update, get, list, archive — never delete.

A topic lives in ``memory/topics/<namespace>/<slug>/``:

    summary.md     the recall unit (≤ 1000 chars)
    detail.md      read on demand (≤ 8000 chars; may be absent)
    meta.json      state, timestamps, counts, owner, links, lineage
    history.jsonl  one line per change: time, actor, op, before/after hash, reason, and for a
                   change of the text, the text it replaced (so an overwrite can be undone)

Every write is crash-safe in two steps. First a write-ahead *intent* holding the complete new state
is written to ``memory/.pending/``; then the files are replaced atomically, the history line is
appended and the intent removed. :meth:`TopicStore.complete_pending` rolls any intent left by a
killed process forward, so no topic ever ends up changed without its history line. A change found
on disk without an intent is a person's hand edit, recorded in history with actor ``user``.
An intent whose files cannot be written now (a read-only folder, a folder where ``summary.md``
should be) is kept for a later process to finish and named as a problem; its topics read as they
are on disk meanwhile, and cannot be written until it is finished.
A change that spans topics (a supersession marks the old topic as it writes the new one; a
conflict marks both sides and writes its proposal) is one intent: :meth:`TopicStore.write_together`
carries it out whole, or a later process finishes it.

A folder under ``memory/topics/`` whose name is not a topic id in its normal form (``Old Stuff``,
``ann (copy)``, an editor's ``ann~``) is never read, changed or removed: listings skip it and name
it as a :class:`~memstrata.model.Problem`, so one stray folder cannot take the wiki down.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from memstrata.clock import Clock, stated_iso, system_now, to_iso
from memstrata.config import TopicsConfig
from memstrata.errors import (
    CapExceeded,
    InputError,
    InvalidTopicId,
    MemstrataError,
    ParseError,
    TopicNotFound,
    WorkspaceError,
)
from memstrata.model import (
    IMPORTANCE_DEFAULT,
    IMPORTANCE_FLOOR,
    IMPORTANCE_MAX,
    TOPIC_STATES,
    HistoryEntry,
    Problem,
    Topic,
    TopicMeta,
    TopicState,
    is_confidence,
)
from memstrata.redaction import redact_secrets
from memstrata.wiki.index_file import update_index_file
from memstrata.wiki.text import capped_length, content_hash, title_of
from memstrata.workspace.atomic import append_line, write_atomic, write_json_atomic
from memstrata.workspace.layout import Workspace
from memstrata.workspace.lock import WorkspaceLock
from memstrata.workspace.names import parse_topic_id
from memstrata.workspace.textfile import decode_text

SUMMARY, DETAIL, META, HISTORY = "summary.md", "detail.md", "meta.json", "history.jsonl"
_META_KEYS = frozenset(field.name for field in fields(TopicMeta))
#: the key of a history line that holds the text its change replaced
REPLACED = "replaced"


@dataclass(frozen=True, slots=True)
class TopicText:
    """A topic's summary and detail as they stood at one point of its history."""

    summary: str
    detail: str


@dataclass(frozen=True, slots=True)
class HistoryRecord:
    """One line of ``history.jsonl``: the change, and the text it replaced if that was kept."""

    entry: HistoryEntry
    #: the text before the change (version ``entry.before``), with secrets redacted; ``None``
    #: when the change left the text as it was, for a hand edit (the old text was gone from
    #: disk before memstrata saw it) and for lines written before memstrata kept the text
    replaced: TopicText | None = None


@dataclass(frozen=True, slots=True)
class TopicListing:
    """Every topic that could be read, by id, and a problem for each one that could not."""

    topics: tuple[Topic, ...]
    #: unreadable files and folders whose names are not topic ids; each names its path
    problems: tuple[Problem, ...]


@dataclass(frozen=True, slots=True)
class PendingReport:
    """What :meth:`TopicStore.finish_pending` did with the intents left in ``memory/.pending/``."""

    #: the topics of the intents rolled forward
    finished: tuple[str, ...] = ()
    #: one per intent kept because its files cannot be written now: names the intent file, its
    #: topics and why
    kept: tuple[Problem, ...] = ()
    #: each topic of an intent kept, and the problem naming it: the topic reads as it is on
    #: disk until the intent is finished, and cannot be written
    unfinished: Mapping[str, Problem] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TopicWrite:
    """What a write did: the topic as it now is and the history line that records it."""

    topic: Topic
    entry: HistoryEntry
    created: bool
    #: why the topic is held out of recall and the Index (it reads as an instruction to the
    #: model), else "": it is written all the same
    held: str = ""
    #: the text was the topic's already: nothing was written, ``entry`` is its last change
    unchanged: bool = False
    #: why the derived index could not take the topic in now (a full disk), else "": the
    #: files are written all the same, and the next read indexes them
    index_note: str = ""


@dataclass(frozen=True, slots=True)
class TopicEdit:
    """One topic's part of a change: what :meth:`TopicStore.write` takes, as a value."""

    topic_id: str
    summary: str
    #: ``None`` keeps the current detail
    detail: str | None = None
    actor: str = "agent"
    reason: str = ""
    state: TopicState | None = None
    #: may keep ``updated``: housekeeping (decay, links) is not news
    meta_changes: Mapping[str, Any] | None = None
    op: str | None = None


class TopicStore:
    """Reads and writes topics; every mutation holds the workspace lock."""

    def __init__(
        self,
        workspace: Workspace,
        limits: TopicsConfig,
        lock: WorkspaceLock,
        clock: Clock = system_now,
    ) -> None:
        self.workspace = workspace
        self.limits = limits
        self.lock = lock
        self.clock = clock

    # -- reading -------------------------------------------------------------------------------

    def exists(self, topic_id: str) -> bool:
        return (self.workspace.topic_dir(parse_topic_id(topic_id)) / SUMMARY).is_file()

    def folder_of(self, topic_id: str) -> Path:
        """The folder of an existing topic; raises :class:`TopicNotFound` naming where it looked."""
        topic_id = parse_topic_id(topic_id)
        folder = self.workspace.topic_dir(topic_id)
        if not (folder / SUMMARY).is_file():
            raise TopicNotFound(f"no topic {topic_id!r} (looked in {folder})")
        return folder

    def get(self, topic_id: str) -> Topic:
        """Read one topic; raises :class:`TopicNotFound` or :class:`ParseError`."""
        topic_id = parse_topic_id(topic_id)
        folder = self.folder_of(topic_id)
        summary = _read(folder / SUMMARY)
        detail = _read(folder / DETAIL) if (folder / DETAIL).exists() else ""
        meta = meta_from_dict(_read_meta(folder / META), folder / META)
        slug = topic_id.split("/", 1)[1]
        return Topic(topic_id, title_of(summary, slug), summary, detail, meta)

    def ids(self) -> list[str]:
        """Every topic id on disk, sorted (folders whose names are not topic ids left out)."""
        return self.scan()[0]

    def scan(self) -> tuple[list[str], list[Problem]]:
        """Every topic id on disk, sorted, and a problem for each topic folder (one holding a
        ``summary.md``) whose name is not a topic id, and for each that lost its summary.md
        but keeps its meta.json or history.jsonl (memstrata writes the summary first and never
        deletes it: a person moved or deleted it)."""
        ids: set[str] = set()
        problems: list[Problem] = []
        root = self.workspace.topics_dir
        for name in self.folder_names():
            if not os.path.isfile(f"{root}/{name}/{SUMMARY}"):
                lost = self.lost_summary(name)
                if lost is not None:
                    problems.append(lost)
                continue
            try:
                ids.add(self.id_of_folder(name))
            except ParseError as error:
                problems.append(Problem(error.path, None, error.problem, name))
        return sorted(ids), problems

    def lost_summary(self, name: str) -> Problem | None:
        """A problem when the folder ``namespace/slug`` (no ``summary.md`` file in it) keeps its
        meta.json or history.jsonl: a topic whose summary a person moved or deleted, since
        memstrata writes the summary first and never deletes it; or when something else (a
        folder) is in the summary's place. ``None`` for any other folder."""
        folder = self.workspace.topics_dir / name
        if (folder / SUMMARY).exists():
            return Problem(_shown(folder / SUMMARY), None, _NO_FILE.format("read"), name)
        kept = [file for file in (META, HISTORY) if (folder / file).is_file()]
        if not kept:
            return None
        return Problem(
            _shown(folder),
            None,
            f"holds {' and '.join(kept)} but no {SUMMARY}, so the topic is not read: put its "
            f"{SUMMARY} back (its {HISTORY} lists its changes)",
            name,
        )

    def folder_names(self) -> list[str]:
        """``namespace/slug`` of every folder two levels under ``memory/topics/``, as named on
        disk and not validated (see :meth:`id_of_folder`), sorted.

        Hidden folders and namespaces starting with ``_`` (ours) are left out. One ``scandir``
        per namespace and no ``stat``: every read's topic check walks this at 10k topics.
        """
        names: list[str] = []
        try:
            namespaces = list(os.scandir(self.workspace.topics_dir))
        except (FileNotFoundError, NotADirectoryError):
            return []
        for namespace in namespaces:
            if namespace.name.startswith((".", "_")) or not namespace.is_dir():
                continue
            try:
                with os.scandir(namespace.path) as folders:
                    names += [
                        f"{namespace.name}/{folder.name}"
                        for folder in folders
                        if not folder.name.startswith(".") and folder.is_dir()
                    ]
            except (FileNotFoundError, NotADirectoryError):
                continue  # removed since the listing
        return sorted(names)

    def id_of_folder(self, name: str) -> str:
        """The topic id of the folder ``namespace/slug`` (as named on disk).

        Raises :class:`ParseError` naming the folder when its name is not a topic id in its
        normal form (``Old Stuff/misc``, ``people/ann (copy)``, ``People/Ann`` beside
        ``people/ann``); such a folder is skipped, never renamed.
        """
        folder = self.workspace.topics_dir / name
        try:
            topic_id = parse_topic_id(name)
        except InvalidTopicId as error:
            raise ParseError(_shown(folder), None, f"skipped, not a topic id: {error}") from error
        # A name that only normalises to an id is that topic on a file system that folds case
        # or Unicode forms (macOS); elsewhere it is a second folder, which no id reaches.
        normal = self.workspace.topic_dir(topic_id)
        if topic_id != name and not _same_file(folder, normal):
            hint = f"beside {topic_id!r}" if normal.exists() else f"rename it to {topic_id!r}"
            raise ParseError(
                _shown(folder),
                None,
                f"skipped, not a topic id: ids are lower case (NFKC normal form); {hint}",
            )
        return topic_id

    def list(self) -> list[Topic]:
        """Every topic that can be read, sorted by id (:meth:`read_all` says what could not)."""
        return list(self.read_all().topics)

    def read_all(self) -> TopicListing:
        """Read every topic; an unreadable one or a stray folder is a problem, not an error."""
        ids, problems = self.scan()
        topics: list[Topic] = []
        for topic_id in ids:
            try:
                topics.append(self.get(topic_id))
            except TopicNotFound:
                continue  # removed since the scan
            except ParseError as error:
                problems.append(Problem(error.path, error.line, error.problem, topic_id))
        return TopicListing(tuple(topics), tuple(problems))

    def history(self, topic_id: str) -> list[HistoryEntry]:
        """The topic's history, oldest first; a torn last line (crash) is ignored."""
        return [record.entry for record in self.history_records(topic_id)]

    def history_records(self, topic_id: str) -> list[HistoryRecord]:
        """:meth:`history` with the text each change replaced, where it was kept."""
        path = self.workspace.topic_dir(parse_topic_id(topic_id)) / HISTORY
        if not path.exists():
            return []
        records: list[HistoryRecord] = []
        lines = _read(path).split("\n")
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                records.append(_record_of(json.loads(line)))
            except (json.JSONDecodeError, TypeError) as error:
                if number >= len(lines) - 1:
                    break  # a line torn by a crash mid-append
                raise ParseError(path, number, f"not a history entry: {error}") from error
        return records

    def version(self, topic_id: str, version: str) -> TopicText:
        """The text of ``topic_id`` at ``version`` (a ``before`` or ``after`` hash of its
        history): the current text, or the text a later change replaced and history kept.

        Raises :class:`InputError` when history never names the version, or names it without
        its text (replaced by a hand edit, or before memstrata kept replaced text).
        """
        topic = self.get(topic_id)
        wanted = version.strip().lower()
        records = self.history_records(topic.id)
        texts = [TopicText(topic.summary, topic.detail)]
        for record in records:
            if record.replaced is None:
                continue
            if record.entry.before == wanted:
                return record.replaced  # its hash may not match: secrets were redacted
            texts.append(record.replaced)
        # A hash holds the state too: a text archived, or restored, has one hash per state.
        for text in texts:
            if any(content_hash(text.summary, text.detail, s) == wanted for s in TOPIC_STATES):
                return text
        named = any(wanted in (record.entry.before, record.entry.after) for record in records)
        if not named:
            raise InputError(
                f"{topic.id} has no version {version!r}: `memstrata topic history "
                f"{topic.id}` lists its versions"
            )
        raise InputError(
            f"{topic.id}: the text of version {wanted} was not kept (a hand edit replaced it, "
            "or a change made before memstrata kept replaced text in history)"
        )

    def _last_entry(self, topic_id: str) -> HistoryEntry | None:
        """The newest history line that can be read, or ``None``.

        Writes need no more than this: a damaged line further up (a stray edit, a torn append
        another line followed) stays for :meth:`history` to name, and never stops a topic from
        being written, which would leave a change across topics (a supersession) half made.
        """
        path = self.workspace.topic_dir(parse_topic_id(topic_id)) / HISTORY
        if not path.exists():
            return None
        for line in reversed(_read(path).split("\n")):
            if not line.strip():
                continue
            try:
                return _record_of(json.loads(line)).entry
            except (json.JSONDecodeError, TypeError):
                continue
        return None

    # -- writing -------------------------------------------------------------------------------

    def write(
        self,
        topic_id: str,
        summary: str,
        detail: str | None = None,
        *,
        actor: str,
        reason: str = "",
        state: TopicState | None = None,
        meta_changes: Mapping[str, Any] | None = None,
        op: str | None = None,
    ) -> TopicWrite:
        """Create or update a topic; ``detail=None`` keeps the current detail."""
        edit = TopicEdit(
            topic_id,
            summary,
            detail,
            actor=actor,
            reason=reason,
            state=state,
            meta_changes=meta_changes,
            op=op,
        )
        return self.write_together([edit])[0]

    def write_together(
        self, edits: Sequence[TopicEdit], files: Mapping[Path, str] | None = None
    ) -> list[TopicWrite]:
        """Carry out ``edits`` (one per topic) and write ``files`` (whole texts, such as a
        proposal, inside the workspace) as one change: a crash part-way is finished by the next
        :meth:`complete_pending`, so no topic of it is left in its old state.

        Every edit is checked (ids, caps) before anything is written.
        """
        ids = [parse_topic_id(edit.topic_id) for edit in edits]
        if len(set(ids)) != len(ids):
            raise InputError(f"one change edits a topic twice: {', '.join(sorted(ids))}")
        for topic_id, edit in zip(ids, edits, strict=True):
            self._check_caps(topic_id, edit.summary, edit.detail)
        # by their place in the workspace, refused now if outside it, before anything is written
        by_place = {self.workspace.relative(path): text for path, text in (files or {}).items()}
        for relative in by_place:
            self.workspace.inside(relative)
        with self.lock.held():
            pending = self.finish_pending()
            _refuse_unfinished(ids, pending)
            now = to_iso(self.clock())
            planned = [
                self._plan(replace(edit, topic_id=topic_id), now)
                for topic_id, edit in zip(ids, edits, strict=True)
            ]
            intent = {"topics": [change for change, _ in planned], "files": by_place}
            intent_path = self._intent_path(*ids)
            write_json_atomic(intent_path, intent)
            try:
                self._roll_forward(intent)
            except (OSError, MemstrataError) as error:
                # The intent stays: the change is made by the next process that can write it.
                raise _kept_error(error, intent_path) from error
            intent_path.unlink()
        return [written for _, written in planned]

    def _plan(self, edit: TopicEdit, now: str) -> tuple[dict[str, Any], TopicWrite]:
        """The new state of one topic (its intent) and what its write will have done."""
        topic_id = edit.topic_id
        folder = self.workspace.topic_dir(topic_id)
        created = not (folder / SUMMARY).is_file()
        if created and (folder / SUMMARY).exists():
            # a folder (or a device) in its place: not a new topic, and no place to write one
            raise ParseError(_shown(folder / SUMMARY), None, _NO_FILE.format("written"))
        lost = self.lost_summary(topic_id) if created else None
        if lost is not None:
            # Written as new, it would replace the meta.json and start a second history: the
            # topic's bookkeeping is lost to a summary that is only missing.
            raise ParseError(
                lost.path, None, f"{lost.message}, or move the folder aside to start it anew"
            )
        if created:
            old_summary, old_detail, before = "", "", ""
            meta = TopicMeta(state="active", created=now, updated=now)
        else:
            current = self.get(topic_id)
            self.pick_up_edit(topic_id, current)
            old_summary, old_detail, meta = current.summary, current.detail, current.meta
            before = content_hash(old_summary, old_detail, meta.state)
        new_detail = old_detail if edit.detail is None else edit.detail
        meta = replace(meta, **{"updated": now, **(edit.meta_changes or {})})
        if edit.state is not None:
            meta = replace(meta, state=edit.state)
        entry = HistoryEntry(
            time=now,
            actor=edit.actor,
            op=edit.op or ("create" if created else "update"),
            before=before,
            after=content_hash(edit.summary, new_detail, meta.state),
            reason=edit.reason,
        )
        change: dict[str, Any] = {
            "topic": topic_id,
            "summary": edit.summary,
            "detail": new_detail,
            "meta": meta_to_dict(meta),
            "entry": asdict(entry),
        }
        if not created and (edit.summary, new_detail) != (old_summary, old_detail):
            # The files keep only the newest text: history keeps what this change replaces,
            # so any earlier text can be read and restored. A secret typed into the files by
            # hand is not made permanent in an append-only file.
            change[REPLACED] = {
                "summary": redact_secrets(old_summary).text,
                "detail": redact_secrets(old_detail).text,
            }
        slug = topic_id.split("/", 1)[1]
        topic = Topic(topic_id, title_of(edit.summary, slug), edit.summary, new_detail, meta)
        return change, TopicWrite(topic, entry, created)

    def set_state(
        self, topic_id: str, state: TopicState, *, actor: str, reason: str, op: str | None = None
    ) -> TopicWrite:
        """Move a topic to ``state`` (archive, supersede, …); its text stays as it is.

        ``op`` names the change in history (default: the one of ``state``, e.g. ``archive``).
        """
        current = self.get(topic_id)
        return self.write(
            topic_id,
            current.summary,
            None,
            actor=actor,
            reason=reason,
            state=state,
            op=op or _STATE_OPS.get(state, "state"),
        )

    def archive(self, topic_id: str, *, actor: str, reason: str = "") -> TopicWrite:
        """Archive a topic: it leaves recall and the index, and stays on disk with its history."""
        return self.set_state(topic_id, "archived", actor=actor, reason=reason or "archived")

    def state_before_archive(self, topic: Topic) -> TopicState:
        """The state an archived ``topic`` had before it was archived.

        The history line that archived it holds the hash of its text and state before; with the
        text unchanged since, the state whose hash matches is the one it had. Failing that (the
        text was edited too), ``superseded`` when meta.json still names a successor: making it
        active would recall both sides of a replaced fact.
        """
        archived = content_hash(topic.summary, topic.detail, topic.meta.state)
        for entry in reversed(self.history(topic.id)):
            if entry.after != archived:
                continue
            for state in TOPIC_STATES:
                before = content_hash(topic.summary, topic.detail, state)
                if state != "archived" and entry.before == before:
                    return state
            break
        return "superseded" if topic.meta.superseded_by else "active"

    def over_caps(self, topic: Topic) -> list[Problem]:
        """A problem for each of ``topic``'s files over its cap (a hand edit: :meth:`write`
        refuses such text). The topic stays readable, indexed and injected as it is."""
        folder = self.workspace.topic_dir(topic.id)
        summary_cap, detail_cap = self.limits.summary_max_chars, self.limits.detail_max_chars
        found = []
        if capped_length(topic.summary) > summary_cap:
            found.append(
                Problem(
                    _shown(folder / SUMMARY),
                    None,
                    f"summary is {capped_length(topic.summary)} chars, over its "
                    f"{summary_cap}-char cap: "
                    "keep the gist here and move the rest into detail.md",
                    topic.id,
                )
            )
        if capped_length(topic.detail) > detail_cap:
            found.append(
                Problem(
                    _shown(folder / DETAIL),
                    None,
                    f"detail is {capped_length(topic.detail)} chars, over its "
                    f"{detail_cap}-char cap: "
                    "split it into linked topics",
                    topic.id,
                )
            )
        return found

    def _check_caps(self, topic_id: str, summary: str, detail: str | None) -> None:
        if not summary.strip():
            raise InputError(f"{topic_id}: summary is empty")
        if capped_length(summary) > self.limits.summary_max_chars:
            raise CapExceeded(
                f"{topic_id}: summary is {capped_length(summary)} chars, over the "
                f"{self.limits.summary_max_chars}-char cap; keep the gist in the summary and put "
                "the rest in the detail page (--detail-file)"
            )
        if detail is not None and capped_length(detail) > self.limits.detail_max_chars:
            raise CapExceeded(
                f"{topic_id}: detail is {capped_length(detail)} chars, over the "
                f"{self.limits.detail_max_chars}-char cap; split it into linked topics or keep "
                "the full text in the journal or raw sessions"
            )

    # -- crash safety --------------------------------------------------------------------------

    def _roll_forward(self, intent: dict[str, Any]) -> list[str]:
        """Make the files match ``intent``; safe to repeat after a crash at any point. Returns
        the topics it names."""
        changes = intent.get("topics", [intent])  # an intent of one topic has no list
        for relative, text in sorted(intent.get("files", {}).items()):
            write_atomic(self.workspace.inside(relative), text)
        topics = [self._roll_topic_forward(change) for change in changes]
        update_index_file(
            self.workspace.index_json,
            topics,
            every_topic=self.list,
            cache=self.workspace.index_view_path,
        )
        return [topic.id for topic in topics]

    def _roll_topic_forward(self, change: dict[str, Any]) -> Topic:
        """Make one topic's files match its part of an intent; return the topic as written."""
        topic_id = parse_topic_id(change["topic"])
        folder = self.workspace.topic_dir(topic_id)
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / SUMMARY, change["summary"])
        if change["detail"]:
            write_atomic(folder / DETAIL, change["detail"])
        elif (folder / DETAIL).exists():
            write_atomic(folder / DETAIL, "")
        meta_path = folder / META
        # Keys a person added survive; our own keys come only from the intent.
        kept = {k: v for k, v in _read_meta_lenient(meta_path).items() if k not in _META_KEYS}
        merged = {**kept, **change["meta"]}
        write_json_atomic(meta_path, merged)
        entry = HistoryEntry(**change["entry"])
        if self._last_entry(topic_id) != entry:
            # an intent left by a version that kept no replaced text has none
            append_line(folder / HISTORY, _history_line(entry, change.get(REPLACED)))
        # The topic as just written, without reading the files back.
        slug = topic_id.split("/", 1)[1]
        return Topic(
            topic_id,
            title_of(change["summary"], slug),
            change["summary"],
            change["detail"],
            meta_from_dict(merged, meta_path),
        )

    def complete_pending(self) -> list[str]:
        """Roll forward every intent a killed writer left behind; return the topics touched.

        One that cannot be finished now is kept (see :meth:`finish_pending`)."""
        return list(self.finish_pending().finished)

    def finish_pending(self, *, writable: bool = True) -> PendingReport:
        """Roll forward every intent a killed or failed writer left behind, as far as its files
        can be written now.

        An intent whose files cannot be written (a read-only folder, a folder where a file
        should be) is kept for a later process and named as a problem: a read goes on, with its
        topics as they are on disk. ``writable=False`` (a read-only workspace) tries none and
        names them all.
        """
        folder = self.workspace.pending_dir
        if not folder.is_dir():
            return PendingReport()
        if not writable:
            kept = [self._kept(path, "the workspace is read-only") for path in _intents(folder)]
            return _pending_report([], kept)
        done: list[str] = []
        stuck: list[tuple[Problem, list[str]]] = []
        with self.lock.held():
            for path in _intents(folder):
                try:
                    intent = json.loads(path.read_text("utf-8"))
                except (json.JSONDecodeError, UnicodeDecodeError):
                    # The intent itself was torn: its write never started, so nothing to finish.
                    path.unlink()
                    continue
                try:
                    topics = self._roll_forward(intent)
                except (OSError, MemstrataError) as error:
                    stuck.append(self._kept(path, write_failure(error), intent))
                    continue
                for topic_id in topics:
                    self._remove_litter(topic_id, path.stat().st_mtime_ns)
                path.unlink()
                done += topics
        return _pending_report(done, stuck)

    def _kept(
        self, path: Path, why: str, intent: dict[str, Any] | None = None
    ) -> tuple[Problem, list[str]]:
        """The problem naming an intent kept for later, and its topics."""
        if intent is None:
            try:
                intent = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError):
                intent = {}
        topics = _intent_topics(intent)
        named = ", ".join(topics) or "files beside the topics"
        reads = "they read" if len(topics) > 1 else "it reads"
        message = (
            f"a change to {named} cannot be finished now ({why}): it is kept, and made by the "
            f"next memstrata run that can write there; until then {reads} as on disk"
        )
        return Problem(_shown(path), None, message, topics[0] if topics else ""), topics

    def _remove_litter(self, topic_id: str, intent_ns: int) -> None:
        """Remove the temp files a writer killed mid-write left beside the files it wrote.

        Under the lock no writer is at work, so a temp file of a file the intent names (summary,
        detail, meta) was the killed writer's, and one older than the intent an earlier crash's;
        the temp files of ``_index.json``, beside the topic folders, only when older.
        """
        folder = self.workspace.topic_dir(parse_topic_id(topic_id))
        named = tuple(f".{name}." for name in (SUMMARY, DETAIL, META))
        for temp in _temp_files(folder):
            if temp.name.startswith(named) or _older(temp, intent_ns):
                temp.unlink(missing_ok=True)
        for temp in _temp_files(self.workspace.topics_dir, self.workspace.index_json.name):
            if _older(temp, intent_ns):
                temp.unlink(missing_ok=True)

    def pick_up_edit(
        self, topic_id: str, topic: Topic | None = None, update_index: bool = True
    ) -> HistoryEntry | None:
        """Record a hand edit (files changed with no history line for it) as a ``user`` edit.

        ``topic`` saves a read when the caller has it; ``update_index=False`` leaves
        ``_index.json`` to a caller that updates it once for many topics.
        """
        topic = topic or self.get(topic_id)
        last = self._last_entry(topic_id)
        now_hash = content_hash(topic.summary, topic.detail, topic.meta.state)
        last_hash = last.after if last else ""
        if now_hash == last_hash:
            return None
        with self.lock.held():
            entry = HistoryEntry(
                time=to_iso(self.clock()),
                actor="user",
                op="edit" if last else "create",
                before=last_hash,
                after=now_hash,
                reason="hand edit picked up",
            )
            folder = self.workspace.topic_dir(topic.id)
            append_line(folder / HISTORY, _history_line(entry))
            # A hand edit is an update, stated when it was made: recency and the gardener's "not
            # used for N days" read ``updated``, recall's times and the gate's order ``observed``.
            # Keys a person added to meta.json stay as they are.
            meta = _read_meta_lenient(folder / META)
            stamps = {"updated": entry.time, "observed": entry.time}
            write_json_atomic(folder / META, {**meta, **stamps})
            topic = replace(topic, meta=replace(topic.meta, **stamps))
            if update_index:
                update_index_file(
                    self.workspace.index_json,
                    [topic],
                    every_topic=self.list,
                    cache=self.workspace.index_view_path,
                )
        return entry

    def _intent_path(self, *topic_ids: str) -> Path:
        key = hashlib.sha256("\x00".join(sorted(topic_ids)).encode()).hexdigest()[:24]
        return self.workspace.pending_dir / f"{key}.json"


#: a temp file :func:`~memstrata.workspace.atomic.write_atomic` writes beside ``<name>``
_TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.[0-9a-f]{8}\.tmp$")
#: why a topic whose summary.md is a folder (or anything but a file) is not read or written
_NO_FILE = "is not a file, so the topic cannot be {}: put the topic's summary back in its place"


def _intents(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def _intent_topics(intent: Any) -> list[str]:
    """The topic ids an intent names (none when it holds no list of them)."""
    if not isinstance(intent, dict):
        return []
    changes = intent.get("topics", [intent])
    if not isinstance(changes, list):
        return []
    return [str(c["topic"]) for c in changes if isinstance(c, dict) and "topic" in c]


def _pending_report(done: list[str], kept: list[tuple[Problem, list[str]]]) -> PendingReport:
    return PendingReport(
        tuple(done),
        tuple(problem for problem, _ in kept),
        {topic: problem for problem, topics in kept for topic in topics},
    )


def _refuse_unfinished(topic_ids: Sequence[str], pending: PendingReport) -> None:
    """Raise when an intent kept for later names one of ``topic_ids``: finished after this
    write, it would put the older text back over it."""
    for topic_id in topic_ids:
        problem = pending.unfinished.get(topic_id)
        if problem is not None:
            raise WorkspaceError(f"{topic_id} not written: {problem}")


def write_failure(error: OSError | MemstrataError) -> str:
    """What stopped a write, naming the file it was writing."""
    if not isinstance(error, OSError):
        return str(error)
    target = _written(error)
    reason = error.strerror or str(error)
    return reason if target is None else f"{_shown(target)}: {reason}"


def _written(error: OSError) -> Path | None:
    """The file a failed write was writing: an :class:`OSError` of
    :func:`~memstrata.workspace.atomic.write_atomic` may name its temp file instead."""
    name = error.filename2 if error.filename2 is not None else error.filename
    if name is None:
        return None
    path = Path(os.fsdecode(name))
    temp = _TEMP_NAME.match(path.name)
    return path.with_name(temp["name"]) if temp else path


def _kept_error(error: OSError | MemstrataError, intent_path: Path) -> Exception:
    """``error`` (of the same kind where it can be) saying that the change is kept in
    ``intent_path``."""
    kept = (
        f"the change is kept in {_shown(intent_path)} and made by the next memstrata run that "
        "can write there"
    )
    if isinstance(error, OSError):
        target = _written(error)
        reason = f"{error.strerror or error}; {kept}"
        return OSError(error.errno, reason, *([] if target is None else [str(target)]))
    kind = type(error) if isinstance(error, WorkspaceError) else WorkspaceError
    return kind(f"{error}; {kept}")


_STATE_OPS: dict[str, str] = {
    "archived": "archive",
    "superseded": "supersede",
    "conflict": "conflict",
    "active": "restore",
}


def _temp_files(folder: Path, target: str = "*") -> list[Path]:
    """The temp files :func:`~memstrata.workspace.atomic.atomic_writer` makes in ``folder``
    (``.<target>.<random>.tmp``), of ``target`` or of any file."""
    try:
        return [path for path in folder.glob(f".{target}.*.tmp") if path.is_file()]
    except OSError:
        return []


def _older(path: Path, than_ns: int) -> bool:
    try:
        return path.stat().st_mtime_ns < than_ns
    except FileNotFoundError:
        return False


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def _shown(path: Path) -> str:
    """``path`` printable whatever bytes its name holds (undecodable ones become U+FFFD)."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _history_line(entry: HistoryEntry, replaced: Mapping[str, str] | None = None) -> str:
    line: dict[str, Any] = asdict(entry)
    if replaced is not None:
        line[REPLACED] = dict(replaced)
    return json.dumps(line, ensure_ascii=False, sort_keys=True)


def _record_of(line: Any) -> HistoryRecord:
    """One parsed history line as a record; raises ``TypeError`` for anything else. A line
    without ``replaced`` (every line before memstrata kept replaced text) is read as before."""
    if not isinstance(line, dict):
        raise TypeError(f"expected a JSON object, got {type(line).__name__}")
    values = dict(line)
    kept = values.pop(REPLACED, None)
    replaced = None
    if kept is not None:
        # named, not shown: the text may run to thousands of characters
        if not isinstance(kept, dict) or set(kept) != {"summary", "detail"}:
            raise TypeError(f"{REPLACED} must hold a summary and a detail and nothing else")
        if not all(isinstance(text, str) for text in kept.values()):
            raise TypeError(f"{REPLACED} must hold its summary and detail as text")
        replaced = TopicText(kept["summary"], kept["detail"])
    return HistoryRecord(HistoryEntry(**values), replaced)


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as error:
        # a folder in a file's place, a file we may not read: the topic is unreadable, named
        raise ParseError(_shown(path), None, f"cannot be read ({error.strerror})") from error
    return decode_text(data, path)


def _read_meta(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    text = _read(path)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(path, error.lineno, f"invalid JSON: {error.msg}") from error
    if not isinstance(value, dict):
        raise ParseError(path, 1, "meta.json must hold a JSON object")
    return value


def _read_meta_lenient(path: Path) -> dict[str, Any]:
    """Unknown keys a person added to meta.json survive our rewrites."""
    try:
        return _read_meta(path)
    except ParseError:
        return {}


def meta_from_dict(raw: dict[str, Any], path: Path | str = "meta.json") -> TopicMeta:
    """Validate the known fields of ``meta.json``; unknown keys are left alone."""
    state = raw.get("state", "active")
    if state not in TOPIC_STATES:
        raise ParseError(path, None, f"state {state!r} is not one of {', '.join(TOPIC_STATES)}")
    try:
        return TopicMeta(
            state=state,
            created=_time(raw, "created"),
            updated=_time(raw, "updated"),
            refs=int(raw.get("refs", 0)),
            access_count=int(raw.get("access_count", 0)),
            owner_agent=str(raw.get("owner_agent", "")),
            links=_strings(raw.get("links", ())),
            lineage=_strings(raw.get("lineage", ())),
            kind=str(raw.get("kind", "")),
            entities=_strings(raw.get("entities", ())),
            confidence=_confidence(raw.get("confidence")),
            observed=_time(raw, "observed"),
            superseded_by=str(raw.get("superseded_by", "")),
            supersedes=_strings(raw.get("supersedes", ())),
            conflicts_with=_strings(raw.get("conflicts_with", ())),
            importance=_importance(raw.get("importance", IMPORTANCE_DEFAULT)),
            pinned=_flag(raw.get("pinned", False)),
            decayed=_time(raw, "decayed"),
        )
    except (TypeError, ValueError) as error:
        raise ParseError(path, None, f"bad field value: {error}") from error


def _time(raw: dict[str, Any], key: str) -> str:
    """A time field as ISO 8601 UTC, another ISO form a person typed read into it (the gate
    and the gardener compare these as text), or ""."""
    stated = stated_iso(raw.get(key, ""))
    if stated is None:
        raise ValueError(f"{key} {raw[key]!r} is no time: write it like 2025-11-27T10:00:00Z")
    return stated


def _confidence(value: Any) -> float | None:
    if value is None:
        return None
    if not is_confidence(value):
        raise ValueError(f"confidence {value!r} is not a number from 0 to 1")
    return float(value)


def _importance(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"importance must be a whole number, got {value!r}")
    if not IMPORTANCE_FLOOR <= value <= IMPORTANCE_MAX:
        raise ValueError(f"importance {value} is not within {IMPORTANCE_FLOOR}..{IMPORTANCE_MAX}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise TypeError(f"expected a list of strings, got {value!r}")
    return tuple(str(item) for item in value)


def meta_to_dict(meta: TopicMeta) -> dict[str, Any]:
    """``meta.json`` content: tuples as lists; optional fields only when set (files stay small)."""
    value = asdict(meta)
    for key, item in list(value.items()):
        if isinstance(item, tuple):
            value[key] = list(item)
    for key in (
        "kind",
        "entities",
        "confidence",
        "observed",
        "superseded_by",
        "supersedes",
        "conflicts_with",
        "decayed",
    ):
        if value[key] in ("", None, []):
            del value[key]
    if meta.importance == IMPORTANCE_DEFAULT:
        del value["importance"]
    if not meta.pinned:
        del value["pinned"]
    return value
