"""The installed Claude Code hook commands, run as Claude Code runs them: a shell command with
the documented JSON payload on stdin (code.claude.com/docs/en/hooks, "Hook input")."""

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.hooks.claude_code import install
from memstrata.hooks.settings import launcher, our_hooks
from memstrata.raw.importers import default_agent

SESSION_ID = "9eda1058-9706-484a-b992-d03f9cfa2546"
SAMPLE = "claude-code/codemie-real-v2.1.4/session-9eda1058.jsonl"
MEMSTRATA = shlex.join(launcher())


@pytest.fixture
def knowing(workspace: Path) -> Path:
    """A workspace that knows about Ann."""
    with Memory(workspace) as memory:
        memory.write_topic("people/ann", "# Ann\nDesign lead. Drinks a cortado every morning.\n")
        memory.log("Ann approved the billing redesign")
    return workspace


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.fixture
def commands(knowing: Path, project: Path) -> dict[str, str]:
    """Event name → the command ``hooks install`` put in .claude/settings.json."""
    install(knowing, "project", project_dir=project)
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    return dict(our_hooks(settings))


@pytest.fixture
def live_transcript(transcripts: Path, tmp_path: Path) -> Path:
    """The session's transcript where Claude Code keeps it while the session runs."""
    folder = tmp_path / "home" / ".claude" / "projects" / "-tmp-project"
    folder.mkdir(parents=True)
    return Path(shutil.copy(transcripts / SAMPLE, folder / f"{SESSION_ID}.jsonl"))


