"""A transcript that arrives on a stream: ``-`` (standard input) or a pipe such as bash's ``<(…)``.

Ingest reads a transcript twice (its head to name the format, then its turns), and a stream can
be read once. So the stream is copied into ``.memstrata/spool/`` first, under a name whose suffix
the format claims (``stdin.jsonl``, ``stdin.json`` or ``stdin.md``: importers sniff by suffix as
well as by content), imported from there and removed. Sessions and problems name the stream
(``<stdin>``, or the pipe's path), never the copy.

The name is fixed, not random: importers that key a session by its file name (plain JSONL, Aider)
then give the same conversation piped twice the same id, so piping a longer version of it adds
only what is new, as re-importing a grown file does. Ingest holds the workspace lock while it
spools, so whatever a killed run left in the folder is no live writer's and is cleared first.
"""

from __future__ import annotations

import json
import shutil
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from memstrata.errors import InputError
from memstrata.raw.importers import detect_format, is_format

#: ``-`` among the paths to import: standard input
STDIN = Path("-")
STDIN_LABEL = "<stdin>"
#: a stream longer than this is refused: a device such as /dev/zero never ends
MAX_STREAM_BYTES = 1024**3
_CHUNK = 1024 * 1024
_STEM = "stdin"


def is_stream(path: Path) -> bool:
    """Is ``path`` standard input (``-``) or a pipe (a FIFO, ``/dev/stdin`` on a pipe)."""
    if path == STDIN:
        return True
    try:
        return stat.S_ISFIFO(path.stat().st_mode)
    except OSError:
        return False


def stream_label(path: Path) -> str:
    """What reports call the stream: ``<stdin>`` for ``-``, else the pipe's path."""
    return STDIN_LABEL if path == STDIN else str(path)


@contextmanager
def spooled(
    path: Path,
    spool_dir: Path,
    format_name: str,
    stdin: BinaryIO | None,
    max_bytes: int = MAX_STREAM_BYTES,
) -> Iterator[Path]:
    """Copy the stream ``path`` into ``spool_dir`` and yield the copy; remove it afterwards.

    ``stdin`` (default: standard input) is read for ``-``; it is looked up here, when a stream
    is read, as a process may run with none. A stream over ``max_bytes`` is an
    :class:`InputError` that says to save it to a file, and leaves nothing behind."""
    label = stream_label(path)
    if stdin is None:
        stdin = getattr(sys.stdin, "buffer", None)
    shutil.rmtree(spool_dir, ignore_errors=True)  # a killed run's copy (see the module docstring)
    spool_dir.mkdir(parents=True)
    copy = spool_dir / _STEM
    try:
        if path == STDIN:
            if stdin is None:
                raise InputError(f"{label}: no standard input to read")
            _copy(stdin, copy, label, max_bytes)
        else:
            try:
                with path.open("rb") as source:
                    _copy(source, copy, label, max_bytes)
            except OSError as error:
                raise InputError(f"{label}: cannot read ({error.strerror})") from error
        yield _named_for_its_format(copy, format_name)
    finally:
        shutil.rmtree(spool_dir, ignore_errors=True)


def _copy(source: BinaryIO, target: Path, label: str, max_bytes: int) -> None:
    written = 0
    with target.open("wb") as out:
        while chunk := source.read(_CHUNK):
            written += len(chunk)
            if written > max_bytes:
                raise InputError(
                    f"{label}: more than {max_bytes:,} bytes; save the transcript to a file and "
                    "import that"
                )
            out.write(chunk)


def _named_for_its_format(copy: Path, format_name: str) -> Path:
    """The copy renamed to the first suffix its format claims, most likely first; if none does,
    the likeliest, so ingest reports the input as no transcript it knows."""
    suffixes = _likely_suffixes(copy)
    for suffix in suffixes:
        candidate = copy.rename(copy.with_suffix(suffix))
        claimed = (
            detect_format(candidate) is not None
            if format_name == "auto"
            else is_format(candidate, format_name)
        )
        if claimed:
            return candidate
        copy = candidate
    return copy.rename(copy.with_suffix(suffixes[0]))


def _likely_suffixes(copy: Path) -> tuple[str, ...]:
    """A first line that is a whole JSON object is JSON Lines; other JSON is one document;
    anything else is Markdown (Aider's chat history)."""
    with copy.open("rb") as handle:
        head = handle.read(64 * 1024)
    first = next((line.strip() for line in head.splitlines() if line.strip()), b"")
    try:
        json.loads(first)
    except ValueError:
        if first.startswith((b"{", b"[")):
            return (".json", ".jsonl", ".md")
        return (".md", ".jsonl", ".json")
    return (".jsonl", ".json", ".md")
