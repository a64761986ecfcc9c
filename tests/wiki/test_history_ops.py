"""Every ``op`` memstrata writes to a topic's ``history.jsonl`` is documented in
docs/file-format.md (found in the source, so a new op cannot go undocumented)."""

import ast
import re
from pathlib import Path

from memstrata.wiki.store import _STATE_OPS
from tests.conftest import REPO

SOURCE = REPO / "src" / "memstrata"
#: the field of ``TopicChange`` (a gardener step's write) that holds its op
TOPIC_CHANGE_OP = 5


def strings_in(node: ast.AST) -> set[str]:
    """String constants of an expression, leaving out keys (``change["op"]``) and calls."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Subscript | ast.Call):
        return set()
    return {text for child in ast.iter_child_nodes(node) for text in strings_in(child)}


def ops_written(path: Path) -> set[str]:
    """Ops given to ``op=`` and to ``TopicChange(…)`` in one module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg == "op":
                found |= strings_in(keyword.value)
        name = getattr(node.func, "id", "")
        if name == "TopicChange" and len(node.args) > TOPIC_CHANGE_OP:
            found |= strings_in(node.args[TOPIC_CHANGE_OP])
    return found


def documented_ops() -> set[str]:
    text = (REPO / "docs" / "file-format.md").read_text()
    paragraph = text[text.index("`op` is one of") :].split("\n\n")[0]
    return set(re.findall(r"`([a-z]+)`", paragraph)) - {"op"}


def test_every_history_op_in_the_source_is_documented():
    written = set(_STATE_OPS.values())
    for path in SOURCE.rglob("*.py"):
        if "bench" not in path.parts:
            written |= ops_written(path)

    assert {"create", "merge", "ruling", "split", "undo"} <= written  # the search finds them
    assert written - documented_ops() == set()
