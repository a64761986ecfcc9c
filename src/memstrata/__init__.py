"""memstrata: long-term memory for AI agents that stays small where it meets the model.

from memstrata import Memory
memory = Memory("~/agent-memory")
memory.remember("Ann prefers cortado", kind="opinion")   # → a Verdict
memory.recall("what does Ann drink?")                    # → RecallResult
memory.context("what does Ann drink?")                   # → Context, within budgets
"""

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
