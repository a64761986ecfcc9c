"""The Rules stratum: the files injected every turn, and how they sit against their caps."""

from __future__ import annotations

from dataclasses import dataclass

from memstrata.config import Config
from memstrata.workspace.layout import Workspace
from memstrata.workspace.textfile import read_text


@dataclass(frozen=True, slots=True)
class RulesFile:
    """One rules file: where it is, its text and its size."""

    path: str
    text: str
    exists: bool

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def bytes(self) -> int:
        return len(self.text.encode("utf-8"))


@dataclass(frozen=True, slots=True)
class RulesReport:
    """The rules files against the resident budget and the MEMORY.md cap."""

    files: tuple[RulesFile, ...]
    resident_budget_bytes: int
    memory_cap_chars: int

    @property
    def total_bytes(self) -> int:
        return sum(item.bytes for item in self.files)

    @property
    def memory_chars(self) -> int:
        return next((item.chars for item in self.files if item.path == "MEMORY.md"), 0)

    @property
    def warnings(self) -> list[str]:
        notes = []
        if self.total_bytes > self.resident_budget_bytes:
            notes.append(
                f"rules files total {self.total_bytes} bytes, over the resident budget of "
                f"{self.resident_budget_bytes}: the context will trim them"
            )
        if self.memory_chars > self.memory_cap_chars:
            notes.append(
                f"MEMORY.md is {self.memory_chars} chars, over its {self.memory_cap_chars}-char "
                "cap: move detail into wiki topics"
            )
        return notes


def read_rules(workspace: Workspace, config: Config) -> RulesReport:
    """Read every rules file that exists (missing ones count as empty)."""
    files = []
    for path in workspace.rules_paths():
        exists = path.is_file()
        text = read_text(path) if exists else ""
        files.append(RulesFile(workspace.relative(path), text, exists))
    return RulesReport(tuple(files), config.budgets.resident_bytes, config.rules.memory_max_chars)
