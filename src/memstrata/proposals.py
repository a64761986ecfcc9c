"""``memory/proposals/<id>.md``: what the gate and the gardener ask a person to rule on.

Each proposal is one Markdown file a person can read: both sides of a conflict with their sources,
or the quarantined text, and what each ruling would do. A fenced JSON block at the end holds the
same data for the machine; the id is a hash of what the proposal is about, so proposing the same
thing twice finds the same file.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import get_args

from memstrata.errors import InputError, ParseError
from memstrata.model import Problem, Proposal, ProposalKind, ProposalSide, ProposalStatus
from memstrata.workspace.atomic import write_atomic
from memstrata.workspace.textfile import read_text

#: what the gardener proposes; a person's acceptance lets its next run carry the step out
GARDEN_KINDS: tuple[ProposalKind, ...] = ("archive", "merge", "split")

_DATA = re.compile(r"```json\n(\{.*\})\n```\s*$", re.DOTALL)
_ID = re.compile(r"^p-[0-9a-f]{10}$")


def proposal_id(kind: ProposalKind, *parts: str) -> str:
    """Deterministic id from what the proposal is about (never from wall-clock time)."""
    digest = hashlib.sha256("\x00".join((kind, *sorted(parts))).encode()).hexdigest()
    return f"p-{digest[:10]}"


@dataclass(frozen=True, slots=True)
class ProposalListing:
    """The proposals that could be read, and a problem naming each file that could not."""

    proposals: tuple[Proposal, ...]
    problems: tuple[Problem, ...]


class ProposalStore:
    """Reads and writes proposal files; the caller holds the workspace lock for writes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, pid: str) -> Path:
        if not isinstance(pid, str) or not _ID.match(pid):
            raise InputError(f"{pid!r} is not a proposal id (like p-0123456789)")
        return self.folder / f"{pid}.md"

    def put(self, proposal: Proposal) -> None:
        write_atomic(self.path(proposal.id), render_proposal(proposal))

    def get(self, pid: str) -> Proposal:
        path = self.path(pid)
        if not path.exists():
            raise InputError(f"no proposal {pid} (looked in {path})")
        return parse_proposal(read_text(path), path)

    def exists(self, pid: str) -> bool:
        return self.path(pid).exists()

    def list(self, status: str | None = None) -> list[Proposal]:
        """The proposals that can be read, by id (:meth:`read_all` names the rest)."""
        return list(self.read_all(status).proposals)

    def read_all(self, status: str | None = None) -> ProposalListing:
        """Read every proposal (of ``status``); a file that cannot be read is a problem."""
        if status is not None and status not in get_args(ProposalStatus):
            raise InputError(
                f"unknown proposal status {status!r}; expected one of "
                f"{', '.join(get_args(ProposalStatus))}"
            )
        found: list[Proposal] = []
        problems: list[Problem] = []
        paths = sorted(self.folder.glob("p-*.md")) if self.folder.is_dir() else []
        for path in paths:
            try:
                proposal = parse_proposal(read_text(path), path)
            except ParseError as error:
                problems.append(Problem(error.path, error.line, error.problem))
                continue
            if status is None or proposal.status == status:
                found.append(proposal)
        return ProposalListing(tuple(found), tuple(problems))

    def resolve(self, pid: str, status: str, ruling: str, when: str) -> Proposal:
        resolved = replace(self.get(pid), status=status, ruling=ruling, resolved=when)  # type: ignore[arg-type]
        self.put(resolved)
        return resolved


def render_proposal(proposal: Proposal) -> str:
    """The Markdown a person reads, with the data block at the end."""
    lines = [f"# Proposal {proposal.id}: {proposal.kind}", ""]
    lines.append(f"Status: **{proposal.status}** · created {proposal.created}")
    if proposal.resolved:
        lines.append(f"Resolved {proposal.resolved}: {proposal.ruling}")
    lines += ["", proposal.reason, ""]
    for side in proposal.sides:
        where = ", ".join(
            part
            for part in (
                f"stated {side.observed}" if side.observed else "",
                f"source {side.source}" if side.source else "",
            )
            if part
        )
        lines.append(
            f"## {side.label.upper()} — {side.topic_id}" + (f" ({where})" if where else "")
        )
        lines += ["", *(f"> {line}" for line in side.text.strip().splitlines()), ""]
    if proposal.kind == "split" and proposal.text:
        lines += ["## Planned split", "", proposal.text.strip(), ""]
    if proposal.kind == "quarantine":
        lines += [
            "## Quarantined text" + (f" (source {proposal.source})" if proposal.source else ""),
            "",
            "~~~text",
            proposal.text,
            "~~~",
            "",
        ]
    lines += ["## What a ruling does", ""]
    lines += [f"- {line}" for line in _rulings(proposal)]
    data = json.dumps(asdict(proposal), ensure_ascii=False, indent=2, sort_keys=True)
    lines += [
        "",
        "<!-- memstrata data: edit the text above freely, not this block -->",
        "```json",
        data,
        "```",
        "",
    ]
    return "\n".join(lines)


