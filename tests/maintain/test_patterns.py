"""Patterns across topics, as the garden report lists them."""

from memstrata import Memory
from memstrata.maintain.patterns import patterns_of


def test_two_topics_in_conflict_are_one_pattern_line(memory: Memory, fixed_now):
    first = memory.remember("Ann likes jazz").topic_id
    second = memory.remember("Ann does not like jazz").topic_id
    topics = {topic.id: topic for topic in memory.list_topics()}

    lines = patterns_of(topics, memory.proposals(), fixed_now)

    one, other = sorted((first, second))
    assert [line for line in lines if line.startswith("conflict:")] == [
        f"conflict: {one} ↔ {other}"
    ]
