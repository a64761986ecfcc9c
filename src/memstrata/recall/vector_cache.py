"""The vectors a Memory searches: loaded once, refreshed only when the index changed.

Writes never wait for an embedding model (see :mod:`memstrata.recall.embedding`): before a
semantic search, up to ``EMBED_PER_QUERY`` items without a vector are embedded, and the vectors
are (re)loaded. Both steps are skipped while the index is unchanged since the last search:
``PRAGMA data_version`` moves when another connection commits, ``total_changes`` when ours does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager

from memstrata.providers.embedder import Embedder
from memstrata.recall.embedding import fill_item_vectors, fill_turn_vectors, missing_item_vectors
from memstrata.recall.semantic import VectorIndex

#: a query embeds at most this many items lacking vectors (rebuild embeds the whole backlog)
EMBED_PER_QUERY = 256

Lock = Callable[[], AbstractContextManager[None]]


class VectorCache:
    """Per-process vectors of one embedder over one index connection."""

    def __init__(self, embedder: Embedder, lock: Lock, writable: bool) -> None:
        self.embedder = embedder
        self.lock = lock
        self.writable = writable
        #: what the semantic arm is missing, for recall's notes ("" when complete)
        self.note = ""
        self._loaded: dict[str, VectorIndex] = {}
        self._versions: dict[str, tuple[int, int]] = {}

    def items(self, index: sqlite3.Connection) -> tuple[VectorIndex, VectorIndex]:
        """Topic and journal-entry vectors, after embedding part of the backlog if needed."""
        if _version(index) != self._versions.get("items"):
            if self.writable:
                with self.lock():
                    fill_item_vectors(index, self.embedder, EMBED_PER_QUERY)
            missing = missing_item_vectors(index, self.embedder.name)
            self.note = (
                f"semantic arm: {missing} items not embedded yet (up to {EMBED_PER_QUERY} more "
                "per query; 'memstrata rebuild' embeds them all)"
                if missing
                else ""
            )
            for kind in ("topic", "fact"):
                self._loaded[kind] = VectorIndex.load(index, kind, self.embedder.name)
            self._versions["items"] = _version(index)
        return self._loaded["topic"], self._loaded["fact"]

    def turns(
        self, index: sqlite3.Connection, raw: sqlite3.Connection, context: int
    ) -> VectorIndex:
        """Raw-turn vectors, after embedding part of the backlog if needed."""
        if _version(index) != self._versions.get("turn"):
            if self.writable:
                with self.lock():
                    fill_turn_vectors(index, raw, self.embedder, context, EMBED_PER_QUERY)
            self._loaded["turn"] = VectorIndex.load(index, "turn", self.embedder.name)
            self._versions["turn"] = _version(index)
        return self._loaded["turn"]

    def embed_all(self, index: sqlite3.Connection, raw: sqlite3.Connection | None) -> int:
        """Embed the whole backlog (topics, journal entries, raw turns); return how many."""
        if not self.writable:
            return 0
        with self.lock():
            done = fill_item_vectors(index, self.embedder)
            if raw is not None:
                done += fill_turn_vectors(index, raw, self.embedder)
        self._versions.clear()
        return done


def _version(index: sqlite3.Connection) -> tuple[int, int]:
    return (int(index.execute("PRAGMA data_version").fetchone()[0]), index.total_changes)
