"""The JSON the MCP tools return: whole items packed into each channel's budget, and the
echo of an ``agent`` (no agent views yet, and every result says so)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memstrata.context.compile import Context, ContextItem, pack
from memstrata.gate.verdicts import Verdict, verdict_name
from memstrata.jsonable import to_jsonable
from memstrata.model import RecallResult, SearchHit, Topic
from memstrata.recall.access import Access
from memstrata.status import Status

#: Search hits are shortened to this many characters before packing (raw turns can be long).
SEARCH_TEXT_MAX_CHARS = 600


def recall_payload(result: RecallResult, budget_bytes: int, agent: str | None) -> dict[str, Any]:
    items = [to_jsonable(item) for item in result.items]
    kept, trimmed = _pack([(item["source"], item) for item in items], budget_bytes)
    payload = {
        "query": result.query,
        "items": kept,
        "notes": list(result.notes),
        "budget_bytes": budget_bytes,
        "trimmed": trimmed,
    }
    return with_agent(payload, agent)


def search_payload(
    query: str,
    hits: list[SearchHit],
    budget_bytes: int,
    agent: str | None,
    notes: tuple[str, ...] = (),
) -> dict[str, Any]:
    rows = []
    for hit in hits:
        row = to_jsonable(hit)
        if len(hit.text) > SEARCH_TEXT_MAX_CHARS:
            row["text"] = hit.text[: SEARCH_TEXT_MAX_CHARS - 1] + "…"
        rows.append((hit.source, row))
    kept, trimmed = _pack(rows, budget_bytes)
    payload = {
        "query": query,
        "hits": kept,
        "budget_bytes": budget_bytes,
        "trimmed": trimmed,
        "notes": list(notes),
    }
    return with_agent(payload, agent)


def _pack(
    rows: list[tuple[str, dict[str, Any]]], budget_bytes: int
) -> tuple[list[dict[str, Any]], list[str]]:
    """Keep whole rows, best first, while their JSON fits ``budget_bytes``; name the rest."""
    items = [
        ContextItem("recall", str(number), _compact(row)) for number, (_, row) in enumerate(rows)
    ]
    channel = pack("recall", items, budget_bytes)
    kept = [rows[int(item.label)][1] for item in channel.items]
    return kept, [rows[int(label)][0] for label in channel.trimmed]


def verdict_payload(verdict: Verdict, notes: Sequence[str] = ()) -> dict[str, Any]:
    """The verdict, and ``notes`` on how the gate decided (an embedder off: by words alone)."""
    return {"verdict": verdict_name(verdict), **to_jsonable(verdict), "notes": list(notes)}


def context_payload(compiled: Context, agent: str | None) -> dict[str, Any]:
    return with_agent(compiled.as_json(), agent)


def topic_payload(
    topic: Topic, access: Access, detail: bool, agent: str | None, held: str = ""
) -> dict[str, Any]:
    """The topic, its use as ``access.db`` counts it (``meta.json``'s count is not kept up),
    and ``held``, why it is kept out of recall, when its text reads as an instruction."""
    meta = to_jsonable(topic.meta)
    del meta["access_count"]
    payload: dict[str, Any] = {
        "id": topic.id,
        "title": topic.title,
        "summary": topic.summary,
        "state": topic.meta.state,
        "meta": meta,
        "access": to_jsonable(access),
        "has_detail": bool(topic.detail.strip()),
    }
    if held:
        payload["held"] = f"held out of recall and the Index: reads as an instruction ({held})"
    if detail:
        payload["detail"] = topic.detail
    return with_agent(payload, agent)


def status_payload(status: Status) -> dict[str, Any]:
    rules = status.rules
    return {
        "root": status.root,
        "rules": {
            "files": [
                {"path": item.path, "bytes": item.bytes, "exists": item.exists}
                for item in rules.files
            ],
            "total_bytes": rules.total_bytes,
            "resident_budget_bytes": rules.resident_budget_bytes,
            "memory_chars": rules.memory_chars,
            "memory_cap_chars": rules.memory_cap_chars,
        },
        "topics_by_state": status.topics_by_state,
        "journal_days": status.journal_days,
        "facts": status.facts,
        "raw_sessions": status.raw_sessions,
        "raw_turns": status.raw_turns,
        "warnings": rules.warnings,
        "held": to_jsonable(list(status.held)),
        "problems": [str(problem) for problem in status.problems],
    }


def with_agent(payload: dict[str, Any], agent: str | None) -> dict[str, Any]:
    """Echo a given ``agent`` and say, on the result, that nothing was filtered by it."""
    if agent:
        payload["agent"] = agent
        notes = payload.setdefault("notes", [])
        notes.append(f"agent {agent!r}: no agent views yet, results are not filtered by agent")
    return payload


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
