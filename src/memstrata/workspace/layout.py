"""Where everything lives in a workspace (DESIGN.md §1), creating it, and finding it.

memstrata.toml            settings (every key optional)
prompt/SOUL.md            persona and hard rules          ┐
prompt/IDENTITY.md        who the agent is                │ Rules: injected every turn
prompt/USER.md            the user's settings             │
MEMORY.md                 core distilled facts (≤ 3000)   │
memory/SESSION-STATE.md   what is going on right now      ┘
memory/YYYY-MM-DD.md      Journal
memory/topics/<ns>/<slug>/{summary.md, detail.md, history.jsonl, meta.json}   Wiki
memory/topics/_index.json Index
raw/sessions.db           Raw transcripts
.memstrata/               derived and private: index.db, lock, spool (git-ignored)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memstrata.config import Config, load_config, render_config
from memstrata.errors import WorkspaceError, WorkspaceNotFound, WorkspaceReadOnly
from memstrata.workspace.atomic import write_atomic

CONFIG_NAME = "memstrata.toml"
ENV_VAR = "MEMSTRATA_WORKSPACE"

RULES_FILES: tuple[str, ...] = (
    "prompt/SOUL.md",
    "prompt/IDENTITY.md",
    "prompt/USER.md",
    "MEMORY.md",
    "memory/SESSION-STATE.md",
)

_STARTER_FILES: dict[str, str] = {
    "prompt/SOUL.md": "# Soul\n\nPersona and hard rules the agent always follows.\n",
    "prompt/IDENTITY.md": "# Identity\n\nWho the agent is: name, role, whom it works for.\n",
    "prompt/USER.md": "# User\n\nThe user's settings and preferences.\n",
    "MEMORY.md": "# Memory\n\nCore facts and lessons, distilled. Keep under 3000 characters.\n",
    ".gitignore": ".memstrata/\n",
}


@dataclass(frozen=True, slots=True)
class Workspace:
    """Paths of one workspace; pure, no I/O."""

    root: Path

    @property
    def config_path(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def memory_dir(self) -> Path:
        return self.root / "memory"

    @property
    def topics_dir(self) -> Path:
        return self.memory_dir / "topics"

    @property
    def index_json(self) -> Path:
        return self.topics_dir / "_index.json"

    @property
    def pending_dir(self) -> Path:
        """Write-ahead intents of topic writes in flight (see :mod:`memstrata.wiki.store`)."""
        return self.memory_dir / ".pending"

    @property
    def raw_dir(self) -> Path:
        return self.root / "raw"

    @property
    def raw_db(self) -> Path:
        return self.raw_dir / "sessions.db"

    @property
    def state_dir(self) -> Path:
        return self.root / ".memstrata"

    @property
    def index_db(self) -> Path:
        return self.state_dir / "index.db"

    @property
    def ann_dir(self) -> Path:
        """Approximate vector index side files (derived, see :mod:`memstrata.recall.ann`)."""
        return self.state_dir / "ann"

    @property
    def spool_dir(self) -> Path:
        """A transcript read from a stream while it is imported (:mod:`memstrata.raw.spool`)."""
        return self.state_dir / "spool"

    @property
    def lock_path(self) -> Path:
        return self.state_dir / "lock"

    @property
    def index_view_path(self) -> Path:
        """The injected Index as last rendered, and the ``_index.json`` it came from."""
        return self.state_dir / "index-view.json"

    @property
    def topic_check_path(self) -> Path:
        """When reads last checked every topic file for hand edits, and what it cost."""
        return self.state_dir / "topic-check"

    def rules_paths(self) -> tuple[Path, ...]:
        return tuple(self.root / name for name in RULES_FILES)

    def journal_path(self, day: str) -> Path:
        return self.memory_dir / f"{day}.md"

    def topic_dir(self, topic_id: str) -> Path:
        """Folder of a topic; ``topic_id`` must already be validated by ``parse_topic_id``."""
        namespace, slug = topic_id.split("/", 1)
        return self.topics_dir / namespace / slug

    def relative(self, path: Path) -> str:
        """``path`` relative to the root, with forward slashes (how sources are cited)."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def inside(self, relative: str) -> Path:
        """The path of ``relative`` (as :meth:`relative` gives it) under the root; raises
        ``ValueError`` for one that would lead out of it (``../x``, an absolute path)."""
        path = Path(os.path.normpath(self.root / relative))
        if not path.is_relative_to(self.root):
            raise ValueError(f"{relative!r} is outside the workspace {self.root}")
        return path


def init_workspace(root: Path, config: Config | None = None) -> Workspace:
    """Lay out a workspace at ``root``; existing files are kept as they are.

    Refused inside the files of another workspace (its ``memory/``, ``raw/``, ``prompt/`` or
    ``.memstrata/``), where the new folders would become the outer one's stray topics; a
    workspace whose ``memstrata.toml`` is already there but invalid is named, not made ready.
    """
    workspace = Workspace(resolved(root, "the folder to lay out"))
    _refuse_nesting(workspace.root)
    if workspace.config_path.is_dir():
        raise WorkspaceError(
            f"{workspace.config_path}: a folder where the settings file belongs; move it aside, "
            "then run init again (nothing was changed)"
        )
    folders = (workspace.topics_dir, workspace.raw_dir, workspace.state_dir)
    for folder in folders:  # all looked at first, so a refusal leaves the folder as it was
        blocking = _file_in_the_way(folder)
        if blocking is not None:
            raise WorkspaceError(
                f"{blocking}: {'a link to nothing' if blocking.is_symlink() else 'a file'} where "
                "the workspace needs a folder; move it aside, then run init again (nothing was "
                "changed)"
            )
    try:
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
    except PermissionError as error:
        raise WorkspaceReadOnly(f"{error.filename}: cannot create ({error.strerror})") from error
    if not workspace.config_path.exists():
        write_atomic(workspace.config_path, render_config(config or Config()))
    for name, text in _STARTER_FILES.items():
        path = workspace.root / name
        if not path.exists():
            write_atomic(path, text)
    load_config(workspace.config_path)  # a config kept as it was must still be one
    return workspace


