"""Import transcript files or whole folders (``~/.claude/projects``, ``~/.codex/sessions``).

Each file is parsed by its importer and upserted into the raw store. A file unchanged since its
last import (same size and mtime) is skipped without parsing; a changed or longer one is parsed
again and only new or grown turns are written. A session whose id already holds another
conversation (another file, a fork) is stored apart under an id of its own, listed in
``IngestReport.forks``. Bad lines are counted and reported by line; the rest of the file still
imports.

Only a file that was read as a transcript, in full, is marked imported: one with bad lines, one
that no importer claims, and one that yields no session in the ``--format`` asked for (and does
not look like it) are read again next time.

A stream (``-`` for standard input, a pipe) is copied to a file first and imported from there
(:mod:`memstrata.raw.spool`); it leaves no mark, as there is no file to find unchanged.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import BinaryIO, TypeVar

from memstrata.errors import InputError
from memstrata.model import Problem, Session, Turn
from memstrata.raw.importers import FORMATS, detect_format, is_format, parse_file
from memstrata.raw.spool import STDIN, is_stream, spooled, stream_label
from memstrata.raw.store import RawStore
from memstrata.redaction import redact_secrets
from memstrata.workspace.textfile import mend_utf8

CANDIDATE_SUFFIXES = (".jsonl", ".json", ".md")
#: hidden files a folder walk still reads: the transcripts harnesses keep under such names
#: (aider's history in each project folder, :mod:`memstrata.raw.importers.aider`)
HIDDEN_TRANSCRIPTS = frozenset({".aider.chat.history.md"})


@dataclass(slots=True)
class IngestReport:
    """Totals of one ingest run."""

    files: int = 0
    skipped_unchanged: int = 0
    #: files found in folders that are no transcript in the format asked for (auto: in any)
    skipped_unknown: int = 0
    unknown_files: list[str] = field(default_factory=list)
    #: empty files found in folders (an empty file named directly is a problem)
    empty_files: list[str] = field(default_factory=list)
    #: distinct sessions the files read hold (one held by two files, a copy, counts once)
    sessions: int = 0
    turns_added: int = 0
    turns_updated: int = 0
    #: stored turns this import held less of (an older or cut-short copy): left as stored
    turns_kept: int = 0
    #: sessions moved to the agent key the import named: session id → the key they had
    agents_changed: dict[str, str] = field(default_factory=dict)
    #: sessions whose id already held another conversation, stored apart: the id each was
    #: stored under → the id its file gave (see :mod:`memstrata.raw.store`)
    forks: dict[str, str] = field(default_factory=dict)
    #: secrets replaced by placeholders before storing, by kind
    redacted: dict[str, int] = field(default_factory=dict)
    #: turns stored with U+FFFD for text no UTF-8 can hold (a JSON ``\udcff`` escape)
    mended_turns: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: no file was read as a transcript, nor skipped as one already imported
    found_no_transcript: bool = False


_Record = TypeVar("_Record", Session, Turn)


def _mended(session: Session, turns: tuple[Turn, ...]) -> tuple[Session, tuple[Turn, ...], int]:
    """The session and its turns with each character UTF-8 cannot hold made U+FFFD, and how
    many turns held one. Valid JSON can say ``"\\udcff"``, which no text store takes: the
    turn is kept with the mark of what was lost, as an editor shows a bad byte."""
    mended = [_mend_fields(turn) for turn in turns]
    count = sum(1 for turn, fixed in zip(turns, mended, strict=True) if fixed is not turn)
    return _mend_fields(session), tuple(mended), count


def _mend_fields(record: _Record) -> _Record:
    changes = {
        each.name: mended
        for each in fields(record)
        if isinstance(value := getattr(record, each.name), str)
        and (mended := mend_utf8(value)) is not value
    }
    return replace(record, **changes) if changes else record


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


def paths_named(paths: object) -> list[Path]:
    """The paths a caller named to import: one path (text or a ``Path``) is one, not the
    letters of its name; anything else (``None``, a number, bytes, an empty name, which would
    import the current folder, one holding a NUL) is an :class:`InputError`.

    ``-`` is standard input. A file of that name is named as text another way (``./-``), which
    ``Path`` would read as ``-`` again, so it is kept as an absolute path."""
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    if not isinstance(paths, Iterable) or isinstance(paths, bytes | bytearray):
        raise InputError(
            "paths to import are a path (text or a Path) or a list of them, not "
            f"{type(paths).__name__}"
        )
    found = []
    for path in paths:
        if not isinstance(path, str | os.PathLike):
            raise InputError(f"a path to import is text or a Path, not {type(path).__name__}")
        if not str(path).strip():
            raise InputError("a path to import is empty; name a file or a folder ('.' for here)")
        if "\x00" in str(path):
            raise InputError(f"{str(path)!r}: a path to import holds a NUL character")
        named = Path(path)
        if named == STDIN and isinstance(path, str) and path != "-":
            named = named.absolute()
        found.append(named)
    return found


def collect_files(paths: Iterable[Path]) -> list[Path]:
    """Expand folders into their candidate files (sorted); files and streams named directly
    (``-`` for standard input, a pipe) are kept, and so is a path that is not there: the
    import names it as a problem and goes on with the rest (``ingest ~/.claude/projects
    ~/.codex/sessions`` on a machine with one of the two)."""
    try:
        return _collect(paths)
    except OSError as error:  # a name the system refuses to look at (too long)
        where = str(error.filename or "a path")[:80]
        raise InputError(f"{where}: cannot look at it ({error.strerror})") from error


def _collect(paths: Iterable[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if is_stream(path):
            if path in found:
                raise InputError(f"{stream_label(path)}: named twice; a stream can be read once")
            found.append(path)
        elif path.is_dir():
            found.extend(sorted(_walk(path)))
        elif path.is_file():
            found.append(path)
        elif path.exists():
            # a device or a socket may never end, and has no size to mark it by
            raise InputError(
                f"{path}: not a regular file (a device or a socket); save the transcript to a "
                "file and import that"
            )
        else:
            found.append(path)
    return found


def _walk(folder: Path) -> Iterator[Path]:
    """The candidate files under ``folder``, and each folder that could not be listed: the
    import names those as problems rather than pass over what they hold in silence."""
    unlisted: list[Path] = []
    for parent, _folders, names in os.walk(folder, onerror=lambda e: unlisted.append(e.filename)):
        for name in names:
            path = Path(parent, name)
            if path.suffix not in CANDIDATE_SUFFIXES:
                continue
            if name.startswith(".") and name not in HIDDEN_TRANSCRIPTS:
                continue
            if path.is_file() and not _is_subagent_meta(path):
                yield path
    yield from (Path(each) for each in unlisted)


def _is_subagent_meta(path: Path) -> bool:
    """``agent-<id>.meta.json`` beside ``agent-<id>.jsonl``: read with it, not on its own."""
    name = path.name
    return name.endswith(".meta.json") and path.with_name(f"{name[:-10]}.jsonl").is_file()


def ingest_files(
    store: RawStore,
    files: list[Path],
    format_name: str = "auto",
    agent: str | None = None,
    named: frozenset[Path] = frozenset(),
    on_file: Callable[[Path], None] | None = None,
    redact: bool = True,
    spool_dir: Path | None = None,
    stdin: BinaryIO | None = None,
    max_line_bytes: int | None = None,
) -> IngestReport:
    """Import ``files`` into ``store``; ``named`` files it cannot import are problems.

    A file named directly that is empty, or no transcript in ``format_name`` (auto: in any
    format), is a problem; one found in a folder is listed in the report and skipped. A stream
    among ``files`` (``-`` reads ``stdin``, by default standard input; or a pipe) is copied into
    ``spool_dir`` and imported from there as a file named directly.

    With ``redact`` (the default, ``[raw] redact_secrets``) every turn's text and tool input
    has its secrets replaced by typed placeholders before it is stored; the report counts them.
    A line longer than ``max_line_bytes`` (``[raw] max_line_bytes``; default: the importers'
    own) is a problem naming it, and skipped.
    """
    if format_name != "auto" and format_name not in FORMATS:
        raise InputError(f"unknown format {format_name!r}; expected auto or {', '.join(FORMATS)}")
    report = IngestReport()
    reading = _Reading(format_name, agent, redact, max_line_bytes)
    stored: set[str] = set()
    for path in files:
        if on_file is not None:
            on_file(path)
        if not is_stream(path):
            stored |= _ingest_one(store, path, reading, path in named, report)
            continue
        if spool_dir is None:
            raise InputError(f"{stream_label(path)}: a stream needs a folder to copy it into")
        with spooled(path, spool_dir, format_name, stdin) as copy:
            label = stream_label(path)
            stored |= _ingest_one(store, copy, reading, True, report, label)
    report.sessions = len(stored)
    report.found_no_transcript = report.files == 0 and report.skipped_unchanged == 0
    return report


@dataclass(frozen=True, slots=True)
class _Reading:
    """How the files of one ingest are read (see :func:`ingest_files`)."""

    format_name: str
    agent: str | None
    redact: bool
    max_line_bytes: int | None


def _ingest_one(
    store: RawStore,
    path: Path,
    reading: _Reading,
    named: bool,
    report: IngestReport,
    stream: str | None = None,
) -> set[str]:
    """Import one file; ``stream`` names the stream ``path`` is a copy of, in its place. The
    ids of the sessions stored from it.

    A file (or a folder the walk could not list) that cannot be read is a problem; the other
    files still import, and it is not marked, so it is read once it can be."""
    shown = stream or str(path)
    if path.is_dir():
        report.problems.append(Problem(shown, None, f"cannot list the folder: {_unlisted(path)}"))
        return set()
    if not path.exists() and not path.is_symlink():
        report.problems.append(Problem(shown, None, "no such file or folder"))
        return set()
    try:
        return _import_file(store, path, reading, named, report, stream)
    except OSError as error:
        reason = error.strerror or str(error)
        report.problems.append(Problem(shown, None, f"cannot read the file: {reason}"))
        return set()


def _unlisted(folder: Path) -> str:
    """Why the walk could not list ``folder``."""
    try:
        os.listdir(folder)
    except OSError as error:
        return error.strerror or str(error)
    return "it could not be listed while its parent was walked; import again"


def _import_file(
    store: RawStore,
    path: Path,
    reading: _Reading,
    named: bool,
    report: IngestReport,
    stream: str | None,
) -> set[str]:
    format_name, agent = reading.format_name, reading.agent
    shown = stream or str(path)
    source = stream or mend_utf8(str(path.resolve()))  # a name that is no UTF-8, as shown
    stat = path.stat()
    # The mark vouches that an unchanged file (same path, size and mtime) has nothing more to
    # give. A content hash would not make that truer: the file is unchanged either way. It holds
    # because the store only grows (RawStore.upsert never trades a turn for one holding less), so
    # no other file takes out what this one put in. A mark made in another --format does not
    # count: that format may have read the file wrongly. Nor does one made under another agent
    # named: its sessions move to the one named now. A stream's copy is new each time.
    mark = None if stream else store.import_mark(source)
    if (
        mark is not None
        and (mark.size, mark.mtime_ns) == (stat.st_size, stat.st_mtime_ns)
        and format_name in ("auto", mark.format)
        and agent in (None, mark.agent)
    ):
        report.skipped_unchanged += 1
        return set()
    if stat.st_size == 0:
        if named:
            nothing = "empty input" if stream else "empty file"
            report.problems.append(Problem(shown, None, f"{nothing}, nothing to import"))
        else:
            report.empty_files.append(shown)
        return set()
    chosen = format_name if format_name != "auto" else detect_format(path)
    if chosen is None:
        _skip_unknown(shown, "not a transcript format memstrata knows; try --format", named, report)
        return set()
    parsed = parse_file(path, chosen, agent, reading.max_line_bytes)
    if not parsed.sessions and format_name != "auto" and not is_format(path, chosen):
        # Not a failure of the file but of the format asked for; never marked, so the right
        # format (or auto) can still import it.
        detected = detect_format(path)
        looks = f"it looks like {detected}" if detected else "no format memstrata knows claims it"
        what = "the input" if stream else "the file"
        message = f"no {chosen} session found: {what} does not match --format {chosen} ({looks})"
        first = parsed.problems[0] if parsed.problems else None
        if first is not None and first.line is not None:
            # what the importer tripped on first says why it does not match
            message += f"; line {first.line}: {first.message}"
        _skip_unknown(shown, message, named, report)
        return set()
    report.files += 1
    report.problems.extend(
        replace(problem, path=shown) if stream else problem for problem in parsed.problems
    )
    stored: set[str] = set()
    for item in parsed.sessions:
        session, turns, mended = _mended(item.session, item.turns)
        if stream:
            session = replace(session, source_path=stream)
        report.mended_turns += mended
        if reading.redact:
            turns = tuple(_redacted(turn, report.redacted) for turn in turns)
            # The title is the first line of a turn: its redaction was counted there.
            session = replace(session, title=redact_secrets(session.title).text)
        counts = store.upsert(session, turns, agent_named=agent is not None)
        stored.add(counts.session_id)
        if counts.agent_was:
            report.agents_changed[counts.session_id] = counts.agent_was
        report.turns_added += counts.added
        report.turns_updated += counts.updated
        report.turns_kept += counts.kept
        if counts.session_id != session.id:
            report.forks[counts.session_id] = session.id
    if not parsed.problems and not stream:
        # Only a clean import is remembered as done: a file with bad lines is retried next time.
        store.set_import_mark(source, chosen, stat.st_size, stat.st_mtime_ns, agent or "")
    return stored


def _skip_unknown(shown: str, message: str, named: bool, report: IngestReport) -> None:
    """A file named directly is a problem; one found in a folder is skipped and listed."""
    if named:
        report.problems.append(Problem(shown, None, message))
    else:
        report.skipped_unknown += 1
        report.unknown_files.append(shown)
