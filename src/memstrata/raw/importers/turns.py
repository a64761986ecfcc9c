"""What every importer does to a turn the same way: cap its text, shorten tool input, title it."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

#: One turn's text is capped: a whole file pasted into a prompt is not worth keeping twice.
MAX_TURN_CHARS = 20_000
MAX_TOOL_INPUT_CHARS = 500
MAX_TITLE_CHARS = 80

_CUT = re.compile(r"… \[truncated (\d+) chars\]\Z")


def cap_text(text: str) -> str:
    """Cut ``text`` to :data:`MAX_TURN_CHARS`, saying how much was cut."""
    if len(text) <= MAX_TURN_CHARS:
        return text
    return f"{text[:MAX_TURN_CHARS]}… [truncated {len(text) - MAX_TURN_CHARS} chars]"


def split_cap(text: str) -> tuple[str, int | None]:
    """The text :func:`cap_text` kept and how many characters it cut (``None``: not cut)."""
    cut = _CUT.search(text) if text.endswith(" chars]") else None
    return (text[: cut.start()], int(cut.group(1))) if cut else (text, None)


def tool_call(name: Any, arguments: Any) -> dict[str, str]:
    """A tool call with its input as one short string (JSON arguments normalised)."""
    if isinstance(arguments, str):
        text = arguments
        with contextlib.suppress(ValueError):
            text = json.dumps(json.loads(arguments), sort_keys=True, ensure_ascii=False)
    elif arguments is None:
        text = ""
    else:
        text = json.dumps(arguments, sort_keys=True, ensure_ascii=False)
    if len(text) > MAX_TOOL_INPUT_CHARS:
        text = text[: MAX_TOOL_INPUT_CHARS - 1] + "…"
    return {"name": str(name or ""), "input": text}


def title_line(text: str) -> str:
    """The first non-blank line of ``text``, cut to :data:`MAX_TITLE_CHARS`."""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return line if len(line) <= MAX_TITLE_CHARS else line[: MAX_TITLE_CHARS - 1] + "…"


def first_json_object(head: bytes) -> dict[str, Any] | None:
    """The first non-blank line of ``head`` as a JSON object, or ``None``."""
    for raw in head.splitlines():
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None
        return value if isinstance(value, dict) else None
    return None
