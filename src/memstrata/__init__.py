"""memstrata: long-term memory for AI agents that stays small where it meets the model.

from memstrata import Memory
memory = Memory("~/agent-memory")
memory.remember("Ann prefers cortado", kind="opinion")   # → a Verdict
memory.recall("what does Ann drink?")                    # → RecallResult
memory.context("what does Ann drink?")                   # → Context, within budgets

Names are imported when first used (PEP 562): ``import memstrata.hooks.run`` for a prompt hook
then loads only what the hook needs, not the whole public surface.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memstrata.config import Config, load_config
    from memstrata.context.compile import Channel, Context, ContextItem
    from memstrata.errors import (
        BudgetExceeded,
        CapExceeded,
        ConfigError,
        DiskFull,
        EmbedderFailed,
        InputError,
        InvalidTopicId,
        LockTimeout,
        MemstrataError,
        ParseError,
        RawStoreDamaged,
        TopicNotFound,
        WorkspaceError,
        WorkspaceNotFound,
        WorkspaceReadOnly,
    )
    from memstrata.gate.verdicts import (
        Admitted,
        Conflicted,
        Merged,
        Quarantined,
        Rejected,
        Superseded,
        Verdict,
    )
    from memstrata.index_sync import SyncReport
    from memstrata.memory import Memory
    from memstrata.model import (
        Fact,
        HistoryEntry,
        JournalEntry,
        Proposal,
        ProposalSide,
        RecallItem,
        RecallResult,
        SearchHit,
        Session,
        Topic,
        TopicMeta,
        Turn,
    )
    from memstrata.status import Status

#: where each public name lives
_HOMES = {
    "Admitted": "memstrata.gate.verdicts",
    "BudgetExceeded": "memstrata.errors",
    "CapExceeded": "memstrata.errors",
    "Channel": "memstrata.context.compile",
    "Config": "memstrata.config",
    "ConfigError": "memstrata.errors",
    "Conflicted": "memstrata.gate.verdicts",
    "Context": "memstrata.context.compile",
    "ContextItem": "memstrata.context.compile",
    "DiskFull": "memstrata.errors",
    "EmbedderFailed": "memstrata.errors",
    "Fact": "memstrata.model",
    "HistoryEntry": "memstrata.model",
    "InputError": "memstrata.errors",
    "InvalidTopicId": "memstrata.errors",
    "JournalEntry": "memstrata.model",
    "LockTimeout": "memstrata.errors",
    "Memory": "memstrata.memory",
    "MemstrataError": "memstrata.errors",
    "Merged": "memstrata.gate.verdicts",
    "ParseError": "memstrata.errors",
    "Proposal": "memstrata.model",
    "ProposalSide": "memstrata.model",
    "Quarantined": "memstrata.gate.verdicts",
    "RawStoreDamaged": "memstrata.errors",
    "RecallItem": "memstrata.model",
    "RecallResult": "memstrata.model",
    "Rejected": "memstrata.gate.verdicts",
    "SearchHit": "memstrata.model",
    "Session": "memstrata.model",
    "Status": "memstrata.status",
    "Superseded": "memstrata.gate.verdicts",
    "SyncReport": "memstrata.index_sync",
    "Topic": "memstrata.model",
    "TopicMeta": "memstrata.model",
    "TopicNotFound": "memstrata.errors",
    "Turn": "memstrata.model",
    "Verdict": "memstrata.gate.verdicts",
    "WorkspaceError": "memstrata.errors",
    "WorkspaceNotFound": "memstrata.errors",
    "WorkspaceReadOnly": "memstrata.errors",
    "load_config": "memstrata.config",
}

__all__ = [
    "Admitted",
    "BudgetExceeded",
    "CapExceeded",
    "Channel",
    "Config",
    "ConfigError",
    "Conflicted",
    "Context",
    "ContextItem",
    "DiskFull",
    "EmbedderFailed",
    "Fact",
    "HistoryEntry",
    "InputError",
    "InvalidTopicId",
    "JournalEntry",
    "LockTimeout",
    "Memory",
    "MemstrataError",
    "Merged",
    "ParseError",
    "Proposal",
    "ProposalSide",
    "Quarantined",
    "RawStoreDamaged",
    "RecallItem",
    "RecallResult",
    "Rejected",
    "SearchHit",
    "Session",
    "Status",
    "Superseded",
    "SyncReport",
    "Topic",
    "TopicMeta",
    "TopicNotFound",
    "Turn",
    "Verdict",
    "WorkspaceError",
    "WorkspaceNotFound",
    "WorkspaceReadOnly",
    "load_config",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'memstrata' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # found once; later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
