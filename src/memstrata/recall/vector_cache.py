"""The vectors a Memory searches: loaded once, refreshed only when the index changed.

Writes never wait for an embedding model (see :mod:`memstrata.recall.embedding`): before a
semantic search, up to ``EMBED_PER_QUERY`` items without a vector are embedded, and the vectors
are (re)loaded. Both steps are skipped while the index is unchanged since the last search:
``PRAGMA data_version`` moves when another connection commits, ``total_changes`` when ours does.
A reload reads the (rowid, ref) pairs from the primary key's index and fetches only rows it does
not hold yet.

Above ``ann_min_vectors`` rows of a kind, the rows in its side file (:mod:`memstrata.recall.ann`)
are searched approximately and only the rest — rows added or changed since the file was built —
are loaded and searched exactly. The side file is built by ``embed_all`` (``rebuild``,
``embed_missing``) and by ``tick`` (:func:`refresh_side_files`, from the rows alone: no model is
loaded), never by a query: until it exists, or when it cannot be read, search is exact and the
recall notes say why.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from memstrata.errors import WorkspaceReadOnly
from memstrata.providers.embedder import Embedder
from memstrata.recall.ann import (
    AnnSettings,
    IvfFile,
    IvfView,
    build_ivf,
    is_stale,
    match_live,
    open_ivf,
    record_token,
    recorded_token,
    side_file_path,
    write_ivf,
)
from memstrata.recall.embedding import (
    OnBatch,
    fill_item_vectors,
    fill_turn_vectors,
    missing_item_vectors,
    missing_turn_vectors,
)
from memstrata.recall.semantic import VectorIndex, live_rows

#: a query embeds at most this many items lacking vectors (rebuild embeds the whole backlog)
EMBED_PER_QUERY = 256
KINDS = ("topic", "fact", "turn")

Lock = Callable[[], AbstractContextManager[None]]
#: the lock if it can be had soon: yields whether it is held (a read skips its embedding if not)
TryLock = Callable[[], AbstractContextManager[bool]]


@contextmanager
def _waiting(lock: Lock) -> Iterator[bool]:
    with lock():
        yield True


class VectorCache:
    """Per-process vectors of one embedder over one index connection."""

    def __init__(
        self,
        embedder: Embedder,
        lock: Lock,
        writable: bool,
        ann: AnnSettings | None = None,
        try_lock: TryLock | None = None,
    ) -> None:
        self.embedder = embedder
        self.lock = lock
        #: what a read's embedding of a few items holds (by default, waits for ``lock``)
        self.try_lock = try_lock or (lambda: _waiting(lock))
        self.writable = writable
        #: ``None``: always exact (no side files read or built)
        self.ann = ann
        #: what the semantic arm is missing, for recall's notes ("" when complete)
        self.note = ""
        #: per kind: why search is exact although the kind is above the threshold, or stale
        self.ann_notes: dict[str, str] = {}
        self._loaded: dict[str, VectorIndex] = {}
        self._versions: dict[str, tuple[int, int]] = {}
        self._files: dict[str, tuple[tuple[int, int, int], IvfFile | str]] = {}

    def items(self, index: sqlite3.Connection) -> tuple[VectorIndex, VectorIndex]:
        """Topic and journal-entry vectors, after embedding part of the backlog if needed."""
        if _version(index) != self._versions.get("items"):
            if self.writable:
                with self.try_lock() as held:
                    if held:
                        fill_item_vectors(index, self.embedder, EMBED_PER_QUERY)
            missing = missing_item_vectors(index, self.embedder)
            later = (
                f"up to {EMBED_PER_QUERY} more per query; 'memstrata rebuild' embeds them all"
                if self.writable
                else "a workspace this process cannot write keeps no new vectors"
            )
            notes = [f"semantic arm: {missing} items not embedded yet ({later})" if missing else ""]
            for kind in ("topic", "fact"):
                self._loaded[kind] = self._load(index, kind)
                notes.append(self.ann_notes.get(kind, ""))
            self.note = "; ".join(note for note in notes if note)
            self._versions["items"] = _version(index)
        return self._loaded["topic"], self._loaded["fact"]

    def turns(
        self, index: sqlite3.Connection, raw: sqlite3.Connection, context: int
    ) -> VectorIndex:
        """Raw-turn vectors, after embedding part of the backlog if needed."""
        if _version(index) != self._versions.get("turn"):
            if self.writable:
                with self.try_lock() as held:
                    if held:
                        fill_turn_vectors(index, raw, self.embedder, context, EMBED_PER_QUERY)
            self._loaded["turn"] = self._load(index, "turn")
            self._versions["turn"] = _version(index)
        return self._loaded["turn"]

    def embed_all(
        self,
        index: sqlite3.Connection,
        raw: sqlite3.Connection | None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> int:
        """Embed the whole backlog (topics, journal entries, raw turns); return how many.

        ``on_progress`` is told (embedded so far, about how many in all) after each batch.
        Then (re)build the side file of every kind above the threshold whose file is missing,
        unusable or stale, and drop those of kinds below it.
        """
        if not self.writable:
            return 0
        on_batch: OnBatch | None = None
        if on_progress is not None:
            total = missing_item_vectors(index, self.embedder)
            if raw is not None:
                total += missing_turn_vectors(index, raw, self.embedder)
            on_batch = _progress(on_progress, total)
        # The lock is held per batch written, not for the minutes a backlog takes: reads (and
        # their own few embeddings) go on in between. Two embedding at once write the same
        # vectors twice, no harm.
        done = fill_item_vectors(index, self.embedder, on_batch=on_batch, lock=self.lock)
        if raw is not None:
            done += fill_turn_vectors(index, raw, self.embedder, on_batch=on_batch, lock=self.lock)
        with self.lock():
            if self.ann is not None:
                for kind in KINDS:
                    self._refresh_side_file(index, kind, self.ann)
        self._versions.clear()
        return done

    def _load(self, index: sqlite3.Connection, kind: str) -> VectorIndex:
        """The kind's vectors: exact rows (all, or the side file's tail) and the side file."""
        rowids, refs = live_rows(index, kind)
        view: IvfView | None = None
        wanted = rowids
        self.ann_notes.pop(kind, None)
        if self.ann is not None and len(rowids) >= max(self.ann.min_vectors, 1):
            opened = self._open(index, kind)
            if isinstance(opened, str):
                self.ann_notes[kind] = (
                    f"approximate index for {len(rowids)} {kind} vectors {opened}: exact search"
                    " until the next tick or 'memstrata rebuild'"
                )
            else:
                alive, tail = match_live(opened, rowids, refs)
                view, wanted = IvfView(opened, alive, self.ann.nprobe), rowids[tail]
                if is_stale(opened, alive, tail):
                    self.ann_notes[kind] = (
                        f"approximate index for {kind} vectors is stale ({len(wanted)} rows since"
                        " searched exactly); the next tick or 'memstrata rebuild' refreshes it"
                    )
        held = self._loaded.get(kind)
        exact = VectorIndex.reload(held, index, kind, self.embedder.name, self.embedder.dim, wanted)
        return VectorIndex(exact.refs, exact.matrix, exact.rowids, view)

    def _open(self, index: sqlite3.Connection, kind: str) -> IvfFile | str:
        """The kind's side file if it is readable and matches this index, else why not."""
        assert self.ann is not None
        path = side_file_path(self.ann.folder, kind, self.embedder.name)
        try:
            info = path.stat()
        except OSError:
            return "not built"
        stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
        cached = self._files.get(kind)
        if cached is None or cached[0] != stamp:
            cached = (stamp, open_ivf(path, kind, self.embedder.name, self.embedder.dim))
            self._files[kind] = cached
        return _matching(index, cached[1], kind, self.embedder.name)

    def _refresh_side_file(self, index: sqlite3.Connection, kind: str, ann: AnnSettings) -> None:
        try:
            refresh_side_file(index, kind, self.embedder.name, self.embedder.dim, ann)
        except (OSError, WorkspaceReadOnly) as error:
            self.ann_notes[kind] = f"approximate index for {kind} vectors not written: {error}"


