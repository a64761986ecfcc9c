"""Keeping the derived index's vectors in step with the items, lazily.

Writes never wait for an embedding model: a topic, journal entry or imported turn is stored at
once, and its vector is computed the next time semantic search needs it (or on ``rebuild`` /
``tick``). Vectors are tagged with the embedder's name and width, so switching embedder (or a
model answering in another width under the same name) re-embeds, replacing the rows by
``(kind, ref)``; the content-addressed cache (:mod:`memstrata.providers.cache`) makes a rebuild
cheap.

Refs: a topic by its id, a journal entry by ``memory/<day>.md#L<line>``, a raw turn by
``<session id>#<index>`` — the same strings recall and search cite as sources.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext

from memstrata.providers.embedder import Embedder
from memstrata.recall.semantic import put_vectors, turn_passages
from memstrata.sqlite import immediate

BATCH = 256
#: turns before a turn embedded with it (measured on LoCoMo and LongMemEval: 1 helps)
TURN_CONTEXT = 1

#: told how many items each batch just embedded (a progress bar for a long backlog)
OnBatch = Callable[[int], None]
#: held while a batch's vectors are written (the workspace lock), not while it is embedded
WriteLock = Callable[[], AbstractContextManager[object]]


def fill_item_vectors(
    index: sqlite3.Connection,
    embedder: Embedder,
    limit: int | None = None,
    on_batch: OnBatch | None = None,
    lock: WriteLock = nullcontext,
) -> int:
    """Embed topic summaries and journal entries that have no vector from ``embedder`` (of
    its name and width).

    At most ``limit`` items (newest first), so that a query never waits for a whole backlog;
    ``None`` embeds them all. Returns how many were embedded.
    """
    cap = -1 if limit is None else limit
    name, dim = embedder.name, embedder.dim
    topics = index.execute(
        "SELECT id, title, summary FROM topics WHERE id NOT IN"
        " (SELECT ref FROM vectors WHERE kind = 'topic' AND embedder = ? AND dim = ?)"
        " ORDER BY updated DESC, id LIMIT ?",
        (name, dim, cap),
    ).fetchall()
    if limit is not None:
        cap = max(0, limit - len(topics))
    entries = index.execute(
        "SELECT source || '#L' || line AS ref, text FROM journal WHERE source || '#L' || line"
        " NOT IN (SELECT ref FROM vectors WHERE kind = 'fact' AND embedder = ? AND dim = ?)"
        " ORDER BY day DESC, source, line LIMIT ?",
        (name, dim, cap),
    ).fetchall()
    done = _embed_into(
        index,
        embedder,
        "topic",
        [(row["id"], f"{row['title']}\n{row['summary']}") for row in topics],
        on_batch,
        lock,
    )
    entry_texts = [(row["ref"], row["text"]) for row in entries]
    return done + _embed_into(index, embedder, "fact", entry_texts, on_batch, lock)


def missing_item_vectors(index: sqlite3.Connection, embedder: Embedder) -> int:
    """How many topics and journal entries still lack a vector from this embedder (of its
    name and width)."""
    row = index.execute(
        "SELECT (SELECT COUNT(*) FROM topics) + (SELECT COUNT(*) FROM journal)"
        " - (SELECT COUNT(*) FROM vectors WHERE kind IN ('topic', 'fact')"
        " AND embedder = ? AND dim = ?)",
        (embedder.name, embedder.dim),
    ).fetchone()
    return max(0, int(row[0]))


def fill_turn_vectors(
    index: sqlite3.Connection,
    raw: sqlite3.Connection,
    embedder: Embedder,
    context: int = TURN_CONTEXT,
    limit: int | None = None,
    on_batch: OnBatch | None = None,
    lock: WriteLock = nullcontext,
) -> int:
    """Embed raw turns without a vector (of the embedder's name and width), each with the turn
    before it as context.

    At most about ``limit`` turns (whole batches); ``None`` embeds them all.
    """
    have = {
        row[0]
        for row in index.execute(
            "SELECT ref FROM vectors WHERE kind = 'turn' AND embedder = ? AND dim = ?",
            (embedder.name, embedder.dim),
        )
    }
    pending: list[tuple[str, str]] = []
    done = 0
    for session_id, turns in _sessions(raw):
        refs = [f"{session_id}#{idx}" for idx, _ in turns]
        if all(ref in have for ref in refs):
            continue
        passages = turn_passages([text for _, text in turns], context)
        pending += [
            (ref, text) for ref, text in zip(refs, passages, strict=True) if ref not in have
        ]
        if len(pending) >= BATCH:
            done += _embed_into(index, embedder, "turn", pending, on_batch, lock)
            pending = []
            if limit is not None and done >= limit:
                return done
    return done + _embed_into(index, embedder, "turn", pending, on_batch, lock)


def missing_turn_vectors(
    index: sqlite3.Connection, raw: sqlite3.Connection, embedder: Embedder
) -> int:
    """About how many raw turns still lack a vector from this embedder, of its name and width
    (a progress bar's length: vectors of turns no longer stored would make it short by as
    many)."""
    (turns,) = raw.execute("SELECT COUNT(*) FROM turns").fetchone()
    (vectors,) = index.execute(
        "SELECT COUNT(*) FROM vectors WHERE kind = 'turn' AND embedder = ? AND dim = ?",
        (embedder.name, embedder.dim),
    ).fetchone()
    return max(0, int(turns) - int(vectors))


def _sessions(raw: sqlite3.Connection) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    current: str | None = None
    turns: list[tuple[int, str]] = []
    for row in raw.execute("SELECT session_id, idx, text FROM turns ORDER BY session_id, idx"):
        if row[0] != current:
            if current is not None:
                yield current, turns
            current, turns = row[0], []
        turns.append((row[1], row[2]))
    if current is not None:
        yield current, turns


def _embed_into(
    index: sqlite3.Connection,
    embedder: Embedder,
    kind: str,
    items: list[tuple[str, str]],
    on_batch: OnBatch | None = None,
    lock: WriteLock = nullcontext,
) -> int:
    for start in range(0, len(items), BATCH):
        chunk = items[start : start + BATCH]
        # A text is embedded once per batch: a model's vector for it moves in the last bits
        # with its place in the batch, and two topics saying the same must rank as equals.
        texts = list(dict.fromkeys(text for _, text in chunk))
        rows = dict(zip(texts, embedder.embed(texts), strict=True))
        with lock(), immediate(index):
            put_vectors(index, kind, embedder.name, ((ref, rows[text]) for ref, text in chunk))
        if on_batch is not None:
            on_batch(len(chunk))
    return len(items)
