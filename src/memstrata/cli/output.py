"""Printing for the CLI: JSON for machines, short lines for people."""

from __future__ import annotations

import json
from typing import Any

import click

from memstrata.jsonable import to_jsonable


def echo_json(value: Any) -> None:
    click.echo(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2, sort_keys=True))


def one_line(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
