"""A tiny OpenAI-compatible ``/v1/embeddings`` server on 127.0.0.1, switchable to fail.

The client under test is the real one (``OpenAIEmbedder``); only the server is a stand-in.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

from memstrata.providers.hashing import HashingEmbedder
from memstrata.workspace.layout import init_workspace


class FakeEmbeddings(BaseHTTPRequestHandler):
    """Embeds with the hashing embedder (16 wide, not normalised, rows out of order) while
    ``mode`` is ``ok`` (or ``huge``, the same rows times 1e300); ``http-500``, ``strings``,
    ``ragged`` (one row short), ``wider`` (24 wide), ``zeros`` (zero vectors), ``empty`` (no
    numbers), ``same-index`` (every row index 0) and ``overflow`` (a number past a double)
    fail the ways endpoints do, ``hang`` answers nothing until the server stops, and the
    model ``broken`` always answers HTTP 500. With ``required_key`` set, a request without
    ``Authorization: Bearer <key>`` gets HTTP 401, as OpenAI's does. Every request is kept in
    ``requests``."""

    mode: ClassVar[str] = "ok"
    required_key: ClassVar[str] = ""
    requests: ClassVar[list[dict]] = []
    stopping: ClassVar[threading.Event] = threading.Event()

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        auth = self.headers.get("Authorization")
        type(self).requests.append({"path": self.path, "body": body, "auth": auth})
        mode = type(self).mode
        if mode == "hang":
            type(self).stopping.wait(60)
            return
        required = type(self).required_key
        if required and auth != f"Bearer {required}":
            self.send_response(401, "Unauthorized")
            self.end_headers()
            return
        if mode == "http-500" or body["model"] == "broken":
            self.send_response(500)
            self.end_headers()
            return
        width = 24 if mode == "wider" else 16
        rows = [(row * 3.0).tolist() for row in HashingEmbedder(width).embed(body["input"])]
        if mode == "strings":
            rows = [["x"] * width for _ in rows]
        if mode == "ragged":  # one row a number short
            rows[-1] = rows[-1][:-1]
        if mode == "zeros":
            rows = [[0.0] * width for _ in rows]
        if mode == "empty":
            rows = [[] for _ in rows]
        if mode == "huge":  # past float32 (3.4e38), still a double
            rows = [[value * 1e300 for value in row] for row in rows]
        if mode == "overflow":  # a JSON number past a double, which Python reads as infinity
            rows = [["1e400", *row[1:]] for row in rows]
        data = [{"index": i, "embedding": row} for i, row in enumerate(rows)]
        if mode == "same-index":
            data = [{"index": 0, "embedding": row} for row in rows]
        payload = json.dumps({"data": list(reversed(data))}).encode()
        if mode == "overflow":
            payload = payload.replace(b'"1e400"', b"1e400")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def serving() -> Iterator[str]:
    """The server running, in mode ``ok`` with no key and no requests yet; yields its ``/v1``
    URL."""
    FakeEmbeddings.mode, FakeEmbeddings.required_key, FakeEmbeddings.requests = "ok", "", []
    FakeEmbeddings.stopping = threading.Event()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeEmbeddings)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        FakeEmbeddings.stopping.set()
        httpd.shutdown()
        httpd.server_close()


def workspace_on(root: Path, model: str, day: str = "") -> Path:
    """A new workspace at ``root`` whose ``[embeddings] model`` is ``model``
    (``openai:tiny@<url>`` for this server), with ``day`` as the journal of 2025-11-26 when
    given."""
    init_workspace(root)
    config = root / "memstrata.toml"
    text = re.sub(r"(?m)^model = .*$", f"model = '{model}'", config.read_text("utf-8"))
    config.write_text(text, encoding="utf-8")
    if day:
        (root / "memory" / "2025-11-26.md").write_text(day, encoding="utf-8")
    return root
