"""The library refuses an argument of the wrong type with its own error, naming it, as the CLI
and MCP do: never a ``TypeError`` from deep inside, never a silent wrong answer."""

from collections.abc import Callable
from pathlib import Path

import pytest

from memstrata import Memory, MemstrataError
from tests.maintain.messy import file_states


def canonical_states(root: Path) -> dict[str, tuple[bytes, int]]:
    """The canonical files (the derived index under .memstrata/ may be brought up to date)."""
    return {
        name: state
        for name, state in file_states(root).items()
        if not name.startswith(".memstrata/")
    }


CALLS: dict[str, tuple[Callable[[Memory], object], str]] = {
    "get_topic(5)": (lambda m: m.get_topic(5), "a topic id is text (namespace/slug), not int"),
    "archive_topic(None)": (
        lambda m: m.archive_topic(None),
        "a topic id is text (namespace/slug), not NoneType",
    ),
    "topic_history(5)": (lambda m: m.topic_history(5), "a topic id is text"),
    "proposal(5)": (lambda m: m.proposal(5), "5 is not a proposal id (like p-0123456789)"),
    "resolve_proposal(None)": (
        lambda m: m.resolve_proposal(None, True),
        "None is not a proposal id",
    ),
    "proposals('pending')": (
        lambda m: m.proposals("pending"),
        "unknown proposal status 'pending'; expected one of open, accepted, rejected",
    ),
    "ingest([5])": (lambda m: m.ingest([5]), "a path to import is text or a Path, not int"),
    "promote(5)": (lambda m: m.promote(5), "5 is not a day: write it YYYY-MM-DD"),
    "restore_snapshot(None)": (
        lambda m: m.restore_snapshot(None),
        "a snapshot id is text (snap-…), not NoneType",
    ),
    # found by a QA pass as a library user: a wrong value, or a silent wrong answer
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
def test_a_wrong_type_is_the_librarys_own_error_naming_it_and_nothing_changes(
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


def test_one_path_to_ingest_is_one_path_not_the_letters_of_its_name(
    workspace: Path, tmp_path: Path
):
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text('{"role": "user", "content": "the deploy moved to Fridays"}\n')

    with Memory(workspace, embeddings=False) as memory:
        by_text = memory.ingest(str(transcript))
        by_path = memory.ingest(transcript)

    assert by_text.files == 1 and by_text.turns_added == 1
    assert by_path.skipped_unchanged == 1  # the same file, already in
