"""LoCoMo (Maharana et al., ACL 2024): turn-level evidence retrieval, one corpus per conversation.

Paper protocol: a document per turn, ``(<session date>) <speaker>: <text>``; evidence recall@k.
memstrata stores each turn as ``<speaker>: <text>`` with the session's date as the turn's time,
so its own search sees the speaker in the text and the date as a time (filters, boosts). A shared
photo's caption is kept in both methods' documents as ``[shares a photo: …]``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from memstrata.bench.corpus import Corpus, Question, read_json
from memstrata.clock import to_iso
from memstrata.model import Session, Turn
from memstrata.workspace.textfile import mend_utf8

_DIA = re.compile(r"D(\d+):(\d+)")


def parse_locomo_date(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` → an aware UTC datetime."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def load_locomo(path: Path, captions: bool = True) -> list[Corpus]:
    """Every conversation in a LoCoMo file (``.json`` or ``.json.gz``) as a corpus of turns and
    its questions.

    Categories reported: ``all``, the number, and ``1-4`` (all but adversarial).
    """
    samples = read_json(path)
    return [_corpus(sample, captions) for sample in samples]


def _corpus(sample: dict, captions: bool) -> Corpus:
    conversation = sample["conversation"]
    sample_id = str(sample["sample_id"])
    sessions: list[tuple[Session, list[Turn]]] = []
    keys: dict[str, dict[str, str]] = {"turn": {}}
    docs: list[tuple[str, str]] = []
    last = datetime(1970, 1, 1, tzinfo=UTC)
    numbers = sorted(
        int(key.removeprefix("session_"))
        for key, value in conversation.items()
        if re.fullmatch(r"session_\d+", key) and isinstance(value, list)
    )
    for number in numbers:
        raw_date = conversation.get(f"session_{number}_date_time", "")
        when = parse_locomo_date(raw_date) if raw_date else last
        last = max(last, when)
        session_id = f"{sample_id}:s{number}"
        turns = []
        for index, turn in enumerate(conversation[f"session_{number}"]):
            text = turn["text"]
            if captions and turn.get("blip_caption"):
                text = f"{text} [shares a photo: {turn['blip_caption']}]"
            # a "\ud800" escape in the JSON is no character: stored as U+FFFD, as ingest does
            said = mend_utf8(f"{turn['speaker']}: {text}")
            turns.append(Turn(session_id, index, "user", to_iso(when), said))
            keys["turn"][f"{session_id}#{index}"] = turn["dia_id"]
            docs.append((turn["dia_id"], f"({raw_date}) {said}"))
        session = Session(session_id, "locomo", sample_id, to_iso(when), to_iso(when), "")
        sessions.append((session, turns))
    known = set(keys["turn"].values())
    questions = []
    for qa in sample["qa"]:
        gold = frozenset(_evidence_ids(qa.get("evidence", [])) & known)
        if not gold:
            continue
        category = str(qa["category"])
        groups = ("all", category) if category == "5" else ("all", "1-4", category)
        questions.append(Question(mend_utf8(qa["question"]), {"turn": gold}, groups, last))
    return Corpus(sample_id, sessions, keys, {"turn": docs}, questions)


def _evidence_ids(evidence: list[str]) -> set[str]:
    """Normalise ids like ``"D8:6; D9:17"``, ``"D:11:26"`` or ``"D30:05"`` to ``D<n>:<m>``."""
    ids = set()
    for item in evidence:
        for match in _DIA.finditer(str(item).replace("D:", "D")):
            ids.add(f"D{int(match.group(1))}:{int(match.group(2))}")
    return ids
