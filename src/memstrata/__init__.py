"""memstrata: long-term memory for AI agents that stays small where it meets the model."""

from memstrata.config import Config, load_config
from memstrata.errors import (
    CapExceeded,
    ConfigError,
    InputError,
    InvalidTopicId,
    LockTimeout,
    MemstrataError,
    ParseError,
    TopicNotFound,
    WorkspaceError,
    WorkspaceNotFound,
    WorkspaceReadOnly,
)
from memstrata.memory import Memory, Status, SyncReport
from memstrata.model import Fact, HistoryEntry, JournalEntry, SearchHit, Session, Topic, Turn

__all__ = [
    "CapExceeded",
    "Config",
    "ConfigError",
    "Fact",
    "HistoryEntry",
    "InputError",
    "InvalidTopicId",
    "JournalEntry",
    "LockTimeout",
    "Memory",
    "MemstrataError",
    "ParseError",
    "SearchHit",
    "Session",
    "Status",
    "SyncReport",
    "Topic",
    "TopicNotFound",
    "Turn",
    "WorkspaceError",
    "WorkspaceNotFound",
    "WorkspaceReadOnly",
    "load_config",
]
