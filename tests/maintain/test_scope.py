"""What a garden run tends: what is new since the last run, and a wiki written before the first
run a few hundred topics a run, until every topic has been in a scope."""

import pytest

from memstrata.maintain import survey
from memstrata.model import Topic, TopicMeta


def _topics(count: int) -> list[Topic]:
    return [
        Topic(
            f"notes/t{n}", f"T{n}", "text", "", TopicMeta(updated=f"2025-11-{n + 1:02d}T00:00:00Z")
        )
        for n in range(count)
    ]


def test_runs_after_the_first_take_the_older_topics_until_none_is_left(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(survey, "FIRST_RUN_SCOPE", 2)
    topics = _topics(5)  # t4 is the newest
    since = "2025-12-01T00:00:00Z"  # nothing new since the first run

    first, cursor, waiting = survey.scope_of(topics, "", True)
    second, cursor, _ = survey.scope_of(topics, since, False, backlog=cursor)
    third, cursor, left = survey.scope_of(topics, since, False, backlog=cursor)

    assert (first, waiting) == (("notes/t3", "notes/t4"), 3)
    assert second == ("notes/t1", "notes/t2")
    assert (third, cursor, left) == (("notes/t0",), "", 0)
    assert survey.scope_of(topics, since, False, backlog=cursor)[0] == ()


def test_a_wiki_within_the_first_scope_leaves_no_backlog():
    scope, cursor, waiting = survey.scope_of(_topics(5), "", True)

    assert len(scope) == 5 and (cursor, waiting) == ("", 0)
