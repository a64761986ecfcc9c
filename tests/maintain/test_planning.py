"""The pure planners, case by case: splitting, decay rules, choosing a link."""

from datetime import timedelta

import pytest

from memstrata.config import Config, TopicsConfig
from memstrata.maintain.decay import plan_decay_phase
from memstrata.maintain.reconnect import EntityMap
from memstrata.maintain.split import plan_split, split_parts
from memstrata.model import Topic, TopicMeta
from memstrata.recall.access import Access
from tests.maintain.messy import NOW, ago

LONG = "word " * 30  # 150 chars


def _topic(topic_id: str, summary: str, **meta: object) -> Topic:
    defaults: dict[str, object] = {"created": ago(1), "updated": ago(1)}
    return Topic(topic_id, topic_id, summary, "", TopicMeta(**{**defaults, **meta}))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("summary", "headings"),
    [
        (
            f"# T\n\nCore.\n\n## One\n\n{LONG}\n\n## Two\n\n{LONG}\n\n## Three\n\n{LONG}",
            ["One", "Two", "Three"],
        ),
        (
            "# T\n\n" + "\n".join(f"- item {n} {LONG}" for n in range(6)),
            [
                "item 0 word word word word",
                "item 2 word word word word",
                "item 4 word word word word",
            ],
        ),
        (
            "# T\n\nShort core line.\n\n" + "\n\n".join(f"Para {n} {LONG}" for n in range(5)),
            [
                "Para 0 word word word word",
                "Para 2 word word word word",
                "Para 4 word word word word",
            ],
        ),
    ],
    ids=["sections", "bullets", "paragraphs"],
)
def test_a_bloated_summary_splits_by_its_own_structure(summary: str, headings: list[str]):
    found = split_parts(summary, 750)
    assert not isinstance(found, str)
    _core, parts = found
    assert [part.heading for part in parts] == headings
    assert all(len(part.body) <= 450 for part in parts)


def test_one_long_paragraph_is_not_split():
    assert "nothing to split" in split_parts(f"# T\n\n{LONG * 6}", 750)


def test_a_split_keeps_the_parents_core_and_links_both_ways():
    parent = _topic(
        "notes/big",
        f"# Big\n\nThe core.\n\n## A\n\n{LONG}\n\n## B\n\n{LONG}",
        entities=("Ann",),
        importance=4,
    )
    step = plan_split(parent, {"notes/big", "notes/big-a"}, "2025-11-27T10:00:00Z", Config())
    assert not isinstance(step, str)
    new_parent, *children = step.changes
    assert [child.topic_id for child in children] == ["notes/big-a-2", "notes/big-b"]
    assert new_parent.summary.startswith("# Big\n\nThe core.\n\nSplit into: notes/big-a-2")
    assert all(
        child.meta.links == ("notes/big",) and child.meta.importance == 4 for child in children
    )
    assert set(new_parent.meta.links) == {"notes/big-a-2", "notes/big-b"}


@pytest.mark.parametrize(
    ("topic", "use", "expected"),
    [
        (_topic("notes/a", "x", updated=ago(31)), None, ("decay", "importance 3 → 2")),
        (_topic("notes/a", "x", updated=ago(31), importance=1), None, None),
        (_topic("notes/a", "x", updated=ago(31), decayed=ago(2)), None, None),
        (_topic("notes/a", "x", updated=ago(95)), Access(4, ago(1)), None),
        (_topic("notes/a", "x", updated=ago(95)), None, ("archive", "not used for 95 days")),
        (_topic("notes/a", "x", updated=ago(300), pinned=True), None, None),
        (_topic("lessons/a", "x", updated=ago(31)), None, ("archive", "lesson not used")),
        (
            _topic("notes/a", "x\n<!-- stale -->", updated=ago(8)),
            None,
            ("archive", "marked stale 8 days ago"),
        ),
        (_topic("notes/a", "x\n<!-- stale -->", updated=ago(6)), None, None),
        (_topic("notes/a", "x", updated=ago(200), state="archived"), None, None),
    ],
    ids=[
        "cold",
        "at-floor",
        "just-decayed",
        "recalled",
        "unused",
        "pinned",
        "lesson",
        "stale-marker",
        "fresh-marker",
        "archived",
    ],
)
def test_decay_rules(topic: Topic, use: Access | None, expected: tuple[str, str] | None):
    access = {topic.id: use} if use else {}
    decisions = plan_decay_phase(
        {topic.id: topic}, access, lambda _id: topic.meta.updated, NOW, Config()
    )
    if expected is None:
        assert decisions == []
    else:
        [decision] = decisions
        assert decision.action == expected[0] and expected[1] in decision.why


