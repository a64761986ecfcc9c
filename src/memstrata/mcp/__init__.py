"""The MCP server: Memory's verbs as MCP tools, over stdio or HTTP on loopback."""

from memstrata.mcp.server import build_server

__all__ = ["build_server"]
