"""An embedder's rest after a failure, shared by every process of one workspace.

An endpoint that hangs costs each read its whole timeout. A long-lived process (the MCP server)
rests the embedder for a while after a failure; one-shot commands (`memstrata recall`, a script
calling the CLI) would each wait again, so the rest is kept in ``.memstrata/embedder-rest.json``:
``{"model": <the configured spec>, "until": <epoch seconds>, "reason": <the failure>}``. It is
derived state: a file that does not parse, or names another model, is no rest at all.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

from memstrata.errors import WorkspaceReadOnly
from memstrata.workspace.atomic import write_atomic

REST_FILE = "embedder-rest.json"


@dataclass(frozen=True, slots=True)
class Rest:
    """Why the embedder rests, and until when (epoch seconds)."""

    reason: str
    until: float

    def describe(self) -> str:
        ends = time.strftime("%H:%M:%S UTC", time.gmtime(self.until))
        return f"{self.reason} (tried again after {ends})"


def read_rest(path: Path, model: str, now: float) -> Rest | None:
    """The rest of ``model`` recorded at ``path`` that has not ended by ``now``, if any."""
    try:
        record = json.loads(path.read_text("utf-8"))
        rest = Rest(str(record["reason"]), float(record["until"]))
        named = record["model"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return rest if named == model and now < rest.until else None


def write_rest(path: Path, model: str, rest: Rest) -> None:
    """Record a rest; a workspace that cannot be written keeps it in the process alone."""
    record = {"model": model, "until": rest.until, "reason": rest.reason}
    with contextlib.suppress(OSError, WorkspaceReadOnly):
        write_atomic(path, json.dumps(record, ensure_ascii=False) + "\n")


def end_rest(path: Path) -> None:
    """Forget any rest: an explicit rebuild tries the embedder at once."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)
