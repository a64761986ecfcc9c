"""Every error memstrata raises on purpose.

    MemstrataError                  base: a message a person can act on
    ├── WorkspaceError              no workspace, or one we cannot use
    │   ├── WorkspaceNotFound
    │   ├── WorkspaceReadOnly
    │   └── DiskFull            the disk holding it has no room left
    ├── ConfigError                 memstrata.toml: unknown key, wrong type
    ├── InvalidTopicId              slug/namespace that could escape or collide
    ├── TopicNotFound
    ├── CapExceeded                 text over a hard cap (says where the rest belongs)
    ├── BudgetExceeded              a pinned context item cannot fit its channel
    ├── InputError                  a file we were given is not what it claims
    │   ├── RawStoreDamaged         raw/sessions.db is no database SQLite can use
    │   └── ParseError              … with the file and line that failed
    ├── EmbedderFailed              the embedding model or endpoint failed or answered nonsense
    └── LockTimeout                 another process holds the workspace lock

The library never prints or exits; the CLI turns these into one line and an exit code.
"""

from __future__ import annotations

from pathlib import Path


class MemstrataError(Exception):
    """Base class: ``str(error)`` is the one-line message shown to a user."""


class WorkspaceError(MemstrataError):
    """The workspace is missing or unusable."""


class WorkspaceNotFound(WorkspaceError):
    """No memstrata.toml at the given place or above it."""


class WorkspaceReadOnly(WorkspaceError):
    """A mutation was asked of a workspace we cannot write."""


class DiskFull(WorkspaceError):
    """The disk holding the workspace is full: nothing is wrong with the files."""


class ConfigError(MemstrataError):
    """memstrata.toml holds an unknown key, a wrong type or bad TOML."""


class InvalidTopicId(MemstrataError):
    """A topic id, namespace or slug that is not safe to turn into a path."""


class TopicNotFound(MemstrataError):
    """No topic with that id."""


class CapExceeded(MemstrataError):
    """A text is over its hard cap."""


class BudgetExceeded(MemstrataError):
    """A pinned item of the context does not fit its channel's budget."""


class EmbedderFailed(MemstrataError):
    """The embedder raised, or returned rows that are not ``(texts, dim)`` finite numbers.

    Reads fall back to their lexical arms and say so; only a run that names the embedder
    itself (``memstrata bench --embedder``) stops on it.
    """


class InputError(MemstrataError):
    """An input file or text cannot be used as given."""


class RawStoreDamaged(InputError):
    """The raw database is not one SQLite can use; ``reason`` says why and what to do."""

    def __init__(self, path: Path, problem: str) -> None:
        # it is canonical, but it can be made again from the transcripts as well as a snapshot
        self.path = path
        self.reason = (
            f"{problem}; move it aside and import the transcripts again ('memstrata ingest'), "
            "or restore a snapshot ('memstrata snapshot list')"
        )
        super().__init__(f"{path}: {self.reason}")


class ParseError(InputError):
    """A file failed to parse; the message names the file and the line."""

    def __init__(self, path: Path | str, line: int | None, problem: str) -> None:
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {problem}")


class LockTimeout(MemstrataError):
    """The workspace lock could not be taken in time."""
