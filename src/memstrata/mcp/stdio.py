"""The stdio transport: every line answered, and what was asked before stdin closed answered.

Lines are read here, not by the SDK (which drops a line it cannot parse without a word):
:func:`~memstrata.mcp.lines.parse_line` hands the SDK only messages it accepts and answers the
rest with a JSON-RPC error, and each line that was not sound is named on stderr. The SDK still
writes stdout, so only protocol messages reach it.

The SDK ends the session the moment stdin reaches end of file and cancels the calls still
running, so ``memstrata mcp < requests.jsonl`` (or any client that writes its requests and
closes the pipe) lost the answers to its last calls. Here the server's input is held open
after end of file until every request read has had its response or error written, or a
client ``notifications/cancelled`` withdrew it, or ``DRAIN_TIMEOUT_S`` passed.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, BinaryIO

import anyio
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from memstrata.mcp.lines import parse_line

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


async def serve_stdio(server: MCPServer, warn: Callable[[str], None]) -> None:
    """Serve ``server`` over stdin/stdout until stdin closes and every call is answered.

    ``warn`` is told, in one line each, what was wrong with a line that was not sound.
    """
    with _claimed_stdin() as wire:
        await _serve(server, anyio.wrap_file(wire), warn)


async def _serve(
    server: MCPServer, wire: anyio.AsyncFile[bytes], warn: Callable[[str], None]
) -> None:
    pending = Pending()
    to_stdout, from_server = anyio.create_memory_object_stream[SessionMessage](16)
    lines = _sound_lines(wire, to_stdout.clone(), warn)
    # The SDK only iterates the stdin it is given, line by line.
    async with stdio_server(stdin=lines) as (stdin, stdout):  # type: ignore[arg-type]
        to_server, from_stdin = anyio.create_memory_object_stream[SessionMessage | Exception](16)

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


async def _sound_lines(
    wire: anyio.AsyncFile[bytes],
    replies: MemoryObjectSendStream[SessionMessage],
    warn: Callable[[str], None],
) -> AsyncIterator[str]:
    """The lines of ``wire`` that hold a JSON-RPC message; the others answered on ``replies``."""
    async with replies:
        number = 0
        async for line in wire:
            number += 1
            parsed = parse_line(line)
            if parsed.problem:
                warn(f"stdin line {number}: {parsed.problem}")
            if parsed.reply is not None:
                await replies.send(SessionMessage(parsed.reply))
            elif parsed.text:
                yield parsed.text


@contextmanager
def _claimed_stdin() -> Iterator[BinaryIO]:
    """The client's input, from a private copy of fd 0, while fd 0 reads the null device.

    As the SDK does when it reads stdin itself: a child process or a stray read in a tool
    finds end of file instead of taking the client's requests.
    """
    wire = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        # Never closed: a worker thread may still be blocked reading it when serving ends.
        yield os.fdopen(wire, "rb", closefd=False)
    finally:
        os.dup2(wire, 0)
