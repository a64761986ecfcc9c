"""Every user mistake ends in one line naming the file (and line), a non-zero exit, no damage."""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .process import can_mount_read_only, run, run_on_small_disk


def snapshot(root: Path) -> dict[str, str]:
    """Hash of every canonical file (the derived index and lock are not stored knowledge)."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".memstrata" not in path.parts
    }


def assert_one_line_error(result, *fragments: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    run("init", str(root))
    run(
        "--workspace",
        str(root),
        "topic",
        "write",
        "people/ann",
        "--summary-file",
        "-",
        stdin="# Ann\nPrefers cortado.\n",
    )
    run("--workspace", str(root), "log", "first entry")
    return root


@pytest.mark.parametrize(
    "slug",
    ["../escape", "/etc/passwd", "．．／．．／etc", "people/..", "people/a/b", "people/_index"],
)
def test_an_unsafe_topic_id_is_refused(ws: Path, slug: str):
    before = snapshot(ws)
    result = run(
        "--workspace", str(ws), "topic", "write", slug, "--summary-file", "-", stdin="pwned"
    )
    assert_one_line_error(result, "Error:")
    assert snapshot(ws) == before


def test_an_invalid_utf8_summary_file_names_file_and_line(ws: Path, tmp_path: Path):
    bad = tmp_path / "summary.md"
    bad.write_bytes(b"# Ann\nCaf\xe9 lover\n")
    before = snapshot(ws)
    result = run("--workspace", str(ws), "topic", "write", "people/ann", "--summary-file", str(bad))
    assert_one_line_error(result, f"{bad}:2", "invalid UTF-8")
    assert snapshot(ws) == before


def test_a_control_character_in_a_summary_file_names_file_line_and_column(ws: Path, tmp_path: Path):
    bad = tmp_path / "summary.md"
    bad.write_text("# Ann\nLikes \x1b[31mred\x1b[0m.\n", encoding="utf-8")
    before = snapshot(ws)
    result = run("--workspace", str(ws), "topic", "write", "people/ann", "--summary-file", str(bad))
    assert_one_line_error(result, f"{bad}:2:7: control character U+001B", "nothing was written")
    result = run(
        "--workspace", str(ws), "topic", "write", "people/ann", "--summary-file", "-",
        stdin="Bell\x07",
    )  # fmt: skip
    assert_one_line_error(result, "<stdin>:1:5: control character U+0007")
    assert snapshot(ws) == before


@pytest.mark.parametrize("source", ["/dev/zero", "-"])
def test_a_summary_that_never_ends_is_refused_after_a_megabyte(ws: Path, source: str):
    before = snapshot(ws)
    result = run(
        "--workspace", str(ws), "topic", "write", "people/ann", "--summary-file", source,
        stdin="a" * 2_000_000,
    )  # fmt: skip
    assert_one_line_error(result, "over 1,048,576 bytes", "nothing was written")
    assert snapshot(ws) == before


@pytest.mark.parametrize(
    "command",
    [
        ("log", "caf\udce9 au lait"),  # the byte 0xe9 of Latin-1, as argv hands it on
        ("log", "--kind", "world", "caf\udce9"),
        ("topic", "archive", "people/ann", "--reason", "caf\udce9"),
        ("snapshot", "take", "--reason", "caf\udce9"),
    ],
)
def test_an_argument_that_is_no_utf8_is_one_line_and_writes_nothing(ws: Path, command):
    before = snapshot(ws)
    result = run("--workspace", str(ws), *command)
    assert_one_line_error(result, "invalid UTF-8 at character 4", "nothing was written")
    assert snapshot(ws) == before


def test_remember_rejects_an_argument_that_is_no_utf8(ws: Path):
    before = snapshot(ws)
    result = run("--workspace", str(ws), "remember", "caf\udce9 au lait")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stdout.splitlines() == ["rejected", "  invalid UTF-8 at character 4"]
    assert snapshot(ws) == before


@pytest.mark.parametrize(
    "command",
    [
        ["remember"],
        ["remember", "--kind", "world"],
        ["remember", "--kind", "observation", "--dry-run"],
        ["log"],
        ["log", "--kind", "world"],
    ],
)
def test_a_confidence_is_refused_unless_the_kind_is_opinion(ws: Path, command: list[str]):
    """``remember`` stored it on any topic, though its help says it is for opinions; ``log``
    refused it. Both refuse it now, alike."""
    before = snapshot(ws)

    result = run("--workspace", str(ws), *command, "--confidence", "0.3", "Eve is tall")

    assert result.returncode == 1
    assert_one_line_error(
        result,
        "Error: a confidence belongs to an opinion: give it with kind opinion, or leave it out",
    )
    assert snapshot(ws) == before


def test_an_over_cap_summary_says_where_the_rest_belongs(ws: Path):
    before = snapshot(ws)
    result = run(
        "--workspace",
        str(ws),
        "topic",
        "write",
        "people/ann",
        "--summary-file",
        "-",
        stdin="x" * 1500,
    )
    assert_one_line_error(result, "1000-char cap", "detail")
    assert snapshot(ws) == before


def test_a_journal_with_invalid_utf8_is_never_rewritten(ws: Path):
    journal = next((ws / "memory").glob("*.md"))
    journal.write_bytes(journal.read_bytes() + b"- caf\xe9\n")
    before = snapshot(ws)
    result = run("--workspace", str(ws), "log", "more")
    assert result.returncode != 0
    assert "invalid UTF-8" in result.stderr
    assert journal.name in result.stderr
    assert snapshot(ws) == before


def test_malformed_meta_json_names_file_and_line(ws: Path):
    meta = ws / "memory" / "topics" / "people" / "ann" / "meta.json"
    meta.write_text('{\n  "state": "active",\n  broken\n}\n')
    before = snapshot(ws)
    result = run("--workspace", str(ws), "topic", "show", "people/ann")
    assert_one_line_error(result, "meta.json:3", "invalid JSON")
    assert snapshot(ws) == before


def test_broken_journal_frontmatter_is_reported_with_its_line_on_rebuild(ws: Path):
    (ws / "memory" / "2025-01-02.md").write_text("---\nnot a pair\n---\n- a note\n")
    result = run("--workspace", str(ws), "rebuild")
    assert result.returncode == 1
    assert "memory/2025-01-02.md:2" in result.stderr
    assert "Traceback" not in result.stderr


def test_malformed_jsonl_lines_are_reported_by_number_and_the_rest_imports(
    ws: Path, tmp_path: Path
):
    path = tmp_path / "chat.jsonl"
    path.write_bytes(
        b'{"role": "user", "content": "hello zeppelin"}\n'
        b"{broken\n"
        b'{"role": "assistant", "content": "caf\xe9"}\n'
        b'{"role": "assistant", "content": "goodbye zeppelin"}\n'
    )
    result = run("--workspace", str(ws), "ingest", str(path), "--format", "jsonl")
    assert result.returncode == 1
    assert f"{path}:2: invalid JSON" in result.stderr
    assert f"{path}:3: invalid UTF-8" in result.stderr
    assert "2 turns added" in result.stdout


def test_a_50_mb_transcript_line_is_reported_and_skipped(ws: Path, tmp_path: Path):
    path = tmp_path / "huge.jsonl"
    with path.open("w") as handle:
        handle.write('{"role": "user", "content": "before the flood"}\n')
        handle.write('{"role": "user", "content": "' + "y" * (50 * 1024 * 1024) + '"}\n')
        handle.write('{"role": "user", "content": "after the flood"}\n')
    result = run("--workspace", str(ws), "ingest", str(path), "--format", "jsonl")
    assert result.returncode == 1
    assert f"{path}:2: line longer than" in result.stderr
    assert "2 turns added" in result.stdout


def test_a_missing_workspace_is_one_line(tmp_path: Path):
    result = run("--workspace", str(tmp_path / "nowhere"), "status")
    assert_one_line_error(result, "not a memstrata workspace", "memstrata init")
    result = run("status", cwd=tmp_path)
    assert_one_line_error(result, "no memstrata.toml")


def test_a_workspace_option_naming_a_file_or_folder_inside_one_names_the_workspace(ws: Path):
    for inside in (ws / "memstrata.toml", ws / "memory"):
        result = run("--workspace", str(inside), "status")
        assert_one_line_error(result, "inside one", f"--workspace {ws}")
    stray = ws.parent / "notes.txt"
    stray.write_text("x")
    assert_one_line_error(run("--workspace", str(stray), "status"), "a file, not a workspace")


def test_a_bad_config_names_the_key(ws: Path):
    (ws / "memstrata.toml").write_text("[budgets]\nrecal_bytes = 5\n")
    result = run("--workspace", str(ws), "status")
    assert_one_line_error(result, "memstrata.toml", "budgets.recal_bytes")


def test_init_refuses_a_folder_of_another_workspace_an_empty_name_and_a_broken_config(
    ws: Path, tmp_path: Path
):
    inside = ws / "memory" / "topics"
    assert_one_line_error(run("init", str(inside)), "inside the memory/ folder", str(ws))
    assert not (inside / "memstrata.toml").exists()
    assert_one_line_error(run("init", ""), "empty text")
    (ws / "memstrata.toml").write_text("[budgets\n")
    assert_one_line_error(run("init", str(ws)), "memstrata.toml", "invalid TOML")
    nested = ws / "projects"  # beside the workspace's own folders: a workspace of its own
    assert run("init", str(nested)).returncode == 0


def test_an_input_that_is_a_folder_is_named_so(ws: Path, tmp_path: Path):
    result = run(
        "--workspace", str(ws), "topic", "write", "people/x", "--summary-file", str(tmp_path)
    )
    assert_one_line_error(result, str(tmp_path), "a folder, not a file")


def test_a_missing_input_file_is_one_line(ws: Path, tmp_path: Path):
    result = run(
        "--workspace",
        str(ws),
        "topic",
        "write",
        "people/x",
        "--summary-file",
        str(tmp_path / "nope.md"),
    )
    assert_one_line_error(result, "nope.md")
    result = run("--workspace", str(ws), "ingest", str(tmp_path / "nope.jsonl"))
    assert_one_line_error(result, "nope.jsonl", "no such file")


def test_a_read_only_workspace_refuses_writes_in_one_line(ws: Path):
    if os.geteuid() != 0 or not can_mount_read_only(ws):
        pytest.skip("needs root and mount namespaces to make a read-only workspace")
    before = snapshot(ws)
    result = run(
        "--workspace",
        str(ws),
        "topic",
        "write",
        "people/ann",
        "--summary-file",
        "-",
        stdin="changed",
        readonly=ws,
    )
    assert_one_line_error(result, "Error:", str(ws))
    result = run("--workspace", str(ws), "log", "more", readonly=ws)
    assert_one_line_error(result, "Error:", str(ws))
    assert snapshot(ws) == before


def test_a_read_only_workspace_can_still_be_searched(ws: Path):
    if os.geteuid() != 0 or not can_mount_read_only(ws):
        pytest.skip("needs root and mount namespaces to make a read-only workspace")
    run("--workspace", str(ws), "search", "cortado")  # index built while writable
    result = run("--workspace", str(ws), "search", "cortado", readonly=ws)
    assert result.returncode == 0, result.stderr
    assert "people/ann" in result.stdout


def test_a_read_only_workspace_can_still_rank_its_sessions(ws: Path):
    from memstrata.demo import data_dir

    if os.geteuid() != 0 or not can_mount_read_only(ws):
        pytest.skip("needs root and mount namespaces to make a read-only workspace")
    assert run("--workspace", str(ws), "ingest", str(data_dir() / "transcripts")).returncode == 0
    result = run("--workspace", str(ws), "search", "--sessions", "oat milk", readonly=ws)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("[session] claude-code:")
    result = run("--workspace", str(ws), "search", "oat milk", readonly=ws)
    assert result.returncode == 0, result.stderr
    assert "[raw] claude-code:" in result.stdout


def test_a_read_only_workspace_can_still_recall_and_compile_a_context(ws: Path):
    if os.geteuid() != 0 or not can_mount_read_only(ws):
        pytest.skip("needs root and mount namespaces to make a read-only workspace")
    assert run("--workspace", str(ws), "recall", "cortado").returncode == 0  # access.db made
    recall = run("--workspace", str(ws), "recall", "cortado", readonly=ws)
    context = run("--workspace", str(ws), "context", "--query", "cortado", readonly=ws)

    assert recall.returncode == 0, recall.stderr
    assert "people/ann" in recall.stdout
    assert context.returncode == 0, context.stderr
    assert "cortado" in context.stdout.lower()


def test_a_read_only_workspace_recalls_by_meaning_with_the_vectors_it_stored(ws: Path):
    if os.geteuid() != 0 or not can_mount_read_only(ws):
        pytest.skip("needs root and mount namespaces to make a read-only workspace")
    remember = run("--workspace", str(ws), "remember", "Bo drinks a flat white every morning")
    assert remember.returncode == 0, remember.stderr
    assert run("--workspace", str(ws), "rebuild").returncode == 0  # every vector stored
    query = "what coffee does he like"  # no word in common: only the semantic arm finds it

    result = run("--workspace", str(ws), "recall", "--json", query, readonly=ws)

    assert result.returncode == 0, result.stderr
    recalled = json.loads(result.stdout)
    assert not [note for note in recalled["notes"] if "semantic" in note], recalled["notes"]
    found = {item["content"]: item["arms"] for item in recalled["items"]}
    assert found["Bo drinks a flat white every morning"] == ["semantic"]


#: lays out a workspace on the small disk, then fills the disk to its last few blocks
FILL_THE_DISK = """
$MEMSTRATA init ws >/dev/null && cd ws && $MEMSTRATA log "first line" >/dev/null
free_kb=$(df -k . | tail -1 | awk '{print $4}')
dd if=/dev/zero of=../fill bs=1k count=$((free_kb - 24)) 2>/dev/null
"""


def on_a_full_disk(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a workspace on a small disk filled to its last few blocks."""
    if os.geteuid() != 0 or not can_mount_read_only(tmp_path):
        pytest.skip("needs root and mount namespaces to make a small disk")
    return run_on_small_disk(tmp_path / "disk", FILL_THE_DISK + script)


