"""``memstrata demo``: a throw-away workspace from bundled sample data, walked through.

The sample is three days of journal (English and Chinese, with ``## Retain`` facts), four wiki
topics, a Claude Code session and a Codex rollout written in those harnesses' own formats.
The demo's clock is fixed, so its output is the same on every machine.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from memstrata.errors import InputError
from memstrata.memory import Memory
from memstrata.workspace.layout import init_workspace

DEMO_NOW = datetime(2025, 11, 27, 18, 0, tzinfo=UTC)
DEMO_QUERIES = ("flat white oat milk", "咖啡", "why was the login test flaky")
DEMO_CONTEXT_QUERY = "what does Ann drink before reviews?"


def data_dir() -> Path:
    """The bundled sample data folder."""
    return Path(str(resources.files("memstrata.demo") / "data"))


def build_demo_workspace(root: Path) -> Memory:
    """Lay out a workspace at ``root`` (a new or empty folder) from the sample data and return
    it opened. Any other folder is refused: the sample's journal days and topics would be
    written over the user's own, and a journal keeps no history to bring them back from."""
    data = data_dir()
    _require_empty(root)
    init_workspace(root)
    memory = Memory(root, clock=lambda: DEMO_NOW)
    for journal in sorted((data / "journal").glob("*.md")):
        shutil.copyfile(journal, memory.workspace.memory_dir / journal.name)
    for summary in sorted((data / "topics").glob("*.md")):
        topic_id = summary.stem.replace("__", "/")
        memory.write_topic(
            topic_id, summary.read_text("utf-8"), actor="demo", reason="demo sample data"
        )
    return memory


def _require_empty(root: Path) -> None:
    try:
        holds = root.is_dir() and any(root.iterdir())
    except OSError as error:
        raise InputError(f"{root}: cannot list the folder ({error.strerror})") from error
    if holds or (root.exists() and not root.is_dir()):
        what = "not empty" if holds else "not a folder"
        raise InputError(
            f"{root}: {what}; the demo builds its sample workspace in a new or empty folder "
            "only (it would write sample topics and journal days over what is there)"
        )


def run_demo(path: Path | None, say: Callable[[str], None]) -> None:
    """Build the demo workspace (at ``path``, or a temporary folder) and show what it does."""
    if path is not None:
        _show(path, say)
        return
    with tempfile.TemporaryDirectory(prefix="memstrata-demo-") as folder:
        _show(Path(folder), say)


def _show(root: Path, say: Callable[[str], None]) -> None:
    with build_demo_workspace(root) as memory:
        say(f"== workspace  {memory.workspace.root}")
        report = memory.ingest([data_dir() / "transcripts"])
        say(
            f"== ingest     {report.files} transcripts, {report.sessions} sessions, "
            f"{report.turns_added} turns into raw/sessions.db"
        )
        status = memory.status()
        say(
            f"== status     {sum(status.topics_by_state.values())} topics, "
            f"{status.journal_days} journal days, {status.facts} retain facts, "
            f"{status.raw_turns} raw turns"
        )
        for query in DEMO_QUERIES:
            say(f"\n== search     {query!r}")
            for hit in memory.search(query, limit=4):
                text = " ".join(hit.text.split())
                near = "" if hit.holds_a_word else "  (no word of the query: near in meaning)"
                say(f"  [{hit.stratum:<7}] {hit.source}{near}")
                say(f"            {text[:90]}{'…' if len(text) > 90 else ''}")
        context = memory.context(DEMO_CONTEXT_QUERY)
        say(f"\n== context    for {DEMO_CONTEXT_QUERY!r}")
        say(context.text)
        sizes = " · ".join(
            f"{channel.name} {channel.bytes}/{channel.budget_bytes} B (~{channel.tokens} tokens)"
            for channel in context.channels
        )
        say(f"\n== budgets    {sizes}")
