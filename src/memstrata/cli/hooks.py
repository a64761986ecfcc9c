"""``memstrata hooks`` (register with a harness) and ``memstrata hook`` (what the harness runs)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import click

from memstrata.errors import WorkspaceNotFound
from memstrata.hooks.run import HARNESSES, HookOptions, answer
from memstrata.hooks.settings import (
    FileChange,
    generic_snippet,
    require_workspace,
    workspace_in_effect,
)

INSTALLABLE = ("claude-code", "codex")


def _scope_options(command: Callable[..., None]) -> Callable[..., None]:
    """--project / --user, --project-dir and --dry-run, shared by install and uninstall."""
    options = (
        click.option(
            "--project",
            "project",
            is_flag=True,
            help="This project's config (default): .claude/ + .mcp.json, or .codex/ + AGENTS.md.",
        ),
        click.option(
            "--user",
            "user",
            is_flag=True,
            help="Your own config, for every project: ~/.claude/ + ~/.claude.json, or ~/.codex/.",
        ),
        click.option(
            "--project-dir",
            type=click.Path(exists=True, file_okay=False, path_type=Path),
            default=None,
            help="The project folder for --project (default: here).",
        ),
        click.option("--dry-run", is_flag=True, help="Show the changes as diffs; write nothing."),
    )
    for option in reversed(options):
        command = option(command)
    return command


def _scope(project: bool, user: bool, project_dir: Path | None) -> str:
    """``project`` or ``user``; both at once, or a project folder for the user's config, is a
    usage error rather than a silent choice."""
    if project and user:
        raise click.UsageError("--project and --user exclude each other: choose one")
    if user and project_dir is not None:
        raise click.UsageError("--project-dir goes with --project, not --user")
    return "user" if user else "project"


@click.group()
def hooks() -> None:
    """Register memstrata with an agent harness, or print what to paste into any other.

    Example: memstrata -w ~/agent-memory hooks install claude-code --user
    """


@hooks.command()
@click.argument("harness", type=click.Choice(INSTALLABLE))
@_scope_options
@click.pass_context
def install(
    ctx: click.Context,
    harness: str,
    project: bool,
    user: bool,
    project_dir: Path | None,
    dry_run: bool,
) -> None:
    """Add memstrata's hooks and MCP server to HARNESS's config, keeping everything else.

    Installing again changes nothing (or updates our entries in place). The workspace in effect
    (--workspace, $MEMSTRATA_WORKSPACE or the nearest one above here) is written into each hook;
    memstrata hooks for another workspace are left as they are.

    Example: memstrata -w ~/agent-memory hooks install claude-code --dry-run
    """
    scope = _scope(project, user, project_dir)
    workspace = require_workspace(ctx.find_root().obj)
    module = _module(harness)
    changes = module.install(workspace, scope, project_dir=project_dir, dry_run=dry_run)
    _report(changes, dry_run)
    if any(change.changed for change in changes) and not dry_run:
        click.echo(module.NEXT_STEPS)


@hooks.command()
@click.argument("harness", type=click.Choice(INSTALLABLE))
@_scope_options
@click.pass_context
def uninstall(
    ctx: click.Context,
    harness: str,
    project: bool,
    user: bool,
    project_dir: Path | None,
    dry_run: bool,
) -> None:
    """Take out what install wrote into HARNESS's config for the workspace in effect.

    The rest stays, hooks for another workspace too; a file install created goes once empty.

    Example: memstrata -w ~/agent-memory hooks uninstall claude-code --project
    """
    scope = _scope(project, user, project_dir)
    workspace = workspace_in_effect(ctx.find_root().obj)
    module = _module(harness)
    changes = module.uninstall(workspace, scope, project_dir=project_dir, dry_run=dry_run)
    if not any(change.changed for change in changes):
        where = "user" if scope == "user" else f"project {project_dir or Path.cwd()}"
        whose = f" with workspace {workspace}" if workspace is not None else ""
        click.echo(
            f"nothing to remove: memstrata is not installed for {module.HARNESS} ({where}){whose}"
        )
    _report([change for change in changes if change.changed or change.note], dry_run)


@hooks.command("print")
@click.argument("harness", type=click.Choice([*INSTALLABLE, "any"]), default="any")
@click.pass_context
def print_(ctx: click.Context, harness: str) -> None:
    """Print the hook commands and config snippets for HARNESS (default: any harness).

    Example: memstrata -w ~/agent-memory hooks print codex
    """
    try:
        workspace = require_workspace(ctx.find_root().obj)
    except WorkspaceNotFound as error:
        click.echo(f"note: {error}; showing a placeholder path", err=True)
        workspace = Path("/path/to/agent-memory")
    if harness == "any":
        click.echo(generic_snippet(workspace), nl=False)
    else:
        click.echo(_module(harness).snippet(workspace), nl=False)


class _ExitsZero(click.Group):
    """A group whose commands exit 0 whatever they are given: a harness reads another code as
    a verdict (Claude Code blocks the prompt on exit 2, or keeps the agent from stopping), so
    an option this version does not know, left in a hook by another, is one line on stderr."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except click.ClickException as error:
            if sys.stderr is not None:
                sys.stderr.write(f"memstrata hook: {error.format_message()}\n")
            ctx.exit(0)