def test_decay_counts_time_from_now_not_from_the_wall_clock():
    topic = _topic("notes/a", "x", updated=ago(20))
    later = NOW + timedelta(days=11)
    assert plan_decay_phase({topic.id: topic}, {}, lambda _id: "", later, Config())


def test_over_the_cap_a_topic_learnt_minutes_ago_is_not_taken_for_the_coldest():
    # By importance and use alone the new topic is the coldest: it has had no time to be used.
    fresh = _topic("notes/fresh", "x", created=ago(0.01), updated=ago(0.01), importance=1)
    seasoned = _topic("notes/seasoned", "x", created=ago(60), updated=ago(60), importance=3)
    topics = {t.id: t for t in (fresh, seasoned)}
    config = Config(topics=TopicsConfig(max_active=1))

    decisions = plan_decay_phase(
        topics, {seasoned.id: Access(5, ago(1))}, lambda _id: "", NOW, config
    )

    assert [(d.topic_id, d.action) for d in decisions] == [("notes/seasoned", "archive")]
    assert "coldest" in decisions[0].why


@pytest.mark.parametrize(
    ("age_days", "archived"),
    [(0.01, False), (29, False), (31, True), (80, True)],
    ids=["minutes", "29-days", "31-days", "80-days"],
)
def test_the_cap_spares_topics_created_within_one_decay_window(age_days: float, archived: bool):
    # 30 days (garden.decay_after_days): the window in which decay itself calls nothing cold
    kept = _topic("notes/kept", "x", pinned=True)
    subject = _topic(
        "notes/subject", "x", created=ago(age_days), updated=ago(age_days), importance=1
    )
    topics = {t.id: t for t in (kept, subject)}
    config = Config(topics=TopicsConfig(max_active=1))

    decisions = plan_decay_phase(topics, {}, lambda _id: "", NOW, config)

    assert [(d.topic_id, d.action) for d in decisions] == (
        [("notes/subject", "archive")] if archived else []
    )


def test_the_grace_of_a_new_topic_counts_from_its_creation_not_its_last_edit():
    # An old topic edited today has had its chance to be used; an edit is no new start.
    edited = _topic("notes/edited", "x", created=ago(200), updated=ago(0.01), importance=1)
    kept = _topic("notes/kept", "x", pinned=True)
    config = Config(topics=TopicsConfig(max_active=1))

    decisions = plan_decay_phase({t.id: t for t in (kept, edited)}, {}, lambda _id: "", NOW, config)

    assert [(d.topic_id, d.action) for d in decisions] == [("notes/edited", "archive")]


def test_an_orphan_links_to_the_page_of_its_entity_or_to_nothing_when_it_is_a_tie():
    topics = {
        t.id: t
        for t in [
            _topic("people/ann", "# Ann\n\nA person."),
            _topic("notes/x", "@Ann likes tea."),
            _topic("notes/y", "@Bob and @Cid met."),
            _topic("notes/z", "@Bob ran."),
            _topic("notes/w", "@Cid sang."),
        ]
    }
    entity_map = EntityMap(topics)
    assert entity_map.choose(topics["notes/x"]) == "people/ann"
    assert isinstance(entity_map.choose(topics["notes/y"]), tuple)
    assert entity_map.choose(topics["notes/z"]) == "notes/y"


def test_duplicates_among_many_topics_phrased_alike_are_still_paired():
    from memstrata.maintain.pairs import WordIndex

    # 26 people, each stored twice, all in the same words: every word but the name is held
    # by more than 50 topics, too common to find a pair by; the names still find them
    names = [f"Person{chr(ord('a') + n)}" for n in range(26)]
    topics = [
        _topic(f"people/{name.lower()}-{copy}", f"{name} drinks green tea every single morning.")
        for name in names
        for copy in (1, 2)
    ]
    index = WordIndex(topics)

    pairs = index.pairs_of("people/persona-1", min_jaccard=0.5)

    assert [pair.b for pair in pairs] == ["people/persona-2"]
    assert pairs[0].jaccard == 1.0


def test_a_topic_whose_every_word_is_common_still_meets_its_duplicate():
    from memstrata.maintain.pairs import WordIndex

    alike = [
        _topic(f"notes/n{n}", "The build runs every single morning at nine.") for n in range(60)
    ]
    odd = _topic("notes/odd", "The build runs every single evening at nine.")
    index = WordIndex([*alike, odd])

    assert {pair.b for pair in index.pairs_of("notes/n0", min_jaccard=0.5)} >= {"notes/n1"}