def test_a_line_logged_on_a_full_disk_is_written_once_and_the_command_says_so(tmp_path: Path):
    result = on_a_full_disk(
        tmp_path,
        """
$MEMSTRATA log "retry me please"; echo "rc=$?"
$MEMSTRATA remember "Omar lives in Paris"; echo "rc=$?"
cat memory/*.md; ls .memstrata
""",
    )

    out = result.stdout
    assert "rc=0" in out.split("retry me please", 2)[1]  # the log itself succeeded
    assert "note: written; the index could not take it in" in result.stderr
    assert out.count("- ") >= 2 and out.count("retry me please") == 2  # echoed once, stored once
    assert "the disk is full" in result.stderr and "Traceback" not in result.stderr
    assert ".damaged" not in out  # a sound file on a full disk is never set aside


def test_a_topic_written_on_a_full_disk_is_written_once_and_the_command_says_so(tmp_path: Path):
    result = on_a_full_disk(
        tmp_path,
        """
printf "# Ann\\nDesign lead.\\n" | $MEMSTRATA topic write people/ann --summary-file -
echo "rc=$?"
cat memory/topics/people/ann/summary.md; wc -l < memory/topics/people/ann/history.jsonl
""",
    )

    assert "created people/ann" in result.stdout and "rc=0" in result.stdout, result.stderr
    assert "note: written; the index could not take it in" in result.stderr
    assert "Design lead." in result.stdout and result.stdout.rstrip().endswith("1")