@click.group(cls=_ExitsZero)
def hook() -> None:
    """The commands a harness runs: JSON payload on stdin, context on stdout, always exit 0.

    A failure (no workspace, bad payload, missing transcript) is one line on stderr.

    Example: echo '{"prompt": "Ann?"}' | memstrata hook user-prompt
    """


@hook.command("session-start")
@click.option("--plain", is_flag=True, help="Print plain text instead of the harness's JSON.")
@click.pass_context
def session_start(ctx: click.Context, plain: bool) -> None:
    """Print the Rules and the Index for a new (or resumed, cleared, compacted) session.

    Example: memstrata hook session-start --plain < /dev/null
    """
    _run(ctx, "session-start", plain=plain)


@hook.command("user-prompt")
@click.option("--prompt", default=None, help="The prompt (default: the payload's 'prompt').")
@click.option("--plain", is_flag=True, help="Print plain text instead of the harness's JSON.")
@click.pass_context
def user_prompt(ctx: click.Context, prompt: str | None, plain: bool) -> None:
    """Print what is recalled for the prompt, within the recall budget (nothing if nothing is).

    Example: memstrata hook user-prompt --plain --prompt "Ann?" < /dev/null
    """
    _run(ctx, "user-prompt", prompt=prompt, plain=plain)


@hook.command()
@click.option(
    "--harness",
    type=click.Choice(HARNESSES),
    default="claude-code",
    show_default=True,
    help="Whose transcript the payload's transcript_path is.",
)
@click.option("--agent", default=None, help="Agent key (default: <harness>:<login>:main).")
@click.pass_context
def stop(ctx: click.Context, harness: str, agent: str | None) -> None:
    """Import the session's transcript (only what is new), then run memstrata's due upkeep.

    Example: memstrata hook stop --harness codex < payload.json
    """
    _run(ctx, "stop", harness=harness, agent=agent)


@hook.command("codex-notify")
@click.argument("payload", required=False, default="")
@click.option("--agent", default=None, help="Agent key (default: codex:<login>:main).")
@click.pass_context
def codex_notify(ctx: click.Context, payload: str, agent: str | None) -> None:
    """Codex's notify program: import the finished turn's rollout, then run the due upkeep.

    Example: memstrata hook codex-notify "$(cat notification.json)"
    """
    _run(ctx, "codex-notify", payload=payload, agent=agent)


def _run(
    ctx: click.Context,
    name: str,
    *,
    payload: str | None = None,
    harness: str = "claude-code",
    agent: str | None = None,
    prompt: str | None = None,
    plain: bool = False,
) -> None:
    """Run a hook and print what it says; nothing here may end in a non-zero exit."""
    options = HookOptions(harness=harness, agent=agent, prompt=prompt, plain=plain)
    answer(name, ctx.find_root().obj, options, payload)


def _module(harness: str) -> ModuleType:
    if harness == "codex":
        from memstrata.hooks import codex

        return codex
    from memstrata.hooks import claude_code

    return claude_code


def _report(changes: list[FileChange], dry_run: bool) -> None:
    for change in changes:
        if not change.changed:
            click.echo(f"unchanged {change.path} ({change.note})")
            continue
        verb = "remove" if change.after is None else "write"
        if dry_run:
            click.echo(f"would {verb} {change.path} ({change.note})")
            click.echo(change.diff(), nl=False)
            continue
        click.echo(
            f"{'removed' if change.after is None else 'wrote'} {change.path} ({change.note})"
        )
        if change.backup is not None:
            click.echo(f"  its formatting changed; the original is kept in {change.backup}")


COMMANDS = (hooks, hook)
