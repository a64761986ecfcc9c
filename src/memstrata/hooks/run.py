"""The hook commands a harness runs each session and turn: fast, and never in the agent's way.

=================  ==========================  ==============================================
hook               harness event               does
=================  ==========================  ==============================================
``session-start``  SessionStart                prints the Rules and the Index as context
``user-prompt``    UserPromptSubmit            prints what is recalled for the prompt (≤ the
                                               recall budget) as context
``stop``           Stop, SessionEnd            imports the session's transcript (what is new)
                                               and runs ``Memory.tick`` when memstrata has it
``codex-notify``   Codex ``notify`` program    the same as ``stop``, for Codex without hooks
=================  ==========================  ==============================================

The harness sends a JSON object on stdin (Claude Code and Codex use the same fields):
``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``, and ``prompt`` for
UserPromptSubmit. Context goes back on stdout as
``{"hookSpecificOutput": {"hookEventName": …, "additionalContext": …}}``, which both read.

Whatever goes wrong (no workspace, bad JSON, a missing transcript, a held lock), a hook prints
one line to stderr and its command exits 0: a memory that fails must not stop the agent.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memstrata.context.compile import (
    Context,
    ContextItem,
    compile_context,
    index_items,
    pack,
    recall_line,
)
from memstrata.errors import BudgetExceeded, InputError
from memstrata.memory import Memory
from memstrata.model import Problem
from memstrata.raw.importers import FORMATS
from memstrata.workspace.layout import find_workspace

#: Harnesses whose transcripts ``stop`` imports: one per transcript format memstrata reads.
HARNESSES: tuple[str, ...] = FORMATS

#: Reads give up on a workspace lock held this long (a long upkeep run) instead of stalling a turn.
READ_LOCK_TIMEOUT_S = 2.0

#: How long to wait for a harness to finish writing the payload before going on without it.
STDIN_TIMEOUT_S = 2.0

#: What Claude Code injects whole from one hook (reported, not documented); past it the model gets
#: a preview and a file path. We do not cut there: a longer context is printed, with a note.
HARNESS_OUTPUT_CHARS = 10_000

PREAMBLE = (
    "Long-term memory (memstrata): your rules and the index of topics you know about. "
    "For more, call the memstrata MCP tools: recall (a question), get_topic (an index id), "
    "search (also past sessions); use remember or log for what should last.\n"
)


@dataclass(frozen=True, slots=True)
class HookResult:
    """What a hook prints: ``stdout`` for the harness, ``message`` (one line) for stderr."""

    stdout: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class HookOptions:
    """The command-line options of the hooks (each hook reads the ones it needs)."""

    harness: str = "claude-code"
    agent: str | None = None
    prompt: str | None = None
    plain: bool = False


def run_hook(
    name: str,
    raw_payload: str,
    *,
    workspace: Path | None = None,
    options: HookOptions | None = None,
) -> HookResult:
    """Run hook ``name`` on a payload; every failure becomes a one-line message, never a raise."""
    try:
        hook = HOOKS.get(name)
        if hook is None:
            raise InputError(f"unknown hook {name!r}; expected one of {', '.join(HOOKS)}")
        # Codex hands its notification over as an argument, the other harnesses on stdin
        payload = read_payload(raw_payload, "argument" if name == "codex-notify" else "stdin")
        if name == "codex-notify" and payload.get("type") != "agent-turn-complete":
            return HookResult()  # Codex notifies about a finished turn; nothing else is ours
        with open_memory(workspace, payload) as memory:
            return hook(memory, payload, options or HookOptions())
    except Exception as error:  # the one place any failure becomes a line
        return HookResult("", f"memstrata {name} hook: {_one_line(error)}")


def _session_start(memory: Memory, payload: dict[str, Any], options: HookOptions) -> HookResult:
    memory.lock.timeout_s = READ_LOCK_TIMEOUT_S
    try:
        text = session_context(memory)
    except BudgetExceeded as error:
        # Harnesses rarely show a hook's stderr: without rules, the session still gets the
        # Index, and the agent is told why the rules are missing so it can tell the user.
        text = rules_missing_context(memory, str(error))
        return HookResult(
            _as_output("SessionStart", text, options.plain),
            f"memstrata session-start hook: rules not injected: {_one_line(error)}",
        )
    except Exception as error:  # the Index (or recall's sync) failed: never lose the Rules
        text = index_missing_context(memory, str(error))
        return HookResult(
            _as_output("SessionStart", text, options.plain),
            f"memstrata session-start hook: index not injected: {_one_line(error)}",
        )
    note = ""
    if len(text) > HARNESS_OUTPUT_CHARS:
        note = (
            f"memstrata session-start hook: the context is {len(text)} characters; "
            f"a harness may show only a preview past {HARNESS_OUTPUT_CHARS}"
        )
    return HookResult(_as_output("SessionStart", text, options.plain), note)


def _user_prompt(memory: Memory, payload: dict[str, Any], options: HookOptions) -> HookResult:
    memory.lock.timeout_s = READ_LOCK_TIMEOUT_S
    asked = options.prompt if options.prompt is not None else payload.get("prompt")
    text = prompt_context(memory, asked if isinstance(asked, str) else "")
    return HookResult(_as_output("UserPromptSubmit", text, options.plain))


def _stop(memory: Memory, payload: dict[str, Any], options: HookOptions) -> HookResult:
    return HookResult("", finish_turn(memory, payload, options.harness, options.agent))


def _codex_notify(memory: Memory, payload: dict[str, Any], options: HookOptions) -> HookResult:
    return HookResult("", finish_turn(memory, payload, "codex", options.agent, "codex-notify"))


HOOKS: dict[str, Callable[[Memory, dict[str, Any], HookOptions], HookResult]] = {
    "session-start": _session_start,
    "user-prompt": _user_prompt,
    "stop": _stop,
    "codex-notify": _codex_notify,
}


# -- the payload and the workspace -------------------------------------------------------------


def read_payload(raw: str, where: str = "stdin") -> dict[str, Any]:
    """The harness's JSON object (read from ``where``, for the message); empty input is an
    empty payload."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        raise InputError(f"the hook payload ({where}) is not JSON ({error.msg})") from None
    if not isinstance(value, dict):
        raise InputError(f"the hook payload ({where}) is not a JSON object")
    return value


