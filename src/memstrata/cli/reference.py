"""``docs/cli.md``, generated from the commands' own help so the two cannot drift apart."""

from __future__ import annotations

import click


def render_cli_reference(group: click.Group) -> str:
    """Every command and subcommand with its full ``--help`` text, as Markdown."""
    lines = [
        "# CLI reference",
        "",
        "Generated from `memstrata --help` and each command's own help "
        "(`python -m memstrata.cli.reference > docs/cli.md`; a test fails when this file drifts).",
        "",
    ]
    for path, command in _walk(group, ("memstrata",)):
        lines += [f"## `{' '.join(path)}`", "", "```text", _help(command, path).rstrip(), "```", ""]
    return "\n".join(lines)


def _walk(
    command: click.Command, path: tuple[str, ...]
) -> list[tuple[tuple[str, ...], click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            if sub is not None:
                found += _walk(sub, (*path, name))
    return found


def _help(command: click.Command, path: tuple[str, ...]) -> str:
    context = click.Context(
        command,
        info_name=" ".join(path),
        terminal_width=100,
        max_content_width=100,
        help_option_names=["-h", "--help"],
    )
    return command.get_help(context)


if __name__ == "__main__":
    from memstrata.cli import cli

    click.echo(render_cli_reference(cli), nl=False)
