"""Lexical pseudo-relevance feedback: words of the best turns found extend the session query,
so a conversation that names only an instance ("pizza nights") is found for the category
("food delivery")."""

from datetime import UTC, datetime
from pathlib import Path

from memstrata import Memory
from memstrata.model import Session, Turn
from memstrata.recall.expansion import expanded_session_scores, expansion_terms
from memstrata.recall.turns import TurnWeights
from memstrata.workspace.layout import init_workspace

WHEN = "2025-11-20T10:00:00Z"
CHATS = {
    "dominos": ["I rely on food deliveries a lot: Domino's pizza three times last week."],
    "fusion": ["Food delivery again tonight, Fresh Fusion pizza bowls this time."],
    "weekend": ["My weekends are all about pizza nights on the sofa."],
    "garden": ["How deep should I plant tulip bulbs in clay soil?"],
    "bike": ["My bike chain squeaks after the rain."],
    "trip": ["We are planning a trip to Lisbon in spring."],
}


def _memory(tmp_path: Path) -> Memory:
    root = tmp_path / "ws"
    init_workspace(root)
    memory = Memory(root, embeddings=False, clock=lambda: datetime(2025, 11, 27, tzinfo=UTC))
    for session_id, texts in CHATS.items():
        turns = [Turn(session_id, i, "user", WHEN, text) for i, text in enumerate(texts)]
        memory.raw.upsert(Session(session_id, "test", "user", WHEN, WHEN, ""), turns)
    return memory


def test_expansion_words_are_frequent_in_the_feedback_and_rare_in_the_store(tmp_path):
    with _memory(tmp_path) as memory:
        memory.rank_raw("warm up", 1)  # indexes the session documents
        terms = expansion_terms(
            memory.index.db, memory.raw.db, "food delivery", ["dominos#0", "fusion#0"], 3
        )
    # "pizza" is in both feedback turns and in one more conversation. The question's own words
    # (also as "deliveries"), stop words, and words no conversation beyond the feedback holds
    # ("bowls"; "times" and "time" are one stem, held by the two feedback sessions only) never
    # count
    assert terms == ["pizza"]


def test_no_feedback_or_no_count_means_no_words(tmp_path):
    with _memory(tmp_path) as memory:
        memory.rank_raw("warm up", 1)
        db, raw = memory.index.db, memory.raw.db
        assert expansion_terms(db, raw, "food delivery", [], 5) == []
        assert expansion_terms(db, raw, "food delivery", ["dominos#0"], 0) == []
        assert expansion_terms(db, raw, "food delivery", ["nowhere#7"], 5) == []
        # from one turn, "times" counts: "time" is in another conversation (the fusion one)
        assert expansion_terms(db, raw, "food delivery", ["dominos#0"], 5) == ["times", "pizza"]


def test_expanded_scores_keep_the_question_when_nothing_is_added(tmp_path):
    with _memory(tmp_path) as memory:
        memory.rank_raw("warm up", 1)
        scores = {"dominos": 2.0, "fusion": 1.0}
        assert expanded_session_scores(memory.index.db, scores, [], 0.3, 10) == scores
        lifted = expanded_session_scores(memory.index.db, scores, ["pizza"], 0.3, 10)
    assert lifted["weekend"] > 0.0
    assert lifted["dominos"] > lifted["weekend"]


def test_a_session_naming_only_an_instance_is_ranked_for_the_category(tmp_path):
    with _memory(tmp_path) as memory:
        _, without = memory.rank_raw("food delivery", 10, TurnWeights(expansion=0.0))
        _, with_feedback = memory.rank_raw("food delivery", 10)
    assert "weekend" not in dict(without)
    assert {session for session, _ in with_feedback} == {"dominos", "fusion", "weekend"}
