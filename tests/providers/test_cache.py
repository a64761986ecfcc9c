"""The embedding cache: a second embed of the same text reads SQLite, not the model; a row of
another width, or a file that is no cache, is never used."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.providers.cache import CachedEmbedder
from memstrata.providers.embedder import Vectors
from memstrata.providers.hashing import HashingEmbedder
from memstrata.providers.openai import OpenAIEmbedder
from memstrata.workspace.layout import init_workspace
from tests.providers.fake_endpoint import FakeEmbeddings, serving


class CountingEmbedder(HashingEmbedder):
    """A real hashing embedder that counts the texts it was asked to embed."""

    def __init__(self) -> None:
        super().__init__(32)
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        self.embedded.extend(texts)
        return super().embed(texts, query=query)


def test_cached_embedder_embeds_each_text_once_across_instances(tmp_path):
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, tmp_path / "cache.db")
    first = cache.embed(["one", "two"])
    cache.close()

    again = CachedEmbedder(inner, tmp_path / "cache.db")
    second = again.embed(["two", "three", "one"])

    assert inner.embedded == ["one", "two", "three"]
    assert np.array_equal(second[0], first[1])
    assert np.array_equal(second[2], first[0])


def test_cached_embedder_keeps_queries_apart_from_passages(tmp_path):
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, tmp_path / "cache.db")

    cache.embed(["same text"])
    cache.embed(["same text"], query=True)

    assert inner.embedded == ["same text", "same text"]


class Renamed(CountingEmbedder):
    """A counting hashing embedder of any width under one fixed name: a model swapped behind
    its name (or an endpoint updated) that now answers in another width."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self._dim = width

    @property
    def name(self) -> str:
        return "model-x"


def test_a_cached_row_of_another_width_is_embedded_again_and_replaced(tmp_path):
    wide = CachedEmbedder(Renamed(64), tmp_path / "cache.db")
    wide.embed(["Ann prefers cortado", "the canary shipped"])
    wide.close()
    narrow_model = Renamed(32)
    narrow = CachedEmbedder(narrow_model, tmp_path / "cache.db")

    rows = narrow.embed(["Ann prefers cortado", "the canary shipped"])
    again = narrow.embed(["Ann prefers cortado"])

    assert rows.shape == (2, 32)
    assert np.allclose(rows, Renamed(32).embed(["Ann prefers cortado", "the canary shipped"]))
    assert np.array_equal(again[0], rows[0])
    assert narrow_model.embedded == ["Ann prefers cortado", "the canary shipped"]


def test_a_new_cache_file_in_a_folder_that_exists_is_made(tmp_path):
    for path in (tmp_path / "new.db", _write(tmp_path / "empty.db", b"")):
        cache = CachedEmbedder(CountingEmbedder(), path)
        assert cache.embed(["one"]).shape == (1, 32)
        cache.close()


def test_a_cache_in_a_folder_that_does_not_exist_is_refused_and_no_folder_made(tmp_path):
    path = tmp_path / "nowhere" / "cache.db"

    with pytest.raises(InputError, match="no folder"):
        CachedEmbedder(CountingEmbedder(), path)

    assert not path.parent.exists()


def _other_database(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE vectors (kind TEXT, ref TEXT, embedder TEXT, dim INT, vector BLOB)")
    db.execute("INSERT INTO vectors VALUES ('topic', 'people/ann', 'm', 1, x'00')")
    db.commit()
    db.close()
    return path


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda folder: _write(folder / "notes.txt", b"hello, not sqlite\n"), "not a database"),
        (lambda folder: _write(folder / "data.json", b'{"a": 1}' * 100), "not a database"),
        (lambda folder: _other_database(folder / "index.db"), "vectors table has columns kind"),
    ],
)
def test_a_file_that_is_no_embedding_cache_is_refused_and_left_as_it_was(
    tmp_path: Path, make: Callable[[Path], Path], why: str
):
    path = make(tmp_path)
    before = path.read_bytes()

    with pytest.raises(InputError) as caught:
        CachedEmbedder(CountingEmbedder(), path)

    assert f"{path} is not an embedding cache" in str(caught.value)
    assert why in str(caught.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_workspace_cache_that_is_no_cache_is_set_aside_and_the_note_says_so(tmp_path):
    path = _write(tmp_path / "embeddings.db", b"garbage" * 1000)

    cache = CachedEmbedder(CountingEmbedder(), path, owned=True)
    rows = cache.embed(["one"])

    assert rows.shape == (1, 32)
    assert (tmp_path / "embeddings.db.damaged").read_bytes() == b"garbage" * 1000
    assert "set aside as embeddings.db.damaged" in cache.note
    assert CachedEmbedder(CountingEmbedder(), path).note == ""  # a cache now


def test_a_workspace_cache_gets_its_folder_made(tmp_path):
    path = tmp_path / "state" / "embeddings.db"

    CachedEmbedder(CountingEmbedder(), path, owned=True).close()

    assert path.is_file()


def test_recall_notes_a_workspace_cache_that_was_set_aside(tmp_path: Path):
    root = tmp_path / "ws"
    init_workspace(root)
    config = root / "memstrata.toml"
    config.write_text(re.sub(r"(?m)^model = .*$", "model = 'hashing'", config.read_text()))
    (root / "memory" / "2025-11-26.md").write_text("# 2025-11-26\n\n- Ann drinks cortado\n")
    _write(root / ".memstrata" / "embeddings.db", b"not a cache at all" * 100)

    with Memory(root) as memory:
        result = memory.recall("cortado")

    assert [item.source for item in result.items] == ["memory/2025-11-26.md#L3"]
    assert any("set aside as embeddings.db.damaged" in note for note in result.notes)


def test_two_endpoints_serving_one_model_name_do_not_share_cached_vectors(tmp_path):
    with serving() as url:
        first = CachedEmbedder(OpenAIEmbedder(url, "tiny"), tmp_path / "cache.db")
        first.embed(["Ann prefers cortado"])
        second = CachedEmbedder(OpenAIEmbedder(f"{url}/other", "tiny"), tmp_path / "cache.db")
        second.embed(["Ann prefers cortado"])
        again = CachedEmbedder(OpenAIEmbedder(url, "tiny"), tmp_path / "cache.db")
        again.embed(["Ann prefers cortado"])

    # each endpoint embedded the text once (besides asking for its width); the third read it
    asked = [
        r["path"] for r in FakeEmbeddings.requests if r["body"]["input"] != ["dimension probe"]
    ]
    assert asked == ["/v1/embeddings", "/v1/other/embeddings"]
