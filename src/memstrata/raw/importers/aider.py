"""Import aider's ``.aider.chat.history.md``: append-only Markdown, one section per aider run.

* ``# aider chat started at YYYY-MM-DD HH:MM:SS`` opens a session. The time is aider's local clock
  with no zone; it is stored as given and read as UTC. Messages carry no time of their own, so
  every turn gets the session's start time.
* ``#### `` lines are user input; consecutive ones are one multi-line input (aider writes a blank
  line before each new input).
* ``> `` lines are aider's own output (startup banner, ``Tokens: … Cost: …``, ``Applied edit to``,
  ``Commit <sha> <msg>``, ``^C KeyboardInterrupt``); consecutive ones are one ``system`` turn. The
  banner is kept: it names the aider version and model of the run.
* Every other line is the assistant's reply, kept as Markdown (edit blocks included); blank lines
  inside a reply stay in it.

aider ends each of its own messages with two spaces, so a ``> `` line without them that follows
aider output or user input starts a multi-line message whose later lines carry no ``> ``; they
belong to the ``system`` turn up to the line that ends in two spaces. An assistant blockquote
(``> `` right after reply text) is read as aider output, as aider's own parser reads it.

aider writes whole lines, so a last line without its line end is one still being written (or a
cut copy): it is held back, named as a problem, until it is complete. A byte that is no UTF-8 is
read as U+FFFD and named as a problem; its line still counts.

The session id hashes the file name, the header line and the header's byte offset: nothing written
later changes it, and two runs started in the same second stay apart. Runs that logged nothing but
their header have no turns and are dropped.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from memstrata.clock import iso_or_empty
from memstrata.model import Problem, Session, Turn
from memstrata.raw.importers import ParsedFile, ParsedSession
from memstrata.raw.importers.lines import MAX_LINE_BYTES, bounded_lines
from memstrata.raw.importers.turns import cap_text, title_line

FORMAT = "aider"
HARNESS = "aider"

HEADER = "# aider chat started at"
UNFINISHED = (
    "last line has no line end (aider is still writing it, or the file was cut short): "
    "not imported until it is complete"
)


@dataclass(slots=True)
class _Block:
    """Consecutive lines that make one turn."""

    role: str
    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join(self.lines).strip("\n").rstrip()


@dataclass(slots=True)
class _Run:
    """One ``# aider chat started at`` section."""

    session_id: str
    time: str
    blocks: list[_Block] = field(default_factory=list)


def sniff(path: Path, head: bytes) -> bool:
    """Claim a ``.md`` file with a line starting ``# aider chat started at``."""
    return path.suffix.lower() == ".md" and b"\n" + HEADER.encode() in b"\n" + head


def parse(path: Path, agent: str, max_line_bytes: int = MAX_LINE_BYTES) -> ParsedFile:
    """Read every run in the history file as its own session; a line longer than
    ``max_line_bytes`` is reported and skipped."""
    runs, problems = _read_runs(path, max_line_bytes)
    sessions = tuple(
        parsed for parsed in (_session(path, agent, run) for run in runs) if parsed is not None
    )
    return ParsedFile(str(path), FORMAT, sessions, tuple(problems))


def _read_runs(path: Path, max_line_bytes: int) -> tuple[list[_Run], list[Problem]]:
    runs: list[_Run] = []
    problems: list[Problem] = []
    reader = _BlockReader()
    offset = 0
    orphan_reported = False
    with path.open("rb") as handle:
        for number, (raw, taken) in enumerate(bounded_lines(handle, max_line_bytes), start=1):
            start, offset = offset, offset + taken
            if raw is None:
                message = f"line longer than {max_line_bytes} bytes, skipped"
                problems.append(Problem(str(path), number, message))
                continue
            if not raw.endswith(b"\n"):
                # Only the last line can lack its line end: aider is writing it, or the file was
                # cut. Stored now, the fragment would stay glued to the turn before for good
                # (the store keeps the longer text), so it waits; the problem keeps the file
                # from being marked imported, and it is read again in full. Blanks hold nothing.
                if raw.strip():
                    problems.append(Problem(str(path), number, UNFINISHED))
                break
            line, bad_at = _decode(raw)
            if bad_at is not None:
                message = f"invalid UTF-8 at byte {bad_at}, read as \ufffd; the line is kept"
                problems.append(Problem(str(path), number, message))
            if line.startswith(HEADER):
                runs.append(_Run(_session_id(path, line, start), _header_time(line)))
                reader = _BlockReader()
                continue
            if not runs:
                if line.strip() and not orphan_reported:
                    orphan_reported = True
                    message = f"text before the first {HEADER!r} line, skipped"
                    problems.append(Problem(str(path), number, message))
                continue
            block = reader.feed(line)
            if block is not None:
                runs[-1].blocks.append(block)
    return runs, problems