def refresh_side_files(index: sqlite3.Connection, ann: AnnSettings) -> list[str]:
    """Bring every side file in step with the vectors already in the index; say what changed.

    One file per (kind, embedder) with at least ``ann.min_vectors`` rows, built from the stored
    rows (no embedding model is loaded): rebuilt when missing, unusable or stale. Files of
    groups below the threshold, or of embedders no longer in the table, are removed. Rows of
    one embedder in two widths (a model swapped behind its name, re-embedding half done) build
    the file of the width most rows have; the rest are searched exactly until they are the most.
    """
    if not _has_vectors(index):
        return []
    minimum = max(ann.min_vectors, 1)
    changes: list[str] = []
    kept: set[Path] = set()
    # Counted from the primary key's index first: a kind below the threshold costs no scan.
    totals = index.execute("SELECT kind, COUNT(*) FROM vectors GROUP BY kind").fetchall()
    for kind, total in totals:
        if total < minimum:
            continue
        groups = index.execute(
            "SELECT embedder, dim, COUNT(*) FROM vectors WHERE kind = ? GROUP BY embedder, dim",
            (kind,),
        ).fetchall()
        widths: dict[str, tuple[int, int]] = {}
        for embedder, dim, count in groups:
            widths[embedder] = max(widths.get(embedder, (0, 0)), (int(count), int(dim)))
        for embedder, (_, dim) in sorted(widths.items()):
            change = refresh_side_file(index, kind, embedder, dim, ann)
            if change:
                changes.append(change)
            path = side_file_path(ann.folder, kind, embedder)
            if path.exists():
                kept.add(path)
    for path in sorted(ann.folder.glob("*.ivf")):
        if path not in kept:
            path.unlink(missing_ok=True)
            changes.append(f"removed {path.name}")
    return changes


