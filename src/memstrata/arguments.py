"""The arguments of the public API (:class:`~memstrata.memory.Memory`) that are not a read's
(:mod:`memstrata.recall.inputs`) nor a gate write's (:mod:`memstrata.gate.inputs`), checked
before anything is read or written.

What does not pass is an :class:`~memstrata.errors.InputError` naming the argument: never a
``TypeError`` from deep inside, and never a silent wrong answer (a name read as its letters,
``True`` taken for 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path

from memstrata.errors import InputError
from memstrata.workspace.textfile import require_plain, require_text


def checked_whole(value: object, name: str, least: int) -> int:
    """A whole number (not a bool) of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InputError(f"{name} must be a whole number of at least {least}, not {value!r}")
    return value


def require_line(what: str, text: object) -> None:
    """An actor or a reason: one line of plain text (``None`` is none)."""
    require_text(what, text)
    require_plain(what, text, one_line=True)  # type: ignore[arg-type]  # checked text above


def checked_version(version: object) -> str:
    """A topic version as given (a hash from ``topic_history``), trimmed and lower case."""
    if not isinstance(version, str):
        raise InputError(
            f"a version is text (a hash from topic_history), not {type(version).__name__}"
        )
    return version.strip().lower()


def checked_names(values: object, what: str = "sources") -> list[str]:
    """Names given as one text or as an iterable of texts (not the letters of one name)."""
    if isinstance(values, str):
        return [values]
    if not isinstance(values, Iterable) or isinstance(values, bytes | bytearray | Mapping):
        raise InputError(f"{what} is text or a list of texts, not {type(values).__name__}")
    names = list(values)
    for name in names:
        if not isinstance(name, str):
            raise InputError(f"{what} holds {name!r}, which is not text")
    return names


def workspace_path(path: object) -> Path | None:
    """The folder a caller named for a workspace, as a ``Path`` (``None``: find it)."""
    if path is None:
        return None
    if not isinstance(path, str | PathLike):
        raise InputError(f"a workspace path is text or a Path, not {type(path).__name__}")
    named = Path(path)
    if not str(path).strip() or "\x00" in str(named):
        raise InputError(f"{str(path)!r} is no path to a workspace folder")
    return named.expanduser()
