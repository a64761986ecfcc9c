"""An embedder that fails falls back to the lexical arms and says so; it never takes a read down.

The embedder here is the real OpenAI-compatible client against a real HTTP server on the
loopback address, which can be switched to fail the ways endpoints do.
"""

from __future__ import annotations

import re
import time
from datetime import datetime
from pathlib import Path

import pytest

import memstrata.recall.semantic_state as semantic_state
from memstrata import Memory
from memstrata.gate.verdicts import Admitted
from memstrata.model import Session, Turn
from tests.cli.process import run
from tests.providers.fake_endpoint import FakeEmbeddings, workspace_on

CLOSED_PORT = "http://127.0.0.1:9/v1"


DAY = (
    "# 2025-11-26\n\n- @Ann drinks a flat white with oat milk before reviews\n"
    "- The billing canary went out at noon\n"
)


def _workspace(root: Path, base_url: str) -> Path:
    return workspace_on(root, f"openai:tiny@{base_url}", DAY)


def test_an_unreachable_endpoint_leaves_recall_lexical_and_says_why(tmp_path, fixed_now):
    root = _workspace(tmp_path / "ws", CLOSED_PORT)

    with Memory(root, clock=lambda: fixed_now) as memory:
        result = memory.recall("flat white")
        context = memory.context("flat white")
        hits = memory.search("flat white")
        verdict = memory.remember("The billing canary went out at noon today")

    assert [item.source for item in result.items] == ["memory/2025-11-26.md#L3"]
    assert any("semantic arm off" in n and "127.0.0.1:9" in n for n in result.notes)
    assert "flat white" in context.text and context.notes == result.notes
    assert hits and hits[0].source == "memory/2025-11-26.md#L3"
    assert isinstance(verdict, Admitted)  # the gate decided on its lexical checks


@pytest.mark.parametrize("failure", ["http-500", "strings", "wider", "zeros", "empty", "overflow"])
def test_an_endpoint_that_starts_failing_is_rested_then_tried_again(
    tmp_path: Path, fixed_now: datetime, endpoint: str, failure: str, monkeypatch
):
    root = _workspace(tmp_path / "ws", endpoint)
    with Memory(root, clock=lambda: fixed_now) as memory:
        assert memory.rebuild().embedded == 2
        assert not any("semantic arm off" in n for n in memory.recall("flat white").notes)

        FakeEmbeddings.mode = failure
        failed = memory.recall("coffee before a review")

        assert any("semantic arm off" in note for note in failed.notes)
        assert [item.source for item in failed.items] == ["memory/2025-11-26.md#L3"]
        # resting: the next read does not ask the endpoint again, and says why it is off
        assert any("semantic arm off" in n for n in memory.recall("flat white").notes)

        FakeEmbeddings.mode = "ok"
        monkeypatch.setattr(semantic_state, "EMBEDDER_RETRY_S", 0.0)
        memory.semantic.end_rest()  # the rest is over
        again = memory.recall("flat white")

    assert not any("semantic arm off" in note for note in again.notes)
    assert "semantic" in again.items[0].arms


def test_raw_search_ranks_by_words_when_the_endpoint_is_down(tmp_path, fixed_now):
    root = _workspace(tmp_path / "ws", CLOSED_PORT)
    when = "2025-11-26T10:00:00Z"
    with Memory(root, clock=lambda: fixed_now) as memory:
        memory.raw.upsert(
            Session("s1", "claude-code", "user", when, when, ""),
            [Turn("s1", 0, "user", when, "Book the Lisbon venue near the river")],
        )
        turns = memory.search_raw("Lisbon venue")
        sessions = memory.search_sessions("Lisbon venue")

        assert [hit.source for hit in turns] == ["s1#0"]
        assert [hit.source for hit in sessions] == ["s1"]
        assert "127.0.0.1:9" in memory.embedder_failure


