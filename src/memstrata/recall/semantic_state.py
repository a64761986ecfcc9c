"""The semantic arm's embedder and vectors for one workspace, and the rest after a failure.

:class:`SemanticState` loads the configured embedder when a read first needs it (behind its
cache file, ``.memstrata/embeddings.db``; a model that cannot load falls back to the hashing
embedder, and its note says so), keeps the :class:`~memstrata.recall.vector_cache.VectorCache`
over it, builds the semantic arm recall fuses, and words what recall, search, the gate and
status say about it. An embedder that fails rests for :data:`EMBEDDER_RETRY_S`: reads go on by
their lexical arms and say why, and the rest is shared with the workspace's other processes
through :mod:`memstrata.providers.rest`.

:class:`~memstrata.memory.Memory` owns one and hands it the stores it needs; the state never
opens them itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from memstrata.errors import EmbedderFailed
from memstrata.providers.rest import REST_FILE, Rest, read_rest, write_rest
from memstrata.providers.rest import end_rest as end_shared_rest

if TYPE_CHECKING:
    import sqlite3

    from memstrata.config import Config
    from memstrata.providers.cache import CachedEmbedder
    from memstrata.providers.embedder import Embedder
    from memstrata.raw.store import RawStore
    from memstrata.recall.hybrid import SemanticArm
    from memstrata.recall.vector_cache import VectorCache
    from memstrata.workspace.layout import Workspace
    from memstrata.workspace.lock import WorkspaceLock

#: seconds a failed embedder rests before a read tries it again
EMBEDDER_RETRY_S = 60.0


class SemanticState:
    """The embedder, its vectors and its rest, for one :class:`~memstrata.memory.Memory`.

    :attr:`read_only` is set by the Memory when it finds its workspace read-only (on first
    opening a store); from then on no cache file is kept nor rest recorded.
    """

    def __init__(
        self,
        workspace: Workspace,
        config: Config,
        lock: WorkspaceLock,
        *,
        enabled: bool = True,
        embedder: Embedder | None = None,
    ) -> None:
        self.workspace = workspace
        self.config = config
        self.lock = lock
        #: the workspace cannot be written: keep no cache file, record no rest
        self.read_only = False
        #: False keeps the embedding model and the vectors unloaded (hooks: a prompt must not wait)
        self.enabled = enabled
        #: what loading the embedder fell back from or set aside, for the reads' notes
        self.note = ""
        #: why the embedder is off for now (it failed: reads fall back to their lexical arms)
        self.failure = ""
        self.rest_path = workspace.state_dir / REST_FILE
        #: ``time.monotonic()`` at which a resting embedder is tried again
        self._down_until = 0.0
        #: an embedder given here is used as is (benchmarks share one across workspaces)
        self._embedder: Embedder | None = None
        if embedder is not None:
            # imported here: it brings numpy, which a hook without embeddings never needs
            from memstrata.providers.guarded import GuardedEmbedder

            self._embedder = GuardedEmbedder(embedder)
        #: the embedder loaded here, whose cache file is ours to close
        self._own_embedder: CachedEmbedder | None = None
        self._vectors: VectorCache | None = None

    def close(self) -> None:
        """Close the cache file of an embedder loaded here (a later read loads it again); an
        embedder given is the giver's."""
        if self._own_embedder is not None:
            self._own_embedder.close()
            self._own_embedder = self._embedder = self._vectors = None

    @property
    def embedder(self) -> Embedder | None:
        """The embedder for the semantic arm, loaded on first use; ``None`` when switched off
        or resting.

        A model that cannot load falls back to the hashing embedder, and a damaged cache file
        is set aside; :attr:`note` says so (recall results carry the note).
        """
        settings = self.config.embeddings
        if not self.enabled or settings.model == "none":
            return None
        if time.monotonic() < self._down_until:
            return None
        self.failure = ""  # rested: try it again
        if self._embedder is None:
            rest = read_rest(self.rest_path, settings.model, time.time())
            if rest is not None:  # another process found it failing a moment ago
                self.failure = rest.describe()
                self._down_until = time.monotonic() + rest.until - time.time()
                return None
            from memstrata.providers.cache import CachedEmbedder
            from memstrata.providers.embedder import load_embedder
            from memstrata.providers.guarded import GuardedEmbedder

            choice = load_embedder(
                settings.model, api_key_env=settings.api_key_env, timeout_s=settings.timeout_s
            )
            notes = [choice.fallback_reason]
            embedder: Embedder = GuardedEmbedder(choice.embedder)
            if not self.read_only:
                cache = CachedEmbedder(
                    embedder, self.workspace.state_dir / "embeddings.db", owned=True
                )
                notes.append(cache.note)
                embedder = self._own_embedder = cache
            self.note = "; ".join(note for note in notes if note)
            self._embedder = embedder
        return self._embedder

    @property
    def is_loaded(self) -> bool:
        """Whether an embedder is in hand (given, or loaded by an earlier read); asking does
        not load one."""
        return self._embedder is not None

    @property
    def vectors(self) -> VectorCache | None:
        """The vectors of the semantic arm (``None`` when there is no embedder)."""
        embedder = self.embedder
        if embedder is None:
            return None
        if self._vectors is None:
            from memstrata.recall.ann import AnnSettings
            from memstrata.recall.vector_cache import VectorCache
            from memstrata.workspace.lock import READ_WAIT_S

            ann = AnnSettings(self.workspace.ann_dir, self.config.recall.ann_min_vectors)
            self._vectors = VectorCache(
                embedder,
                self.lock.held,
                not self.read_only,
                ann,
                try_lock=lambda: self.lock.attempt(READ_WAIT_S),
            )
        return self._vectors

    def forget_vectors(self) -> None:
        """Drop the vectors: the index connection they were read over is gone (the index was
        replaced or made anew), and the next read loads them over the new one."""
        self._vectors = None

    def embed_missing(
        self,
        index: Callable[[], sqlite3.Connection],
        raw: Callable[[], RawStore | None],
        on_progress: Callable[[int, int], None] | None = None,
    ) -> int:
        """Embed every item of ``index()`` and turn of ``raw()`` that lacks a vector; return
        how many. The stores are asked for only when there is an embedder.

        An embedder that fails stops the embedding where it is (what was embedded stays) and
        is noted in :attr:`failure`; the next call tries again."""
        vectors = self.vectors
        if vectors is None:
            return 0
        store = raw()
        raw_db = store.db if store is not None else None
        try:
            return vectors.embed_all(index(), raw_db, on_progress)
        except EmbedderFailed as error:
            self.failed(error)
            return 0

    def arm(self, index: Callable[[], sqlite3.Connection]) -> SemanticArm | None:
        """The semantic arm over the vectors of ``index()`` (asked for only when there is an
        embedder); ``None`` when there is none or it fails, and an arm whose embedder fails
        finds nothing."""
        vectors = self.vectors
        if vectors is None:
            return None
        try:
            topics, facts = vectors.items(index())
        except EmbedderFailed as error:
            self.failed(error)
            return None
        embedder = vectors.embedder

        def nearest(query: str, limit: int) -> dict[str, float]:
            try:
                vector = embedder.embed([query], query=True)[0]
            except EmbedderFailed as error:
                self.failed(error)
                return {}
            return {**dict(topics.search(vector, limit)), **dict(facts.search(vector, limit))}

        return nearest

    # -- failure and rest ----------------------------------------------------------------------

    def failed(self, error: EmbedderFailed) -> None:
        """Rest the embedder: reads go on without the semantic arm, and say why, for
        :data:`EMBEDDER_RETRY_S` (a server does not wait on a dead endpoint every call, nor
        give it up for good)."""
        self.failure = str(error)
        self._down_until = time.monotonic() + EMBEDDER_RETRY_S
        if self._own_embedder is not None and not self.read_only:
            # one-shot commands would each wait on it again: the rest is the workspace's
            rest = Rest(self.failure, time.time() + EMBEDDER_RETRY_S)
            write_rest(self.rest_path, self.config.embeddings.model, rest)

    def end_rest(self) -> None:
        """Try the embedder at its next use, whatever rest a failure began (in this process
        or another): asked for by hand, as ``rebuild`` is."""
        end_shared_rest(self.rest_path)
        self._down_until = 0.0

    # -- notes ---------------------------------------------------------------------------------

    def recall_notes(self, arm: SemanticArm | None) -> list[str]:
        """What recall says of its semantic arm: that it is off (switched off, or failed), what
        loading the embedder fell back from, and what its vectors lack."""
        notes: list[str] = []
        if arm is None or self.failure:
            notes.append(self._off_note())
        elif self.note:
            notes.append(self.note)
        vectors = self.vectors if arm is not None else None
        if vectors is not None and vectors.note:
            notes.append(vectors.note)
        return notes

    def _off_note(self) -> str:
        """What recall says when its semantic arm is off: switched off, or failed."""
        if self.failure and self.enabled:
            return f"semantic arm off: {self.failure}; lexical, entity and temporal only"
        return "semantic arm off (embeddings disabled): lexical, entity and temporal"

    def search_notes(self) -> tuple[str, ...]:
        """What a search says of its raw turns' semantic arm: failed (ranked by words alone),
        or what loading the embedder fell back from."""
        if self.failure:
            return (f"{self.failure}; ranked by words alone",)
        if self.note and self.is_loaded:
            return (self.note,)
        return ()

    def gate_notes(self) -> tuple[str, ...]:
        """That the gate compared meanings without its embedder (it failed, or rests), by
        words alone."""
        if self.failure and self.enabled:
            return (f"near-duplicates checked by words alone: {self.failure}",)
        return ()

    def rest_notes(self) -> tuple[str, ...]:
        """The rest any process of the workspace began, as status shows it."""
        rest = read_rest(self.rest_path, self.config.embeddings.model, time.time())
        return () if rest is None else (f"embedder resting: {rest.describe()}",)

    def summary(self) -> str:
        """The configured embedder, as status shows it (no model is loaded to say so), and
        whether the module it comes in is missing, when the hashing embedder stands in."""
        from memstrata.providers.embedder import missing_package

        spec = self.config.embeddings.model
        if spec == "none":
            return "none ([embeddings] model): lexical, entity and temporal arms only"
        if not self.enabled:
            return f"{spec} (off in this process)"
        missing = missing_package(spec)
        if missing:
            return f"{spec} (not installed: {missing}; the hashing embedder stands in)"
        return spec
