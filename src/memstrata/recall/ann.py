"""Approximate vector search for large kinds: an IVF index kept in a rebuildable side file.

IVF (inverted file): a spherical k-means splits the vectors into ``≈ √n`` lists around
centroids; a query scores the centroids, then only the rows of the ``nprobe`` nearest lists,
exactly. Pure numpy, so every install has it (sqlite-vec needs a Python that can load SQLite
extensions; usearch's HNSW builds ~100 s per 100k rows, this ~5 s, and pulls a 46 MB
dependency); seeded and in a content-defined order (refs sorted), so the same vectors give the
same file, byte for byte. Measured in ``docs/benchmarks-ann.md``.

The side file ``.memstrata/ann/<kind>-<embedder>.ivf`` is derived data, like the index: one
header line of JSON after a magic, then 64-byte aligned arrays — centroids, list offsets,
rowids, refs and the vectors sorted by list, which a search memory-maps so that it touches only
the probed lists (100k × 512 float32 is 205 MB; 64 of 316 lists are ~41 MB). Each row
carries the ``vectors`` table rowid it was built from: ``INSERT OR REPLACE`` gives a changed
vector a new rowid, so a (rowid, ref) pair still in the table is a row whose vector is unchanged,
and everything else is searched exactly as a tail (:func:`match_live`). The build writes a token
(a digest of the file) into the index's ``meta`` table; a file whose token the index does not
hold (the index was recreated) is not used.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memstrata.providers.embedder import Vectors, row_dots
from memstrata.sqlite import immediate
from memstrata.workspace.atomic import atomic_writer

MAGIC = b"memstrata-ivf\n"
VERSION = 1
#: lists probed per query: recall@10 against exact 0.95-0.99 on real text from 10k to 100k rows
#: (32: 0.90-0.95), 3× faster than exact at 100k (docs/benchmarks-ann.md)
NPROBE = 64
#: a side file is due for a rebuild once rows added or removed since exceed this share of it
STALE_SHARE = 0.2
SEED = 1729
#: k-means trains on at most this many rows per list (a sample: the full set adds time, not recall)
SAMPLE_PER_LIST = 64
ITERATIONS = 10
ALIGN = 64
_SECTIONS = ("centroids", "offsets", "rowids", "ref_ends", "refs", "vectors")


@dataclass(frozen=True, slots=True)
class AnnSettings:
    """Where side files live and when a kind gets one."""

    folder: Path
    min_vectors: int
    nprobe: int = NPROBE


@dataclass(frozen=True, slots=True)
class IvfArrays:
    """What a build computes: centroids and rows grouped by list (``order`` indexes the input)."""

    centroids: Vectors
    offsets: np.ndarray  # (lists + 1,) int64: list l holds rows offsets[l]:offsets[l + 1]
    order: np.ndarray  # (count,) int64: input row of each stored row


@dataclass(frozen=True, slots=True)
class IvfFile:
    """A side file opened for search: small arrays in memory, vectors memory-mapped."""

    path: Path
    token: str
    centroids: Vectors
    offsets: np.ndarray
    rowids: np.ndarray
    refs: tuple[str, ...]
    vectors: Vectors  # np.memmap, (count, dim)

    def __len__(self) -> int:
        return len(self.refs)


@dataclass(frozen=True, slots=True)
class IvfView:
    """A side file and which of its rows are still live: approximate cosine search."""

    file: IvfFile
    alive: np.ndarray  # (count,) bool
    nprobe: int = NPROBE

    def __len__(self) -> int:
        return int(self.alive.sum())

    def search(self, query: Vectors, limit: int) -> list[tuple[str, float]]:
        """The best ``limit`` live rows of the ``nprobe`` lists nearest ``query``."""
        ivf = self.file
        if limit <= 0 or not len(ivf):
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        lists = len(ivf.centroids)
        nearest = ivf.centroids @ q
        probe = np.arange(lists)
        if self.nprobe < lists:
            probe = np.argpartition(-nearest, self.nprobe - 1)[: self.nprobe]
        positions, scores = [], []
        for list_no in np.sort(probe).tolist():  # ascending: the file is read front to back
            start, end = int(ivf.offsets[list_no]), int(ivf.offsets[list_no + 1])
            keep = np.flatnonzero(self.alive[start:end])
            if len(keep):
                positions.append(keep + start)
                scores.append((ivf.vectors[start:end] @ q)[keep])
        if not positions:
            return []
        found, score = np.concatenate(positions), np.concatenate(scores)
        limit = min(limit, len(found))
        top = np.argpartition(-score, limit - 1)[:limit]
        kept = found[top]
        exact = row_dots(ivf.vectors[kept], q)
        hits = [
            (ivf.refs[i], float(value))
            for i, value in zip(kept.tolist(), exact.tolist(), strict=True)
        ]
        return sorted(hits, key=lambda hit: (-hit[1], hit[0]))


def side_file_path(folder: Path, kind: str, embedder: str) -> Path:
    """``<folder>/<kind>-<embedder>.ivf``; the name is made file-safe, a digest keeps it unique."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", embedder)[:40]
    return folder / f"{kind}-{safe}-{hashlib.sha256(embedder.encode()).hexdigest()[:8]}.ivf"


