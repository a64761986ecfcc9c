"""The library's write arguments: what is no text, no name, no number or no time is an
InputError naming the argument, and nothing is written; a time is stored in one form."""

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from memstrata import Conflicted, Memory
from memstrata.errors import InputError
from tests.maintain.messy import file_states

NOW = datetime(2025, 11, 27, 10, 0, tzinfo=UTC)


@pytest.fixture
def mem(workspace: Path):
    with Memory(workspace, clock=lambda: NOW, embeddings=False) as memory:
        yield memory


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"text": None}, "text must be a str (or UTF-8 bytes), not NoneType"),
        ({"entities": 5}, "entities is a list of names, not int"),
        ({"entities": ["Ann", 1]}, "an entity is a name (text), not int 1"),
        ({"confidence": "high"}, "confidence is a number from 0 to 1, not 'high'"),
        ({"confidence": 1.5}, "confidence is a number from 0 to 1, not 1.5"),
        ({"confidence": float("nan")}, "confidence is a number from 0 to 1, not nan"),
        ({"confidence": True}, "confidence is a number from 0 to 1, not True"),
        ({"observed": "yesterday"}, "observed is an ISO 8601 time such as 2025-11-27T10:00:00Z"),
        ({"observed": 1764237600}, "observed is an ISO 8601 time"),
        ({"topic": 5}, "topic is a topic id (text) or None, not int"),
        ({"supersedes": ["people/ann"]}, "supersedes is a topic id (text) or None, not list"),
        ({"source": None}, "source is text, not NoneType"),
        ({"actor": None}, "actor is text, not NoneType"),
        ({"kind": "fact"}, "unknown kind 'fact'"),
    ],
)
def test_an_argument_that_is_not_what_it_must_be_is_named_and_nothing_is_written(
    mem: Memory, workspace: Path, arguments: dict[str, object], said: str
):
    before = file_states(workspace)
    call = {"text": "Ann prefers cortado", **arguments}

    with pytest.raises(InputError) as refused:
        mem.remember(call.pop("text"), **call)  # type: ignore[arg-type]

    assert str(refused.value).startswith(said)
    assert file_states(workspace) == before


def test_one_string_as_entities_is_one_name_not_its_letters(mem: Memory):
    verdict = mem.remember("Ann prefers cortado", entities="Ann")  # type: ignore[arg-type]
    assert mem.get_topic(verdict.topic_id).meta.entities == ("Ann",)


@pytest.mark.parametrize(
    ("observed", "stored"),
    [
        ("2025-11-20", "2025-11-20T00:00:00Z"),
        ("2025-11-20T12:00:00+02:00", "2025-11-20T10:00:00Z"),
        (datetime(2025, 11, 20, 10, 0), "2025-11-20T10:00:00Z"),  # naive: UTC
        (
            datetime(2025, 11, 20, 12, 0, tzinfo=timezone(timedelta(hours=2))),
            "2025-11-20T10:00:00Z",
        ),
    ],
)
def test_when_it_was_stated_is_stored_as_iso_utc_whatever_form_it_came_in(
    mem: Memory, observed: object, stored: str
):
    verdict = mem.remember("Ann prefers cortado", observed=observed)  # type: ignore[arg-type]
    assert mem.get_topic(verdict.topic_id).meta.observed == stored


def test_an_earlier_time_in_another_form_does_not_pass_for_the_newer_statement(mem: Memory):
    """The gate compares stated times as text: kept as given, "12:00+02:00" (10:00 UTC) would
    sort after "11:00Z" and supersede the statement made after it."""
    mem.remember("Ann lives in Rome", observed="2025-11-20T11:00:00Z")
    older = mem.remember("Ann lives in Paris", observed="2025-11-20T12:00:00+02:00")

    assert isinstance(older, Conflicted) and "it is not newer than what is stored" in older.reason
    assert {topic.meta.state for topic in mem.list_topics()} == {"conflict"}


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda m: m.log(None), "log text is text, not None; nothing was written"),
        (lambda m: m.log("tea", kind="opinion", confidence="a"), "confidence is a number"),
        (lambda m: m.write_topic("people/ann", None), "summary is text, not None"),
        (lambda m: m.write_topic("people/ann", "Ann", detail=5), "detail is text, not int"),
        (lambda m: m.archive_topic("people/ann", reason=3), "reason is text, not int"),
    ],
    ids=["log None", "log confidence", "topic None", "topic detail", "archive reason"],
)
def test_a_journal_or_topic_write_of_no_text_is_named_and_nothing_is_written(
    mem: Memory, workspace: Path, call, said: str
):
    mem.write_topic("people/ann", "Ann leads design.")
    before = file_states(workspace)

    with pytest.raises(InputError, match=f"^{said}"):
        call(mem)

    assert file_states(workspace) == before
