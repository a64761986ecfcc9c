"""A people/ or entities/ topic titled "Name (Other name)" makes its names one entity."""

import json
import shutil
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.index.db import topic_aliases
from memstrata.model import Topic, TopicMeta
from tests.cli.process import run

LI_NA = "# 李娜 (Li Na)\nBackend engineer in the Shanghai office."


@pytest.fixture
def memory(words_memory: Memory) -> Memory:
    return words_memory  # no embedder: what is found is found by words and names alone


def _journal_lines(memory: Memory, query: str = "", entity: str | None = None) -> list[str]:
    """The journal lines a recall returns: all under ``entity``, else those the entity arm found."""
    items = memory.recall(query, entity=entity).items
    return [
        item.content
        for item in items
        if item.stratum == "journal" and (entity or "entity" in item.arms)
    ]


@pytest.mark.parametrize("entity", ["Li Na", "li-na", "LI NA", "@Li Na"])
def test_the_entity_filter_finds_mentions_under_the_other_name_of_a_person_page(
    memory: Memory, entity: str
):
    memory.write_topic("people/li-na", LI_NA)
    memory.log("与 @李娜 讨论了咖啡机")
    memory.log("午饭吃了面条")

    assert _journal_lines(memory, entity=entity) == ["10:00 与 @李娜 讨论了咖啡机"]


def test_a_query_naming_the_other_name_brings_the_entity_arm(memory: Memory):
    memory.write_topic("people/li-na", LI_NA)
    memory.log("与 @李娜 讨论了咖啡机，她更喜欢手冲咖啡。")

    assert _journal_lines(memory, "what coffee does Li Na like") == [
        "10:00 与 @李娜 讨论了咖啡机，她更喜欢手冲咖啡。"
    ]


def test_aliases_go_both_ways_and_either_order_of_the_title(memory: Memory):
    memory.write_topic("entities/li-na", "# Li Na (李娜)\nBackend engineer.")
    memory.log("@Li-Na owns the payment gateway")

    assert _journal_lines(memory, entity="李娜") == ["10:00 @Li-Na owns the payment gateway"]
    assert _journal_lines(memory, "李娜负责什么") == ["10:00 @Li-Na owns the payment gateway"]


def test_a_page_outside_people_and_entities_names_no_alias(memory: Memory):
    memory.write_topic("projects/li-na", LI_NA)
    memory.log("与 @李娜 讨论了咖啡机")

    assert _journal_lines(memory, entity="Li Na") == []
    assert _journal_lines(memory, "what does Li Na like") == []


def test_retitling_the_page_drops_its_aliases(memory: Memory):
    memory.write_topic("people/li-na", LI_NA)
    memory.log("与 @李娜 讨论了咖啡机")
    memory.write_topic("people/li-na", "# 李娜\nBackend engineer in the Shanghai office.")

    assert _journal_lines(memory, entity="Li Na") == []


def test_deleting_the_page_drops_its_aliases(memory: Memory, workspace: Path):
    memory.write_topic("people/li-na", LI_NA)
    memory.log("与 @李娜 讨论了咖啡机")
    shutil.rmtree(workspace / "memory" / "topics" / "people" / "li-na")

    assert _journal_lines(memory, entity="Li Na") == []
    assert memory.index.db.execute("SELECT * FROM aliases").fetchall() == []


def _topic(topic_id: str, title: str) -> Topic:
    return Topic(topic_id, title, "", "", TopicMeta())


@pytest.mark.parametrize(
    ("topic_id", "title", "keys"),
    [
        ("people/li-na", "李娜 (Li Na)", ["li na", "李娜"]),
        ("people/li-na", "Li Na (李娜)", ["li na", "李娜"]),
        ("entities/pg", "PostgreSQL (Postgres)", ["pg", "postgres", "postgresql"]),
        ("people/ann", "Ann (Ann)", []),  # one name is no alias
        ("people/ann", "Ann Weber", []),
        ("people/ann", "Ann ()", []),
        ("people/ann", " (Annie)", []),
        ("people/ann", "Ann (Annie) (Nan)", []),
        ("projects/release-plan", "Release plan (2025)", []),
    ],
)
def test_the_names_a_topic_makes_one_entity(topic_id: str, title: str, keys: list[str]):
    assert topic_aliases(_topic(topic_id, title)) == keys


def test_the_demo_recalls_li_na_by_either_name(tmp_path: Path):
    folder = tmp_path / "demo"
    assert run("demo", "--path", str(folder)).returncode == 0

    result = run("-w", str(folder), "recall", "--entity", "Li Na", "--json")

    sources = [item["source"] for item in json.loads(result.stdout)["items"]]
    assert sources == ["people/li-na", "memory/2025-11-26.md#L5", "memory/2025-11-26.md#L10"]