def test_the_cli_notes_the_failure_and_answers(tmp_path):
    root = _workspace(tmp_path / "ws", CLOSED_PORT)

    recall = run("--workspace", str(root), "recall", "flat white")
    search = run("--workspace", str(root), "search", "flat white")
    rebuild = run("--workspace", str(root), "rebuild")

    for result in (recall, search, rebuild):
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    for result in (recall, rebuild):  # search has no raw turns here: it ranked by words anyway
        assert "embedder openai:tiny@127.0.0.1:9/v1 failed" in result.stderr
    assert "flat white" in recall.stdout and "flat white" in search.stdout
    assert "indexed without vectors" in rebuild.stderr


def test_a_benchmark_stops_when_its_embedder_fails(shared_data):
    result = run(
        "bench", "locomo", str(shared_data / "locomo" / "locomo_dev.json"),
        "--limit", "1", "--embedder", f"openai:tiny@{CLOSED_PORT}",
    )  # fmt: skip

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "embedder openai:tiny@127.0.0.1:9/v1 failed" in result.stderr
    assert "the benchmark stops" in result.stderr


def _set(root: Path, key: str, value: str) -> None:
    config = root / "memstrata.toml"
    text, count = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", config.read_text("utf-8"))
    assert count == 1, key
    config.write_text(text, encoding="utf-8")


def _files_hold(root: Path, secret: bytes) -> list[Path]:
    return [path for path in root.rglob("*") if path.is_file() and secret in path.read_bytes()]


def test_an_endpoint_that_needs_a_key_gets_it_from_the_variable_the_config_names(
    tmp_path: Path, fixed_now: datetime, endpoint: str, monkeypatch: pytest.MonkeyPatch
):
    root = _workspace(tmp_path / "ws", endpoint)
    _set(root, "api_key_env", "'MEMSTRATA_TEST_EMBED_KEY'")
    FakeEmbeddings.required_key = "sk-test-0123456789"
    monkeypatch.setenv("MEMSTRATA_TEST_EMBED_KEY", "sk-test-0123456789")

    with Memory(root, clock=lambda: fixed_now) as memory:
        embedded = memory.rebuild().embedded
        result = memory.recall("coffee before a review")
    monkeypatch.delenv("MEMSTRATA_TEST_EMBED_KEY")
    with Memory(root, clock=lambda: fixed_now) as memory:
        refused = memory.recall("coffee before a review")

    assert embedded == 2
    assert "semantic" in result.items[0].arms
    assert not any("semantic arm off" in note for note in result.notes)
    assert any("HTTP 401" in note for note in refused.notes)  # no key, no vectors: words only
    assert not any("sk-test" in note for note in (*result.notes, *refused.notes))
    assert _files_hold(root, b"sk-test-0123456789") == []


def test_the_cli_sends_the_key_of_openai_api_key_by_default(tmp_path: Path, endpoint: str):
    root = _workspace(tmp_path / "ws", endpoint)
    FakeEmbeddings.required_key = "sk-test-cli-key"

    rebuild = run("--workspace", str(root), "rebuild", env={"OPENAI_API_KEY": "sk-test-cli-key"})

    assert rebuild.returncode == 0, rebuild.stderr
    assert "failed" not in rebuild.stderr
    assert {request["auth"] for request in FakeEmbeddings.requests} == {"Bearer sk-test-cli-key"}
    assert "sk-test-cli-key" not in rebuild.stdout + rebuild.stderr


def test_an_endpoint_that_hangs_costs_a_read_the_configured_timeout_not_more(
    tmp_path: Path, fixed_now: datetime, endpoint: str
):
    root = _workspace(tmp_path / "ws", endpoint)
    _set(root, "timeout_s", "0.5")
    FakeEmbeddings.mode = "hang"  # answers only when the server stops, a minute at most

    with Memory(root, clock=lambda: fixed_now) as memory:
        started = time.monotonic()
        result = memory.recall("flat white")
        seconds = time.monotonic() - started

    assert [item.source for item in result.items] == ["memory/2025-11-26.md#L3"]
    assert any("semantic arm off" in note and "timed out" in note for note in result.notes)
    assert seconds < 5  # the default (10 s) would not do
