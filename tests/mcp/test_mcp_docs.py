"""docs/mcp.md is generated from the server's own descriptions; it must not drift from the code."""

from pathlib import Path

from memstrata.mcp.docs import render_mcp_docs

from . import TOOL_NAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"


def test_docs_mcp_md_matches_what_the_server_advertises():
    assert DOC.read_text() == render_mcp_docs(), (
        "docs/mcp.md is stale: run `python -m memstrata.mcp.docs > docs/mcp.md`"
    )


def test_every_tool_is_documented_with_its_budget_where_it_has_one():
    text = DOC.read_text()
    for name in TOOL_NAMES:
        assert f"### `{name}`" in text
    assert "6 KB" in text and "2 KB" in text and "13 KB" in text
