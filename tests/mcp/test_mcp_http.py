"""``memstrata serve --http``: a real MCP client over HTTP, and the guards in front of it."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from memstrata.errors import InputError
from memstrata.mcp.http import check_bind_host
from memstrata.workspace.layout import init_workspace

from . import PYTHON, TOOL_NAMES, memstrata_args, python_env, run_three_clients

TOKEN = "test-token-1f2e3d"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


class Served:
    """A ``memstrata serve --http --port 0`` subprocess and the URL it printed."""

    def __init__(self, workspace: Path, log: Path) -> None:
        self.workspace = workspace
        self.log = log
        env = {**python_env(), "MEMSTRATA_TOKEN": TOKEN}
        with log.open("w") as sink:
            self.process = subprocess.Popen(
                [PYTHON, *memstrata_args(workspace, "serve", "--http", "--port", "0")],
                stdout=sink,
                stderr=subprocess.STDOUT,
                env=env,
            )
        self.url = self._wait_for_url()

    def _wait_for_url(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = re.search(r"serving MCP at (\S+)", self.log.read_text())
            if found:
                return found.group(1)
            if self.process.poll() is not None:
                raise AssertionError(f"server exited: {self.log.read_text()}")
            time.sleep(0.05)
        raise AssertionError(f"server did not start: {self.log.read_text()}")

    def client(self, http_client) -> Client:
        return Client(streamable_http_client(self.url, http_client=http_client))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("http")
    workspace = folder / "ws"
    init_workspace(workspace)
    server = Served(workspace, folder / "serve.log")
    yield server
    server.stop()


def authorised():
    return create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})


def post(url: str, headers: dict[str, str]) -> int:
    """POST an initialize request with ``headers``; the HTTP status."""
    request = urllib.request.Request(
        url,
        data=json.dumps(INITIALIZE).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_client_lists_tools_remembers_recalls_and_compiles_context(served: Served):
    async def scenario():
        async with authorised() as http, served.client(http) as client:
            tools = (await client.list_tools()).tools
            stored = await client.call_tool("remember", {"text": "Li Na runs the billing service"})
            recalled = await client.call_tool("recall", {"query": "who runs billing?"})
            context = await client.call_tool("context", {"query": "billing service"})
            missing = await client.call_tool("get_topic", {"topic_id": "people/nobody"})
            return tools, stored, recalled, context, missing

    tools, stored, recalled, context, missing = anyio.run(scenario)

    assert {tool.name for tool in tools} == TOOL_NAMES
    assert stored.structured_content["verdict"] == "admitted"
    contents = [item["content"] for item in recalled.structured_content["items"]]
    assert "Li Na runs the billing service" in contents
    assert "Li Na runs the billing service" in context.structured_content["text"]
    assert missing.is_error and "no topic 'people/nobody'" in missing.content[0].text


def test_three_clients_making_fifty_calls_each_lose_nothing(tmp_path: Path):
    workspace = tmp_path / "ws"
    init_workspace(workspace)
    server = Served(workspace, tmp_path / "serve.log")

    @asynccontextmanager
    async def connect() -> AsyncIterator[Client]:
        async with authorised() as http, server.client(http) as client:
            yield client

    try:
        run_three_clients(connect, workspace)
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Authorization": f"Bearer {TOKEN}"}, 200),
        ({"Authorization": f"Bearer {TOKEN}", "Origin": "http://localhost:3000"}, 200),
        ({"Authorization": f"Bearer {TOKEN}", "Origin": "http://evil.example"}, 403),
        ({"Authorization": f"Bearer {TOKEN}", "Origin": "null"}, 403),
        ({"Authorization": f"Bearer {TOKEN}", "Host": "evil.example"}, 403),
        ({"Authorization": f"Bearer {TOKEN}", "Host": "127.0.0.1.evil.example:80"}, 403),
        ({}, 401),
        ({"Authorization": "Bearer wrong-token"}, 401),
        ({"Authorization": f"Basic {TOKEN}"}, 401),
    ],
)
def test_requests_need_a_local_host_and_origin_and_the_token(served: Served, headers, status):
    assert post(served.url, headers) == status


def test_a_refused_request_never_reaches_the_workspace(served: Served):
    before = sorted(path.name for path in (served.workspace / "memory").iterdir())

    assert post(served.url, {"Origin": "http://evil.example"}) == 403

    assert sorted(path.name for path in (served.workspace / "memory").iterdir()) == before


def test_binding_a_public_address_without_allow_remote_is_refused(tmp_path: Path):
    workspace = tmp_path / "ws"
    init_workspace(workspace)

    completed = subprocess.run(
        [PYTHON, *memstrata_args(workspace, "serve", "--http", "--host", "0.0.0.0")],
        capture_output=True,
        text=True,
        env={**python_env(), "MEMSTRATA_TOKEN": TOKEN},
        timeout=60,
        check=False,
    )

    assert completed.returncode != 0
    assert completed.stdout == ""
    [line] = completed.stderr.splitlines()
    assert "refusing to serve on 0.0.0.0" in line and "--allow-remote" in line


@pytest.mark.parametrize(
    ("host", "allow_remote", "refused"),
    [
        ("127.0.0.1", False, False),
        ("127.0.0.2", False, False),
        ("localhost", False, False),
        ("::1", False, False),
        ("[::1]", False, False),
        ("0.0.0.0", False, True),
        ("::", False, True),
        ("192.0.2.10", False, True),
        ("example.com", False, True),
        ("0.0.0.0", True, False),
    ],
)
def test_only_loopback_addresses_are_bound_without_allow_remote(host, allow_remote, refused):
    if refused:
        with pytest.raises(InputError, match="--allow-remote"):
            check_bind_host(host, allow_remote)
    else:
        check_bind_host(host, allow_remote)


def test_the_port_accepts_connections_as_soon_as_its_url_is_told():
    from memstrata.mcp.http import _listen

    listener = _listen("127.0.0.1", 0)
    try:
        # No server loop yet: the connection waits in the backlog instead of being refused.
        with socket.create_connection(listener.getsockname(), timeout=5):
            pass
    finally:
        listener.close()
