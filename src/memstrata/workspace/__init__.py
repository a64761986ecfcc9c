"""The canonical files: layout and paths, atomic writes, the lock, safe names."""

from memstrata.workspace.layout import Workspace, find_workspace, init_workspace

__all__ = ["Workspace", "find_workspace", "init_workspace"]