def _decode(raw: bytes) -> tuple[str, int | None]:
    """The line without its line end, each byte that is no UTF-8 read as U+FFFD (as an editor
    shows it: one bad byte must not cost the turn, or a header the whole run), and where in the
    line the first such byte stands, if any."""
    try:
        return raw.decode("utf-8").rstrip("\r\n"), None
    except UnicodeDecodeError as error:
        return raw.decode("utf-8", errors="replace").rstrip("\r\n"), error.start


class _BlockReader:
    """Groups the lines of one run into blocks; each line is placed by what came before it only."""

    def __init__(self) -> None:
        self.current: _Block | None = None
        self.previous = "blank"  # kind of the previous line
        self.continued = False  # inside a multi-line aider message

    def feed(self, line: str) -> _Block | None:
        """Place ``line``; return a block when it starts one."""
        kind = _kind(line)
        if self.continued and kind in ("text", "blank"):
            self._append(line.rstrip())
            self.continued = not line.endswith("  ")
            self.previous = "continued" if self.continued else "output"
            return None
        self.continued = False
        started = None
        if kind == "user":
            started = self._extend("user", line[5:].rstrip(), joins=self.previous == "user")
        elif kind == "output":
            joins = self.previous in ("output", "continued", "quote")
            started = self._extend("system", line[2:].rstrip(), joins=joins)
            if not line.endswith("  "):
                # aider output ends in two spaces; without them the message goes on below,
                # unless this is a blockquote in a reply (not after aider output or user input).
                self.continued = self.previous in ("user", "output")
                kind = "continued" if self.continued else "quote"
        elif kind == "text":
            started = self._extend("assistant", line, joins=self._role() == "assistant")
        elif self._role() == "assistant":
            self._append("")
        self.previous = kind
        return started

    def _role(self) -> str:
        return self.current.role if self.current else ""

    def _extend(self, role: str, text: str, *, joins: bool) -> _Block | None:
        # An empty ``>`` line is aider spacing out its output; it carries nothing.
        lines = [text] if text or role != "system" else []
        if joins and self.current is not None and self.current.role == role:
            self.current.lines.extend(lines)
            return None
        self.current = _Block(role, lines)
        return self.current

    def _append(self, text: str) -> None:
        if self.current is not None:
            self.current.lines.append(text)


def _kind(line: str) -> str:
    if line.startswith("#### ") or line.rstrip() == "####":
        return "user"
    if line.startswith("> ") or line.rstrip() == ">":
        return "output"
    return "text" if line.strip() else "blank"


def _session(path: Path, agent: str, run: _Run) -> ParsedSession | None:
    blocks = [(block.role, block.text()) for block in run.blocks]
    blocks = [(role, text) for role, text in blocks if text]
    if not blocks:
        return None
    title = next((title_line(text) for role, text in blocks if role == "user"), "")
    session = Session(
        id=run.session_id,
        harness=HARNESS,
        agent=agent,
        started=run.time,
        ended=run.time,
        source_path=str(path),
        title=title,
    )
    turns = tuple(
        Turn(session_id=run.session_id, index=index, role=role, time=run.time, text=cap_text(text))
        for index, (role, text) in enumerate(blocks)
    )
    return ParsedSession(session, turns)


def _session_id(path: Path, header: str, offset: int) -> str:
    # surrogateescape: a file name that is no UTF-8 hashes as its own bytes
    key = f"{path.name}\n{header.rstrip()}\n{offset}".encode("utf-8", "surrogateescape")
    return f"aider:{hashlib.sha256(key).hexdigest()[:16]}"


def _header_time(header: str) -> str:
    return iso_or_empty(header[len(HEADER) :].strip())
