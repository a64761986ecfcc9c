"""The Rules stratum: the files injected every turn, and how they sit against their caps."""

from __future__ import annotations

from dataclasses import dataclass

from memstrata.config import Config
from memstrata.workspace.layout import Workspace
from memstrata.workspace.textfile import read_mending

#: the one rules file the context may leave out when the rules are over budget
SESSION_STATE = "memory/SESSION-STATE.md"


@dataclass(frozen=True, slots=True)
class RulesFile:
    """One rules file: where it is, its text and its size."""

    path: str
    text: str
    exists: bool
    #: lines (from 1) whose bytes are no UTF-8, read with U+FFFD in their place
    mended_lines: tuple[int, ...] = ()

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def bytes(self) -> int:
        return len(self.text.encode("utf-8"))

    @property
    def pinned(self) -> bool:
        """Injected every turn or the context fails; the session state alone may be dropped."""
        return self.path != SESSION_STATE

    @property
    def injected(self) -> str:
        """The file as the context injects it, under its path ("" when it is empty)."""
        text = self.text.replace("\r\n", "\n").strip()  # a file saved with CRLF line ends
        return f"## {self.path}\n{text}\n\n" if text else ""

    @property
    def injected_bytes(self) -> int:
        return len(self.injected.encode("utf-8"))


@dataclass(frozen=True, slots=True)
class RulesReport:
    """The rules files against the resident budget and the MEMORY.md cap."""

    files: tuple[RulesFile, ...]
    resident_budget_bytes: int
    memory_cap_chars: int

    @property
    def total_bytes(self) -> int:
        """What the rules take in the context, headings included (the budget's measure)."""
        return sum(item.injected_bytes for item in self.files)

    @property
    def pinned_bytes(self) -> int:
        return sum(item.injected_bytes for item in self.files if item.pinned)

    @property
    def memory_chars(self) -> int:
        return next((item.chars for item in self.files if item.path == "MEMORY.md"), 0)

    @property
    def mended(self) -> list[str]:
        """A note for each rules file holding bytes that are no UTF-8 (injected mended)."""
        notes = []
        for item in self.files:
            if item.mended_lines:
                first, *more = item.mended_lines
                also = f" (also line {', '.join(map(str, more))})" if more else ""
                notes.append(
                    f"{item.path}:{first}: invalid UTF-8{also}, injected with U+FFFD in its "
                    "place: save the file as UTF-8"
                )
        return notes

    @property
    def warnings(self) -> list[str]:
        notes = []
        budget = self.resident_budget_bytes
        if self.pinned_bytes > budget:
            notes.append(
                f"the rules files take {self.pinned_bytes} bytes in the context without "
                f"{SESSION_STATE}, over the resident budget of {budget}: no context can be "
                "compiled until they are shortened (or [budgets] resident_bytes raised)"
            )
        elif self.total_bytes > budget:
            notes.append(
                f"the rules files take {self.total_bytes} bytes in the context, over the "
                f"resident budget of {budget}: the context leaves out {SESSION_STATE}"
            )
        notes.extend(self.mended)
        if self.memory_chars > self.memory_cap_chars:
            notes.append(
                f"MEMORY.md is {self.memory_chars} chars, over its {self.memory_cap_chars}-char "
                "cap: move detail into wiki topics"
            )
        return notes


def read_rules(workspace: Workspace, config: Config) -> RulesReport:
    """Read every rules file that exists (missing ones count as empty).

    A byte that is no UTF-8 (a file saved as Latin-1 by an editor) is read as U+FFFD and
    named in :attr:`RulesReport.warnings`: failing would leave every turn without its rules.
    """
    files = []
    for path in workspace.rules_paths():
        exists = path.is_file()
        text, mended = read_mending(path) if exists else ("", ())
        files.append(RulesFile(workspace.relative(path), text, exists, mended))
    return RulesReport(tuple(files), config.budgets.resident_bytes, config.rules.memory_max_chars)