def _file_in_the_way(path: Path) -> Path | None:
    """The outermost thing that is there but no folder on the way to ``path`` (a file, or a
    link to nothing), the workspace folder's own parents included (``init afile/sub``)."""
    for step in (*reversed(path.parents), path):
        there = step.exists() or step.is_symlink()
        if there and not step.is_dir():
            return step
    return None


#: the folders of a workspace that hold its files (a workspace is never laid out inside them)
_OWN_FOLDERS = ("memory", "raw", "prompt", ".memstrata")


def _refuse_nesting(root: Path) -> None:
    # Every enclosing workspace is asked, not only the nearest: the nearest may itself lie in
    # another's files (a snapshot in .memstrata/snapshots/ holds a memstrata.toml).
    for outer in root.parents:
        if (outer / CONFIG_NAME).is_file():
            inner = root.relative_to(outer).parts[0]
            if inner in _OWN_FOLDERS:
                raise WorkspaceError(
                    f"{root}: inside the {inner}/ folder of the workspace at {outer}; lay out a "
                    "new workspace outside it"
                )


def find_workspace(explicit: Path | None = None, start: Path | None = None) -> Workspace:
    """Find the workspace: ``explicit``, else ``$MEMSTRATA_WORKSPACE``, else walk up.

    A folder inside a workspace's ``.memstrata/`` is never one, though a snapshot there holds a
    ``memstrata.toml``: it is refused, naming the workspace it belongs to. Writing into a
    snapshot would change what its manifest vouches for, and reading from it would answer from
    the past unannounced.
    """
    if explicit is not None:
        return _require_workspace(explicit, "--workspace")
    configured = os.environ.get(ENV_VAR)
    if configured:
        return _require_workspace(Path(configured), ENV_VAR)
    here = resolved(start or Path.cwd(), "the current folder")
    for folder in (here, *here.parents):
        if (folder / CONFIG_NAME).is_file():
            _refuse_derived(folder, "")
            return Workspace(folder)
    raise WorkspaceNotFound(
        f"no {CONFIG_NAME} in {here} or any parent; run 'memstrata init' or pass --workspace"
    )


#: the folder of a workspace that holds its derived data and snapshots (``Workspace.state_dir``)
_STATE_FOLDER = ".memstrata"


def _refuse_derived(folder: Path, origin: str) -> None:
    """Refuse ``folder`` (which holds a ``memstrata.toml``) when it lies inside the
    ``.memstrata/`` folder of a workspace: a snapshot, or a copy put there by hand."""
    owner = next(
        (
            step.parent
            for step in (folder, *folder.parents)
            if step.name == _STATE_FOLDER and (step.parent / CONFIG_NAME).is_file()
        ),
        None,
    )
    if owner is None:
        return
    parts = folder.relative_to(owner / _STATE_FOLDER).parts
    where = f" (from {origin})" if origin else ""
    if len(parts) >= 2 and parts[0] == "snapshots":
        raise WorkspaceNotFound(
            f"snapshot {parts[1]} of the workspace at {owner}, not a workspace of its own{where}: "
            f"run memstrata there, or with --workspace {owner} "
            f"('memstrata snapshot restore {parts[1]}' brings its state back)"
        )
    raise WorkspaceNotFound(
        f"{folder}: inside the {_STATE_FOLDER}/ folder (derived data) of the workspace at "
        f"{owner}, not a workspace{where}: run memstrata there, or with --workspace {owner}"
    )


def resolved(path: Path, what: str) -> Path:
    """``path`` made absolute with its links followed; a link in a loop is a
    :class:`WorkspaceError` naming it (``Path.resolve`` raises ``RuntimeError`` for it)."""
    try:
        return path.expanduser().resolve()
    except (RuntimeError, OSError) as error:
        raise WorkspaceError(f"{path}: cannot follow its links ({what}): {error}") from error


def _require_workspace(path: Path, origin: str) -> Workspace:
    root = resolved(path, f"from {origin}")
    if (root / CONFIG_NAME).is_file():
        _refuse_derived(root, origin)
        return Workspace(root)
    inside = next((f for f in root.parents if (f / CONFIG_NAME).is_file()), None)
    if inside is not None:  # a file or folder of a workspace: name the workspace, not a new one
        _refuse_derived(inside, origin)
        raise WorkspaceNotFound(
            f"{root}: not a memstrata workspace but inside one (from {origin}); "
            f"use --workspace {inside}"
        )
    if root.exists() and not root.is_dir():
        raise WorkspaceNotFound(f"{root}: a file, not a workspace folder (from {origin})")
    if (root / CONFIG_NAME).is_dir():
        raise WorkspaceNotFound(
            f"{root / CONFIG_NAME}: a folder where the workspace's settings file belongs (from "
            f"{origin}); move it aside, then run 'memstrata init {path}'"
        )
    raise WorkspaceNotFound(
        f"{root}: not a memstrata workspace (no {CONFIG_NAME}; from {origin}); "
        f"run 'memstrata init {path}'"
    )
