"""A confidence belongs to an opinion: ``log``, ``remember`` and a journal's Retain bullet all
refuse one given with any other kind (or none), with one message, and nothing is written."""

from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import InputError
from memstrata.gate.verdicts import verdict_name
from memstrata.model import Problem
from tests.maintain.messy import file_states

REFUSED = "a confidence belongs to an opinion: give it with kind opinion, or leave it out"
NOT_OPINIONS = [None, "world", "experience", "observation"]


@pytest.mark.parametrize("kind", NOT_OPINIONS)
@pytest.mark.parametrize("dry_run", [False, True])
def test_remember_refuses_a_confidence_unless_the_kind_is_opinion(
    words_memory: Memory, workspace: Path, kind: str | None, dry_run: bool
):
    before = file_states(workspace)

    with pytest.raises(InputError) as refused:
        words_memory.remember("Eve is tall", kind=kind, confidence=0.3, dry_run=dry_run)  # type: ignore[arg-type]

    assert str(refused.value) == REFUSED
    assert file_states(workspace) == before
    assert words_memory.list_topics() == []


@pytest.mark.parametrize("kind", NOT_OPINIONS)
def test_log_refuses_it_with_the_same_message(words_memory: Memory, kind: str | None):
    with pytest.raises(InputError) as refused:
        words_memory.log("Eve is tall", kind, 0.3)  # type: ignore[arg-type]

    assert str(refused.value) == REFUSED


def test_an_opinion_keeps_its_confidence(words_memory: Memory):
    verdict = words_memory.remember("Eve is probably tall", kind="opinion", confidence=0.3)

    assert verdict_name(verdict) == "admitted"
    assert words_memory.get_topic(verdict.topic_id).meta.confidence == 0.3  # type: ignore[union-attr]


def test_promote_leaves_a_world_fact_with_a_confidence_alone_and_says_why(
    words_memory: Memory, workspace: Path
):
    (workspace / "memory" / "2025-11-27.md").write_text(
        "# 2025-11-27\n\n## Retain\n- W(c=0.3) Eve is tall\n- W Ann drinks tea\n"
    )
    problems: list[Problem] = []

    promoted = words_memory.promote(on_problem=problems.append)

    assert [fact.text for fact, _ in promoted] == ["Ann drinks tea"]
    assert [str(problem) for problem in problems] == [
        "memory/2025-11-27.md:4: a confidence belongs to an opinion: write O(c=0.3), or W "
        "without (c=0.3)"
    ]
