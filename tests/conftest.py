"""Fixtures shared by every test: the shared data folder and a fixed clock."""

from __future__ import annotations

import os
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


@pytest.fixture
def fixed_now() -> datetime:
    return datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)
