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
}


@pytest.mark.parametrize("name", list(CALLS))
def test_a_wrong_type_is_the_librarys_own_error_naming_it_and_nothing_changes(
    workspace: Path, name: str
):
    call, said = CALLS[name]
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", "Ann leads design.")
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
