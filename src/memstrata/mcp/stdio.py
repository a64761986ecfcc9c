"""The stdio transport, draining: what was asked before stdin closed is answered before exit.

The SDK ends the session the moment stdin reaches end of file and cancels the calls still
running, so ``memstrata mcp < requests.jsonl`` (or any client that writes its requests and
closes the pipe) lost the answers to its last calls. Here the server's input is held open
after end of file until every request read has had its response or error written, or a
client ``notifications/cancelled`` withdrew it, or ``DRAIN_TIMEOUT_S`` passed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

if TYPE_CHECKING:
    from mcp.server import MCPServer

#: the longest a closed stdin waits for the calls still running
DRAIN_TIMEOUT_S = 60.0


class Pending:
    """The ids of requests read and not yet answered; ``settled`` fires when there are none."""

    def __init__(self) -> None:
        self.ids: set[Any] = set()
        self.settled = anyio.Event()
        self.settled.set()

    def asked(self, message: object) -> None:
        if isinstance(message, JSONRPCRequest):
            self.ids.add(message.id)
            if self.settled.is_set():
                self.settled = anyio.Event()
        elif isinstance(message, JSONRPCNotification) and message.method == (
            "notifications/cancelled"
        ):
            self._forget((message.params or {}).get("requestId"))

    def answered(self, message: object) -> None:
        if isinstance(message, JSONRPCResponse | JSONRPCError):
            self._forget(message.id)

    def _forget(self, request_id: Any) -> None:
        self.ids.discard(request_id)
        if not self.ids:
            self.settled.set()


async def serve_stdio(server: MCPServer) -> None:
    """Serve ``server`` over stdin/stdout until stdin closes and every call is answered."""
    pending = Pending()
    async with stdio_server() as (stdin, stdout):
        to_server, from_stdin = anyio.create_memory_object_stream[SessionMessage | Exception](16)
        to_stdout, from_server = anyio.create_memory_object_stream[SessionMessage](16)

        async def relay_in() -> None:
            async with to_server:
                async for item in stdin:
                    if isinstance(item, SessionMessage):
                        pending.asked(item.message)
                    await to_server.send(item)
                with anyio.move_on_after(DRAIN_TIMEOUT_S):
                    await pending.settled.wait()

        async def relay_out() -> None:
            async with from_server, stdout:
                async for item in from_server:
                    await stdout.send(item)
                    pending.answered(item.message)

        async with anyio.create_task_group() as group:
            group.start_soon(relay_in)
            group.start_soon(relay_out)
            async with to_stdout:
                # The SDK keeps its low-level server private; its own stdio runner does this.
                low = server._lowlevel_server
                await low.run(from_stdin, to_stdout, low.create_initialization_options())
