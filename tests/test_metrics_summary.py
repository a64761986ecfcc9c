"""``memstrata metrics``: what the summary counts, and what it does with a hand-edited file."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from memstrata import Memory
from memstrata.cli import cli
from memstrata.clock import system_now, to_iso
from memstrata.errors import InputError
from memstrata.metrics import MAX_DAYS, append_metric, read_metrics, summarise

NOW = datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)
TIME = to_iso(NOW - timedelta(hours=1))
RECALL = {"event": "recall", "time": TIME, "hits": 4, "bytes": 120}
CONTEXT = {
    "event": "context",
    "time": TIME,
    "bytes": {"rules": 300, "index": 100, "recall": 50},
    "tokens": 110,
    "hits": 2,
    "trimmed": {"recall": ["topics/ann.md"]},
    "share": 0.25,
}


def write_lines(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def summary_of(path: Path, days: int = 7):
    return summarise(read_metrics(path), NOW, days)


def record(base: dict, **fields: object) -> str:
    return json.dumps({**base, **fields})


MALFORMED = {
    "not JSON": "{torn",
    "JSON but no object": "[1, 2]",
    "an integer too long to read": "1" * 5000,
    "nesting too deep to read": "[" * 100_000,
    "no time": json.dumps({"event": "recall", "hits": 1}),
    "a time that is a list": record(RECALL, time=[1]),
    "a time past year 9999 in UTC": record(RECALL, time="9999-12-31T23:59:59-01:00"),
    "an unknown event": record(RECALL, event="recal"),
    "recall hits null": record(RECALL, hits=None),
    "recall hits a string": record(RECALL, hits="x"),
    "recall hits infinite": record(RECALL, hits=1e400),
    "recall hits a fraction": record(RECALL, hits=2.5),
    "recall hits negative": record(RECALL, hits=-1),
    "recall hits true": record(RECALL, hits=True),
    "context hits null": record(CONTEXT, hits=None),
    "context bytes a number": record(CONTEXT, bytes=5),
    "context bytes a string": record(CONTEXT, bytes={"rules": "abc"}),
    "context bytes null": record(CONTEXT, bytes={"rules": None}),
    "context bytes infinite": record(CONTEXT, bytes={"rules": 1e400}),
    "context bytes NaN": record(CONTEXT, bytes={"rules": float("nan")}),
    "context bytes negative": record(CONTEXT, bytes={"rules": -3}),
    "context bytes beyond 2**53": record(CONTEXT, bytes={"rules": 2**60}),
    "trimmed a list": record(CONTEXT, trimmed=["a"]),
    "trimmed a number": record(CONTEXT, trimmed={"recall": 5}),
    "trimmed not sources": record(CONTEXT, trimmed={"recall": [5]}),
    "share NaN": record(CONTEXT, share=float("nan")),
    "share true": record(CONTEXT, share=True),
    "share null": record(CONTEXT, share=None),
    "share over 1": record(CONTEXT, share=1.5),
}


@pytest.mark.parametrize("bad", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_line_of_the_wrong_shape_is_skipped_counted_and_named(tmp_path: Path, bad: str):
    path = write_lines(tmp_path / "metrics.jsonl", json.dumps(RECALL), bad, json.dumps(CONTEXT))

    summary = summary_of(path)

    assert (summary.recalls, summary.contexts) == (1, 1)
    assert summary.recall_hits == 4 + 2
    assert summary.trims == 1
    assert summary.mean_bytes == {"index": 100.0, "recall": 50.0, "rules": 300.0}
    assert summary.mean_injection_share == summary.max_injection_share == 0.25
    assert (summary.skipped_lines, summary.first_skipped_line) == (1, 2)


def test_skipped_lines_are_numbered_as_an_editor_numbers_them(tmp_path: Path):
    path = write_lines(tmp_path / "metrics.jsonl", json.dumps(RECALL), "", "{torn", "[]")

    summary = summary_of(path)

    assert (summary.skipped_lines, summary.first_skipped_line) == (2, 3)
    assert summary.recalls == 1


def test_a_source_holding_a_line_separator_stays_one_record(tmp_path: Path):
    path = tmp_path / "metrics.jsonl"
    append_metric(path, {**CONTEXT, "trimmed": {"recall": ["topics/a\u2028b.md"]}})

    summary = summary_of(path)

    assert (summary.contexts, summary.trims, summary.skipped_lines) == (1, 1, 0)


def test_a_missing_optional_field_is_no_malformed_line(tmp_path: Path):
    bare_context = {"event": "context", "time": TIME}
    path = write_lines(tmp_path / "metrics.jsonl", json.dumps(bare_context))

    summary = summary_of(path)

    assert (summary.contexts, summary.skipped_lines, summary.mean_injection_share) == (1, 0, None)


def test_a_contexts_hits_count_as_recall_hits_once(tmp_path: Path):
    contexts = [record(CONTEXT, hits=10)] * 3
    recalls = [record(RECALL, hits=4), record(RECALL, hits=0)]
    path = write_lines(tmp_path / "metrics.jsonl", *contexts, *recalls)

    summary = summary_of(path)

    assert (summary.contexts, summary.recalls) == (3, 2)
    assert (summary.recall_hits, summary.context_hits) == (34, 30)
    assert summary.empty_recalls == 1


def test_a_context_without_hits_is_no_empty_recall(tmp_path: Path):
    # a context with no query records 0 hits too: counting it would make every session start
    # look like a recall that found nothing
    path = write_lines(tmp_path / "metrics.jsonl", record(CONTEXT, hits=0))

    summary = summary_of(path)

    assert (summary.contexts, summary.recall_hits, summary.empty_recalls) == (1, 0, 0)


def test_the_hits_of_each_context_reach_the_summary(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nPrefers cortado.")
    for _ in range(3):
        memory.context("cortado")
    hits = [json.loads(line)["hits"] for line in memory.metrics_path.read_text().splitlines()]

    summary = memory.metrics(days=7)

    assert hits[0] > 0
    assert summary.recall_hits == summary.context_hits == sum(hits)
    assert summary.recalls == 0


@pytest.mark.parametrize("days", [0, -1, MAX_DAYS + 1, 10**9])
def test_days_out_of_range_are_refused_with_a_clear_message(memory: Memory, days: int):
    with pytest.raises(InputError, match=f"days must be a whole number from 1 to {MAX_DAYS}"):
        memory.metrics(days=days)


def test_a_century_of_days_is_summarised(memory: Memory):
    assert memory.metrics(days=MAX_DAYS).days == MAX_DAYS


# -- the command --------------------------------------------------------------------------


def metrics_command(workspace: Path, *args: str):
    return CliRunner().invoke(cli, ["--workspace", str(workspace), "metrics", *args])


def test_the_command_names_the_first_skipped_line(workspace: Path):
    now = to_iso(system_now())
    good = json.dumps({**RECALL, "time": now})
    write_lines(workspace / "memory" / "metrics.jsonl", good, good, "{torn", "[]")

    result = metrics_command(workspace)

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "the last 7 days: 0 contexts, 2 recalls"
    assert lines[1] == "  skipped 2 malformed lines (first: memory/metrics.jsonl:3)"


def test_the_command_counts_context_hits_as_recall_hits(workspace: Path):
    context = json.dumps({**CONTEXT, "time": to_iso(system_now()), "hits": 10})
    write_lines(workspace / "memory" / "metrics.jsonl", context, context, context)

    result = metrics_command(workspace)

    assert "  recall hits: 30, 30 of them in contexts (0 empty recalls)" in result.output


def test_the_json_summary_is_strict_json_whatever_the_file_holds(workspace: Path):
    now = to_iso(system_now())
    lines = [
        json.dumps({**CONTEXT, "time": now, "share": float("nan")}),
        json.dumps({**CONTEXT, "time": now, "bytes": {"rules": float("inf")}}),
        json.dumps({**CONTEXT, "time": now}),
    ]
    write_lines(workspace / "memory" / "metrics.jsonl", *lines)

    result = metrics_command(workspace, "--json")

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    summary = json.loads(result.output, parse_constant=refuse)
    assert (summary["contexts"], summary["skipped_lines"]) == (1, 2)
    assert summary["mean_injection_share"] == 0.25


@pytest.mark.parametrize("days", ["0", str(MAX_DAYS + 1), "800000"])
def test_the_command_refuses_days_beyond_a_century(workspace: Path, days: str):
    result = metrics_command(workspace, "--days", days)

    assert result.exit_code == 2
    assert f"1<=x<={MAX_DAYS}" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_nothing_recorded_in_a_century_suggests_no_wider_window(workspace: Path):
    result = metrics_command(workspace, "--days", str(MAX_DAYS))

    assert result.exit_code == 0, result.output
    assert "  nothing recorded (memory/metrics.jsonl)\n" in result.output
