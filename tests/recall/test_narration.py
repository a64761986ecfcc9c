"""Which turns narrate their speaker's own past: the raw ranking's experience boost."""

from __future__ import annotations

import pytest

from memstrata.recall.narration import narrates_experience


@pytest.mark.parametrize(
    "text",
    [
        "I went to the concert with Sarah.",
        "We finally moved to Denver in May.",
        "I painted that sunrise last year.",
        "Yeah, I've got 12 rare figurines in my collection.",
        "I have been collecting vintage cameras since college.",
        "We've seen every Marvel movie twice.",
        "I was at the clinic all morning.",
        "Thanks! By the way, I bought a new tennis racket at the mall.",
        "我昨天去了北京。",
        "我们在上海住过两年",
    ],
)
def test_first_person_accounts_of_what_happened_narrate(text):
    assert narrates_experience(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm thinking of starting a collection of rare items.",
        "Can you recommend a playlist for my commute?",
        "I need help planning a trip.",
        "I have a question about my tax return.",
        "I was wondering if you could suggest a hotel in Miami.",
        "I've also been thinking about getting a new bike.",
        "We have been considering a move to Denver.",
        "She went to the concert with Sarah.",  # someone else's past, not the speaker's
        "The deploy failed twice.",
        "我想了解一下这个城市",  # 了解 "understand" is not the aspect marker
        "你吃了吗",
        "",
    ],
)
def test_plans_requests_and_other_peoples_past_do_not(text):
    assert not narrates_experience(text)


def test_a_request_frame_does_not_hide_a_narration_after_it():
    assert narrates_experience("I was wondering about hotels, since I stayed at the Ritz last time")
