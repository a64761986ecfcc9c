"""Fixtures shared by every test: the shared data folder, a fixed clock, workspaces and a fake
embeddings endpoint."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    """``../shared/data`` beside the repo, or ``MEMSTRATA_SHARED_DATA``."""
    configured = os.environ.get("MEMSTRATA_SHARED_DATA")
    return Path(configured) if configured else REPO.parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    path = shared_data_dir()
    if not path.is_dir():
        pytest.skip(f"shared data not found at {path}")
    return path


@pytest.fixture
def transcripts(shared_data: Path) -> Path:
    return shared_data / "transcripts"


@pytest.fixture(autouse=True, scope="session")
def _user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The user cache (the default embedder's mapped model) in a folder of this run, not the
    home of whoever runs the tests; subprocesses inherit it."""
    saved = os.environ.get("MEMSTRATA_CACHE_DIR")
    os.environ["MEMSTRATA_CACHE_DIR"] = str(tmp_path_factory.mktemp("user-cache"))
    yield
    if saved is None:
        os.environ.pop("MEMSTRATA_CACHE_DIR", None)
    else:
        os.environ["MEMSTRATA_CACHE_DIR"] = saved


@pytest.fixture
def fixed_now() -> datetime:
    return datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An initialised, empty workspace folder."""
    from memstrata.workspace.layout import init_workspace

    root = tmp_path / "ws"
    init_workspace(root)
    return root


@pytest.fixture
def memory(workspace: Path, fixed_now: datetime):
    """A Memory on an empty workspace with a fixed clock."""
    from memstrata import Memory

    with Memory(workspace, clock=lambda: fixed_now) as opened:
        yield opened


@pytest.fixture
def words_memory(workspace: Path, fixed_now: datetime):
    """A Memory with no embedder: what recall finds, it finds by words, names and time alone."""
    from memstrata import Memory

    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as opened:
        yield opened


@pytest.fixture
def endpoint() -> Iterator[str]:
    """The ``/v1`` URL of a fake OpenAI-compatible embeddings server on 127.0.0.1
    (``tests/providers/fake_endpoint.py``), in mode ``ok``."""
    from tests.providers.fake_endpoint import serving

    with serving() as url:
        yield url
