"""``memstrata mcp`` (stdio) and ``memstrata serve --http``: the MCP server for agents."""

from __future__ import annotations

import click

from memstrata.cli.opener import open_memory


@click.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Run the MCP server over stdio, for an agent harness that launches it.

    Only protocol messages go to stdout; logs go to stderr. A line that is not a JSON-RPC
    message is answered with a JSON-RPC error and named on stderr. Tools: recall, search,
    remember, context, get_topic, log, proposals, resolve_proposal, status (see docs/mcp.md).

    Example: claude mcp add memstrata -- memstrata --workspace ~/agent-memory mcp
    """
    import anyio

    from memstrata.mcp.server import build_server
    from memstrata.mcp.stdio import serve_stdio

    def warn(text: str) -> None:
        click.echo(f"memstrata mcp: {text}", err=True)

    anyio.run(serve_stdio, build_server(open_memory(ctx)), warn)


@click.command()
@click.option("--http", is_flag=True, expose_value=False, help="Streamable HTTP (the default).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0: any free."
)
@click.option(
    "--token",
    envvar="MEMSTRATA_TOKEN",
    default=None,
    help="Bearer token clients must send [env MEMSTRATA_TOKEN; default: a new one, printed].",
)
@click.option(
    "--allow-remote", is_flag=True, help="Allow listening on an address other than loopback."
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    help="Another Host/Origin name clients may use (repeatable; with --allow-remote).",
)
@click.pass_context
def serve(
    ctx: click.Context,
    host: str,
    port: int,
    token: str | None,
    allow_remote: bool,
    allow_hosts: tuple[str, ...],
) -> None:
    """Serve the MCP tools over HTTP at http://127.0.0.1:8765/mcp until interrupted.

    Every request needs 'Authorization: Bearer <token>'; requests whose Host or Origin is
    not this machine are refused (403), and so is a non-loopback --host without
    --allow-remote.

    Example: MEMSTRATA_TOKEN=s3cret memstrata --workspace ~/agent-memory serve --http
    """
    from memstrata.mcp.http import check_bind_host, new_token, serve_http

    check_bind_host(host, allow_remote)
    if not token:
        token = new_token()
        click.echo(f"memstrata: bearer token {token}", err=True)
    serve_http(
        open_memory(ctx),
        token,
        host,
        port,
        allow_remote=allow_remote,
        allowed_hosts=allow_hosts,
        on_ready=lambda url: click.echo(f"memstrata: serving MCP at {url}", err=True),
    )


COMMANDS = (mcp, serve)
