"""A freshly seeded messy workspace for each test that asks for one.

The workspaces live on a RAM disk when there is one: every topic write fsyncs several times
(~3 ms each on a disk), and nothing here tests what survives a power cut — a killed process
leaves the page cache intact either way.
"""

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.maintain.messy import Truth, make_messy_workspace

RAM_DISK = Path("/dev/shm")


@contextmanager
def scratch_folder(fallback: Path) -> Iterator[Path]:
    if not (RAM_DISK.is_dir() and os.access(RAM_DISK, os.W_OK)):
        yield fallback
        return
    folder = Path(tempfile.mkdtemp(prefix="memstrata-test-", dir=RAM_DISK))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    with scratch_folder(tmp_path) as folder:
        yield folder


@pytest.fixture
def messy(scratch: Path) -> tuple[Path, Truth]:
    root = scratch / "ws"
    return root, make_messy_workspace(root)
