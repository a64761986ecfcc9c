"""LongMemEval (Wu et al., ICLR 2025), official retrieval protocol, one corpus per question.

Keys are user turns only: a turn key is one user turn, a session key is the session's user
turns joined. Gold turns are those marked ``has_answer``; gold sessions are
``answer_session_ids``. Abstention questions (``_abs``) and questions with no gold user turn are
skipped. memstrata ingests each session's user turns, numbered from 0, with the session date.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memstrata.bench.corpus import Corpus, Question, read_json
from memstrata.clock import to_iso
from memstrata.model import Session, Turn
from memstrata.workspace.textfile import mend_utf8


def parse_longmemeval_date(text: str) -> datetime:
    """``"2023/05/20 (Sat) 00:59"`` → an aware UTC datetime."""
    day, _, clock = text.strip().partition(" (")
    clock = clock.partition(") ")[2] or "00:00"
    return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=UTC)


def load_longmemeval(path: Path, limit: int | None = None) -> list[Corpus]:
    """Every evaluable question of a LongMemEval file (``.json`` or ``.json.gz``) as a corpus."""
    corpora = []
    for item in read_json(path):
        corpus = _corpus(item)
        if corpus is not None:
            corpora.append(corpus)
        if limit is not None and len(corpora) >= limit:
            break
    return corpora


def _corpus(item: dict) -> Corpus | None:
    if str(item["question_id"]).endswith("_abs"):
        return None
    sessions: list[tuple[Session, list[Turn]]] = []
    keys: dict[str, dict[str, str]] = {"session": {}, "turn": {}}
    session_docs: list[tuple[str, str]] = []
    turn_docs: list[tuple[str, str]] = []
    gold_turns: set[str] = set()
    for session_id, date, messages in zip(
        item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"], strict=True
    ):
        when = to_iso(parse_longmemeval_date(date))
        session_id = str(session_id)
        turns = []
        for message in messages:
            if message.get("role") != "user":
                continue
            index = len(turns)
            source = f"{session_id}#{index}"
            # a "\ud800" escape in the JSON is no character: stored as U+FFFD, as ingest does
            said = mend_utf8(str(message.get("content", "")))
            turns.append(Turn(session_id, index, "user", when, said))
            keys["session"][source] = session_id
            keys["turn"][source] = source
            turn_docs.append((source, turns[-1].text))
            if message.get("has_answer"):
                gold_turns.add(source)
        if not turns:
            continue
        session_docs.append((session_id, " ".join(turn.text for turn in turns)))
        sessions.append((Session(session_id, "longmemeval", "user", when, when, ""), turns))
    gold_sessions = frozenset(str(s) for s in item["answer_session_ids"]) & {
        doc_id for doc_id, _ in session_docs
    }
    if not gold_turns or not gold_sessions:
        return None
    question = Question(
        mend_utf8(str(item["question"])),
        {"session": gold_sessions, "turn": frozenset(gold_turns)},
        ("all", str(item["question_type"])),
        parse_longmemeval_date(str(item["question_date"])),
    )
    docs = {"session": session_docs, "turn": turn_docs}
    return Corpus(str(item["question_id"]), sessions, keys, docs, [question])
