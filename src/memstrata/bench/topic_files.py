"""Seeding a workspace fast: a topic's canonical files written directly, as a person or another
tool would (``summary.md``, ``detail.md``, ``meta.json``, one ``history.jsonl`` line).

Benchmarks and test fixtures build thousands of topics; through ``Memory.write_topic`` (and the
gate) that takes minutes. The next sync or rebuild indexes what this writes.
"""

from __future__ import annotations

import json
from pathlib import Path

from memstrata.model import TopicMeta
from memstrata.wiki.store import meta_to_dict
from memstrata.wiki.text import content_hash


def write_topic_files(
    root: Path,
    topic_id: str,
    summary: str,
    meta: TopicMeta,
    *,
    detail: str = "",
    history: bool = True,
    history_time: str = "",
    actor: str = "user",
    reason: str = "benchmark",
) -> None:
    """One topic's canonical files under the workspace ``root``.

    Without ``history`` the topic looks hand-written: the next sync records its creation.
    """
    folder = root / "memory" / "topics" / topic_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "summary.md").write_text(summary, encoding="utf-8")
    if detail:
        (folder / "detail.md").write_text(detail, encoding="utf-8")
    (folder / "meta.json").write_text(
        json.dumps(meta_to_dict(meta), indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    if not history:
        return
    line = {
        "time": history_time or meta.created,
        "actor": actor,
        "op": "create",
        "before": "",
        "after": content_hash(summary, detail, meta.state),
        "reason": reason,
    }
    (folder / "history.jsonl").write_text(json.dumps(line, sort_keys=True) + "\n", encoding="utf-8")