def test_sessions_of_a_workspace_without_transcripts_are_none(ws: Path):
    result = run("--workspace", str(ws), "search", "--sessions", "cortado")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "no results"
    assert not (ws / "raw" / "sessions.db").exists()


def test_a_reader_that_goes_away_ends_the_command_quietly(ws: Path):
    # `memstrata status | head -1` style: the pipe is closed before memstrata writes to it.
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    process = subprocess.run(
        [sys.executable, "-m", "memstrata", "--workspace", str(ws), "status"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        env=env,
        timeout=120,
        check=False,
    )
    os.close(write_end)
    assert process.returncode == 141  # 128 + SIGPIPE, what a shell reports for a closed pipe
    assert process.stderr.decode() == ""


def test_a_journal_line_with_a_bad_byte_is_named_by_status_and_the_rest_recalled(ws: Path):
    (ws / "memory" / "2025-11-20.md").write_bytes(
        b"# 2025-11-20\n\n- caf\xe9 with @Ann\n- zeppelin hangar tour with @Ann\n"
    )
    status = run("--workspace", str(ws), "status")
    assert status.returncode == 0 and "Traceback" not in status.stderr
    assert "problem:" in status.stderr and "2025-11-20.md:3: invalid UTF-8" in status.stderr
    recall = run("--workspace", str(ws), "recall", "zeppelin hangar")
    assert recall.returncode == 0
    assert "memory/2025-11-20.md#L4" in recall.stdout


def test_status_shows_fifty_problems_and_counts_the_rest(ws: Path):
    bad = "".join(f"- X bad bullet {n}\n" for n in range(60))
    (ws / "memory" / "2025-11-20.md").write_text(f"# 2025-11-20\n\n## Retain\n{bad}")

    result = run("--workspace", str(ws), "status")

    problems = [line for line in result.stderr.splitlines() if line.startswith("problem:")]
    assert len(problems) == 51
    assert problems[-1] == "problem: … and 10 more (status --json lists them all)"


def test_a_workspace_path_that_is_a_link_in_a_loop_is_one_line(tmp_path: Path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    loop = str(tmp_path / "a")

    for result in (
        run("init", loop),
        run("--workspace", loop, "status"),
        run("status", env={"MEMSTRATA_WORKSPACE": loop}),
    ):
        assert_one_line_error(result, loop, "cannot follow its links", "Symlink loop")


def test_a_broken_config_says_which_snapshot_holds_the_settings_as_they_were(ws: Path):
    assert run("--workspace", str(ws), "snapshot", "take", "--reason", "before").returncode == 0
    [taken] = sorted((ws / ".memstrata" / "snapshots").glob("snap-*"))
    config = ws / "memstrata.toml"
    config.write_text(config.read_text().replace("max_active = 100", 'max_active = "lots"'))

    result = run("--workspace", str(ws), "status")

    assert_one_line_error(
        result,
        f"{config}:4: topics.max_active must be int",
        f"the newest snapshot holds the settings as they were: .memstrata/snapshots/{taken.name}/"
        "memstrata.toml",
    )


@pytest.mark.parametrize(
    ("option", "fragment"),
    [("--since", "'soonish': not a time I understand"), ("--until", "is empty")],
)
def test_a_time_bound_recall_cannot_read_is_a_bad_option_value_like_a_bad_k(
    ws: Path, option: str, fragment: str
):
    value = "soonish" if option == "--since" else ""
    bad_time = run("--workspace", str(ws), "recall", "Ann", option, value)
    bad_k = run("--workspace", str(ws), "recall", "Ann", "--k", "0")
    assert bad_time.returncode == bad_k.returncode == 2
    assert f"Invalid value for '{option}': " in bad_time.stderr
    assert fragment in bad_time.stderr and "Traceback" not in bad_time.stderr
