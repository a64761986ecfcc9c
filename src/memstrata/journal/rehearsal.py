"""A throwaway copy of what ``promote`` reads and writes, for ``promote --dry-run``.

A dry run must say what the real run will do, and the real run judges each fact against the
wiki as the facts above it left it ("Ann drinks tea", "Ann no longer drinks tea", then "Ann
drinks tea" again: admitted, superseded, superseded). Previewing fact by fact against the wiki
as it is cannot know that; the real promotion, run on a copy, can, with no second path to keep
in step with the gate. The copy holds the settings, the journal days and ``.promoted``, the
topics, the proposals and the write intents, and the index (through SQLite's backup API, so
nothing is read again or embedded anew); the approximate vector side files are linked, as a
query only reads them. The rest of ``memory/`` (the gardener's ledger and reports, metrics) is
never read by a promotion and is left out.

A topic's ``summary.md``, ``detail.md`` and ``meta.json`` are hard links where the file system
allows (else copies): memstrata only ever replaces them (a temp file renamed over the name,
which leaves the original alone), and a link costs a small part of a copy (at 5,000 topics, a
copy of them took 7 s more on a disk where creating a file takes 0.7 ms). What is appended to
in place (``history.jsonl``, the journal, ``.promoted``) is always copied.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from contextlib import closing, suppress
from pathlib import Path

from memstrata.journal.promoted import PROMOTED_FILE
from memstrata.model import Problem
from memstrata.wiki.store import DETAIL, META, SUMMARY
from memstrata.workspace.layout import Workspace

#: the folders of ``memory/`` a promotion reads or writes, beside the journal days
_FOLDERS = ("topics", "proposals", ".pending")
#: files written only by replacing them whole (see the module docstring): linked, not copied
_REPLACED_WHOLE = frozenset({SUMMARY, DETAIL, META})


def copy_for_rehearsal(
    workspace: Workspace, index: sqlite3.Connection, folder: Path
) -> tuple[Workspace, list[Problem]]:
    """Lay out in ``folder`` a workspace holding what a promotion in ``workspace`` reads,
    with ``index`` (its open index) copied; return it and a problem for each file that could
    not be copied (the rehearsal goes on without it). The caller holds the workspace lock, so
    the copy is of one moment."""
    copy = Workspace(folder)
    failed: list[tuple[str, str]] = []
    copy.memory_dir.mkdir(parents=True)
    shutil.copy2(workspace.config_path, copy.config_path)
    for path in [*workspace.memory_dir.glob("*.md"), workspace.memory_dir / PROMOTED_FILE]:
        if path.exists() or path.is_symlink():
            _copy_file(path, copy.memory_dir / path.name, failed)
    for name in _FOLDERS:
        if (workspace.memory_dir / name).exists():
            _copy_tree(workspace.memory_dir / name, copy.memory_dir / name, failed)
    copy.state_dir.mkdir()
    with closing(sqlite3.connect(copy.index_db)) as target:
        index.backup(target)
    if workspace.ann_dir.is_dir():
        # Without them the nearest topics of a large workspace are searched exactly, and may
        # differ from those the real run finds (where no link can be made, they may).
        with suppress(OSError):
            copy.ann_dir.symlink_to(workspace.ann_dir, target_is_directory=True)
    problems = [
        Problem(workspace.relative(Path(path)), None, f"left out of the dry run: {why}")
        for path, why in sorted(failed)
    ]
    return copy, problems


def _copy_file(source: Path, target: Path, failed: list[tuple[str, str]]) -> None:
    # Timestamps kept (copy2): the index's stamps (size and mtime) then match, and the copy's
    # first refresh reads nothing again.
    try:
        shutil.copy2(source, target)
    except OSError as error:
        failed.append((str(source), error.strerror or str(error)))


def _copy_tree(source: Path, target: Path, failed: list[tuple[str, str]]) -> None:
    """Copy the tree, following links (a linked topic folder is read as the real run reads
    it, and a write to the copy never reaches the original)."""

    def copy_file(source_file: str, target_file: str) -> None:
        if Path(source_file).name in _REPLACED_WHOLE:
            with suppress(OSError):  # another file system, or links not allowed: copied
                os.link(source_file, target_file)
                return
        _copy_file(Path(source_file), Path(target_file), failed)

    try:
        shutil.copytree(source, target, copy_function=copy_file)
    except shutil.Error as error:  # a folder that could not be read: the rest was copied
        failed.extend((path, why) for path, _target, why in error.args[0])
    except OSError as error:
        failed.append((str(source), error.strerror or str(error)))
