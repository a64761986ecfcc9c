"""Memory.rank_raw: raw turns and raw sessions ranked for a query (``memstrata search`` and the
retrieval benchmarks), with the dense session arm fed by pseudo-relevance feedback."""

from datetime import UTC, datetime
from pathlib import Path

from memstrata import Memory
from memstrata.model import Session, Turn
from memstrata.providers.hashing import HashingEmbedder
from memstrata.workspace.layout import init_workspace

WHEN = "2025-11-20T10:00:00Z"
CHATS = {
    "recipes": [
        "I'm looking for quick dinner recipes. By the way, I order food delivery a lot lately.",
        "Something with rice would be great.",
    ],
    "weekend": [
        "Any tips for a tidy kitchen? My weekends have been all about Uber Eats and takeaway.",
        "I also need a new sponge.",
    ],
    "garden": ["How deep should I plant tulip bulbs?", "The soil is clay."],
}


def _memory(tmp_path: Path) -> Memory:
    root = tmp_path / "ws"
    init_workspace(root)
    memory = Memory(
        root, embedder=HashingEmbedder(), clock=lambda: datetime(2025, 11, 27, tzinfo=UTC)
    )
    for session_id, texts in CHATS.items():
        turns = [Turn(session_id, i, "user", WHEN, text) for i, text in enumerate(texts)]
        memory.raw.upsert(Session(session_id, "test", "user", WHEN, WHEN, ""), turns)
    memory.embed_missing()
    return memory


def test_sessions_are_ranked_beside_the_turns(tmp_path):
    with _memory(tmp_path) as memory:
        turns, sessions = memory.rank_raw("food delivery services I used", 10)

    assert turns[0].source == "recipes#0"
    assert next(session for session, _ in sessions) == "recipes"
    assert {session for session, _ in sessions} >= {"recipes", "weekend"}


def test_search_asks_for_turns_only(tmp_path):
    with _memory(tmp_path) as memory:
        turns, sessions = memory.rank_raw("food delivery", 5, sessions=False)
        hits = memory.search_raw("food delivery", 5)

    assert sessions == []
    assert turns and [hit.source for hit in hits] == [turn.source for turn in turns]


def test_search_sessions_returns_each_conversation_with_its_best_turn(tmp_path):
    with _memory(tmp_path) as memory:
        hits = memory.search_sessions("food delivery", 2)
        best = hits[0]
        assert best.source == "recipes"
        assert best.stratum == "raw" and best.time == WHEN
        assert best.extra["best_turn"] == "recipes#0" and "food delivery" in best.text
        assert best.extra["turns"] == "2"
        assert len(hits) == 2
        assert memory.search_sessions("!!!", 5) == []


def test_every_turn_holding_a_word_of_the_query_says_so_even_the_weakest(tmp_path):
    with _memory(tmp_path) as memory:
        # both kitchen turns hold "kitchen"; min-max scaling puts the weaker lexical score at 0
        memory.raw.upsert(
            Session("kitchen", "test", "user", WHEN, WHEN, ""),
            [Turn("kitchen", 0, "user", WHEN, "kitchen kitchen kitchen tiles")],
        )
        memory.embed_missing()
        hits = memory.search("kitchen", 10)

    holding = [hit.source for hit in hits if "kitchen" in hit.text.lower()]
    assert set(holding) == {"weekend#0", "kitchen#0"}
    assert all(hit.holds_a_word for hit in hits if hit.source in holding)
    assert [hit.source for hit in hits][:2] == holding  # word hits first, none left behind


def test_a_session_search_puts_sessions_holding_a_word_first_and_labels_the_rest(tmp_path):
    with _memory(tmp_path) as memory:
        hits = memory.search_sessions("food delivery", 3)

    arms = {hit.source: hit.extra["arms"] for hit in hits}
    assert arms["recipes"] == "lexical"
    # "Uber Eats" is no word of the query: found through the best turns' meaning, said so
    assert {arms[source] for source in arms.keys() - {"recipes"}} == {"semantic"}
    assert [hit.holds_a_word for hit in hits] == [True, False, False]


def test_search_leaves_out_a_tiny_turn_that_only_lies_near_the_query(tmp_path):
    with _memory(tmp_path) as memory:
        memory.raw.upsert(
            Session("chat", "test", "user", WHEN, WHEN, ""),
            [Turn("chat", 0, "user", WHEN, "ok"), Turn("chat", 1, "user", WHEN, "Hello there")],
        )
        memory.embed_missing()
        near, _ = memory.rank_raw("zeppelin hangar", 20, sessions=False)
        hits = memory.search("zeppelin hangar", 20)

    # ranked by nearness, as every turn is here, but too short to mean anything in search
    assert {"chat#0", "chat#1"} <= {turn.source for turn in near}
    assert hits and all(len(hit.text.split()) >= 3 for hit in hits)