def payload(event: str, project: Path, transcript: Path | str, **fields: object) -> dict:
    return {
        "session_id": SESSION_ID,
        "transcript_path": str(transcript),
        "cwd": str(project),
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def fire(command: str, stdin: str | dict, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a hook command through the shell, as Claude Code does."""
    env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    data = stdin if isinstance(stdin, str) else json.dumps(stdin)
    return subprocess.run(
        command,
        shell=True,
        input=data,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
        check=False,
    )


def context_of(result: subprocess.CompletedProcess[str], event: str) -> str:
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert output["hookSpecificOutput"]["hookEventName"] == event
    return output["hookSpecificOutput"]["additionalContext"]


def test_session_start_prints_the_rules_and_the_index(
    commands: dict[str, str], project: Path, live_transcript: Path
):
    result = fire(
        commands["SessionStart"],
        payload("SessionStart", project, live_transcript, source="startup", model="claude"),
        project,
    )

    context = context_of(result, "SessionStart")
    assert "<rules>" in context and "## MEMORY.md" in context and "## prompt/SOUL.md" in context
    assert "<index>" in context and "people/ann" in context
    assert result.stderr == ""


def test_rules_over_budget_still_start_the_session_with_the_index_and_a_warning(
    commands: dict[str, str], knowing: Path, project: Path, live_transcript: Path
):
    (knowing / "MEMORY.md").write_text("# Memory\n" + "- a core fact that is far too long\n" * 900)

    result = fire(
        commands["SessionStart"],
        payload("SessionStart", project, live_transcript, source="startup"),
        project,
    )

    context = context_of(result, "SessionStart")
    assert "<rules>" not in context and "<index>" in context and "people/ann" in context
    assert "<memstrata-warning>" in context and "tell the user" in context
    assert "MEMORY.md" in context and "over the rules budget of 13000" in context
    assert result.stderr.startswith("memstrata session-start hook: rules not injected: ")


def test_a_damaged_topic_index_file_is_rebuilt_and_the_session_gets_rules_and_index(
    commands: dict[str, str], knowing: Path, project: Path, live_transcript: Path
):
    (knowing / "memory" / "topics" / "_index.json").write_text("{oops\n")

    result = fire(
        commands["SessionStart"],
        payload("SessionStart", project, live_transcript, source="startup"),
        project,
    )

    context = context_of(result, "SessionStart")
    assert "<rules>" in context and "## MEMORY.md" in context
    assert "<index>" in context and "people/ann" in context
    assert result.stderr == ""


def test_a_topic_index_that_cannot_be_read_or_rebuilt_still_starts_the_session_with_the_rules(
    commands: dict[str, str], knowing: Path, project: Path, live_transcript: Path
):
    index_file = knowing / "memory" / "topics" / "_index.json"
    index_file.unlink()
    index_file.mkdir()  # a folder in its place: neither readable nor replaceable

    result = fire(
        commands["SessionStart"],
        payload("SessionStart", project, live_transcript, source="startup"),
        project,
    )

    context = context_of(result, "SessionStart")
    assert "<rules>" in context and "## MEMORY.md" in context and "## prompt/SOUL.md" in context
    assert "<index>" not in context
    assert "<memstrata-warning>" in context and "index of topics" in context
    assert result.stderr.startswith("memstrata session-start hook: index not injected: ")


def test_user_prompt_prints_what_is_recalled_for_the_prompt(
    commands: dict[str, str], project: Path, live_transcript: Path
):
    result = fire(
        commands["UserPromptSubmit"],
        payload("UserPromptSubmit", project, live_transcript, prompt="What coffee does Ann like?"),
        project,
    )

    context = context_of(result, "UserPromptSubmit")
    assert context.startswith("<recall>\n") and context.endswith("</recall>")
    assert "cortado" in context
    assert "people/ann" in context  # every item names its source
    assert "<rules>" not in context  # the rules came once, at session start


def test_user_prompt_prints_nothing_when_nothing_is_recalled(
    commands: dict[str, str], project: Path, live_transcript: Path
):
    result = fire(
        commands["UserPromptSubmit"],
        payload("UserPromptSubmit", project, live_transcript, prompt="quaternion eigenvalues"),
        project,
    )

    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_user_prompt_recall_stays_within_the_recall_budget(
    commands: dict[str, str], project: Path, live_transcript: Path, knowing: Path
):
    with Memory(knowing) as memory:
        for n in range(40):
            memory.write_topic(f"notes/ann-{n}", f"# Ann note {n}\nAnn and coffee, {'x' * 600}\n")
        budget = memory.config.budgets.recall_bytes

    result = fire(
        commands["UserPromptSubmit"],
        payload("UserPromptSubmit", project, live_transcript, prompt="Ann coffee"),
        project,
    )

    context = context_of(result, "UserPromptSubmit")
    body = context.removeprefix("<recall>\n").removesuffix("\n</recall>")
    assert 0 < len(body.encode()) <= budget
    # what the budget trimmed never reached the model: it is not counted as used
    injected = {line.split("]")[0].split()[-1] for line in body.splitlines()}
    with Memory(knowing) as memory:
        used = {f"notes/ann-{n}": memory.access_of(f"notes/ann-{n}").count for n in range(40)}
    assert {source for source, count in used.items() if count} == injected - {"people/ann"}
    assert set(used.values()) <= {0, 1}


@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_stop_and_session_end_import_the_live_transcript(
    commands: dict[str, str], project: Path, live_transcript: Path, knowing: Path, event: str
):
    fields = {"stop_hook_active": False} if event == "Stop" else {"reason": "prompt_input_exit"}

    result = fire(commands[event], payload(event, project, live_transcript, **fields), project)

    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    with Memory(knowing) as memory:
        hits = memory.search("explore more of current repo")
        assert any(hit.stratum == "raw" for hit in hits)
        [session] = [s for s in memory.raw.sessions() if s.id == f"claude-code:{SESSION_ID}"]
        assert session.agent == default_agent("claude-code")


def test_stop_after_each_answer_imports_only_what_is_new(
    commands: dict[str, str], project: Path, live_transcript: Path, knowing: Path
):
    lines = live_transcript.read_bytes().splitlines(keepends=True)
    live_transcript.write_bytes(b"".join(lines[: len(lines) // 2]))
    first = fire(commands["Stop"], payload("Stop", project, live_transcript), project)
    with Memory(knowing) as memory:
        early = memory.raw.counts()["turns"]

    live_transcript.write_bytes(b"".join(lines))
    second = fire(commands["Stop"], payload("Stop", project, live_transcript), project)

    assert first.returncode == second.returncode == 0
    with Memory(knowing) as memory:
        assert 0 < early < memory.raw.counts()["turns"]
        turns = memory.raw.turns(f"claude-code:{SESSION_ID}")
    with Memory(knowing) as fresh_eyes:
        fresh_eyes.ingest([live_transcript], "claude-code", "x:y:z")
        assert [t.text for t in turns] == [
            t.text for t in fresh_eyes.raw.turns(f"claude-code:{SESSION_ID}")
        ]


def test_the_workspace_is_found_from_the_payloads_cwd(
    knowing: Path, live_transcript: Path, tmp_path: Path
):
    command = f"{MEMSTRATA} hook user-prompt"
    inside = knowing / "memory"

    result = fire(
        command,
        payload("UserPromptSubmit", inside, live_transcript, prompt="Ann coffee"),
        tmp_path,
    )

    assert "cortado" in context_of(result, "UserPromptSubmit")


@pytest.mark.parametrize(
    ("event", "stdin", "problem"),
    [
        ("UserPromptSubmit", "{not json", "not JSON"),
        ("UserPromptSubmit", "[1, 2]", "not a JSON object"),
        ("Stop", {"session_id": "s", "hook_event_name": "Stop"}, "names no transcript_path"),
        ("Stop", {"transcript_path": "/nowhere/s.jsonl"}, "/nowhere/s.jsonl: no such transcript"),
        ("SessionEnd", {"transcript_path": "/nowhere/s.jsonl"}, "no such transcript"),
    ],
)
def test_a_failing_hook_prints_one_line_to_stderr_and_exits_0(
    commands: dict[str, str], project: Path, event: str, stdin: str | dict, problem: str
):
    result = fire(commands[event], stdin, project)

    assert result.returncode == 0
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("memstrata ")
    assert problem in result.stderr


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("", "{path}: empty file, nothing to import"),
        ("hello\n", "{path}: no claude-code session found: the file does not match"),
    ],
    ids=["empty", "not-a-transcript"],
)
def test_stop_names_a_file_it_cannot_import_and_why(
    commands: dict[str, str], project: Path, tmp_path: Path, content: str, said: str
):
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(content)

    result = fire(commands["Stop"], payload("Stop", project, transcript), project)

    assert result.returncode == 0
    assert result.stderr.startswith("memstrata stop hook: " + said.format(path=transcript))
    assert "1 line of" not in result.stderr  # a whole file, not a line of it


def test_stop_counts_the_lines_it_could_not_import(
    commands: dict[str, str], project: Path, live_transcript: Path
):
    lines = len(live_transcript.read_text().splitlines())
    with live_transcript.open("a") as transcript:
        transcript.write("not json\n{broken\n")

    result = fire(commands["Stop"], payload("Stop", project, live_transcript), project)

    assert result.returncode == 0
    assert result.stderr == (
        f"memstrata stop hook: 2 lines of {live_transcript.name} not imported "
        f"(first: {live_transcript}:{lines + 1}: invalid JSON: Expecting value (column 1))\n"
    )


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit", "Stop"])
def test_a_missing_workspace_is_one_line_and_exit_0(
    commands: dict[str, str], project: Path, knowing: Path, live_transcript: Path, event: str
):
    shutil.rmtree(knowing)

    result = fire(commands[event], payload(event, project, live_transcript, prompt="x"), project)

    assert result.returncode == 0
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "not a memstrata workspace" in result.stderr


def test_no_workspace_anywhere_is_one_line_and_exit_0(tmp_path: Path, live_transcript: Path):
    command = f"{MEMSTRATA} hook session-start"

    result = fire(command, payload("SessionStart", tmp_path, live_transcript), tmp_path)

    assert (result.returncode, result.stdout) == (0, "")
    assert len(result.stderr.splitlines()) == 1
    assert "no memstrata.toml" in result.stderr


def test_plain_output_for_other_harnesses(knowing: Path, tmp_path: Path):
    command = f"{MEMSTRATA} --workspace {knowing} hook user-prompt --plain --prompt 'Ann coffee'"

    result = fire(command, "", tmp_path)

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("<recall>\n") and "cortado" in result.stdout


def test_a_harness_that_keeps_stdin_open_does_not_hang_the_hook(
    commands: dict[str, str], project: Path, live_transcript: Path
):
    asked = payload("UserPromptSubmit", project, live_transcript, prompt="Ann coffee")
    with subprocess.Popen(
        commands["UserPromptSubmit"],
        shell=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=project,
    ) as hook:
        assert hook.stdin is not None and hook.stdout is not None
        hook.stdin.write(json.dumps(asked))
        hook.stdin.flush()  # and never closed

        assert hook.wait(timeout=30) == 0  # it waited a moment for the rest, then went on
        context = json.loads(hook.stdout.read())["hookSpecificOutput"]["additionalContext"]

    assert "cortado" in context


@pytest.mark.parametrize(
    ("named", "message"),
    [
        (12, "transcript_path is not a path: 12"),
        ("FOLDER", "a folder, not a transcript file"),
    ],
)
def test_a_transcript_path_that_is_no_file_is_named_for_what_it_is(
    tmp_path: Path, named: object, message: str
):
    from memstrata.errors import InputError
    from memstrata.hooks.run import transcript_of

    with pytest.raises(InputError, match=message):
        transcript_of({"transcript_path": str(tmp_path) if named == "FOLDER" else named}, "x")


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        # an option or a harness a newer memstrata wrote into the settings
        (["user-prompt", "--since-version", "9"], "No such option '--since-version'"),
        (["stop", "--harness", "cursor"], "Invalid value for '--harness'"),
        (["post-tool-use"], "No such command 'post-tool-use'"),
    ],
)
def test_a_hook_this_version_cannot_read_still_exits_0(knowing: Path, arguments, said):
    # Claude Code reads exit 2 as "block": the prompt would be erased, or the agent never stop
    command = shlex.join([*launcher(), "--workspace", str(knowing), "hook", *arguments])

    result = fire(command, {"prompt": "Ann?"}, knowing)

    assert result.returncode == 0
    assert result.stderr.startswith("memstrata hook: ") and said in result.stderr


@pytest.mark.parametrize("closed", [">&-", "2>&-"])
def test_a_hook_whose_output_the_harness_closed_still_exits_0(knowing: Path, closed: str):
    command = shlex.join([*launcher(), "--workspace", str(knowing), "hook", "user-prompt"])

    for stdin in ({"prompt": "What coffee does Ann like?"}, "{not json"):
        assert fire(f"{command} {closed}", stdin, knowing).returncode == 0


def test_the_prompt_hook_loads_no_embedding_injection_or_redaction_engine(knowing: Path):
    # Each costs tens of milliseconds to import on every prompt, and a prompt that finds the
    # workspace unchanged needs none of them: numpy (the embedder), the injection rules (the
    # Index view is cached), the secret finders (nothing new to index).
    hook = "user-prompt --plain --prompt 'Ann coffee'"
    code = (
        "import contextlib, io, sys\n"
        "from memstrata.cli import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):\n"
        f"    cli(['--workspace', {str(knowing)!r}, 'hook', *{shlex.split(hook)!r}])\n"
        "heavy = ('numpy', 'memstrata.injection.rules', 'memstrata.redaction.redact')\n"
        "print(out.getvalue().startswith('<recall>'), [m for m in heavy if m in sys.modules])\n"
    )
    with Memory(knowing) as memory:
        memory.context("Ann")  # the Index view cached, the index in step with the files

    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout

    assert shown.strip() == "True []"
