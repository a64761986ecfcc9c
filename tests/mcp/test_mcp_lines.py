"""One line of stdio input: the message handed on to the SDK, or the JSON-RPC error answering it."""

from __future__ import annotations

import json

import pytest

from memstrata.mcp.lines import parse_line

PING = '{"jsonrpc": "2.0", "id": 1, "method": "ping"}'


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("not json", (None, -32700)),
        ('{"jsonrpc": "2.0", "id": 1, "method": "ping"', (None, -32700)),
        ("[" * 100_000, (None, -32700)),  # nested too deeply to read
        ('{"jsonrpc": "2.0", "id": "a-1", "method": "ping", "params": []}', ("a-1", -32600)),
        ('{"jsonrpc": "1.0", "id": 3, "method": "ping"}', (3, -32600)),
        ('{"jsonrpc": "2.0", "id": true, "method": "ping", "params": 1}', (None, -32600)),
        # a malformed response: answering its id would read as the answer to a client request
        ('{"jsonrpc": "2.0", "id": 4, "result": 5}', (None, -32600)),
        ("[]", (None, -32600)),
        ('"ping"', (None, -32600)),
        # ids the SDK would take for a notification's and never answer (MCP: string or integer)
        ('{"jsonrpc": "2.0", "id": null, "method": "tools/list"}', (None, -32600)),
        ('{"jsonrpc": "2.0", "id": true, "method": "tools/list"}', (None, -32600)),
        ('{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}', (None, -32600)),
        ('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}', (None, -32600)),
        ('{"jsonrpc": "2.0", "id": [1], "method": "tools/list"}', (None, -32600)),
        # a tool's arguments are an object: the SDK said only "Invalid request parameters"
        (
            '{"jsonrpc": "2.0", "id": 7, "method": "tools/call",'
            ' "params": {"name": "recall", "arguments": "x"}}',
            (7, -32602),
        ),
        (
            '{"jsonrpc": "2.0", "id": 8, "method": "tools/call",'
            ' "params": {"name": "recall", "arguments": [1]}}',
            (8, -32602),
        ),
    ],
)
def test_a_line_that_is_no_json_rpc_message_is_answered_with_an_error(line, answer):
    parsed = parse_line(line.encode())

    assert parsed.text == ""
    assert (parsed.reply.id, parsed.reply.error.code) == answer
    assert f"answered with a {answer[1]}" in parsed.problem


@pytest.mark.parametrize(
    ("line", "handed_on", "problem"),
    [
        (PING.encode(), json.loads(PING), ""),
        # ids that are falsy yet ids
        (
            b'{"jsonrpc": "2.0", "id": 0, "method": "ping"}',
            {"jsonrpc": "2.0", "id": 0, "method": "ping"},
            "",
        ),
        (
            b'{"jsonrpc": "2.0", "id": "", "method": "ping"}',
            {"jsonrpc": "2.0", "id": "", "method": "ping"},
            "",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"q\\udfff": ["a\\ud800b"]}}',
            {"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"q\ufffd": ["a\ufffdb"]}},
            "a lone UTF-16 surrogate escape (like \\ud800) read as U+FFFD",
        ),
        (  # a pair of escapes is one character, not two lone surrogates
            b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"q": "\\ud83d\\ude00"}}',
            {"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"q": "😀"}},
            "",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"q": "caf\xe9"}}\r\n',
            {"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"q": "caf\ufffd"}},
            "bytes that are not UTF-8 read as U+FFFD",
        ),
    ],
)
def test_a_message_is_handed_on_mended_to_text_the_sdk_accepts(line, handed_on, problem):
    parsed = parse_line(line)

    assert parsed.reply is None
    assert json.loads(parsed.text) == handed_on
    assert parsed.problem == problem


def test_a_blank_line_is_neither_handed_on_nor_answered():
    parsed = parse_line(b"  \r\n")

    assert (parsed.text, parsed.reply, parsed.problem) == ("", None, "")
