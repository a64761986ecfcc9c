"""One line of the stdio input: the JSON-RPC message it holds, or the error that answers it.

The SDK's stdio reader drops a line it cannot validate without a word, so a client waiting on
that request's id waits forever. Here each line is read first: one that is not JSON is answered
with a -32700 parse error, one that is JSON but no JSON-RPC message with -32600 (carrying the
request's id when it has a usable one), and a lone UTF-16 surrogate in a string (``\\ud800``:
valid JSON, but no UTF-8 text can hold it, and the SDK's parser refuses it) becomes U+FFFD,
as :meth:`~memstrata.memory.Memory.recall` does with a query. What is handed on to the SDK is
JSON text it has already been seen to accept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mcp_types import ErrorData, JSONRPCError, jsonrpc_message_adapter
from pydantic import ValidationError

from memstrata.workspace.textfile import mend_utf8, undecodable_at

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """A line read: ``text`` to hand on, or ``reply`` to answer it with; neither for a blank.

    ``problem`` says what was wrong with the line ("" when nothing was), for stderr.
    """

    text: str = ""
    reply: JSONRPCError | None = None
    problem: str = ""


def parse_line(line: bytes) -> ParsedLine:
    """Read one newline-delimited JSON-RPC message, mending what can be mended."""
    mended: list[str] = []
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        text = line.decode("utf-8", "replace")
        mended.append("bytes that are not UTF-8 read as U+FFFD")
    if not text.strip():
        return ParsedLine()
    try:
        value = json.loads(text)
        handed_on = json.dumps(value, ensure_ascii=False)
        if undecodable_at(handed_on) is not None:
            value = _mend(value)
            handed_on = json.dumps(value, ensure_ascii=False)
            mended.append("a lone UTF-16 surrogate escape (like \\ud800) read as U+FFFD")
    except (ValueError, RecursionError) as error:
        reason = _json_error(error)
        return ParsedLine(
            reply=_error(None, PARSE_ERROR, f"Parse error: {reason}"),
            problem=f"not JSON ({reason}): answered with a {PARSE_ERROR} parse error",
        )
    try:
        jsonrpc_message_adapter.validate_json(handed_on, by_name=False)
    except ValidationError as error:
        reason = _invalid(value, error)
        return ParsedLine(
            reply=_error(_request_id(value), INVALID_REQUEST, f"Invalid Request: {reason}"),
            problem=f"not a JSON-RPC message ({reason}): answered with a {INVALID_REQUEST} error",
        )
    asked = isinstance(value, dict) and "id" in value and "method" in value
    if asked and _request_id(value) is None:
        # MCP requires a string or whole-number id; the SDK reads any other (null, true, 1.5,
        # an object) as a notification's, and the request would go unanswered
        reason = f"id: must be a string or an integer, not {json.dumps(value['id'])}"
        return ParsedLine(
            reply=_error(None, INVALID_REQUEST, f"Invalid Request: {reason}"),
            problem=f"not a JSON-RPC request ({reason}): answered with a {INVALID_REQUEST} error",
        )
    arguments = _tool_arguments(value)
    if arguments is not None and not isinstance(arguments, dict):
        # the SDK answers these with a bare "Invalid request parameters" and no word of why
        reason = (
            f"params.arguments: must be an object of the tool's arguments, not {_kind(arguments)}"
        )
        return ParsedLine(
            reply=_error(_request_id(value), INVALID_PARAMS, f"Invalid params: {reason}"),
            problem=f"a tool call with bad arguments ({reason}): answered with a "
            f"{INVALID_PARAMS} error",
        )
    return ParsedLine(text=handed_on, problem="; ".join(mended))


def _tool_arguments(value: Any) -> object:
    """A ``tools/call`` request's ``params.arguments`` as sent; ``None`` when it has none."""
    if not isinstance(value, dict) or value.get("method") != "tools/call":
        return None
    params = value.get("params")
    return params.get("arguments") if isinstance(params, dict) else None


def _kind(value: object) -> str:
    names = {str: "text", list: "a list", bool: "true or false", int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)


def _mend(value: Any) -> Any:
    """``value`` with each lone surrogate in its strings, keys included, made U+FFFD."""
    if isinstance(value, str):
        return mend_utf8(value)
    if isinstance(value, list):
        return [_mend(item) for item in value]
    if isinstance(value, dict):
        return {_mend(key): _mend(item) for key, item in value.items()}
    return value


def _json_error(error: ValueError | RecursionError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at character {error.pos + 1}"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error)


def _invalid(value: Any, error: ValidationError) -> str:
    """What is wrong, judged against the kind of message ``value`` seems meant to be."""
    if isinstance(value, list):
        return "batches are not supported: send one JSON object per line"
    if not isinstance(value, dict):
        return "a message is a JSON object"
    if "method" in value:
        meant = "JSONRPCRequest" if "id" in value else "JSONRPCNotification"
    elif "result" in value or "error" in value:
        meant = "JSONRPCResponse" if "result" in value else "JSONRPCError"
    else:
        return "no method, result or error: not a request, notification or response"
    found = [
        f"{'.'.join(str(part) for part in problem['loc'][1:]) or 'message'}: {problem['msg']}"
        for problem in error.errors(include_url=False)
        if problem["loc"] and problem["loc"][0] == meant
    ]
    return "; ".join(found) or "not a JSON-RPC 2.0 message"


def _request_id(value: Any) -> str | int | None:
    """The id to answer with: a request's own, when it is one JSON-RPC allows, else null.

    Only a message with a method is a request; answering a malformed response's id would
    look like the answer to one of the client's own requests.
    """
    if not isinstance(value, dict) or "method" not in value:
        return None
    request_id = value.get("id")
    if isinstance(request_id, str) or (
        isinstance(request_id, int) and not isinstance(request_id, bool)
    ):
        return request_id
    return None


def _error(request_id: str | int | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))
