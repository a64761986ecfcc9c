"""``docs/mcp.md``, generated from what the server itself advertises, so the two cannot drift."""

from __future__ import annotations

import tempfile
from typing import Any

import anyio

from memstrata.mcp.http import DEFAULT_HOST, DEFAULT_PORT, PATH
from memstrata.mcp.server import build_server
from memstrata.memory import Memory

HEADER = f"""\
# MCP reference

Generated from the server's own tool and resource descriptions
(`python -m memstrata.mcp.docs > docs/mcp.md`; a test fails when this file drifts).

memstrata serves its verbs as MCP tools with the same names as the Python methods and the CLI
commands, around one workspace:

- **stdio**, for a harness that launches the server:
  `memstrata --workspace ~/agent-memory mcp`
  (Claude Code: `claude mcp add memstrata -- memstrata --workspace ~/agent-memory mcp`).
  Only protocol messages go to stdout; logs go to stderr. When stdin closes, the calls
  already read are answered before the server exits, so requests can be piped in
  (`memstrata mcp < requests.jsonl`). Every request is answered: a line that is not JSON
  gets a JSON-RPC parse error (`-32700`, id `null`), one that is JSON but not a JSON-RPC
  message an invalid-request error (`-32600`, with the request's id when it has one), a tool
  call whose `arguments` is no object an invalid-params error (`-32602`) saying so, and a
  line on stderr says what was wrong. A lone surrogate escape in a string (`\\ud800`, which
  no UTF-8 text can hold) is read as U+FFFD, as are bytes that are not UTF-8.
- **Streamable HTTP** on `http://{DEFAULT_HOST}:{DEFAULT_PORT}{PATH}`:
  `MEMSTRATA_TOKEN=… memstrata --workspace ~/agent-memory serve --http`.
  Every request needs `Authorization: Bearer <token>` (from `--token`, `MEMSTRATA_TOKEN`, or
  generated and printed to stderr at start), else 401. A `Host` that is not this machine
  (`localhost`, `127.0.0.1`, `[::1]`), or an `Origin` from another site, gets 403, which stops
  DNS-rebinding attacks from web pages. Listening on an address other than loopback is refused
  unless `--allow-remote` is given (`--allow-host NAME` adds a host name clients may use).

Results are JSON objects (`structuredContent`, echoed as JSON text). Failures, such as an
unknown topic or an argument outside its range, come back as tool errors (`isError: true`)
whose text is the message; an argument the tool's schema refuses is named in one line, such
as `recall: k: Input should be greater than or equal to 1 (got 0)`. The `agent` parameter is
reserved for per-agent views: accepted and echoed with a note, but nothing is filtered by it
yet."""


def render_mcp_docs() -> str:
    """The MCP reference as Markdown: instructions, every tool with its parameters, resources."""
    with tempfile.TemporaryDirectory() as folder, Memory.init(folder) as memory:
        server = build_server(memory)
        tools, resources = anyio.run(_listing, server)
        instructions = server.instructions or ""
    lines = [HEADER, "", "## Server instructions", "", instructions, "", "## Tools", ""]
    for tool in tools:
        hints = tool.annotations
        read_only = " (read-only)" if hints is not None and hints.read_only_hint else ""
        lines += [f"### `{tool.name}`{read_only}", "", tool.description or "", ""]
        lines += _parameters_table(tool.input_schema)
    lines += ["## Resources", "", "| URI | what it holds |", "|---|---|"]
    for resource in resources:
        lines.append(f"| `{resource.uri}` | {resource.description} |")
    return "\n".join(lines) + "\n"


async def _listing(server: Any) -> tuple[list[Any], list[Any]]:
    return await server.list_tools(), await server.list_resources()


def _parameters_table(schema: dict[str, Any]) -> list[str]:
    properties: dict[str, Any] = schema.get("properties", {})
    if not properties:
        return ["No parameters.", ""]
    required = set(schema.get("required", []))
    lines = ["| parameter | type | default | description |", "|---|---|---|---|"]
    for name, spec in properties.items():
        default = "required" if name in required else f"`{_json(spec.get('default'))}`"
        description = spec.get("description", "").replace("|", "\\|")
        lines.append(f"| `{name}` | {_type_of(spec)} | {default} | {description} |")
    return [*lines, ""]


def _type_of(spec: dict[str, Any]) -> str:
    """A JSON Schema type in a few words: ``integer 1–50``, ``"a" | "b"``, ``string or null``."""
    if "anyOf" in spec:
        return " or ".join(_type_of(option) for option in spec["anyOf"])
    if "enum" in spec:
        return " \\| ".join(f"`{_json(value)}`" for value in spec["enum"])
    if "const" in spec:
        return f"`{_json(spec['const'])}`"
    kind = str(spec.get("type", "any"))
    if kind == "array":
        return f"list of {_type_of(spec.get('items', {}))}"
    low, high = spec.get("minimum"), spec.get("maximum")
    if low is not None and high is not None:
        return f"{kind} {low}–{high}"
    if low is not None:
        return f"{kind} ≥ {low}"
    return kind


def _json(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


if __name__ == "__main__":
    import sys

    sys.stdout.write(render_mcp_docs())