def _rulings(proposal: Proposal) -> list[str]:
    pid = proposal.id
    if proposal.kind == "conflict":
        return [
            f"`memstrata proposals accept {pid} --keep a` keeps A and marks B superseded by it.",
            f"`memstrata proposals accept {pid} --keep b` keeps B and marks A superseded by it.",
            f"`memstrata proposals accept {pid} --keep both` makes both active again "
            "(they do not exclude each other).",
            f"`memstrata proposals reject {pid}` closes this proposal like --keep both.",
        ]
    if proposal.kind in GARDEN_KINDS:
        what = {
            "archive": "archives A (it stays on disk with its history and leaves recall)",
            "merge": "folds B into A (B is kept, marked superseded by A)",
            "split": "splits A into the linked topics above and trims A to its core",
        }[proposal.kind]
        return [
            f"`memstrata proposals accept {pid}` lets the next `memstrata garden` run carry it "
            f"out: it {what}; `memstrata ledger undo` reverses it.",
            f"`memstrata proposals reject {pid}` leaves everything as it is; the gardener does "
            "not propose this again.",
            "If a topic changes before the next run, the proposal lapses and a fresh one is made.",
        ]
    # A ruling decides what is stored, not what reaches the prompt: the hold is read from the
    # text alone on every write path (gate, topic write, an editor), so nothing written into
    # the files can let instruction-like text into recall. Rewording releases it.
    return [
        f"`memstrata proposals accept {pid}` stores the text in the wiki through the gate, never "
        "in the rules files. While it reads as an instruction to the model, its topic stays held "
        "out of recall and the Index, as every topic that reads so; reword it (`memstrata topic "
        "write`) to have it recalled.",
        f"`memstrata proposals reject {pid}` keeps it out for good (this file stays as a record).",
    ]


def parse_proposal(text: str, path: Path | str) -> Proposal:
    """Read a proposal back from its data block."""
    match = _DATA.search(text)
    if not match:
        raise ParseError(path, None, "proposal has no memstrata data block at its end")
    try:
        data = json.loads(match.group(1))
        sides = tuple(ProposalSide(**side) for side in data.pop("sides", ()))
        proposal = Proposal(sides=sides, **data)
    except json.JSONDecodeError as error:
        # the line in the file, not in the block (whose own line and column would mislead)
        line = text[: match.start(1)].count("\n") + error.lineno
        where = f"{error.msg} (column {error.colno})"
        raise ParseError(path, line, f"bad proposal data: {where}") from error
    except TypeError as error:
        line = text[: match.start(1)].count("\n") + 1
        raise ParseError(path, line, f"bad proposal data: {error}") from error
    wrong = _wrong_field(proposal, Path(path).stem)
    if wrong:
        raise ParseError(
            path, text[: match.start(1)].count("\n") + 1, f"bad proposal data: {wrong}"
        )
    return proposal


def _wrong_field(proposal: Proposal, file_id: str) -> str:
    """What in a parsed proposal is not what memstrata writes (a hand edit), or ""; a status
    or kind it does not know would hide the proposal from every list."""
    if proposal.kind not in get_args(ProposalKind):
        return f"kind {proposal.kind!r} is none of {', '.join(get_args(ProposalKind))}"
    if proposal.status not in get_args(ProposalStatus):
        return f"status {proposal.status!r} is none of {', '.join(get_args(ProposalStatus))}"
    if _ID.match(file_id) and proposal.id != file_id:
        return f"id {proposal.id!r} is not the file's name ({file_id})"
    fields = ("created", "reason", "text", "source", "ruling", "resolved")
    texts = [getattr(proposal, name) for name in fields]
    for side in proposal.sides:
        texts += [side.label, side.topic_id, side.text, side.observed, side.source]
    if not all(isinstance(value, str) for value in texts):
        return "a field that holds text holds something else"
    return ""
