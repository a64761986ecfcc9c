"""Import transcript files or whole folders (``~/.claude/projects``, ``~/.codex/sessions``).

Each file is parsed by its importer and upserted into the raw store. A file unchanged since its
last import (same size and mtime) is skipped without parsing; a changed or longer one is parsed
again and only new or grown turns are written. Bad lines are counted and reported by line; the
rest of the file still imports.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from memstrata.errors import InputError
from memstrata.model import Problem, Turn
from memstrata.raw.importers import FORMATS, detect_format, parse_file
from memstrata.raw.store import RawStore
from memstrata.redaction import redact_secrets

CANDIDATE_SUFFIXES = (".jsonl", ".json", ".md")


@dataclass(slots=True)
class IngestReport:
    """Totals of one ingest run."""

    files: int = 0
    skipped_unchanged: int = 0
    skipped_unknown: int = 0
    sessions: int = 0
    turns_added: int = 0
    turns_updated: int = 0
    #: secrets replaced by placeholders before storing, by kind
    redacted: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def _redacted(turn: Turn, counts: dict[str, int]) -> Turn:
    text = redact_secrets(turn.text)
    calls = redact_secrets(turn.tool_calls)
    if not text.findings and not calls.findings:
        return turn
    for finding in (*text.findings, *calls.findings):
        counts[finding.kind] = counts.get(finding.kind, 0) + 1
    return replace(turn, text=text.text, tool_calls=_valid_json(calls.text))


def _valid_json(redacted: str) -> str:
    """Tool calls stay valid JSON; if a placeholder broke it, keep no calls rather than leak."""
    try:
        json.loads(redacted)
    except json.JSONDecodeError:
        return "[]"
    return redacted


def collect_files(paths: Iterable[Path]) -> list[Path]:
    """Expand folders into their candidate files (sorted); files named directly are kept."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(_walk(path)))
        elif path.exists():
            found.append(path)
        else:
            raise InputError(f"{path}: no such file or folder")
    return found


def _walk(folder: Path) -> Iterator[Path]:
    for path in folder.rglob("*"):
        if path.suffix in CANDIDATE_SUFFIXES and path.is_file() and not path.name.startswith("."):
            yield path


def ingest_files(
    store: RawStore,
    files: list[Path],
    format_name: str = "auto",
    agent: str | None = None,
    named: frozenset[Path] = frozenset(),
    on_file: Callable[[Path], None] | None = None,
    redact: bool = True,
) -> IngestReport:
    """Import ``files`` into ``store``; ``named`` files that no importer claims are problems.

    With ``redact`` (the default, ``[raw] redact_secrets``) every turn's text and tool input
    has its secrets replaced by typed placeholders before it is stored; the report counts them.
    """
    if format_name != "auto" and format_name not in FORMATS:
        raise InputError(f"unknown format {format_name!r}; expected auto or {', '.join(FORMATS)}")
    report = IngestReport()
    for path in files:
        if on_file is not None:
            on_file(path)
        _ingest_one(store, path, format_name, agent, path in named, report, redact)
    return report


def _ingest_one(
    store: RawStore,
    path: Path,
    format_name: str,
    agent: str | None,
    named: bool,
    report: IngestReport,
    redact: bool,
) -> None:
    source = str(path.resolve())
    stat = path.stat()
    if store.import_mark(source) == (stat.st_size, stat.st_mtime_ns):
        report.skipped_unchanged += 1
        return
    chosen = format_name if format_name != "auto" else detect_format(path)
    if chosen is None:
        if named:
            report.problems.append(
                Problem(str(path), None, "not a transcript format memstrata knows; try --format")
            )
        else:
            report.skipped_unknown += 1
        return
    parsed = parse_file(path, chosen, agent)
    report.files += 1
    report.problems.extend(parsed.problems)
    for item in parsed.sessions:
        session, turns = item.session, item.turns
        if redact:
            turns = tuple(_redacted(turn, report.redacted) for turn in turns)
            # The title is the first line of a turn: its redaction was counted there.
            session = replace(session, title=redact_secrets(session.title).text)
        counts = store.upsert(session, turns)
        report.sessions += 1
        report.turns_added += counts.added
        report.turns_updated += counts.updated
    if not parsed.problems:
        # Only a clean import is remembered as done: a file with bad lines is retried next time.
        store.set_import_mark(source, chosen, stat.st_size, stat.st_mtime_ns)
