"""MCP over streamable HTTP, guarded: loopback by default, Host/Origin checked, bearer token.

A request passes :class:`HttpGuard` before it reaches the SDK:

1. ``Host`` must name this machine (``localhost``, ``127.0.0.1``, ``[::1]``, with any port) or a
   host allowed explicitly, and an ``Origin``, when sent, must be on one of those hosts: a web
   page on another site cannot reach the server through DNS rebinding (403 otherwise);
2. ``Authorization: Bearer <token>`` must carry the server's token (401 otherwise).

Binding an address other than loopback is refused unless ``allow_remote`` says otherwise.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from memstrata.errors import InputError
from memstrata.mcp.server import build_server
from memstrata.memory import Memory

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
PATH = "/mcp"
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def new_token() -> str:
    """A fresh random bearer token (32 bytes of entropy)."""
    return secrets.token_urlsafe(32)


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server on this machine."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name could resolve anywhere


def check_bind_host(host: str, allow_remote: bool) -> None:
    """Refuse a non-loopback ``host`` unless ``allow_remote``."""
    if not allow_remote and not is_loopback(host):
        raise InputError(
            f"refusing to serve on {host}: it is not a loopback address; pass --allow-remote "
            "to accept connections from other machines (the bearer token is then all that "
            "guards your memory)"
        )


def check_request(
    host: str | None,
    origin: str | None,
    authorization: str | None,
    token: str,
    allowed_hosts: frozenset[str],
) -> tuple[int, str] | None:
    """The status and reason to refuse a request with, or ``None`` to let it through."""
    host_name = _host_name(host or "")
    if host_name not in allowed_hosts:
        return 403, f"forbidden: Host {host!r} is not this server"
    if origin is not None and (_host_name(urlsplit(origin).netloc) not in allowed_hosts):
        return 403, f"forbidden: Origin {origin!r} is not allowed"
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        given.strip().encode(), token.encode()
    ):
        return 401, "unauthorized: send the header 'Authorization: Bearer <token>'"
    return None


class HttpGuard:
    """ASGI middleware that applies :func:`check_request` to every HTTP request."""

    def __init__(self, app: ASGIApp, token: str, allowed_hosts: frozenset[str]) -> None:
        if not token:
            raise InputError("an HTTP server needs a non-empty bearer token")
        self.app = app
        self.token = token
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            refusal = check_request(
                headers.get("host"),
                headers.get("origin"),
                headers.get("authorization"),
                self.token,
                self.allowed_hosts,
            )
            if refusal is not None:
                status, reason = refusal
                extra = {"WWW-Authenticate": 'Bearer realm="memstrata"'} if status == 401 else {}
                response = PlainTextResponse(reason + "\n", status_code=status, headers=extra)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def allowed_host_names(bind_host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """Loopback names, the bound address unless it is a wildcard, and ``extra``."""
    names = set(LOOPBACK_HOSTS) | {name.strip("[]").lower() for name in extra}
    bound = bind_host.strip("[]").lower()
    if bound not in ("0.0.0.0", "::", ""):
        names.add(bound)
    return frozenset(names)


def build_http_app(memory: Memory, token: str, allowed_hosts: frozenset[str]) -> ASGIApp:
    """The MCP server for ``memory`` at ``/mcp``, behind :class:`HttpGuard`."""
    netlocs = sorted(f"[{name}]" if ":" in name else name for name in allowed_hosts)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[form for name in netlocs for form in (name, f"{name}:*")],
        allowed_origins=[
            f"{scheme}://{name}{port}"
            for name in netlocs
            for scheme in ("http", "https")
            for port in ("", ":*")
        ],
    )
    app = build_server(memory).streamable_http_app(
        streamable_http_path=PATH, transport_security=security
    )
    return HttpGuard(app, token, allowed_hosts)


def serve_http(
    memory: Memory,
    token: str,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    allow_remote: bool = False,
    allowed_hosts: Iterable[str] = (),
    on_ready: Callable[[str], None] = lambda _url: None,
) -> None:
    """Serve until interrupted; ``on_ready`` gets the URL once the port is bound (``port=0``
    picks a free one)."""
    import uvicorn

    check_bind_host(host, allow_remote)
    app = build_http_app(memory, token, allowed_host_names(host, allowed_hosts))
    listener = _listen(host, port)
    bound_port = listener.getsockname()[1]
    url_host = f"[{host.strip('[]')}]" if ":" in host else host
    on_ready(f"http://{url_host}:{bound_port}{PATH}")
    config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
    uvicorn.Server(config).run(sockets=[listener])


def _listen(host: str, port: int) -> socket.socket:
    address = host.strip("[]")
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((address, port))
        # Listening now, not when the server loop starts: a client told the URL may connect
        # at once, and its connection must wait in the backlog rather than be refused.
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise InputError(f"cannot listen on {host}:{port}: {error.strerror}") from error
    return listener


def _host_name(netloc: str) -> str:
    """``Host``/``Origin`` authority without port or brackets, lower-cased."""
    netloc = netloc.rpartition("@")[2].strip().lower()
    if netloc.startswith("["):
        return netloc[1 : netloc.find("]")] if "]" in netloc else netloc
    return netloc.split(":", 1)[0] if netloc.count(":") == 1 else netloc