def lists_for(count: int) -> int:
    """How many lists for ``count`` rows: ≈ √count (a probe scores ≈ nprobe·√count rows)."""
    return max(1, round(count**0.5))


def build_ivf(refs: Sequence[str], matrix: Vectors, seed: int = SEED) -> IvfArrays:
    """Cluster unit rows with spherical k-means; rows grouped by list, by ref within a list.

    Rows are taken in ref order, so the result does not depend on the order they came in.
    """
    by_ref = np.array(sorted(range(len(refs)), key=refs.__getitem__), dtype=np.int64)
    rows = np.ascontiguousarray(matrix[by_ref], dtype=np.float32)
    centroids = train_centroids(rows, lists_for(len(rows)), seed)
    labels = nearest_centroid(rows, centroids)
    grouped = np.argsort(labels, kind="stable")
    counts = np.bincount(labels, minlength=len(centroids))
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return IvfArrays(centroids, offsets, by_ref[grouped])


def train_centroids(rows: Vectors, lists: int, seed: int, iterations: int = ITERATIONS) -> Vectors:
    """Spherical k-means on a seeded sample of ``rows``: unit centroids, ``lists`` of them."""
    rng = np.random.default_rng(seed)
    lists = min(lists, len(rows))
    size = min(len(rows), lists * SAMPLE_PER_LIST)
    sample = rows[np.sort(rng.choice(len(rows), size, replace=False))]
    centroids = sample[np.sort(rng.choice(size, lists, replace=False))].copy()
    for _ in range(iterations):
        labels = nearest_centroid(sample, centroids)
        grouped = np.argsort(labels, kind="stable")
        counts = np.bincount(labels, minlength=lists)
        filled = np.flatnonzero(counts)
        starts = np.concatenate([[0], np.cumsum(counts)])[filled]
        sums = np.add.reduceat(sample[grouped], starts, axis=0)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        # an empty list keeps its centroid: with a seeded start that is rare and harmless
        centroids[filled] = sums / np.maximum(norms, 1e-12)
    return centroids


def nearest_centroid(rows: Vectors, centroids: Vectors, chunk: int = 8192) -> np.ndarray:
    """Index of the most similar centroid of each row (chunked: memory stays ~chunk × lists)."""
    labels = np.empty(len(rows), dtype=np.int64)
    for start in range(0, len(rows), chunk):
        labels[start : start + chunk] = np.argmax(rows[start : start + chunk] @ centroids.T, axis=1)
    return labels


def write_ivf(
    path: Path,
    kind: str,
    embedder: str,
    arrays: IvfArrays,
    rowids: np.ndarray,
    refs: Sequence[str],
    matrix: Vectors,
) -> str:
    """Write the side file atomically (temp file, fsync, rename); return its token."""
    order = arrays.order
    encoded = [refs[i].encode("utf-8") for i in order.tolist()]
    sections: dict[str, np.ndarray] = {
        "centroids": np.ascontiguousarray(arrays.centroids, dtype="<f4"),
        "offsets": arrays.offsets.astype("<i8"),
        "rowids": np.asarray(rowids, dtype=np.int64)[order].astype("<i8"),
        "ref_ends": np.cumsum([len(ref) for ref in encoded], dtype=np.int64).astype("<i8"),
        "refs": np.frombuffer(b"".join(encoded), dtype=np.uint8),
    }
    dim = int(matrix.shape[1])
    layout, offset = {}, 0
    for name in _SECTIONS:
        shape = (len(order), dim) if name == "vectors" else sections[name].shape
        dtype = "<f4" if name == "vectors" else sections[name].dtype.str
        nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
        layout[name] = {"offset": offset, "shape": list(shape), "dtype": dtype}
        offset = _aligned(offset + nbytes)
    digest = hashlib.sha256(json.dumps([kind, embedder, dim, layout]).encode())
    for name in _SECTIONS[:-1]:
        digest.update(sections[name].tobytes())
    for chunk in _vector_chunks(matrix, order):
        digest.update(chunk)
    token = digest.hexdigest()[:32]
    header = {"version": VERSION, "kind": kind, "embedder": embedder, "dim": dim}
    header |= {"count": len(order), "token": token, "sections": layout}
    head = MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n"
    base = _aligned(len(head))
    with atomic_writer(path) as handle:
        handle.write(head.ljust(base, b"\0"))
        for name in _SECTIONS[:-1]:
            handle.seek(base + layout[name]["offset"])
            handle.write(sections[name].tobytes())
        handle.seek(base + layout["vectors"]["offset"])
        for chunk in _vector_chunks(matrix, order):
            handle.write(chunk)
    return token


