"""Memory: the facade that composes the strata, the index and the operations.

Every entry point (CLI, MCP, Python) goes through this class. It feeds files into the derived
index (the index never reads the workspace itself) and keeps it in step: writes update it right
after the file write succeeds, and :meth:`Memory.sync` picks up hand edits and files written by
other processes by comparing each file's size and mtime with what the index last saw.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Concatenate, ParamSpec, TypeVar

from memstrata.arguments import (
    checked_names,
    checked_version,
    checked_whole,
    require_line,
    workspace_path,
)
from memstrata.clock import Clock, checked_clock, read_clock, system_now, to_iso
from memstrata.config import Config, load_config
from memstrata.context.compile import (
    Context,
    ContextItem,
    compile_context,
    index_items,
    recall_line,
)
from memstrata.errors import (
    ConfigError,
    DiskFull,
    EmbedderFailed,
    InputError,
    ParseError,
    RawStoreDamaged,
    TopicNotFound,
    WorkspaceNotFound,
    WorkspaceReadOnly,
)
from memstrata.fts import content_terms, query_terms
from memstrata.index.db import IndexDB, topic_held_reason
from memstrata.index_sync import (
    SyncReport,
    recreate_index,
    rewrite_index_json,
    stamp_files,
    sync_index,
    topic_scan_due,
)
from memstrata.journal.log import LogWrite, append_log
from memstrata.journal.parse import (
    ParsedJournal,
    day_of,
    entity_key,
    parse_journal,
    require_opinion_for_confidence,
)
from memstrata.metrics import MetricsSummary, append_metric, read_metrics, summarise
from memstrata.model import (
    FACT_KINDS,
    Fact,
    FactKind,
    HeldEntry,
    HistoryEntry,
    Problem,
    Proposal,
    RecallItem,
    RecallResult,
    SearchHit,
    Topic,
)
from memstrata.proposals import ProposalStore
from memstrata.recall.access import Access, AccessLog, access_keys, item_keys
from memstrata.recall.filters import RecallFilters
from memstrata.recall.hybrid import recall_items
from memstrata.recall.inputs import (
    checked_count,
    checked_entity,
    checked_query,
    checked_window,
)
from memstrata.recall.lexical import search_topics
from memstrata.recall.listing import listing_note
from memstrata.recall.long_query import cut_query, searched_with_notes
from memstrata.recall.semantic_state import SemanticState
from memstrata.redaction import redact_secrets
from memstrata.rules import RulesReport, read_rules
from memstrata.sqlite import file_identity, is_damage, is_sound
from memstrata.wiki.index_file import RenderedIndex, render_index_file
from memstrata.wiki.store import (
    DETAIL,
    META,
    SUMMARY,
    HistoryRecord,
    TopicStore,
    TopicText,
    TopicWrite,
)
from memstrata.workspace.layout import Workspace, find_workspace, init_workspace
from memstrata.workspace.lock import READ_WAIT_S, WorkspaceLock
from memstrata.workspace.textfile import read_mending, require_plain, require_text

if TYPE_CHECKING:
    # The gate is imported when first used: reads (and every hook) skip its import cost.
    from memstrata.gate.admit import Gate
    from memstrata.gate.rulings import Keep
    from memstrata.gate.verdicts import Verdict
    from memstrata.maintain.ledger import LedgerRecord, LedgerScan
    from memstrata.maintain.prune import PruneResult
    from memstrata.maintain.report import GardenReport
    from memstrata.maintain.restore import RestoreResult
    from memstrata.maintain.snapshot import SnapshotInfo
    from memstrata.maintain.tick import TickReport
    from memstrata.maintain.undo import UndoResult
    from memstrata.providers.embedder import Embedder
    from memstrata.raw.ingest import IngestReport
    from memstrata.raw.store import RawStore
    from memstrata.recall.turns import RankedTurn, TurnWeights
    from memstrata.recall.vector_cache import VectorCache
    from memstrata.status import Status


P = ParamSpec("P")
R = TypeVar("R")


def _heals_index(
    method: Callable[Concatenate[Memory, P], R],
) -> Callable[Concatenate[Memory, P], R]:
    """A call that meets a damaged index (a page SQLite finds malformed) has the index made anew
    from the files and runs once more: the index is derived, so nothing is lost, and no one has
    to know to type ``memstrata rebuild``. Running again is safe for the writes so marked: they
    read the index before they write a file, and an index update after a file write that meets
    the damage heals it there (:meth:`Memory._index_failed`) instead of raising."""

    @functools.wraps(method)
    def healing(self: Memory, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as error:
            if not self._index_is_damaged(error):
                raise
            self._heal_index(str(error))
            return method(self, *args, **kwargs)

    return healing


def _in_workspace(
    method: Callable[Concatenate[Memory, P], R],
) -> Callable[Concatenate[Memory, P], R]:
    """A call on a workspace that is no longer where it was opened (moved, deleted, its
    ``memstrata.toml`` gone) is a :class:`~memstrata.errors.WorkspaceNotFound`: a long-lived
    process (the MCP server) would otherwise read nothing from the empty place and write into
    a new, partial workspace there, out of sight of the real one."""

    @functools.wraps(method)
    def checked(self: Memory, *args: P.args, **kwargs: P.kwargs) -> R:
        self.require_workspace()
        return method(self, *args, **kwargs)

    return checked


class Memory:
    """Long-term memory rooted at one workspace folder.

    One ``Memory`` may serve a long-lived process and its threads (calls take the workspace
    lock, within the process and across processes); files edited by hand, written or rebuilt
    by another process are picked up by the next call. Every error a caller can cause is a
    :class:`~memstrata.errors.MemstrataError` with a message a person can act on.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        clock: Clock = system_now,
        config: Config | None = None,
        embeddings: bool = True,
        embedder: Embedder | None = None,
    ) -> None:
        self.workspace = find_workspace(workspace_path(path))
        if config is not None and not isinstance(config, Config):
            raise InputError(f"config is a memstrata Config, not {type(config).__name__}")
        self.config = config or _load_config(self.workspace)
        self._clock = checked_clock(clock)
        self.lock = WorkspaceLock(self.workspace.lock_path)
        # handed the reading of the clock, so that a clock set later is the one they read
        self.topics = TopicStore(self.workspace, self.config.topics, self.lock, self._now)
        self._index: IndexDB | None = None
        self._raw: RawStore | None = None
        #: True once we found the workspace cannot be written: reads still work from the files.
        self.read_only = False
        #: why the raw database could not be read by the last read that spans every stratum
        self.raw_damage = ""
        #: what healing the index did, for the next read's notes (see :meth:`_take_index_note`)
        self._index_note = ""
        #: the refresh of the turn being answered (see :meth:`_one_refresh`)
        self._turn_sync: SyncReport | None = None
        #: the embedder, its vectors and its rest; ``embeddings=False`` keeps the model unloaded
        self.semantic = SemanticState(
            self.workspace, self.config, self.lock, enabled=embeddings, embedder=embedder
        )
        self.proposal_store = ProposalStore(self.workspace.memory_dir / "proposals")
        self.access = AccessLog(self.workspace.state_dir / "access.db")
        self._gate: Gate | None = None

    @classmethod
    def init(
        cls,
        path: str | Path,
        *,
        clock: Clock = system_now,
        config: Config | None = None,
        embeddings: bool = True,
        embedder: Embedder | None = None,
    ) -> Memory:
        """Create a workspace at ``path`` (keeping any files already there) and open it; the
        keywords are :class:`Memory`'s."""
        root = workspace_path(path)
        if root is None:
            raise InputError("a workspace to create needs a path (a folder), not None")
        init_workspace(root)
        return cls(root, clock=clock, config=config, embeddings=embeddings, embedder=embedder)

    def __repr__(self) -> str:
        return f"Memory({str(self.workspace.root)!r})"

    @property
    def clock(self) -> Clock:
        """The time now, as every part of this memory reads it: the clock given (the system's
        by default), a naive time taken as UTC. Set it to change the clock of every part."""
        return self._now

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self._clock = checked_clock(clock)

    def _now(self) -> datetime:
        return read_clock(self._clock)

    def require_workspace(self) -> None:
        """Raise :class:`~memstrata.errors.WorkspaceNotFound` when the workspace is no longer
        where this memory opened it (moved or deleted since: its ``memstrata.toml`` is gone)."""
        if not self.workspace.config_path.is_file():
            raise WorkspaceNotFound(
                f"{self.workspace.root}: the workspace is no longer there (no "
                f"{self.workspace.config_path.name}: moved or deleted since it was opened); "
                "nothing was read or written: open it where it is now"
            )

    def close(self) -> None:
        """Close the databases this memory holds open; closing again does nothing. A later
        call opens what it needs again (close once more when done with it)."""
        for store in (self._index, self._raw):
            if store is not None:
                store.close()
        self.access.close()
        self._index = self._raw = None
        self.semantic.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- stores --------------------------------------------------------------------------------

    @property
    def index(self) -> IndexDB:
        """The derived index, opened (and filled if it was made anew) on first use.

        Opened again when its file was replaced since (another process rebuilt it, a snapshot
        was restored): a long-lived process (the MCP server) would otherwise read, and write
        to, a deleted file for the rest of its life.
        """
        if (
            self._index is not None
            and not self.read_only
            and file_identity(self._index.path) != self._index.identity
        ):
            # not closed here: a caller up the stack may still be reading from it
            self._index = None
            self.semantic.forget_vectors()
        if self._index is None:
            try:
                # Under the lock: two processes must not create the schema at the same time.
                # A sound index is only read while another process holds it (a rebuild
                # embedding for minutes, a long import): it is made anew by the lock's holder.
                with self.lock.attempt(READ_WAIT_S) as held:
                    sound = None if held else IndexDB.open_sound(self.workspace.index_db)
                    if sound is not None:
                        self._busy()
                    self._index = sound or self._open_index_locked()
            except WorkspaceReadOnly:
                self._found_read_only()
                self._index = IndexDB.open_in_memory(seed=self.workspace.index_db)
            if self._index.recreated:
                self.sync()
        return self._index

    def _open_index_locked(self) -> IndexDB:
        with self.lock.held():
            return IndexDB.open(self.workspace.index_db)

    def _found_read_only(self) -> None:
        """The workspace cannot be written: reads go on from the files, nothing is recorded
        (no embedding cache file is kept, no embedder rest written)."""
        self.read_only = self.semantic.read_only = True

    def _index_is_damaged(self, error: sqlite3.DatabaseError) -> bool:
        """Whether ``error`` came from damage to this workspace's index file (not the raw
        store's, nor a busy or full disk): then it may be made anew."""
        index = self._index
        if self.read_only or index is None or not is_damage(error):
            return False
        return not is_sound(index.db)

    def _index_failed(self, error: Exception) -> bool:
        """Heal the damage an index update met after its file was written (the index made anew
        takes the file in); False when the failure was not damage to the index."""
        if isinstance(error, sqlite3.DatabaseError) and self._index_is_damaged(error):
            self._heal_index(str(error))
            return True
        return False

    def _heal_index(self, reason: str) -> None:
        """Make the index anew from the files, as ``rebuild`` does, but leave embedding to the
        reads that need vectors (up to a few hundred each, from the cache when texts are
        unchanged): a prompt hook must not wait for a whole workspace to be embedded."""
        with self.lock.held():
            if self._index is not None:
                self._index.close()
            self._index = None
            self.semantic.forget_vectors()
            self._index = recreate_index(self.workspace.index_db)
            self.sync()
        where = self.workspace.relative(self.workspace.index_db)
        self._index_note = f"{where} was damaged ({reason}); it was made anew from the files"

    def take_index_note(self) -> tuple[str, ...]:
        """The note of an index made anew, once: told by the call that healed it, not by every
        later read of a long-lived process."""
        note, self._index_note = self._index_note, ""
        return (note,) if note else ()

    @property
    def raw(self) -> RawStore:
        """The raw store, opened on first use and again when its file was replaced since."""
        if self._raw is not None and file_identity(self._raw.path) != self._raw.identity:
            self._raw = None
        if self._raw is None:
            from memstrata.raw.store import open_raw_store  # a prompt's read never opens it

            try:
                self._raw = open_raw_store(self.workspace.raw_db)
            except WorkspaceReadOnly:
                self._found_read_only()
                self._raw = open_raw_store(self.workspace.raw_db, readonly=True)
        return self._raw

    def usable_raw(self) -> RawStore | None:
        """The raw store for a read that spans every stratum (status, search, embedding): none
        when there is no raw database yet, or when it is damaged (:attr:`raw_damage` says why),
        so the wiki and the journal are still read."""
        if not self.workspace.raw_db.exists():
            return None
        try:
            store = self.raw
        except RawStoreDamaged as error:
            self.raw_damage = error.reason
            return None
        self.raw_damage = ""
        return store

    def raw_problems(self) -> tuple[Problem, ...]:
        """Why the raw database could not be read by the last read of every stratum (none
        when it could)."""
        if not self.raw_damage:
            return ()
        return (Problem(self.workspace.relative(self.workspace.raw_db), None, self.raw_damage),)

    # -- index upkeep --------------------------------------------------------------------------

    @_in_workspace
    def sync(self, scan_topics: bool = True) -> SyncReport:
        """Bring the index in step with the files; record hand edits to topics in history.

        memstrata's own writes (from any process) update the shared index as they happen; a
        sync is for what changed behind its back: hand edits, files copied in, crashed writers.
        ``scan_topics=False`` skips the per-topic stat scan (the costly part at 10k topics).
        """
        index = self.index  # opening it finds out whether the workspace is read-only
        return sync_index(
            index,
            self.workspace,
            self.topics,
            self.lock,
            self._parse_journal_file,
            read_only=self.read_only,
            scan_topics=scan_topics,
        )

    @_in_workspace
    def refresh(self) -> SyncReport:
        """The sync every read does: journals always, topic files as often as their check is
        cheap (:func:`~memstrata.index_sync.topic_scan_due`).

        Hand edits to topics therefore show up on the next read in a workspace of a few hundred
        topics, within seconds at 10k (at once after ``sync()``/``rebuild()``); memstrata's own
        writes show up at once.
        """
        if self._turn_sync is not None:
            return self._turn_sync
        self.index  # noqa: B018 -- opening it finds out whether the workspace is read-only
        scan_topics = topic_scan_due(self.workspace, self.read_only)
        if self.read_only:
            return self.sync(scan_topics=scan_topics)
        with self.lock.attempt(READ_WAIT_S) as held:
            if held:
                return self.sync(scan_topics=scan_topics)
        self._busy()
        return SyncReport()

    def _busy(self) -> None:
        """Note, for this read, that another process held the lock and the read went on
        without its upkeep."""
        self._index_note = self._index_note or BUSY_NOTE

    @contextmanager
    def _one_refresh(self) -> Iterator[SyncReport]:
        """One turn's reads (the Index, then recall) on one refresh: the files are not read
        again for each part of the same answer."""
        self._turn_sync = self.refresh()
        try:
            yield self._turn_sync
        finally:
            self._turn_sync = None

    @_in_workspace
    def rebuild(self, on_embedding: Callable[[int, int], None] | None = None) -> SyncReport:
        """Recreate the index and ``_index.json`` from the files alone, then embed everything
        (with the embedding model on; vectors come from the cache when texts are unchanged).

        ``on_embedding`` is told (embedded so far, about how many in all) after each batch: a
        first rebuild over many imported turns embeds for minutes."""
        with self.lock.held():
            if self._index is not None:
                self._index.close()
                self._index = None
            self._index = recreate_index(self.workspace.index_db)
            report = self.sync()
            rewrite_index_json(self.workspace.index_json, self.topics)
        # asked for by hand: the embedder is tried now, whatever rest a failure began
        self.semantic.end_rest()
        # Embedding takes the lock per batch: reads go on during the minutes it may take.
        report.embedded = self.embed_missing(on_embedding)
        report.problems.extend(self.raw_problems())
        return report

    # -- rules ---------------------------------------------------------------------------------

    @_in_workspace
    def rules(self) -> RulesReport:
        """The rules files (``prompt/*.md``, ``MEMORY.md``, ``SESSION-STATE.md``) as injected,
        with what was mended on reading them."""
        return read_rules(self.workspace, self.config)

    # -- wiki ----------------------------------------------------------------------------------

    @_in_workspace
    def write_topic(
        self,
        topic_id: str,
        summary: str,
        detail: str | None = None,
        *,
        actor: str = "user",
        reason: str = "",
    ) -> TopicWrite:
        """Create or update a topic directly (a person's edit path; agents go through the gate)."""
        require_text("summary", summary)
        require_plain("summary", summary)
        require_plain("detail", detail)
        require_line("reason", reason)
        require_line("actor", actor)
        summary = redact_secrets(summary).text
        detail = None if detail is None else redact_secrets(detail).text
        with self.lock.held():
            written = self._same_text(topic_id, summary, detail)
            if written is None:
                # what a person writes is stated now: recall's times and the gate's order read it
                stated = {"observed": to_iso(self.clock())}
                written = self.topics.write(
                    topic_id, summary, detail, actor=actor, reason=reason, meta_changes=stated
                )
                note = self._reindex_topic(written.topic.id)
                if note:
                    return replace(written, index_note=note)
        held = self.index.held_topic(written.topic.id)
        return replace(written, held=held) if held else written

    def _same_text(self, topic_id: str, summary: str, detail: str | None) -> TopicWrite | None:
        """The topic as it is, when it holds this text already: writing it again would record a
        change that is none and make it look newly stated (recall ranks by that)."""
        try:
            current = self.topics.get(topic_id)
        except TopicNotFound:
            return None
        if (current.summary, current.detail) != (
            summary,
            current.detail if detail is None else detail,
        ):
            return None
        history = self.topics.history(current.id)
        if not history:
            return None  # a topic made by hand, never recorded: the write records it
        return TopicWrite(current, history[-1], created=False, unchanged=True)

    @_in_workspace
    def archive_topic(self, topic_id: str, *, actor: str = "user", reason: str = "") -> TopicWrite:
        """Archive a topic: out of recall and the index, kept on disk with its history; one
        already archived is an :class:`~memstrata.errors.InputError` (nothing is written)."""
        require_line("reason", reason)
        require_line("actor", actor)
        with self.lock.held():
            if self.topics.get(topic_id).meta.state == "archived":
                raise InputError(f"{topic_id} is already archived")
            written = self.topics.archive(topic_id, actor=actor, reason=reason)
            note = self._reindex_topic(written.topic.id)
        return replace(written, index_note=note) if note else written

    @_in_workspace
    def restore_topic(
        self, topic_id: str, *, actor: str = "user", reason: str = "", version: str | None = None
    ) -> TopicWrite:
        """Bring an archived topic back to the state it had before it was archived: active
        (in recall and the index again), or superseded when it had been replaced.

        With ``version`` (a hash from :meth:`topic_history`), bring back the text the topic
        had then instead, in whatever state it is now; the text it replaces stays in history.
        """
        require_line("reason", reason)
        require_line("actor", actor)
        if version is not None:
            return self._restore_version(topic_id, version, actor=actor, reason=reason)
        with self.lock.held():
            topic = self.topics.get(topic_id)
            if topic.meta.state != "archived":
                raise InputError(
                    f"{topic_id} is {topic.meta.state}, not archived: nothing to restore"
                )
            state = self.topics.state_before_archive(topic)
            as_before = "" if state == "active" else f" ({state}, as before it was archived)"
            written = self.topics.set_state(
                topic_id,
                state,
                actor=actor,
                reason=reason or f"restored from the archive{as_before}",
                op="restore",
            )
            note = self._reindex_topic(written.topic.id)
        return replace(written, index_note=note) if note else written

    def _restore_version(
        self, topic_id: str, version: str, *, actor: str, reason: str
    ) -> TopicWrite:
        version = checked_version(version)
        with self.lock.held():
            text = self.topics.version(topic_id, version)
            current = self.topics.get(topic_id)
            if (text.summary, text.detail) == (current.summary, current.detail):
                raise InputError(
                    f"{current.id} already reads as version {version}: nothing to restore"
                )
            # a person brings the text back now: recall's times and the gate's order read it
            stated = {"observed": to_iso(self.clock())}
            written = self.topics.write(
                current.id,
                text.summary,
                text.detail,
                actor=actor,
                reason=reason or f"restored version {version}",
                meta_changes=stated,
                op="restore",
            )
            note = self._reindex_topic(written.topic.id)
        if note:
            return replace(written, index_note=note)
        held = self.index.held_topic(written.topic.id)
        return replace(written, held=held) if held else written

    @_in_workspace
    def topic_version(self, topic_id: str, version: str) -> TopicText:
        """The text ``topic_id`` had at ``version``, a hash from :meth:`topic_history`."""
        return self.topics.version(topic_id, checked_version(version))

    @_in_workspace
    def get_topic(self, topic_id: str) -> Topic:
        """The topic ``topic_id`` (``namespace/slug``) as its files hold it now, in any state;
        :class:`~memstrata.errors.TopicNotFound` when there is none,
        :class:`~memstrata.errors.InvalidTopicId` for an id that is not one."""
        return self.topics.get(topic_id)

    def topic_held(self, topic: Topic) -> str:
        """Why ``topic`` is held out of recall and the Index ("" when it is not): its title or
        summary reads as an instruction to the model. Read from the text given, so a topic just
        edited by hand is judged as it now reads, as the index will judge it."""
        if not isinstance(topic, Topic):
            raise InputError(f"topic_held takes a Topic (get_topic's), not {type(topic).__name__}")
        return topic_held_reason(topic.title, redact_secrets(topic.summary).text)

    @_in_workspace
    def list_topics(self) -> list[Topic]:
        """Every topic in the wiki, in every state (archived and superseded included)."""
        return self.topics.list()

    @_in_workspace
    def topic_history(self, topic_id: str) -> list[HistoryEntry]:
        """The topic's history, oldest first; no such topic is a ``TopicNotFound``."""
        self.topics.folder_of(topic_id)  # an empty history would read as a topic never changed
        return self.topics.history(topic_id)

    @_in_workspace
    def topic_history_records(self, topic_id: str) -> list[HistoryRecord]:
        """:meth:`topic_history` with the text each change replaced, where history kept it."""
        self.topics.folder_of(topic_id)
        return self.topics.history_records(topic_id)

    def _reindex_topic(self, topic_id: str) -> str:
        """Index the topic just written; what to say when the index could not take it in."""
        stamp = stamp_files(str(self.workspace.topic_dir(topic_id)), (SUMMARY, DETAIL, META))
        try:
            self.index.put_topic(self.topics.get(topic_id), stamp)
        except (sqlite3.DatabaseError, OSError, DiskFull) as error:
            # The topic file is written, the truth: a damaged index is made anew from the
            # files here, and a full disk is said, so no caller retries the write and records
            # the knowledge twice. The next read indexes it.
            if not self._index_failed(error):
                return f"written; the index could not take it in ({error}); reads take it in"
        return ""

    @_heals_index
    @_in_workspace
    def index_view(self, budget_bytes: int | None = None) -> RenderedIndex:
        """The topic index as injected each turn (≤ the index budget), hand edits included;
        ``budget_bytes`` (a whole number of bytes) in place of the configured budget."""
        if budget_bytes is not None:
            checked_whole(budget_bytes, "budget_bytes", 1)
        self.refresh()  # keeps _index.json in step with topic files edited by hand
        return render_index_file(
            self.workspace.index_json,
            budget_bytes or self.config.budgets.index_bytes,
            None if self.read_only else self.workspace.index_view_path,
        )

    # -- the gate ------------------------------------------------------------------------------

    @property
    def gate(self) -> Gate:
        """The write gate, wired to this workspace's stores and index.

        With an embedder, a near-duplicate also needs the cosine to clear the threshold
        calibrated for that embedder (``gate/calibration.py``); without one (or for an
        embedder never calibrated) the gate decides on its exact lexical checks alone.
        """
        if self._gate is None:
            from memstrata.gate.admit import Gate
            from memstrata.gate.calibration import dedup_threshold

            embedder = self.embedder
            threshold = dedup_threshold(embedder.name) if embedder is not None else None
            gate = Gate(
                self.topics,
                self.proposal_store,
                self._related_topics,
                self.config,
                self.clock,
                similarity=self._similarity if threshold is not None else None,
                threshold=threshold,
                on_write=self._reindex_topic,
            )
            if embedder is None and self.embedder_failure:
                return gate  # resting: a later call builds it with its embedder again
            self._gate = gate
        return self._gate

    def _similarity(self, text: str, others: Sequence[str]) -> list[float]:
        """Cosines for the gate; a failed or resting embedder raises ``EmbedderFailed``, and
        the gate decides on its lexical checks alone."""
        embedder = self.embedder
        if embedder is None:
            raise EmbedderFailed(self.embedder_failure or "embeddings are off")
        try:
            rows = embedder.embed([text, *others])
        except EmbedderFailed as error:
            self.semantic.failed(error)
            raise
        return [float(value) for value in rows[1:] @ rows[0]]

    @_heals_index
    @_in_workspace
    def remember(
        self,
        text: str | bytes,
        *,
        topic: str | None = None,
        kind: FactKind | None = None,
        entities: Sequence[str] = (),
        confidence: float | None = None,
        source: str = "",
        observed: str | datetime = "",
        supersedes: str | None = None,
        actor: str = "agent",
        dry_run: bool = False,
    ) -> Verdict:
        """Send knowledge through the gate; the verdict says what happened and why.

        ``observed`` (when it was stated; default now) is ISO 8601 text or a ``datetime``;
        ``entities`` a list of names (one string is one name). An argument that is not what it
        must be is an :class:`InputError` naming it; see :mod:`memstrata.gate.inputs`. A
        ``confidence`` comes only with ``kind="opinion"``, as in the journal."""
        from memstrata.gate.inputs import checked_candidate

        candidate = checked_candidate(
            text,
            topic=topic,
            kind=kind,
            entities=entities,
            confidence=confidence,
            source=source,
            observed=observed,
            supersedes=supersedes,
            actor=actor,
        )
        require_opinion_for_confidence(candidate.kind, candidate.confidence)
        with self.lock.held():  # refreshed under it: the gate compares with what is there now
            self.refresh()
            return self.gate.admit(candidate, dry_run=dry_run)

    def gate_notes(self) -> tuple[str, ...]:
        """What the last :meth:`remember` should say beside its verdict: that the gate
        compared meanings without its embedder (it failed, or rests), by words alone."""
        return self.semantic.gate_notes()

    @_in_workspace
    def proposals(self, status: str | None = None) -> list[Proposal]:
        """Proposals waiting for (or given) a ruling, oldest id first."""
        return self.proposal_store.list(status)

    @_in_workspace
    def proposal(self, proposal_id: str) -> Proposal:
        """The proposal ``proposal_id`` (``p-…``); an :class:`~memstrata.errors.InputError`
        when there is none."""
        return self.proposal_store.get(proposal_id)

    @_in_workspace
    def resolve_proposal(
        self, proposal_id: str, accept: bool, keep: Keep | None = None, actor: str = "user"
    ) -> Proposal:
        """Rule on a proposal: accept (a conflict needs ``keep``: a, b or both) or reject it."""
        from memstrata.gate.rulings import rule_on

        if not isinstance(accept, bool):
            raise InputError(f"accept is True or False, not {accept!r}")
        if keep not in (None, "a", "b", "both"):
            raise InputError(f"keep must be a, b or both (or None), not {keep!r}")
        require_line("actor", actor)
        with self.lock.held():
            return rule_on(self.gate, proposal_id, accept, keep, actor)

    @_in_workspace
    def held_topics_of(self, proposal: Proposal) -> list[HeldEntry]:
        """The topics holding the text of an accepted quarantine ``proposal`` that are held out
        of recall and the Index: accepting stores the text, and while it reads as an
        instruction to the model it stays held, as every topic that reads so."""
        if not isinstance(proposal, Proposal):
            raise InputError(
                f"held_topics_of takes a Proposal (proposal()'s), not {type(proposal).__name__}"
            )
        if proposal.kind != "quarantine" or proposal.status != "accepted":
            return []
        text = redact_secrets(proposal.text).text.strip()
        # a journal entry's source names its line (memory/<day>.md#L3); a topic id has no '#'
        return [held for held in self.index.held() if "#" not in held.source and text in held.text]

    def _related_topics(self, text: str, entities: Sequence[str], limit: int) -> list[str]:
        """The topics the gate weighs a write against: those sharing its words, naming its
        entities, and, with embeddings on, nearest in meaning (which share no word: "I moved
        to Porto" / "I live in Lisbon")."""
        ids = [hit.source for hit in search_topics(self.index.db, text, limit)]
        ids += self._nearest_topics(text, NEAREST_RELATED)
        if entities:
            keys = [entity_key(name) for name in entities]
            marks = ", ".join("?" * len(keys))
            rows = self.index.db.execute(
                f"SELECT DISTINCT m.ref FROM mentions m JOIN topics t ON t.id = m.ref"
                f" WHERE m.ref_kind = 'topic' AND m.entity IN ({marks})"
                f" AND t.state IN ('active', 'conflict') ORDER BY t.updated DESC LIMIT ?",
                (*keys, limit),
            )
            ids += [row["ref"] for row in rows]
        return list(dict.fromkeys(ids))

    def _nearest_topics(self, text: str, limit: int) -> list[str]:
        """Live topics nearest ``text`` in meaning, or none when embeddings are off or fail."""
        vectors = self.vectors
        if vectors is None:
            return []
        try:
            topics, _ = vectors.items(self.index.db)
            vector = vectors.embedder.embed([text])[0]
        except EmbedderFailed as error:
            self.semantic.failed(error)
            return []
        return [topic_id for topic_id, _ in topics.search(vector, limit)]

    # -- journal -------------------------------------------------------------------------------

    @_in_workspace
    def log(
        self, text: str, kind: FactKind | None = None, confidence: float | None = None
    ) -> LogWrite:
        """Append to today's journal; with ``kind`` as a typed ``## Retain`` fact.

        A line that reads as an instruction to the model is written but held out of recall
        (``LogWrite.held`` says why), as every journal entry is when indexed.
        """
        from memstrata.gate.inputs import checked_confidence, checked_kind

        require_text("log text", text)
        kind, confidence = checked_kind(kind), checked_confidence(confidence)
        require_opinion_for_confidence(kind, confidence)
        now = self.clock()
        path = self.workspace.journal_path(now.date().isoformat())
        text = redact_secrets(text).text
        with self.lock.held():
            written = append_log(path, text, now, kind, confidence)
            parsed = self._parse_journal_file(path)
            stamp = stamp_files(str(path.parent), (path.name,))
            try:
                held = self.index.put_journal(self.workspace.relative(path), parsed, stamp)
            except (sqlite3.DatabaseError, OSError, DiskFull) as error:
                # The line is in the file, the truth: failing now would have it logged twice
                # by a retry. The index is derived; the next read takes the day in.
                if not self._index_failed(error):
                    note = f"written; the index could not take it in ({error}); reads take it in"
                    return replace(written, index_note=note)
                held = list(self.index.held())  # made anew from the files, this line included
        source = f"{self.workspace.relative(path)}#L{written.line}"
        reason = next((entry.reason for entry in held if entry.source == source), "")
        written = replace(written, held=reason) if reason else written
        healed = self.take_index_note()
        return replace(written, index_note=healed[0]) if healed else written

    def journal_day(self, day: str) -> Path:
        """The journal file of ``day``, which must be a date written YYYY-MM-DD."""
        try:
            valid = date.fromisoformat(day).isoformat() == day
        except (ValueError, TypeError):  # not a date, or no text
            valid = False
        if not valid:
            raise InputError(f"{day!r} is not a day: write it YYYY-MM-DD, e.g. 2025-11-27")
        return self.workspace.journal_path(day)

    @_in_workspace
    def promote(
        self,
        day: str | None = None,
        *,
        dry_run: bool = False,
        on_problem: Callable[[Problem], None] | None = None,
    ) -> list[tuple[Fact, Verdict]]:
        """Send journal ``## Retain`` facts not promoted yet through the gate into the wiki.

        Each fact goes in with its kind, entities, confidence, its day as the time it was
        stated, and its ``file#line`` as the source. Promoted facts are listed in
        ``memory/.promoted`` so that promoting again skips them, also when lines logged above
        them moved them, and when another process promoted them meanwhile; a fact edited since
        has a new text and is promoted again (the gate then merges or supersedes).

        ``dry_run`` writes nothing and gives the verdicts the real run would give, each fact
        judged against the wiki as the facts before it would leave it.

        ``on_problem`` is told what was left alone: a Retain bullet that does not parse, a day
        that cannot be read (``day`` named: an error), and a fact on a line holding bytes that
        are no UTF-8 (it waits for the bytes to be fixed: read as U+FFFD it would enter the wiki
        mangled, and its mended text would then conflict with it).
        """
        from memstrata.journal.promote import promote_facts, rehearse_promotion

        if day is not None:
            self.journal_day(day)  # a day written YYYY-MM-DD: "" or 0 is not "every day"
        if dry_run:
            return rehearse_promotion(self, day, on_problem)
        return promote_facts(self, day, on_problem)

    @_in_workspace
    def journal_paths(self) -> list[Path]:
        """The journal files (``memory/YYYY-MM-DD.md``), oldest day first."""
        folder = self.workspace.memory_dir
        if not folder.is_dir():
            return []
        return sorted(path for path in folder.glob("*.md") if day_of(path.name))

    @_in_workspace
    def read_journal(self, day: str) -> ParsedJournal:
        """The journal of ``day`` (YYYY-MM-DD) parsed: its entries, ``## Retain`` facts and the
        problems of its lines; an :class:`~memstrata.errors.InputError` when there is none."""
        path = self.journal_day(day)
        if not path.exists():
            raise InputError(f"{self.workspace.relative(path)}: no journal for {day}")
        return self._parse_journal_file(path)

    def _parse_journal_file(self, path: Path) -> ParsedJournal:
        """A journal day, whole: a line with bytes that are no UTF-8 is read with U+FFFD in
        their place and named as a problem, so one bad byte never hides the rest of the day."""
        return self.read_journal_file(path)[0]

    def read_journal_file(self, path: Path) -> tuple[ParsedJournal, set[int]]:
        """:meth:`_parse_journal_file`, and the lines that held bytes that are no UTF-8."""
        day = day_of(path.name) or ""
        source = self.workspace.relative(path)
        try:
            text, bad = read_mending(path)
        except OSError as error:
            # a folder or a link in a loop named like a day: a problem of its own, the other
            # days are read
            raise ParseError(source, None, f"cannot read it ({error.strerror})") from error
        parsed = parse_journal(text, source, day)
        if not bad:
            return parsed, set()
        mended = tuple(
            Problem(source, line, "invalid UTF-8, read as \ufffd: fix the bytes") for line in bad
        )
        return replace(parsed, problems=(*mended, *parsed.problems)), set(bad)

    # -- raw -----------------------------------------------------------------------------------

    @_in_workspace
    def ingest(
        self,
        paths: Sequence[str | Path] | str | Path,
        format_name: str = "auto",
        agent: str | None = None,
        on_file: Callable[[Path], None] | None = None,
        files: Sequence[Path] | None = None,
        stdin: BinaryIO | None = None,
    ) -> IngestReport:
        """Import transcript files or folders into the raw tier.

        ``-`` among ``paths`` reads one transcript from ``stdin`` (default: standard input),
        and a pipe is read like it. ``files`` is ``files_to_ingest(paths)`` when the caller
        already walked the folders. ``agent`` (``harness:account:role``) keys the sessions read,
        stored ones included (``IngestReport.agents_changed``); without it new sessions get the
        login name's key and stored ones keep theirs.
        """
        if agent is not None:
            require_plain("agent", agent, one_line=True)  # as the gate checks a writer's key
            if len(agent.split(":")) != 3 or not all(part.strip() for part in agent.split(":")):
                raise InputError(
                    f"agent key {agent!r} is not harness:account:role (e.g. claude-code:me:main)"
                )
        from memstrata.raw.ingest import collect_files, ingest_files, paths_named

        named = paths_named(paths)
        files = list(files) if files is not None else collect_files(named)
        with self.lock.held():
            return ingest_files(
                self.raw,
                files,
                format_name,
                agent,
                named=frozenset(path for path in named if path.is_file()),
                on_file=on_file,
                redact=self.config.raw.redact_secrets,
                spool_dir=self.workspace.spool_dir,
                stdin=stdin,
                max_line_bytes=self.config.raw.max_line_bytes,
            )

    def files_to_ingest(self, paths: Sequence[str | Path] | str | Path) -> list[Path]:
        """Every candidate transcript under ``paths`` (folders walked), in import order."""
        from memstrata.raw.ingest import collect_files, paths_named

        return collect_files(paths_named(paths))

    # -- search and context --------------------------------------------------------------------

    @_heals_index
    @_in_workspace
    def search(
        self,
        query: str,
        limit: int = 10,
        *,
        include_raw: bool = True,
        include_archived: bool = False,
    ) -> list[SearchHit]:
        """Lexical search over wiki, journal and (labelled) raw turns, fused by rank.

        Raw turns are ranked by the hybrid raw search, which also finds turns by nearness of
        meaning alone; those come after every hit that holds a word of the query, so a turn
        that only lies nearest (a tool's output) never pushes a real match down, and one of
        fewer than :data:`~memstrata.recall.search.NEAR_MIN_WORDS` words ("ok", "Hello",
        "show tools") is left out: it has too little meaning to be near in, and lies near
        everything. A query without a
        word (empty, punctuation, emoji) finds nothing rather than whatever happens to lie
        nearest its empty vector."""
        from memstrata.recall.search import search_strata

        return search_strata(self, query, limit, include_raw, include_archived)

    def _problems_note(self) -> list[str]:
        """What a read says of the files it could not use: this read's findings and every
        journal day's known ones, so an agent that missed the read which first met a broken
        line still hears of it, as status would tell it."""
        from memstrata.index_sync import journal_problems

        found = self.refresh().problems
        problems = list(dict.fromkeys((*found, *journal_problems(self.index))))
        if not problems:
            return []
        shown = "; ".join(str(problem) for problem in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        return [f"problems in the files ('memstrata status' lists them): {shown}{more}"]

    def searched_query(self, query: str) -> str:
        """``query`` as a read searches it: mended (:func:`checked_query`), and a long one cut
        to its questions, start and end (:mod:`memstrata.recall.long_query`)."""
        return cut_query(checked_query(query)).text

    @_in_workspace
    def search_notes(self, query: str) -> tuple[str, ...]:
        """What a search of ``query`` (just run) should say beside its hits: that the query had
        nothing to match, or that the embedder failed and turns were ranked by words alone."""
        query, notes = searched_with_notes(checked_query(query))
        if not content_terms(query):
            notes.append(f"nothing to search: the query has {_wordless(query)}")
        notes.extend(self._problems_note())
        notes.extend(self.semantic.search_notes())
        notes.extend(f"raw transcripts not searched: {problem}" for problem in self.raw_problems())
        notes.extend(self.take_index_note())
        return tuple(notes)

    @_heals_index
    @_in_workspace
    def search_raw(self, query: str, limit: int = 10) -> list[SearchHit]:
        """Hybrid search over raw turns (see :mod:`memstrata.recall.turns`), labelled raw.

        Lexical and semantic scores of each turn, its neighbours, its session's BM25, the time
        windows the query names and whether it narrates its speaker's past; the hit's
        ``extra["arms"]`` says which arms found it.
        """
        ranked, _ = self.rank_raw(query, checked_count(limit, "limit"), sessions=False)
        hits = (self.raw.hit(turn.source, turn.score, turn.arms) for turn in ranked)
        return [hit for hit in hits if hit is not None]

    @_heals_index
    @_in_workspace
    def search_sessions(self, query: str, limit: int = 10) -> list[SearchHit]:
        """Whole raw sessions (conversations) ranked for ``query``, best first, labelled raw.

        Each hit's ``source`` is the session id, its ``time`` the session's start, its ``text``
        the session's best-ranked turn (``extra["best_turn"]``; the first turn when the session
        was found by its own BM25 or its vectors alone); ``extra["arms"]`` is ``lexical`` for a
        session with a turn holding a word of the query (among the turns the word search ranks
        best), ``semantic`` for one found by nearness of meaning alone. The ranking is
        :func:`memstrata.recall.turns.rank_sessions`, as the LongMemEval session-level
        benchmark measures it, except that, as in :meth:`search`, sessions holding a word of
        the query come first: the list is read by a person."""
        from memstrata.recall.search import session_hits

        checked_query(query)  # a query that is no text is said so, with a raw store or none
        return session_hits(self, query, limit)

    @_heals_index
    @_in_workspace
    def rank_raw(
        self,
        query: str,
        limit: int,
        weights: TurnWeights | None = None,
        *,
        sessions: bool = True,
    ) -> tuple[list[RankedTurn], list[tuple[str, float]]]:
        """Raw turns and raw sessions ranked for ``query`` (what ``search_raw`` and the
        retrieval benchmarks use): ``(turns best first, [(session id, score)] best first)``;
        no sessions (and no work for them) when ``sessions`` is false. The pipeline is
        :func:`memstrata.recall.raw_search.rank_raw`."""
        from memstrata.recall.raw_search import rank_raw

        checked_whole(limit, "limit", 1)
        query = self.searched_query(query)
        if not content_terms(query):
            return [], []
        self._sync_raw_sessions()
        try:
            vectors = self.vectors
            return rank_raw(
                self.index.db, self.raw.db, vectors, query, limit, self.clock(), weights,
                sessions=sessions,
            )  # fmt: skip
        except EmbedderFailed as error:
            self.semantic.failed(error)
            return rank_raw(
                self.index.db, self.raw.db, None, query, limit, self.clock(), weights,
                sessions=sessions,
            )  # fmt: skip

    def _sync_raw_sessions(self) -> None:
        """Refresh the session-level FTS documents when the raw store changed."""
        from memstrata.recall.sessions import sync_session_documents

        if not self.workspace.raw_db.exists():
            return
        index = self.index  # opening it finds out whether the workspace is read-only
        if self.read_only:
            return
        stamp = stamp_files(str(self.workspace.raw_dir), ("sessions.db", "sessions.db-wal"))
        if index.get_meta("raw_stamp") == stamp:
            return
        with self.lock.attempt(READ_WAIT_S) as held:
            if held:
                sync_session_documents(index, self.raw)
                index.set_meta("raw_stamp", stamp)
                return
        self._busy()

    # -- embeddings ----------------------------------------------------------------------------
    # The embedder's state and lifecycle live in ``self.semantic`` (recall/semantic_state.py);
    # these are the names callers already use.

    @property
    def use_embeddings(self) -> bool:
        """False keeps the embedding model and the vectors unloaded: a hook must not wait."""
        return self.semantic.enabled

    @property
    def embedder(self) -> Embedder | None:
        """The embedder for the semantic arm, loaded on first use; ``None`` when switched off
        or resting (:attr:`embedder_note` says what loading it fell back from)."""
        return self.semantic.embedder

    @property
    def vectors(self) -> VectorCache | None:
        """The vectors of the semantic arm (``None`` when there is no embedder)."""
        return self.semantic.vectors

    @property
    def embedder_note(self) -> str:
        """What loading the embedder fell back from or set aside ("" when nothing)."""
        return self.semantic.note

    @property
    def embedder_failure(self) -> str:
        """Why the embedder is off for now (it failed: reads fall back to their lexical arms)."""
        return self.semantic.failure

    @_in_workspace
    def embed_missing(self, on_progress: Callable[[int, int], None] | None = None) -> int:
        """Embed every topic, journal entry and raw turn that lacks a vector; return how many.

        ``on_progress`` is told (embedded so far, about how many in all) after each batch.
        An embedder that fails stops the embedding where it is (what was embedded stays) and
        is noted in :attr:`embedder_failure`; the next call tries again."""
        return self.semantic.embed_missing(lambda: self.index.db, self.usable_raw, on_progress)

    @_heals_index
    @_in_workspace
    def recall(
        self,
        query: str,
        *,
        k: int | None = None,
        since: str | datetime | date | None = None,
        until: str | datetime | date | None = None,
        kind: str | None = None,
        entity: str | None = None,
        include_archived: bool = False,
        include_superseded: bool = False,
        record_access: bool = True,
        record_metric: bool = True,
    ) -> RecallResult:
        """Find what may be injected (wiki and journal, never raw) for ``query``.

        ``since``/``until`` take ``30d``, ``2025-11``, ``2025-11-27`` or phrases like
        ``last week``; ``kind`` one of world, experience, opinion, observation (or ``note``
        for untyped journal lines). Each returned item's access is recorded.
        """
        query = checked_query(query)
        k = None if k is None else checked_count(k, "k")
        if kind is not None and kind not in (*FACT_KINDS, "note"):
            raise InputError(
                f"unknown kind {kind!r}; expected one of {', '.join(FACT_KINDS)} or note"
            )
        now = self.clock()
        start, end = checked_window(since, until, now)
        filters = RecallFilters(
            k=k or self.config.recall.default_k,
            since=start,
            until=end,
            kind=kind,
            entity=checked_entity(entity),
            include_archived=include_archived,
            include_superseded=include_superseded,
        )
        query, notes = searched_with_notes(query)
        if not content_terms(query) and not (since or until or kind or entity):
            # nothing to match: returning what lies nearest an empty vector would be noise
            notes.append(
                f"nothing to recall: the query has {_wordless(query)} (give some, or a filter)"
            )
            return RecallResult(query, (), tuple(notes))
        notes.extend(self._problems_note())
        semantic = self.semantic.arm(lambda: self.index.db)
        items = recall_items(
            self.index.db,
            query,
            filters,
            now,
            self._item_accesses,
            semantic=semantic,
            stale_days=self.config.recall.stale_after_days,
            semantic_floor=self.config.recall.min_similarity,
        )
        more = listing_note(self.index.db, query, filters, len(items))
        if more:
            notes.append(more)
        if not items:
            from memstrata.recall.temporal import nothing_in_time_note

            if empty := nothing_in_time_note(query, now):
                notes.append(empty)
        notes.extend(self.semantic.recall_notes(semantic))
        if self.access.note:
            notes.append(self.access.note)
        notes.extend(self.take_index_note())
        if record_access and items and not self.read_only:
            self._record_keys(item_keys((item.source, item.content) for item in items))
        if record_metric:
            self._metric(
                {
                    "event": "recall",
                    "time": to_iso(now),
                    "hits": len(items),
                    "bytes": sum(len(item.content.encode()) for item in items),
                }
            )
        return RecallResult(query, tuple(items), tuple(notes))

    @_heals_index
    @_in_workspace
    def context(
        self,
        query: str | None = None,
        *,
        k: int | None = None,
        total_input_bytes: int | None = None,
    ) -> Context:
        """The injection for one turn: Rules + Index + Recall (never raw), each within budget.

        The rules files are pinned (``SESSION-STATE.md`` excepted): if they cannot fit the
        resident budget this raises :class:`~memstrata.errors.BudgetExceeded` instead of
        silently dropping a rule. ``total_input_bytes`` (the whole turn's input, injection
        included, when the caller knows it) lets the metrics say what share of the turn memory
        took; one smaller than the injection is an :class:`~memstrata.errors.InputError`.
        """
        if total_input_bytes is not None and (
            isinstance(total_input_bytes, bool) or not isinstance(total_input_bytes, int)
        ):
            raise InputError(
                f"total_input_bytes is a whole number of bytes, not {total_input_bytes!r}"
            )
        report = self.rules()
        rules = [
            ContextItem("rules", item.path, item.injected, pinned=item.pinned)
            for item in report.files
            if item.injected
        ]
        recall_items = []
        hits = 0
        notes: tuple[str, ...] = tuple(report.mended)
        with self._one_refresh():
            view = self.index_view()
            searched, said = searched_with_notes(checked_query(query)) if query else ("", [])
            if query and not content_terms(searched):
                notes = (*notes, *said, f"nothing to recall: the query has {_wordless(searched)}")
            elif query:
                # Access is recorded below, for what goes in: an item the budget trimmed
                # never reached the model, and use must not lift it in later rankings.
                recalled = self.recall(query, k=k, record_access=False, record_metric=False)
                hits, notes = len(recalled.items), (*notes, *recalled.notes)
                recall_items = [
                    ContextItem("recall", item.source, recall_line(item)) for item in recalled.items
                ]
        compiled = compile_context(
            rules, index_items(view.text), recall_items, self.config.budgets, view.omitted
        )
        compiled = replace(compiled, notes=notes)
        if total_input_bytes is not None and total_input_bytes < compiled.bytes:
            raise InputError(
                f"a turn input of {total_input_bytes} bytes cannot hold this injection of "
                f"{compiled.bytes} bytes: give the size of the whole input, injection included"
            )
        self.record_use(item.label for item in compiled.channel("recall").items)
        record: dict[str, object] = {
            "event": "context",
            "time": to_iso(self.clock()),
            "bytes": {channel.name: channel.bytes for channel in compiled.channels},
            "tokens": compiled.tokens,
            "hits": hits,
            "trimmed": {c.name: list(c.trimmed) for c in compiled.channels if c.trimmed},
            "omitted": {c.name: c.omitted for c in compiled.channels if c.omitted},
        }
        if total_input_bytes:
            record["share"] = round(compiled.bytes / total_input_bytes, 4)
        self._metric(record)
        return compiled

    @_in_workspace
    def record_use(self, sources: Iterable[str]) -> None:
        """Record that the recalled items ``sources`` reached the model (their access count
        and time, which recall's use re-ranking reads); a read-only workspace records nothing.
        :meth:`context` does it for what it injects; a caller that packs a recall itself
        (``recall(..., record_access=False)``) calls it for what it kept. One source given as
        text is that source."""
        used = checked_names(sources)
        if used and not self.read_only:
            self._record_keys(access_keys(self.index.db, used))

    def _record_keys(self, keys: Mapping[str, str]) -> None:
        self.access.record(keys.values(), to_iso(self.clock()))

    @_in_workspace
    def access_of(self, source: str) -> Access:
        """How often recall returned ``source`` (a topic id, a journal line) and when last;
        never: ``Access(0, "")``. Read from ``.memstrata/access.db``; nothing is written but
        the index's refresh, so that a journal line is keyed by what is there now."""
        if not isinstance(source, str):
            raise InputError(f"a source is text (a topic id, a journal line), not {source!r}")
        self.refresh()
        return self._accesses([source]).get(source, Access(0, ""))

    def _accesses(self, sources: Sequence[str]) -> dict[str, Access]:
        """The access of each source that has one, keyed as given (see
        :func:`~memstrata.recall.access.access_keys` for how the log keys them)."""
        return self._accesses_of(access_keys(self.index.db, sources))

    def _item_accesses(self, items: Sequence[RecallItem]) -> dict[str, Access]:
        """:meth:`_accesses` of items read from the index: a journal entry's key is made from
        the text in hand, not read again."""
        return self._accesses_of(item_keys((item.source, item.content) for item in items))

    def _accesses_of(self, keys: Mapping[str, str]) -> dict[str, Access]:
        found = self.access.get(keys.values())
        return {source: found[key] for source, key in keys.items() if key in found}

    @_in_workspace
    def metrics(self, days: int = 7) -> MetricsSummary:
        """Summarise ``memory/metrics.jsonl`` over the last ``days`` days."""
        return summarise(read_metrics(self.metrics_path), self.clock(), days)

    @property
    def metrics_path(self) -> Path:
        """Where the metrics are appended (``memory/metrics.jsonl``)."""
        return self.workspace.memory_dir / "metrics.jsonl"

    def _metric(self, record: dict[str, object]) -> None:
        if not self.read_only:
            append_metric(self.metrics_path, record)

    # -- upkeep --------------------------------------------------------------------------------

    @_in_workspace
    def garden(
        self,
        *,
        mode: str = "propose",
        max_mutations: int | None = None,
        max_comparisons: int | None = None,
        dry_run: bool = False,
        skip: Sequence[str] = (),
    ) -> GardenReport:
        """Tend the wiki once (DESIGN.md §2 Garden); the report says what was done and proposed.

        ``max_mutations`` and ``max_comparisons`` (whole numbers, 0 or more) stand in for the
        configured budgets; ``skip`` names phases to leave out (one phase may be given as text).
        """
        from memstrata.maintain.gardener import run_garden

        for name, budget in (
            ("max_mutations", max_mutations),
            ("max_comparisons", max_comparisons),
        ):
            if budget is not None:
                checked_whole(budget, name, 0)
        phases = checked_names(skip, "skip")
        return run_garden(self, mode, max_mutations, max_comparisons, dry_run, self.clock(), phases)

    @_in_workspace
    def tick(self) -> TickReport:
        """Run the upkeep that is due (idle flush, distill, garden); fast when nothing is."""
        from memstrata.maintain.tick import run_tick

        return run_tick(self, self.clock())

    @_in_workspace
    def ledger(self) -> list[LedgerRecord]:
        """Every gardener step, oldest first (``memory/ledger.jsonl``)."""
        return list(self.scan_ledger().records)

    @_in_workspace
    def scan_ledger(self) -> LedgerScan:
        """The ledger's steps, and the lines that are no step (passed over, and named)."""
        from memstrata.maintain.ledger import scan_ledger
        from memstrata.maintain.state import GardenPaths

        return scan_ledger(GardenPaths(self.workspace).ledger)

    @_in_workspace
    def undo(self, step_id: str, *, dry_run: bool = False) -> UndoResult:
        """Reverse one ledger step: its topics go back to their states before it."""
        from memstrata.maintain.undo import undo_step

        if not isinstance(step_id, str):
            raise InputError(
                f"a step id is text (s-…, from ledger()), not {type(step_id).__name__}"
            )
        return undo_step(self, step_id, self.clock(), dry_run)

    @_in_workspace
    def snapshots(self) -> list[SnapshotInfo]:
        """Snapshots of the canonical files and the raw database, oldest first."""
        from memstrata.maintain.snapshot import list_snapshots

        return list_snapshots(self.workspace)

    @_in_workspace
    def take_snapshot(self, reason: str = "taken by hand") -> SnapshotInfo:
        """Copy the canonical files and the raw database (SQLite backup API) aside."""
        from memstrata.maintain.snapshot import take_snapshot

        require_line("reason", reason)
        return take_snapshot(self, reason, self.clock())

    @_in_workspace
    def prune_snapshots(self, keep: int = 10, *, dry_run: bool = False) -> PruneResult:
        """Remove all but the newest ``keep`` snapshots; never one an unfinished restore needs."""
        from memstrata.maintain.prune import prune_snapshots

        return prune_snapshots(self, keep, dry_run=dry_run)

    @_in_workspace
    def restore_snapshot(self, snapshot_id: str, *, dry_run: bool = False) -> RestoreResult:
        """Make the workspace what it was in ``snapshot_id`` (the present is snapshotted first)."""
        from memstrata.maintain.restore import restore_snapshot

        if isinstance(snapshot_id, str) and len(snapshot_id.encode("utf-8", "replace")) > 255:
            # no file name is so long: asking the file system would be an OSError
            raise InputError(f"no snapshot {snapshot_id[:40]!r}… ('memstrata snapshot list')")
        return restore_snapshot(self, snapshot_id, self.clock(), dry_run)

    # -- status --------------------------------------------------------------------------------

    @_heals_index
    @_in_workspace
    def status(self) -> Status:
        """The workspace at a glance: sizes, the embedder, and every problem in its files."""
        from memstrata.status import workspace_status

        return workspace_status(self)


#: topics nearest a write in meaning that the gate weighs it against, beside those sharing
#: its words (which may be many more)
NEAREST_RELATED = 4


BUSY_NOTE = (
    "another memstrata process is changing the workspace (a rebuild, an import?): read from the"
    " index as it stands, without this read's refresh"
)


def _wordless(query: str) -> str:
    """What a query with nothing to match holds, for the note that says so."""
    return "only common words" if query_terms(query) else "no words"


def _load_config(workspace: Workspace) -> Config:
    """The workspace's settings; when they do not load, the error says where a good copy is:
    each snapshot holds the settings as they were (``cp`` one back, or fix the line named)."""
    try:
        return load_config(workspace.config_path)
    except ConfigError as error:
        from memstrata.maintain.state import GardenPaths

        snapshots = GardenPaths(workspace).snapshots
        kept = sorted(snapshots.glob(f"snap-*/{workspace.config_path.name}"))
        if not kept:
            raise
        newest = workspace.relative(kept[-1])
        raise ConfigError(
            f"{error}; the newest snapshot holds the settings as they were: {newest}"
        ) from error
