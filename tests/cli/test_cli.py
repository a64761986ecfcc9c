"""The CLI through real subprocesses (and click's runner where that is enough)."""

import contextlib
import json
import os
import re
import threading
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from memstrata.cli import cli

from .process import run


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    assert run("init", str(root)).returncode == 0
    return root


def test_init_then_status_reports_rules_sizes(ws: Path):
    result = run("--workspace", str(ws), "status", "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["rules"]["resident_budget_bytes"] == 13000
    assert status["rules"]["memory_cap_chars"] == 3000
    assert [item["path"] for item in status["rules"]["files"]][:4] == [
        "prompt/SOUL.md",
        "prompt/IDENTITY.md",
        "prompt/USER.md",
        "MEMORY.md",
    ]


def test_status_warns_when_memory_md_is_over_its_cap(ws: Path):
    (ws / "MEMORY.md").write_text("x" * 3001)
    result = run("--workspace", str(ws), "status")
    assert "MEMORY.md is 3001 chars, over its 3000-char cap" in result.stderr


def test_the_workspace_is_found_from_a_subfolder(ws: Path):
    result = run("status", cwd=ws / "memory" / "topics")
    assert result.returncode == 0, result.stderr
    assert str(ws) in result.stdout


def test_the_workspace_is_found_from_the_environment(ws: Path, tmp_path: Path):
    result = run("status", cwd=tmp_path, env={"MEMSTRATA_WORKSPACE": str(ws)})
    assert result.returncode == 0, result.stderr


def test_topic_write_from_stdin_show_list_history_archive_restore(ws: Path):
    base = ("--workspace", str(ws))
    result = run(
        *base,
        "topic",
        "write",
        "people/ann",
        "--summary-file",
        "-",
        stdin="# Ann\nPrefers cortado.\n",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("created people/ann")
    detail = ws / "detail.md"
    detail.write_text("Joined in 2019.\n")
    run(
        *base,
        "topic",
        "write",
        "people/ann",
        "--summary-file",
        "-",
        "--detail-file",
        str(detail),
        stdin="# Ann\nPrefers flat white.\n",
    )
    shown = json.loads(run(*base, "topic", "show", "people/ann", "--json").stdout)
    assert shown["summary"] == "# Ann\nPrefers flat white.\n"
    assert shown["detail"] == "Joined in 2019.\n"
    assert "people/ann" in run(*base, "topic", "list").stdout
    history = json.loads(run(*base, "topic", "history", "people/ann", "--json").stdout)
    assert [(entry["actor"], entry["op"]) for entry in history] == [
        ("user", "create"),
        ("user", "update"),
    ]
    assert run(*base, "topic", "archive", "people/ann").returncode == 0
    listed = run(*base, "topic", "list").stdout
    assert listed == "no active topics (1 more: --all lists them)\n"
    assert "archived" in run(*base, "topic", "list", "--all").stdout
    again = run(*base, "topic", "archive", "people/ann")
    assert again.returncode != 0 and "already archived" in again.stderr
    assert "people/ann" not in run(*base, "recall", "flat white").stdout
    shown = run(*base, "search", "flat white", "--include-archived").stdout
    assert "[wiki] people/ann [archived]  " in shown

    restored = run(*base, "topic", "restore", "people/ann", "--reason", "back in use")
    assert restored.returncode == 0 and restored.stdout.strip() == "restored people/ann"
    assert "people/ann" in run(*base, "recall", "flat white").stdout
    history = json.loads(run(*base, "topic", "history", "people/ann", "--json").stdout)
    assert [entry["op"] for entry in history][-2:] == ["archive", "restore"]
    twice = run(*base, "topic", "restore", "people/ann")
    assert twice.returncode != 0 and "not archived" in twice.stderr


def test_log_search_and_context(ws: Path):
    base = ("--workspace", str(ws))
    logged = run(*base, "log", "Deployed", "the", "billing", "canary")
    assert logged.returncode == 0
    # the source, as search and recall cite it: memory/<day>.md#L3
    assert re.fullmatch(
        r"memory/\d{4}-\d\d-\d\d\.md:3: - \d\d:\d\d Deployed the billing canary\n", logged.stdout
    )
    assert run(*base, "log", "--kind", "W", "@Ann prefers cortado").returncode == 0
    hits = json.loads(run(*base, "search", "cortado", "--json").stdout)["hits"]
    assert hits[0]["stratum"] == "journal"
    assert hits[0]["extra"]["kind"] == "world"
    compiled = json.loads(run(*base, "context", "--query", "cortado", "--json").stdout)
    assert set(compiled["channels"]) == {"rules", "index", "recall"}
    assert "cortado" in compiled["text"]


def test_ingest_reports_and_rebuild_recreates(ws: Path):
    from memstrata.demo import data_dir

    base = ("--workspace", str(ws))
    result = run(*base, "ingest", str(data_dir() / "transcripts"))
    assert result.returncode == 0, result.stderr
    assert "2 sessions" in result.stdout
    assert run(*base, "rebuild").returncode == 0
    hits = json.loads(run(*base, "search", "oat milk", "--json").stdout)["hits"]
    assert any(hit["stratum"] == "raw" for hit in hits)
    # a turn found by nearness of meaning alone says so, after the word matches
    shown = run(*base, "search", "cortado", "--limit", "3").stdout.splitlines()
    assert shown[0].startswith("[raw] ")
    assert shown[0].endswith("  (no word of the query: near in meaning)")


def test_search_sessions_names_the_conversation_and_why(ws: Path):
    from memstrata.demo import data_dir

    base = ("--workspace", str(ws))
    assert run(*base, "ingest", str(data_dir() / "transcripts")).returncode == 0
    result = run(*base, "search", "--sessions", "billing load test staging", "-k", "1")
    assert result.returncode == 0, result.stderr
    header, best = result.stdout.splitlines()
    assert header.startswith("[session] codex:") and "codex" in header
    assert best.strip().startswith("codex:") and "#" in best
    hits = json.loads(run(*base, "search", "--sessions", "oat milk", "--json").stdout)["hits"]
    assert hits[0]["source"].startswith("claude-code:")
    assert "oat milk" in hits[0]["text"] and hits[0]["extra"]["best_turn"].startswith(
        hits[0]["source"] + "#"
    )
    assert run(*base, "search", "--sessions", "?!").stdout.strip() == "no results"
    wordless = json.loads(run(*base, "search", "?!", "--json").stdout)
    assert wordless["hits"] == [] and wordless["notes"][0].startswith("nothing to search")
    near = run(*base, "search", "--sessions", "cortado").stdout.splitlines()
    assert near[0].endswith("  (no word of the query: near in meaning)")
    mixed = run(*base, "search", "--sessions", "--include-archived", "oat milk")
    assert mixed.returncode == 2 and "--include-archived is about topics" in mixed.stderr


def test_every_read_command_prints_json(ws: Path):
    base = ("--workspace", str(ws))
    run(*base, "topic", "write", "people/ann", "--summary-file", "-", stdin="Ann.")
    for args in (
        ("status",),
        ("search", "ann"),
        ("context",),
        ("topic", "list"),
        ("topic", "show", "people/ann"),
        ("topic", "history", "people/ann"),
    ):
        result = run(*base, *args, "--json")
        assert result.returncode == 0, (args, result.stderr)
        json.loads(result.stdout)


def test_demo_never_builds_over_a_folder_that_holds_something(tmp_path: Path):
    assert run("init", str(tmp_path / "mine")).returncode == 0
    own = tmp_path / "mine" / "memory" / "2025-11-26.md"
    own.write_text("# 2025-11-26\n\n- my own note\n")

    result = run("demo", "--path", str(tmp_path / "mine"))

    assert result.returncode == 1
    assert result.stderr.strip().endswith(
        "not empty; the demo builds its sample workspace in a new or empty folder only (it "
        "would write sample topics and journal days over what is there)"
    )
    assert own.read_text() == "# 2025-11-26\n\n- my own note\n"
    assert not (tmp_path / "mine" / "memory" / "topics" / "people").exists()


def test_demo_runs_end_to_end():
    result = run("demo")
    assert result.returncode == 0, result.stderr
    for part in (
        "== ingest",
        "== search",
        "[raw    ]",
        "[wiki   ]",
        "[journal]",
        "== context",
        "<rules>",
        "<index>",
        "<recall>",
        "== budgets",
    ):
        assert part in result.stdout


def test_every_command_has_help_with_an_example():
    runner = CliRunner()
    context = click.Context(cli)
    commands = [(name, cli.get_command(context, name)) for name in cli.list_commands(context)]
    for name, command in commands:
        names = [name]
        if hasattr(command, "commands"):
            names += [f"{name} {sub}" for sub in command.commands]
        for full in names:
            result = runner.invoke(cli, [*full.split(), "--help"])
            assert result.exit_code == 0, full
            assert "Example:" in result.output, full


def test_the_lazy_command_table_matches_every_module():
    import importlib

    from memstrata.cli import COMMAND_MODULES

    for module in set(COMMAND_MODULES.values()):
        names = {
            command.name for command in importlib.import_module(f"memstrata.cli.{module}").COMMANDS
        }
        assert names == {name for name, owner in COMMAND_MODULES.items() if owner == module}


def test_importing_the_cli_loads_no_command_module():
    import subprocess
    import sys

    code = (
        "import sys, memstrata.cli; "
        "print(sorted(m for m in sys.modules if m.startswith('memstrata.cli.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_metrics_summarises_what_context_and_recall_recorded(ws: Path):
    empty = run("--workspace", str(ws), "metrics")
    assert empty.stdout.startswith("the last 7 days: 0 contexts, 0 recalls\n  nothing recorded")

    run("--workspace", str(ws), "log", "Ann prefers cortado")
    run("--workspace", str(ws), "context", "--query", "cortado", "--total-input-bytes", "9000")
    run("--workspace", str(ws), "recall", "cortado")

    result = run("--workspace", str(ws), "metrics")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "the last 7 days: 1 context, 1 recall"
    assert any(line.startswith("  injection share: mean ") for line in lines)
    summary = json.loads(run("--workspace", str(ws), "metrics", "--json").stdout)
    assert summary["contexts"] == 1 and summary["recalls"] == 1 and summary["recall_hits"] >= 1


def test_accepting_a_conflict_needs_the_side_that_stands(ws: Path):
    run("remember", "Ann likes jazz", cwd=ws)
    assert "conflicted" in run("remember", "Ann does not like jazz", cwd=ws).stdout
    [proposal] = json.loads(run("proposals", "list", "--json", cwd=ws).stdout)

    unsaid = run("proposals", "accept", proposal["id"], cwd=ws)
    ruled = run("proposals", "accept", proposal["id"], "--keep", "a", cwd=ws)

    assert unsaid.returncode != 0
    assert "say which side stands" in unsaid.stderr and "Traceback" not in unsaid.stderr
    assert ruled.returncode == 0 and "kept a" in ruled.stdout
    listed = json.loads(run("topic", "list", "--all", "--json", cwd=ws).stdout)
    assert sorted(topic["state"] for topic in listed) == ["active", "superseded"]


def test_topic_list_keeps_its_columns_with_long_and_chinese_ids(ws: Path):
    from memstrata.cli.output import display_width

    for topic_id in ("world/李娜-在上海办公室工作", "experiences/set-up-staging-for-the-billing"):
        run("topic", "write", topic_id, "--summary-file", "-", stdin="A fact.\n", cwd=ws)

    lines = run("topic", "list", cwd=ws).stdout.splitlines()

    columns = {display_width(line.split("active")[0]) for line in lines}
    assert len(lines) == 2 and len(columns) == 1


def _feed(fifo: Path, text: str) -> None:
    with contextlib.suppress(OSError):  # the reader went away: the test says what that means
        fifo.write_text(text)


def test_topic_write_reads_a_pipe_as_bash_hands_on_for_process_substitution(
    ws: Path, tmp_path: Path
):
    """``--summary-file <(make-summary)`` passes a pipe such as /dev/fd/63, which is no
    regular file; it used to be refused as 'no such file'."""
    fifo = tmp_path / "summary.pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=_feed, args=(fifo, "# Ann\nPrefers cortado.\n"), daemon=True)
    writer.start()
    result = run(
        "--workspace", str(ws), "topic", "write", "people/ann", "--summary-file", str(fifo)
    )
    if writer.is_alive():  # nobody opened the pipe: release the writer
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
    writer.join(timeout=30)

    assert result.returncode == 0, result.stderr
    assert (ws / "memory" / "topics" / "people" / "ann" / "summary.md").read_text() == (
        "# Ann\nPrefers cortado.\n"
    )


def test_recall_with_a_filter_and_no_query_lists_what_the_filter_lets_through(ws: Path):
    base = ("--workspace", str(ws))
    assert run(*base, "log", "--kind", "W", "@Ann prefers cortado").returncode == 0
    assert run(*base, "log", "Deployed the billing canary").returncode == 0

    facts = run(*base, "recall", "--kind", "w", "--json")
    nothing = run(*base, "recall")

    assert facts.returncode == 0, facts.stderr
    [item] = json.loads(facts.stdout)["items"]
    assert (item["kind"], item["content"]) == ("world", "@Ann prefers cortado")
    assert nothing.returncode == 2
    assert "give a QUERY, or a filter" in nothing.stderr


def test_search_json_echoes_the_query_it_searched(ws: Path):
    base = ("--workspace", str(ws))
    assert run(*base, "log", "@Ann prefers cortado").returncode == 0
    message = (
        " ".join(f"worker{n} finished batch{n}." for n in range(300)) + " Who prefers cortado?"
    )

    result = run(*base, "search", message, "--json")

    shown = json.loads(result.stdout)
    assert result.returncode == 0, result.stderr
    assert len(shown["query"]) <= 2_000 and shown["query"].endswith("Who prefers cortado?")
    assert "cortado" in shown["hits"][0]["text"]
    assert shown["notes"][0].startswith(f"query of {len(message)} characters cut to ")


def test_escape_sequences_from_a_transcript_or_a_hand_edit_are_shown_not_sent(ws: Path):
    # A terminal would retitle its window on OSC 0 and hide a link behind OSC 8.
    base = ("--workspace", str(ws))
    osc = "\x1b]0;evil\x07 narwhal \x1b]8;;http://evil/\x07link\x1b]8;;\x07 \u202eabc"
    transcript = ws.parent / "escapes.jsonl"
    turn = {
        "type": "user",
        "message": {"role": "user", "content": osc},
        "timestamp": "2025-11-26T10:00:00Z",
        "sessionId": "s1",
        "uuid": "u1",
    }
    transcript.write_text(json.dumps(turn) + "\n")
    assert run(*base, "ingest", "--format", "claude-code", str(transcript)).returncode == 0
    (ws / "memory" / "2025-11-26.md").write_text(f"# 2025-11-26\n\n- 10:00 tapir {osc}\n")

    searched = run(*base, "search", "narwhal").stdout
    recalled = run(*base, "recall", "tapir narwhal").stdout
    context = run(*base, "context", "--query", "tapir narwhal").stdout

    for shown in (searched, recalled, context):
        assert "narwhal" in shown and "␛]0;evil␇" in shown
        assert not {"\x1b", "\x07", "\u202e"} & set(shown)


def test_recall_marks_what_only_nearness_of_meaning_found(tmp_path: Path):
    demo = tmp_path / "demo"
    assert run("demo", "--path", str(demo)).returncode == 0

    unrelated = run("--workspace", str(demo), "recall", "zeppelin airships", "-k", "3").stdout
    related = run("--workspace", str(demo), "recall", "what does Ann drink", "-k", "3").stdout

    heads = [line for line in unrelated.splitlines() if line.startswith("[")]
    assert heads and all(h.endswith("  (no word of the query: near in meaning)") for h in heads)
    assert not related.splitlines()[0].endswith("near in meaning)")