#: The hooks a harness waits for before every prompt (``stop`` exits normally).
FAST_EXIT = frozenset({"session-start", "user-prompt"})


def answer(
    name: str,
    workspace: Path | None,
    options: HookOptions | None = None,
    payload: str | None = None,
) -> None:
    """Run hook ``name`` on ``payload`` (default: stdin) and print what it says, as the harness
    reads it; nothing here raises or ends in a non-zero exit. Shared by ``memstrata hook`` and
    the console script's path for the per-prompt hooks, which skips loading click."""
    raw = read_stdin() if payload is None else payload
    result = run_hook(name, raw, workspace=workspace, options=options or HookOptions())
    try:
        # a stream the harness closed before starting us is None: nobody to tell
        if result.stdout and sys.stdout is not None:
            sys.stdout.write(result.stdout)
            sys.stdout.flush()
        if result.message and sys.stderr is not None:
            sys.stderr.write(result.message + "\n")
            sys.stderr.flush()
    except OSError:
        # The harness stopped listening. Point stdout at /dev/null so that the flush at exit
        # cannot fail too (Python would exit 120).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return
    if name in FAST_EXIT and sys.stdout is sys.__stdout__:
        # A harness waits for these before every prompt: skip the interpreter's teardown (~12 ms
        # of freeing modules); the memory is closed and the output flushed. Not under a test
        # runner, whose streams are not the process's.
        os._exit(0)


def read_stdin(timeout_s: float = STDIN_TIMEOUT_S) -> str:
    """Everything on stdin, waiting at most ``timeout_s`` for a harness that keeps it open."""
    stream = sys.stdin
    if stream is None or stream.isatty():
        return ""
    if os.name == "nt":  # select() takes sockets only there: read to the end
        return stream.read()
    import select

    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout_s
    try:
        fd = stream.fileno()
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    except (OSError, ValueError):
        pass  # what could not be read is missing from the payload, and the hook will say so
    return b"".join(chunks).decode("utf-8", errors="replace")


def open_memory(workspace: Path | None, payload: dict[str, Any]) -> Memory:
    """``--workspace``, else ``$MEMSTRATA_WORKSPACE``, else the nearest above the payload's cwd."""
    cwd = payload.get("cwd")
    start = Path(cwd) if isinstance(cwd, str) and cwd and Path(cwd).is_dir() else None
    # No embedding model in a hook: loading it and the vectors (~0.4 s more per prompt at 10k
    # topics, even with the model mapped from the user cache) would hold up every prompt. Hook
    # recall runs the lexical, entity and temporal arms over vectors-free data, and says so.
    return Memory(find_workspace(workspace, start=start).root, embeddings=False)


# -- the hooks -------------------------------------------------------------------------------


def session_context(memory: Memory) -> str:
    """The Rules and the Index (no query), within their budgets; empty when both are."""
    text = memory.context(None).text
    return PREAMBLE + text if text.strip() else ""


def rules_missing_context(memory: Memory, why: str) -> str:
    """The Index alone, after a warning for the agent: the rules could not be injected."""
    view = memory.index_view()
    index = compile_context([], index_items(view.text), [], memory.config.budgets, view.omitted)
    warning = (
        "<memstrata-warning>\nYour rules (persona, user settings, core facts) were not "
        f"injected this session; tell the user. memstrata says: {why}\n</memstrata-warning>\n"
    )
    return PREAMBLE + warning + index.text


