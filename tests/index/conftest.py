"""A small workspace for the tests of damaged derived files: the hashing embedder (no model to
load) and one journal day."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.providers.fake_endpoint import workspace_on


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return workspace_on(
        tmp_path / "ws", "hashing", "# 2025-11-26\n\n- Noah plays bass in the office band\n"
    )
