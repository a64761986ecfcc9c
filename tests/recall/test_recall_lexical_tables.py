"""The lexical arm over two FTS tables: a topic's and a journal entry's scores on one scale."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.fts import match_expression
from memstrata.index.db import IndexDB
from memstrata.journal.parse import parse_journal
from memstrata.model import Topic, TopicMeta
from memstrata.recall.lexical import best_journal, best_topics, table_scales
from memstrata.workspace.layout import init_workspace

NOW = datetime(2026, 12, 5, 10, 0, tzinfo=UTC)

ENGLISH = {
    "topic": (
        "projects/k8s-upgrade",
        "# Kubernetes upgrade plan\n"
        "Upgrade the production Kubernetes cluster to 1.31 in January; drain nodes one by one.",
    ),
    "journal": [
        "Lunch with the team; someone mentioned Kubernetes.",
        "Bought a new upgrade for the coffee machine.",
        *(f"Routine note number {n} about nothing in particular." for n in range(1, 7)),
    ],
    "query": "Kubernetes upgrade plan",
    # a topic sharing one word of the query, and a journal line holding all of them
    "weak topic": ("projects/lunch", "# Team lunch\nThe plan for Friday's team lunch."),
    "strong line": "Kubernetes upgrade plan agreed: drain the nodes one by one.",
}
CHINESE = {
    "topic": (
        "projects/kunpeng",
        "# 鲲鹏数据平台\n鲲鹏项目是公司的新一代数据平台，计划明年三月上线。",
    ),
    "journal": [
        "与 @张伟 讨论了支付网关的重构方案。",
        "@王芳 负责前端设计，喜欢喝绿茶。",
        "上周五系统宕机了两个小时，原因是数据库连接池耗尽。",
        "平台组下午开会。",
    ],
    "query": "鲲鹏数据平台",
    "weak topic": ("projects/canteen", "# 食堂\n公司食堂周五有饺子，平台组也来。"),
    "strong line": "鲲鹏数据平台今天完成了压力测试。",
}
#: the words of a sentence of the topic's summary, not its title
CHINESE_SUMMARY = {**CHINESE, "query": "公司的新一代数据平台"}


def _memory(tmp_path: Path, topics: list[tuple[str, str]], lines: list[str]) -> Memory:
    root = tmp_path / "ws"
    init_workspace(root)
    memory = Memory(root, embeddings=False, clock=lambda: NOW)
    for topic_id, summary in topics:
        memory.write_topic(topic_id, summary)
    for line in lines:
        memory.log(line)
    return memory


def _fillers(count: int) -> list[tuple[str, str]]:
    """Topics about other things, so the wiki is not one of a single topic."""
    subjects = ["coffee beans", "office plants", "bike repair", "tax forms", "garden hose"]
    return [
        (f"notes/n{number:03d}", f"# Note {number}\nAbout {subjects[number % len(subjects)]}.")
        for number in range(count)
    ]


@pytest.mark.parametrize(
    "case", [ENGLISH, CHINESE, CHINESE_SUMMARY], ids=["english", "chinese", "chinese-summary"]
)
@pytest.mark.parametrize("other_topics", [0, 2, 40])
def test_a_topic_titled_with_the_query_ranks_above_journal_lines_sharing_a_word(
    tmp_path: Path, case: dict, other_topics: int
):
    memory = _memory(tmp_path, [case["topic"], *_fillers(other_topics)], case["journal"])

    with memory:
        items = memory.recall(case["query"], k=3).items

    assert items[0].source == case["topic"][0]
    assert "lexical" in items[0].arms


@pytest.mark.parametrize("case", [ENGLISH, CHINESE], ids=["english", "chinese"])
@pytest.mark.parametrize("other_topics", [0, 40])
def test_a_weak_topic_match_is_not_lifted_for_being_the_best_topic(
    tmp_path: Path, case: dict, other_topics: int
):
    topics = [case["weak topic"], *_fillers(other_topics)]
    memory = _memory(tmp_path, topics, [*case["journal"], case["strong line"]])

    with memory:
        items = memory.recall(case["query"], k=3).items

    assert items[0].content.endswith(case["strong line"])


def _index(topics: list[tuple[str, str]], lines: list[str]) -> IndexDB:
    index = IndexDB.open_in_memory()
    when = "2026-12-05T09:00:00Z"
    meta = TopicMeta(created=when, updated=when, observed=when)
    index.put_topics(
        (Topic(topic_id, summary.splitlines()[0][2:], summary, "", meta), "stamp")
        for topic_id, summary in topics
    )
    text = "# 2026-12-05\n\n" + "".join(f"- {line}\n" for line in lines)
    source = "memory/2026-12-05.md"
    index.put_journal(source, parse_journal(text, source, "2026-12-05"), "stamp")
    return index


@pytest.mark.parametrize("case", [ENGLISH, CHINESE], ids=["english", "chinese"])
def test_a_scaled_score_is_a_share_below_one(case: dict):
    index = _index([case["topic"], case["weak topic"], *_fillers(3)], case["journal"])
    expression = match_expression(case["query"])
    assert expression is not None

    scales = table_scales(index.db, expression)
    topics = best_topics(index.db, expression, ("active",), 10, "t.id")
    journal = best_journal(index.db, expression, 10)

    shares = [-rank * scales["topics_fts"] for rank, _ in topics]
    shares += [-rank * scales["journal_fts"] for rank, _ in journal]
    assert shares and all(0 < share < 1 for share in shares)


def test_a_table_holding_no_word_of_the_query_scales_to_nothing():
    index = _index([ENGLISH["topic"]], ["Bought coffee beans."])

    scales = table_scales(index.db, '"kubernetes" OR "plan"')

    assert scales["journal_fts"] == 0.0 and scales["topics_fts"] > 0
