"""Hybrid ranking of raw turns in a real raw store."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import numpy as np

from memstrata.model import Session, Turn
from memstrata.providers.hashing import HashingEmbedder
from memstrata.raw.store import RawStore
from memstrata.recall.semantic import VectorIndex
from memstrata.recall.sessions import ensure_session_table, put_sessions, score_sessions
from memstrata.recall.temporal import find_time_windows
from memstrata.recall.turns import (
    NARRATION_CHARS,
    RankedTurn,
    TurnWeights,
    feedback_query,
    rank_sessions,
    rank_turns,
    semantic_hits,
)

CHATS = {
    "trip": ("2025-10-02T10:00:00Z", [
        "Ann: Where did you go on holiday?",
        "Bo: We went hiking in the Dolomites for a week.",
        "Ann: Sounds lovely.",
    ]),
    "work": ("2025-11-20T10:00:00Z", [
        "Bo: The billing service deploy failed again.",
        "Ann: Roll back and page the on-call.",
    ]),
    "food": ("2025-11-25T10:00:00Z", [
        "Ann: I tried the new ramen place on holiday street.",
        "Bo: Was it any good?",
    ]),
}  # fmt: skip


def _store(tmp_path) -> RawStore:
    store = RawStore(tmp_path / "sessions.db")
    for session_id, (when, lines) in CHATS.items():
        session = Session(session_id, "test", "agent", when, when, "")
        turns = [Turn(session_id, i, "user", when, text) for i, text in enumerate(lines)]
        store.upsert(session, turns)
    return store


def test_the_answer_after_a_matching_question_is_found_through_its_neighbour(tmp_path):
    store = _store(tmp_path)

    ranked = rank_turns(store.db, "where did Ann go on holiday", 3, weights=TurnWeights())

    sources = [turn.source for turn in ranked]
    assert "trip#1" in sources
    assert "neighbour" in next(turn for turn in ranked if turn.source == "trip#1").arms


def test_neighbours_never_name_turns_that_do_not_exist(tmp_path):
    store = _store(tmp_path)

    ranked = rank_turns(store.db, "ramen", 10)

    assert {turn.source for turn in ranked} <= {"food#0", "food#1"}


def test_a_turn_with_no_text_is_never_ranked(tmp_path):
    # A bare tool call is stored as a turn with no text; its vector carries the turn before it.
    store = RawStore(tmp_path / "sessions.db")
    when = "2025-11-20T10:00:00Z"
    lines = ["The billing deploy failed again", "", "   ", "Rolled it back"]
    store.upsert(
        Session("ops", "test", "agent", when, when, ""),
        [Turn("ops", i, "assistant", when, text) for i, text in enumerate(lines)],
    )
    semantic = {"ops#0": 0.9, "ops#1": 0.9, "ops#3": 0.2}

    ranked = rank_turns(store.db, "billing deploy failed", 10, semantic=semantic)

    assert [turn.source for turn in ranked] == ["ops#0", "ops#3"]


def test_a_time_the_query_names_puts_the_matching_turns_inside_it_first(tmp_path):
    store = RawStore(tmp_path / "sessions.db")
    chats = {
        "october": ("2025-10-02T10:00:00Z", ["Bo: The billing deploy failed."]),
        "this-week": ("2025-11-25T10:00:00Z", [
            "Ann: Lunch at noon?",
            "Bo: Our billing deploy failed again after the invoices migration locked a table.",
        ]),
        "also-this-week": ("2025-11-26T10:00:00Z", ["Ann: The new office plants arrived."]),
    }  # fmt: skip
    for session_id, (when, lines) in chats.items():
        session = Session(session_id, "test", "agent", when, when, "")
        store.upsert(session, [Turn(session_id, i, "user", when, t) for i, t in enumerate(lines)])
    query = "billing deploy failed this week"
    windows = find_time_windows(query, datetime(2025, 11, 27, tzinfo=UTC))

    def ranked(weights: TurnWeights) -> list[RankedTurn]:
        return rank_turns(store.db, query, 5, weights=weights, windows=windows)

    # the October turn says it in fewer words, so it wins on the words alone
    assert ranked(TurnWeights(neighbour=0.0, temporal=0.0))[0].source == "october#0"
    inside, outside = ranked(TurnWeights(neighbour=0.0))
    assert inside.source == "this-week#1" and "temporal" in inside.arms
    assert outside.source == "october#0"  # still found, only ranked after
    # the window raises what the query matched; it finds nothing by itself
    assert "also-this-week#0" not in {turn.source for turn in ranked(TurnWeights())}


def test_a_turn_that_tells_what_happened_outranks_one_that_plans_it(tmp_path):
    store = RawStore(tmp_path / "sessions.db")
    when = "2025-11-20T10:00:00Z"
    chats = {
        "plans": [
            "Ann: Are you going to the jazz concert on Friday? I'd love to see a concert.",
            "Bo: Maybe, not sure yet.",
        ],
        "after": ["Bo: How was your weekend?", "Ann: I went to the jazz concert with Sarah."],
        "music": ["Bo: Jazz is not my thing, to be honest, I prefer rock and pop and folk music."],
    }
    for session_id, lines in chats.items():
        turns = [Turn(session_id, i, "user", when, text) for i, text in enumerate(lines)]
        store.upsert(Session(session_id, "test", "agent", when, when, ""), turns)

    plain = rank_turns(store.db, "the jazz concert", 2, weights=TurnWeights(experience=0.0))
    boosted = rank_turns(store.db, "the jazz concert", 2)

    assert [turn.source for turn in plain] == ["plans#0", "after#1"]
    assert [turn.source for turn in boosted] == ["after#1", "plans#0"]
    assert "experience" in boosted[0].arms


def test_only_the_start_of_a_huge_turn_is_read_for_narration(tmp_path):
    store = RawStore(tmp_path / "sessions.db")
    when = "2025-11-20T10:00:00Z"
    log = "deploy log line ok\n" * (NARRATION_CHARS // 10)
    turns = [
        Turn("s", 0, "tool", when, log + "I went through the deploy log."),
        Turn("s", 1, "user", when, "I went through the deploy log."),
        Turn("s", 2, "user", when, "The deploy is green, by the way, and everything else is fine."),
    ]
    store.upsert(Session("s", "test", "agent", when, when, ""), turns)

    ranked = {turn.source: turn for turn in rank_turns(store.db, "deploy log", 3)}

    assert "experience" in ranked["s#1"].arms
    assert "experience" not in ranked["s#0"].arms


def test_the_semantic_arm_finds_turns_without_shared_words_in_the_lexical_list(tmp_path):
    store = _store(tmp_path)
    embedder = HashingEmbedder(64)
    turns = [turn for sid in CHATS for turn in store.turns(sid)]
    vectors = VectorIndex.from_rows(
        [f"{t.session_id}#{t.index}" for t in turns], embedder.embed([t.text for t in turns])
    )

    ranked = rank_turns(
        store.db,
        "deployment",  # no FTS match: the hashing embedder shares trigrams with "deploy"
        3,
        semantic=semantic_hits(vectors, embedder.embed(["deployment"], query=True)[0], 200),
        weights=TurnWeights(experience=0.0),  # the semantic arm alone: "we went hiking" narrates
    )

    assert ranked[0].source == "work#0"
    assert "semantic" in ranked[0].arms
    assert "lexical" not in ranked[0].arms


def test_sessions_rank_by_session_bm25_and_their_turns(tmp_path):
    store = _store(tmp_path)
    index = sqlite3.connect(tmp_path / "index.db")
    ensure_session_table(index)
    put_sessions(index, [(sid, "\n".join(lines)) for sid, (_, lines) in CHATS.items()])
    query = "billing deploy rollback on-call"

    session_scores = score_sessions(index, query, 10)
    ranked = rank_turns(store.db, query, 10, session_scores=session_scores)
    sessions = rank_sessions(ranked, TurnWeights(), session_scores)

    assert sessions[0][0] == "work"
    assert all(turn.source.startswith("work#") for turn in ranked)


def test_a_query_of_only_punctuation_finds_nothing(tmp_path):
    assert rank_turns(_store(tmp_path).db, "?!", 5) == []


def test_fts_syntax_and_huge_queries_are_searched_as_plain_words(tmp_path):
    store = _store(tmp_path)

    assert rank_turns(store.db, 'billing" OR NEAR(deploy *', 3)[0].source == "work#0"
    assert len(rank_turns(store.db, "ramen " * 20_000, 3)) <= 3


def test_a_session_whose_one_turn_means_the_query_ranks_without_sharing_a_word():
    """The dense session arm: an aside in a chat about something else ("by the way, Uber Eats
    saved my weekend") brings its session up when one of its turns is close in meaning to the
    question, above a session that merely shares a word with it."""
    found = [RankedTurn("cooking#0", 1.0, ("lexical",)), RankedTurn("garden#3", 0.4, ("lexical",))]
    bm25 = {"cooking": 5.0, "garden": 2.0, "travel": 0.5}
    semantic = {"cooking#0": 0.55, "travel#4": 0.72, "garden#3": 0.10}

    plain = [session for session, _ in rank_sessions(found, TurnWeights(session_dense=0), bm25)]
    hybrid = [session for session, _ in rank_sessions(found, TurnWeights(), bm25, semantic)]

    assert plain == ["cooking", "garden", "travel"]
    assert hybrid == ["cooking", "travel", "garden"]


def test_sessions_rank_on_their_turns_without_the_experience_boost():
    # The boost picks the answering turn inside a conversation; it does not make the
    # conversation more about the question.
    turns = [
        RankedTurn("told#2", 1.0, ("lexical", "experience"), boost=0.45),
        RankedTurn("about#0", 0.8, ("lexical",)),
    ]

    ranked = [session for session, _ in rank_sessions(turns, TurnWeights(session_dense=0))]

    assert ranked == ["about", "told"]


def test_semantic_hits_are_empty_without_vectors():
    assert semantic_hits(None, None, 10) == {}


def test_feedback_moves_the_query_toward_the_best_turns_and_keeps_it_a_unit_vector():
    query = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    top = np.array([[0.0, 1.0, 0.0], [0.0, 0.6, 0.8]], dtype=np.float32)

    moved = feedback_query(query, top, 0.5)

    assert abs(float(np.linalg.norm(moved)) - 1.0) < 1e-6
    assert moved[0] > moved[1] > 0.0 and moved[2] > 0.0
    assert np.array_equal(feedback_query(query, np.zeros((0, 3), dtype=np.float32), 0.5), query)
    assert np.array_equal(feedback_query(query, top, 0.0), query)
