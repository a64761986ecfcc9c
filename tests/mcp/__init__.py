"""Shared by the MCP tests: the tool names, facts the gate keeps apart, a three-client run."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import anyio
from mcp import Client

from memstrata import Memory

TOOL_NAMES = {
    "recall",
    "search",
    "remember",
    "context",
    "get_topic",
    "log",
    "proposals",
    "resolve_proposal",
    "status",
}
CLIENTS = 3
CALLS_PER_CLIENT = 50

_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pu", "ga", "fe", "ho", "ji")


def _word(number: int) -> str:
    letters = ""
    for _ in range(4):
        letters += _SYLLABLES[number % len(_SYLLABLES)]
        number //= len(_SYLLABLES)
    return letters


def distinct_fact(client: int, number: int) -> str:
    """A statement sharing no word with any other: the gate admits each as a new topic."""
    base = (client * 1000 + number) * 4 + 7919
    return f"{_word(base).capitalize()} {_word(base + 1)} {_word(base + 2)} {_word(base + 3)}."


def python_env() -> dict[str, str]:
    """This interpreter's environment for a server subprocess, without a workspace override."""
    env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    env["PYTHONUNBUFFERED"] = "1"
    return env


def memstrata_args(workspace: Path, *command: str) -> list[str]:
    return ["-m", "memstrata", "--workspace", str(workspace), *command]


PYTHON = sys.executable


async def remember_all(client: Client, client_number: int) -> list[str]:
    """``CALLS_PER_CLIENT`` remember calls, one after the other; the topic ids admitted."""
    topic_ids = []
    for number in range(CALLS_PER_CLIENT):
        result = await client.call_tool("remember", {"text": distinct_fact(client_number, number)})
        assert not result.is_error, result.content
        assert result.structured_content["verdict"] == "admitted", result.structured_content
        topic_ids.append(result.structured_content["topic_id"])
    return topic_ids


def run_three_clients(
    connect: Callable[[], AbstractAsyncContextManager[Client]], workspace: Path
) -> None:
    """Three clients remember 50 facts each at once; every fact is then on disk and recallable."""
    admitted: dict[int, list[str]] = {}

    async def one_client(number: int) -> None:
        async with connect() as client:
            admitted[number] = await remember_all(client, number)
            last = distinct_fact(number, CALLS_PER_CLIENT - 1)
            found = await client.call_tool("recall", {"query": last})
            assert last in [item["content"] for item in found.structured_content["items"]]

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for number in range(CLIENTS):
                group.start_soon(one_client, number)

    anyio.run(main)

    ids = [topic_id for number in range(CLIENTS) for topic_id in admitted[number]]
    assert len(set(ids)) == CLIENTS * CALLS_PER_CLIENT
    with Memory(workspace) as memory:
        stored = {topic.summary.strip() for topic in memory.list_topics()}
        assert memory.status().topics_by_state == {"active": CLIENTS * CALLS_PER_CLIENT}
    expected = {
        distinct_fact(client, number)
        for client in range(CLIENTS)
        for number in range(CALLS_PER_CLIENT)
    }
    assert stored == expected