def refresh_side_file(
    index: sqlite3.Connection, kind: str, embedder: str, dim: int, ann: AnnSettings
) -> str:
    """(Re)build the side file of ``kind`` vectors by ``embedder`` at width ``dim`` if it is
    due; say what changed.

    Due when the group has at least ``ann.min_vectors`` rows and its file is missing, unusable
    (of another width among them) or stale; below the threshold the file is removed. Only the
    group's own rows count, so rows of another embedder or width (a switch half done) neither
    make the file stale nor get into it.
    Raises ``OSError`` or ``WorkspaceReadOnly`` when the file cannot be written.
    """
    path = side_file_path(ann.folder, kind, embedder)
    rowids, refs = live_rows(index, kind, embedder, dim)
    if len(rowids) < max(ann.min_vectors, 1):
        if not path.exists():
            return ""
        path.unlink(missing_ok=True)
        return f"removed {path.name} ({len(rowids)} {kind} vectors, below the threshold)"
    opened = _matching(index, open_ivf(path, kind, embedder, dim), kind, embedder)
    if isinstance(opened, IvfFile) and not is_stale(opened, *match_live(opened, rowids, refs)):
        return ""
    rows = VectorIndex.reload(None, index, kind, embedder, dim, rowids)
    token = write_ivf(
        path, kind, embedder, build_ivf(rows.refs, rows.matrix), rows.rowids, rows.refs, rows.matrix
    )
    record_token(index, kind, embedder, token)
    why = "stale" if isinstance(opened, IvfFile) else opened
    return f"built {path.name} from {len(rows)} {kind} vectors (was {why})"


def _matching(
    index: sqlite3.Connection, opened: IvfFile | str, kind: str, embedder: str
) -> IvfFile | str:
    """``opened`` if the index holds its token, else why not (the index was recreated)."""
    if isinstance(opened, IvfFile) and recorded_token(index, kind, embedder) != opened.token:
        return "built for another copy of the index"
    return opened


def _has_vectors(index: sqlite3.Connection) -> bool:
    found = index.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vectors'"
    ).fetchone()
    return found is not None


def _version(index: sqlite3.Connection) -> tuple[int, int]:
    return (int(index.execute("PRAGMA data_version").fetchone()[0]), index.total_changes)


def _progress(on_progress: Callable[[int, int], None], total: int) -> OnBatch:
    """Each batch's count, summed and told with the total (never less than the sum)."""
    done = 0

    def on_batch(count: int) -> None:
        nonlocal done
        done += count
        on_progress(done, max(total, done))

    return on_batch
