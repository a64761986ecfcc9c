"""Tiny hand-made benchmark files: a LoCoMo conversation and a LongMemEval question."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any


def locomo_samples() -> list[dict[str, Any]]:
    """One conversation of four turns, asked a question of categories 1, 2, 4 and 5."""
    turns = [
        ("Ann", "I adopted a grey cat called Pixel last week."),
        ("Bob", "Nice! I started learning the cello in March."),
        ("Ann", "Pixel sleeps on my keyboard every morning."),
        ("Bob", "My cello teacher lives in Lisbon."),
    ]
    return [
        {
            "sample_id": "tiny",
            "conversation": {
                "speaker_a": "Ann",
                "speaker_b": "Bob",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": speaker, "dia_id": f"D1:{number}", "text": text}
                    for number, (speaker, text) in enumerate(turns, start=1)
                ],
            },
            "qa": [
                {"question": "What is Ann's cat called?", "evidence": ["D1:1"], "category": 1},
                {"question": "When did Bob start the cello?", "evidence": ["D1:2"], "category": 2},
                {"question": "Where does the teacher live?", "evidence": ["D1:4"], "category": 4},
                {"question": "Where does Pixel sleep?", "evidence": ["D1:3"], "category": 5},
            ],
        }
    ]


def longmemeval_items() -> list[dict[str, Any]]:
    """One question whose answer is in the first of two sessions."""

    def session(*texts: str, answer: bool = False) -> list[dict[str, Any]]:
        return [
            {"role": "user", "content": texts[0], "has_answer": answer},
            {"role": "assistant", "content": "Noted."},
            *({"role": "user", "content": text} for text in texts[1:]),
        ]

    return [
        {
            "question_id": "tiny-1",
            "question_type": "single-session-user",
            "question": "Which city did I move to?",
            "question_date": "2023/06/01 (Thu) 10:00",
            "answer_session_ids": ["s1"],
            "haystack_session_ids": ["s1", "s2"],
            "haystack_dates": ["2023/05/20 (Sat) 00:59", "2023/05/21 (Sun) 09:30"],
            "haystack_sessions": [
                session("I moved to Porto in April.", "The flat is near the river.", answer=True),
                session("My sister plays tennis on Sundays."),
            ],
        }
    ]


def write_json(path: Path, data: Any) -> Path:
    """``data`` as JSON at ``path``, gzipped when the name ends in ``.gz``."""
    text = json.dumps(data)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        path.write_text(text, encoding="utf-8")
    return path
