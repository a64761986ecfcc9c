"""More arguments of the wrong type or value, each refused with the library's own error naming
it, and nothing written: never a ``TypeError`` or ``AttributeError`` from inside, never a
silent wrong answer (an empty day meaning every day, a name read as its letters)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from memstrata import Memory, MemstrataError
from tests.test_api_arguments import canonical_states

CALLS: dict[str, tuple[Callable[[Memory], object], str]] = {
    "topic_version(version=5)": (
        lambda m: m.topic_version("people/ann", 5),
        "a version is text (a hash from topic_history), not int",
    ),
    "restore_topic(version=5)": (
        lambda m: m.restore_topic("people/ann", version=5),
        "a version is text",
    ),
    "write_topic(actor=None)": (
        lambda m: m.write_topic("people/ann", "Ann leads design.", actor=None),
        "actor is text, not None",
    ),
    "archive_topic(reason=None)": (
        lambda m: m.archive_topic("people/ann", reason=None),
        "reason is text, not None",
    ),
    "take_snapshot(None)": (lambda m: m.take_snapshot(None), "reason is text, not None"),
    "access_of(None)": (lambda m: m.access_of(None), "a source is text"),
    "record_use(5)": (lambda m: m.record_use(5), "sources is text or a list of texts, not int"),
    "record_use([5])": (lambda m: m.record_use([5]), "sources holds 5, which is not text"),
    "topic_held('people/ann')": (
        lambda m: m.topic_held("people/ann"),
        "topic_held takes a Topic (get_topic's), not str",
    ),
    "held_topics_of('p-1')": (
        lambda m: m.held_topics_of("p-1"),
        "held_topics_of takes a Proposal (proposal()'s), not str",
    ),
    "index_view(-1)": (
        lambda m: m.index_view(-1),
        "budget_bytes must be a whole number of at least 1, not -1",
    ),
    "rank_raw(limit=1.5)": (
        lambda m: m.rank_raw("Ann", 1.5),
        "limit must be a whole number of at least 1, not 1.5",
    ),
    "search_sessions(5)": (lambda m: m.search_sessions(5), "a query is text, not int"),
    "garden(max_mutations='5')": (
        lambda m: m.garden(max_mutations="5", dry_run=True),
        "max_mutations must be a whole number of at least 0, not '5'",
    ),
    "garden(skip=None)": (
        lambda m: m.garden(skip=None, dry_run=True),
        "skip is text or a list of texts, not NoneType",
    ),
    "promote('')": (lambda m: m.promote(""), "'' is not a day"),
    "promote(0)": (lambda m: m.promote(0), "0 is not a day"),
    "undo(None)": (lambda m: m.undo(None), "a step id is text"),
    "restore_snapshot(a very long id)": (
        lambda m: m.restore_snapshot("snap-" + "x" * 400),
        "no snapshot 'snap-xxx",
    ),
    "resolve_proposal(accept='no')": (
        lambda m: m.resolve_proposal("p-0123456789", "no"),
        "accept is True or False, not 'no'",
    ),
    "resolve_proposal(keep='c')": (
        lambda m: m.resolve_proposal("p-0123456789", True, "c"),
        "keep must be a, b or both (or None), not 'c'",
    ),
    "ingest(None)": (
        lambda m: m.ingest(None),
        "paths to import are a path (text or a Path) or a list of them, not NoneType",
    ),
    "ingest('')": (lambda m: m.ingest(""), "a path to import is empty"),
    "ingest(NUL)": (lambda m: m.ingest("a\x00b"), "'a\\x00b': a path to import holds a NUL"),
    "ingest(a name too long)": (lambda m: m.ingest("x" * 5000), "xxxx"),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_a_wrong_argument_is_the_librarys_own_error_naming_it_and_nothing_changes(
    workspace: Path, name: str
):
    call, said = CALLS[name]
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", "Ann leads design.")
        memory.log("- W @Ann leads design")
        before = canonical_states(workspace)
        with pytest.raises(MemstrataError) as refused:
            call(memory)
    assert str(refused.value).startswith(said)
    assert canonical_states(workspace) == before


def test_one_source_given_as_text_is_one_source_not_its_letters(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", "Ann leads design.")
        memory.record_use("people/ann")
        assert memory.access_of("people/ann").count == 1
        assert memory.access_of("p").count == 0


def test_one_phase_to_skip_given_as_text_is_that_phase(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        report = memory.garden(skip="dedup", dry_run=True)
    assert any("dedup" in line for line in report.skipped)
