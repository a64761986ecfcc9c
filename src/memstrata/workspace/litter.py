"""The temp files a writer killed mid-write leaves beside the files it was replacing.

Every replacement writes ``.<name>.<8 hex>.tmp`` beside its file first
(:func:`~memstrata.workspace.atomic.write_atomic`); a process killed before the rename leaves
it behind. The roll-forward of a topic's intent removes those in that topic's folder
(:meth:`~memstrata.wiki.store.TopicStore.complete_pending`); this sweeps the other folders
memstrata replaces files in: the intents, the proposals, the journal and ``_index.json``, the
rules, the gardener's state and reports, ``raw/`` (a restore's copy of the raw database, as big
as it) and ``.memstrata/`` (the Index view, the hooks' record, the restore marker).

Writers there hold the workspace lock, and so does the sweep, so a temp file found is no live
writer's. One younger than :data:`LITTER_MIN_AGE_S` is left all the same: a program other than
memstrata writing the same way, without our lock, may still be at work.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from memstrata.workspace.layout import Workspace

LITTER_MIN_AGE_S = 60.0
_TEMP = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")


def sweep_litter(workspace: Workspace, now_s: float | None = None) -> list[Path]:
    """Remove the temp files killed writers left in memstrata's folders; return them."""
    now_s = time.time() if now_s is None else now_s
    removed: list[Path] = []
    folders = (
        workspace.pending_dir,
        workspace.memory_dir / "proposals",
        workspace.memory_dir,
        workspace.topics_dir,
        workspace.root,
        workspace.root / "prompt",
        workspace.memory_dir / ".garden",
        workspace.memory_dir / "reports",
        workspace.raw_dir,
        workspace.state_dir,
    )
    for folder in folders:
        try:
            temps = [path for path in folder.iterdir() if _TEMP.match(path.name)]
        except OSError:
            continue  # no such folder yet
        removed += _remove_old(temps, now_s)
    return removed


def sweep_temps_of(path: Path, now_s: float | None = None) -> list[Path]:
    """Remove the temp files a killed writer of ``path`` left beside it
    (``.<name>.<8 hex>.tmp``, a minute old or more), outside a workspace: the files ``hooks
    install`` writes into a harness's folders, where nothing else of ours sweeps."""
    prefix = f".{path.name}."
    try:
        temps = [
            each
            for each in path.parent.iterdir()
            if each.name.startswith(prefix) and _TEMP.match(each.name)
        ]
    except OSError:
        return []
    return _remove_old(temps, time.time() if now_s is None else now_s)


def _remove_old(temps: list[Path], now_s: float) -> list[Path]:
    """Remove those of ``temps`` that are files :data:`LITTER_MIN_AGE_S` old or more."""
    removed: list[Path] = []
    for temp in temps:
        try:
            if now_s - temp.stat().st_mtime >= LITTER_MIN_AGE_S and temp.is_file():
                temp.unlink()
                removed.append(temp)
        except OSError:
            continue  # gone already, or not ours to remove
    return removed
