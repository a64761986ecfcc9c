"""``memstrata context`` names what its budgets trimmed, on the terminal as in its JSON."""

import json
from pathlib import Path

from .process import run


def _workspace(tmp_path: Path, recall_bytes: int) -> Path:
    root = tmp_path / "ws"
    run("init", str(root))
    config = root / "memstrata.toml"
    text = config.read_text("utf-8").replace(
        "recall_bytes = 6144", f"recall_bytes = {recall_bytes}"
    )
    config.write_text(text, "utf-8")
    for n in range(8):
        summary = f"# Zeppelin {n}\n" + "zeppelin fact " * 10 + "\n"
        run("--workspace", str(root), "topic", "write", f"world/z{n}", "--summary-file", "-",
            stdin=summary)  # fmt: skip
    return root


def test_the_trimmed_items_are_named_on_stderr_as_the_json_lists_them(tmp_path: Path):
    root = _workspace(tmp_path, recall_bytes=400)

    text = run("--workspace", str(root), "context", "--query", "zeppelin fact")
    as_json = run("--workspace", str(root), "context", "--query", "zeppelin fact", "--json")

    assert text.returncode == as_json.returncode == 0, text.stderr
    trimmed = json.loads(as_json.stdout)["channels"]["recall"]["trimmed"]
    assert len(trimmed) > 5
    named = ", ".join(trimmed[:5]) + f" and {len(trimmed) - 5} more"
    assert f"trimmed from recall: {named}\n" in text.stderr
    assert f"({len(trimmed)} trimmed)" in text.stderr


def test_nothing_trimmed_names_nothing(tmp_path: Path):
    root = _workspace(tmp_path, recall_bytes=6144)

    result = run("--workspace", str(root), "context", "--query", "zeppelin fact")

    assert result.returncode == 0, result.stderr
    assert "trimmed" not in result.stderr
