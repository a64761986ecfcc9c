"""Printing for the CLI: JSON for machines, short lines for people."""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any

import click

from memstrata.jsonable import to_jsonable
from memstrata.workspace.textfile import visible_text


def echo_json(value: Any) -> None:
    click.echo(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2, sort_keys=True))


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 file``, ``2 files``: a count with its noun in the number it takes."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def padded(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` columns (at least one)."""
    return text + " " * max(1, width - display_width(text))


def one_line(text: str, width: int = 100) -> str:
    """``text`` on one line of at most ``width`` characters, control characters shown as
    their pictures (a transcript's escape sequence must not retitle the terminal)."""
    flat = " ".join(visible_text(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


class ProgressBar:
    """A bar on standard error, shown on a terminal only, for work whose size is known once it
    starts: call it with (done, total); ``close`` ends the line. Scripts see nothing."""

    def __init__(self, label: str) -> None:
        self.label = label
        self._bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if not sys.stderr.isatty():
                return
            self._bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self._bar.__enter__()
        self._bar.length = max(self._bar.length or 0, total)
        self._bar.update(done - self._bar.pos)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None
