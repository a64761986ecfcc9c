"""Names recall matches an entity by: how a mention is read, and how a query's words find it."""

import pytest

from memstrata import Memory


@pytest.fixture
def memory(words_memory: Memory) -> Memory:
    return words_memory  # no embedder: what is found is found by words and names alone


def _found_by_entity(memory: Memory, query: str = "", entity: str | None = None) -> list[str]:
    items = memory.recall(query, entity=entity).items
    return [item.content for item in items if entity or "entity" in item.arms]


def test_a_chinese_mention_written_without_spaces_names_the_person(memory: Memory):
    memory.log("今天和@王伟讨论了数据库迁移方案")
    memory.log("午饭吃了面条")

    assert _found_by_entity(memory, "王伟负责什么") == ["10:00 今天和@王伟讨论了数据库迁移方案"]
    assert _found_by_entity(memory, entity="王伟") == ["10:00 今天和@王伟讨论了数据库迁移方案"]


def test_a_name_with_an_ampersand_is_one_entity(memory: Memory):
    memory.log("@R&D approved the budget")
    memory.log("Plan R is the fallback")

    assert _found_by_entity(memory, entity="R&D") == ["10:00 @R&D approved the budget"]
    assert _found_by_entity(memory, "why plan R?") == []  # "R" names no entity


@pytest.mark.parametrize(
    ("query", "entity", "line"),
    [
        ("what does jose drink", "jose", "10:00 @José drinks espresso"),
        ("when does obrien open", "obrien", "10:00 @O'Brien opens the pub at noon"),
    ],
)
def test_a_name_is_matched_without_its_accents_or_apostrophes(
    memory: Memory, query: str, entity: str, line: str
):
    memory.log("@José drinks espresso")
    memory.log("@O'Brien opens the pub at noon")

    assert _found_by_entity(memory, query) == [line]
    assert _found_by_entity(memory, entity=entity) == [line]
