"""Transcript importers: one module per harness format, each a pure ``parse(path, agent)``.

An importer reads one file and returns a :class:`ParsedFile`: the sessions and turns it found, and
a :class:`~memstrata.model.Problem` for every line it could not use (the rest still imports).
It never touches the raw store; :mod:`memstrata.raw.ingest` does that. Parsing is deterministic and
prefix-stable: parsing a longer version of a file (a session still being written) yields the same
sessions and turn indexes for the part both versions share, so re-import adds only what is new.

Each module exposes ``FORMAT`` (its ``--format`` name), ``sniff(path, head) -> bool`` (does this
file look like mine; ``head`` is the file's first 64 KiB) and ``parse(path, agent) -> ParsedFile``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from memstrata.errors import InputError
from memstrata.model import Problem, Session, Turn


@dataclass(frozen=True, slots=True)
class ParsedSession:
    """A session and its turns, in order (``turn.index`` counts from 0)."""

    session: Session
    turns: tuple[Turn, ...]


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """What one transcript file held."""

    path: str
    format: str
    sessions: tuple[ParsedSession, ...]
    problems: tuple[Problem, ...] = ()


def default_agent(harness: str) -> str:
    """The agent key used when the caller names none: ``<harness>:<login name>:main``, the
    same for ``ingest`` and the hooks, so one person's sessions have one key (``default``
    stands for a login name that cannot be read)."""
    import getpass  # only when a key is made: its import reads the terminal's settings

    try:
        account = getpass.getuser()
    except (KeyError, OSError):
        account = ""
    account = re.sub(r"[^a-z0-9._-]+", "-", account.lower()).strip("-") or "default"
    return f"{harness}:{account}:main"


def importer_modules() -> dict[str, ModuleType]:
    """Return every importer by its format name, in detection order."""
    from memstrata.raw.importers import aider, claude_code, codex, gemini, generic_jsonl, openclaw

    modules = (claude_code, codex, gemini, openclaw, aider, generic_jsonl)
    return {module.FORMAT: module for module in modules}


FORMATS: tuple[str, ...] = ("claude-code", "codex", "gemini", "openclaw", "aider", "jsonl")

HEAD_BYTES = 64 * 1024


def detect_format(path: Path) -> str | None:
    """Name the format of ``path`` by sniffing its head; ``None`` when no importer claims it."""
    head = _read_head(path)
    for name, module in importer_modules().items():
        if module.sniff(path, head):
            return name
    return None


def is_format(path: Path, format_name: str) -> bool:
    """Does the importer for ``format_name`` recognise ``path`` by its head."""
    module = importer_modules()[format_name]
    return bool(module.sniff(path, _read_head(path)))


def _read_head(path: Path) -> bytes:
    """The first bytes of ``path``; an ``OSError`` is the caller's to name as a problem of the
    file (ingest goes on with the next one)."""
    with path.open("rb") as handle:
        return handle.read(HEAD_BYTES)


def parse_file(
    path: Path, format_name: str, agent: str | None, max_line_bytes: int | None = None
) -> ParsedFile:
    """Parse ``path`` with the importer for ``format_name``; a line longer than
    ``max_line_bytes`` (default: the importers' own, 8 MiB) is reported and skipped."""
    modules = importer_modules()
    if format_name not in modules:
        raise InputError(f"unknown format {format_name!r}; expected one of {', '.join(FORMATS)}")
    module = modules[format_name]
    key = agent or default_agent(module.HARNESS)
    if max_line_bytes is None:
        parsed: ParsedFile = module.parse(path, key)
    else:
        parsed = module.parse(path, key, max_line_bytes)
    return parsed
