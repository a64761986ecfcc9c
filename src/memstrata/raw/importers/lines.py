"""Read a JSONL file line by line, turning each bad line into a Problem instead of an exception."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memstrata.model import Problem

#: A single transcript line larger than this is reported, not parsed (a 50 MB line is a mistake).
MAX_LINE_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class JsonLine:
    """A parsed JSON value and the 1-based line it came from."""

    line: int
    value: Any


def read_json_lines(
    path: Path, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[JsonLine | Problem]:
    """Yield each non-blank line of ``path`` as JSON, or a :class:`Problem` naming the line.

    Reads in binary so a line of invalid UTF-8 or an oversized line costs only that line. A last
    line without its newline that does not parse is reported as cut short: the file was truncated
    or is still being written.
    """
    with path.open("rb") as handle:
        for number, (raw, _taken) in enumerate(bounded_lines(handle, max_line_bytes), start=1):
            if raw is None:
                yield Problem(
                    str(path), number, f"line longer than {max_line_bytes} bytes, skipped"
                )
                continue
            if not raw.strip():
                continue
            try:
                value = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as error:
                message = f"invalid UTF-8 at byte {error.start}"
                yield Problem(str(path), number, _cut_short(raw, message))
                continue
            except json.JSONDecodeError as error:
                message = f"invalid JSON: {error.msg} (column {error.colno})"
                yield Problem(str(path), number, _cut_short(raw, message))
                continue
            yield JsonLine(number, value)


def _cut_short(raw: bytes, message: str) -> str:
    """Say when a bad line is the unfinished last one (only a last line lacks its newline)."""
    if raw.endswith(b"\n"):
        return message
    return f"last line cut short (the file ends mid-line: truncated or being written); {message}"


def bounded_lines(handle: Any, max_line_bytes: int) -> Iterator[tuple[bytes | None, int]]:
    """Yield each line with the bytes it took, never holding more than ``max_line_bytes`` of
    one: a longer line is ``None`` (``[raw] max_line_bytes``: reported and skipped)."""
    while True:
        chunk = handle.readline(max_line_bytes + 1)
        if not chunk:
            return
        if len(chunk) > max_line_bytes and not chunk.endswith(b"\n"):
            # Drain the rest of the oversized line in bounded pieces.
            taken = len(chunk)
            while True:
                rest = handle.readline(max_line_bytes)
                taken += len(rest)
                if not rest or rest.endswith(b"\n"):
                    break
            yield None, taken
            continue
        yield chunk, len(chunk)