def open_ivf(path: Path, kind: str, embedder: str, dim: int) -> IvfFile | str:
    """The side file at ``path``, or why it cannot be used (missing, corrupt, another model)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(64 * 1024)
        size = path.stat().st_size
        end = head.find(b"\n", len(MAGIC))
        if not head.startswith(MAGIC) or end < 0:
            return "not an index file"
        header = json.loads(head[len(MAGIC) : end])
        if header.get("version") != VERSION:
            return f"format version {header.get('version')}, expected {VERSION}"
        if (header.get("kind"), header.get("embedder"), header.get("dim")) != (kind, embedder, dim):
            return f"built for {header.get('embedder')}/{header.get('dim')}, not {embedder}/{dim}"
        base = _aligned(end + 1)
        arrays = {name: _section(path, base, header["sections"][name], size) for name in _SECTIONS}
        count = int(header["count"])
        offsets, ref_ends = np.asarray(arrays["offsets"]), np.asarray(arrays["ref_ends"])
        lists = len(arrays["centroids"])
        if (
            len(offsets) != lists + 1
            or offsets[0] != 0
            or offsets[-1] != count
            or np.any(np.diff(offsets) < 0)
            or len(arrays["rowids"]) != count
            or len(ref_ends) != count
            or arrays["vectors"].shape != (count, dim)
            or (count and ref_ends[-1] != len(arrays["refs"]))
        ):
            return "inconsistent sections"
        blob = np.asarray(arrays["refs"]).tobytes()
        starts = [0, *ref_ends[:-1].tolist()]
        refs = tuple(
            blob[a:b].decode("utf-8") for a, b in zip(starts, ref_ends.tolist(), strict=True)
        )
        return IvfFile(
            path=path,
            token=str(header["token"]),
            centroids=np.array(arrays["centroids"]),
            offsets=np.array(offsets),
            rowids=np.array(arrays["rowids"]),
            refs=refs,
            # a plain view of the mapping: slicing an np.memmap costs ~10 µs a list in bookkeeping
            vectors=arrays["vectors"].view(np.ndarray),
        )
    except FileNotFoundError:
        return "not built"
    except (OSError, ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError) as error:
        return f"unreadable ({type(error).__name__}: {error})"


def match_live(
    ivf: IvfFile, live_rowids: np.ndarray, live_refs: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """``(alive, tail)``: which file rows are still in the table unchanged (same rowid and ref),
    and which table rows the file lacks (added or changed since the build: searched exactly)."""
    order = np.argsort(live_rowids, kind="stable")
    sorted_rowids = live_rowids[order]
    at = np.minimum(np.searchsorted(sorted_rowids, ivf.rowids), max(len(order) - 1, 0))
    alive = np.zeros(len(ivf), dtype=bool)
    if len(order):
        alive = sorted_rowids[at] == ivf.rowids
        for position in np.flatnonzero(alive).tolist():
            if live_refs[order[at[position]]] != ivf.refs[position]:
                alive[position] = False
    tail = np.ones(len(live_rowids), dtype=bool)
    tail[order[at[alive]]] = False
    return alive, tail


def is_stale(ivf: IvfFile, alive: np.ndarray, tail: np.ndarray) -> bool:
    """True once rows added or removed since the build exceed ``STALE_SHARE`` of the file."""
    changed = int(tail.sum()) + len(ivf) - int(alive.sum())
    return changed > STALE_SHARE * len(ivf)


def meta_key(kind: str, embedder: str) -> str:
    return f"ann:{kind}:{embedder}"


def recorded_token(db: sqlite3.Connection, kind: str, embedder: str) -> str | None:
    """The token of the side file the index was last given (``None``: none, or no meta table)."""
    try:
        row = db.execute(
            "SELECT value FROM meta WHERE key = ?", (meta_key(kind, embedder),)
        ).fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] if row else None


def record_token(db: sqlite3.Connection, kind: str, embedder: str, token: str) -> None:
    """Tell the index which side file matches it (after the file is safely written)."""
    with immediate(db):
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute(
            "INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (meta_key(kind, embedder), token),
        )


def _aligned(offset: int) -> int:
    return -(-offset // ALIGN) * ALIGN


def _vector_chunks(matrix: Vectors, order: np.ndarray, rows: int = 4096) -> Iterator[bytes]:
    # in chunks: a sorted copy of 100k rows would double the build's memory
    for start in range(0, len(order), rows):
        yield np.ascontiguousarray(matrix[order[start : start + rows]], dtype="<f4").tobytes()


def _section(path: Path, base: int, spec: dict[str, object], size: int) -> np.ndarray:
    shape = tuple(int(n) for n in spec["shape"])  # type: ignore[attr-defined]
    dtype = np.dtype(str(spec["dtype"]))
    offset = base + int(spec["offset"])  # type: ignore[call-overload]
    if offset + int(np.prod(shape)) * dtype.itemsize > size:
        raise ValueError(f"section runs past the end of the file ({size} bytes)")
    if not int(np.prod(shape)):
        return np.zeros(shape, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape)