def index_missing_context(memory: Memory, why: str) -> str:
    """The Rules alone, and a warning for the agent: the Index could not be injected."""
    rules = [
        ContextItem("rules", item.path, item.injected, pinned=item.pinned)
        for item in memory.rules().files
        if item.injected
    ]
    compiled = compile_context(rules, [], [], memory.config.budgets)
    warning = (
        "<memstrata-warning>\nThe index of topics you know about was not injected this "
        f"session; recall or search may still find them. memstrata says: {why}\n"
        "</memstrata-warning>\n"
    )
    return PREAMBLE + warning + compiled.text


def prompt_context(memory: Memory, prompt: str) -> str:
    """What is recalled for ``prompt``, packed into the recall budget; empty when nothing is."""
    if not prompt.strip():
        return ""
    items = [
        ContextItem("recall", item.source, recall_line(item))
        for item in memory.recall(prompt, record_access=False).items
    ]
    channel = pack("recall", items, memory.config.budgets.recall_bytes)
    memory.record_use(item.label for item in channel.items)  # not what the budget trimmed
    return Context((channel,)).text if channel.items else ""


def finish_turn(
    memory: Memory,
    payload: dict[str, Any],
    harness: str,
    agent: str | None = None,
    hook: str = "stop",
) -> str:
    """Import the session's transcript, then ``tick``; returns a one-line note ('' when fine)
    that names ``hook``, the hook it runs for."""
    if harness not in HARNESSES:
        raise InputError(f"unknown harness {harness!r}; expected one of {', '.join(HARNESSES)}")
    note = ""
    try:
        transcript = transcript_of(payload, harness)
        files = [transcript, *_subagent_files(transcript)]
        # no agent named: the importer's default key, and sessions an ingest --agent moved to
        # another key stay there
        report = memory.ingest(files, harness, agent)
        if report.problems:
            note = f"memstrata {hook} hook: {problems_note(report.problems)}"
    except Exception as error:  # still tick, then report it
        note = f"memstrata {hook} hook: {_one_line(error)}"
    tick = getattr(memory, "tick", None)  # Memory.tick: the zero-resident upkeep, when present
    if callable(tick):
        tick()
    return note


def problems_note(problems: Sequence[Problem]) -> str:
    """What an import could not use, in a few words: a whole file (empty, not a transcript, not
    readable) is named with why; bad lines are counted, with the first."""
    whole = [problem for problem in problems if problem.line is None]
    lines = [problem for problem in problems if problem.line is not None]
    said = [_one_line(whole[0])] if whole else []
    if len(whole) > 1:
        said.append(f"{len(whole) - 1} more file{'s' if len(whole) > 2 else ''} not imported")
    if lines:
        names = {Path(problem.path).name for problem in lines}
        of = names.pop() if len(names) == 1 else f"{len(names)} files"
        count = f"{len(lines)} line{'s' if len(lines) != 1 else ''}"
        said.append(f"{count} of {of} not imported (first: {lines[0]})")
    return "; ".join(said)


def transcript_of(payload: dict[str, Any], harness: str) -> Path:
    """The transcript a payload names (for Codex, else found by its session or thread id)."""
    named = payload.get("transcript_path")
    if named is not None and not isinstance(named, str):
        raise InputError(f"the hook payload's transcript_path is not a path: {named!r}")
    if named:
        path = Path(named).expanduser()
        if path.is_dir():
            raise InputError(f"{path}: a folder, not a transcript file")
        if not path.is_file():
            raise InputError(f"{path}: no such transcript")
        # A file named "-" is a file here; to ingest, a bare "-" would mean standard input.
        return path.absolute()
    if harness == "codex":
        thread = payload.get("session_id") or payload.get("thread-id")
        if isinstance(thread, str) and thread:
            from memstrata.hooks.codex import codex_home, find_rollout  # Codex's stop alone

            found = find_rollout(thread)
            if found is not None:
                return found
            raise InputError(f"no Codex rollout for thread {thread} under {codex_home()}")
    raise InputError("the hook payload names no transcript_path")


def _subagent_files(transcript: Path) -> list[Path]:
    """Claude Code 2.1 writes a session's subagents to ``<session>/subagents/agent-*.jsonl``."""
    return sorted((transcript.with_suffix("") / "subagents").glob("agent-*.jsonl"))


def _as_output(event: str, text: str, plain: bool) -> str:
    if not text:
        return ""
    if plain:
        return text if text.endswith("\n") else text + "\n"
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(output, ensure_ascii=False) + "\n"


def _one_line(error: BaseException | Problem) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:299] + "…"
