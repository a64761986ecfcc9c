import json
import re
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.errors import CapExceeded, InputError, InvalidTopicId, ParseError, TopicNotFound
from memstrata.wiki.text import content_hash


def test_a_new_topic_has_its_four_files(memory: Memory):
    written = memory.write_topic("people/ann", "# Ann\nDesign lead.", "Long story.")
    folder = memory.workspace.topic_dir("people/ann")
    assert written.created
    assert (folder / "summary.md").read_text() == "# Ann\nDesign lead."
    assert (folder / "detail.md").read_text() == "Long story."
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["state"] == "active"
    assert meta["created"] == meta["updated"] == "2025-11-27T10:00:00Z"
    assert {"refs", "access_count", "owner_agent", "links", "lineage"} <= set(meta)
    [line] = (folder / "history.jsonl").read_text().splitlines()
    assert json.loads(line) == {
        "time": "2025-11-27T10:00:00Z",
        "actor": "user",
        "op": "create",
        "before": "",
        "after": content_hash("# Ann\nDesign lead.", "Long story.", "active"),
        "reason": "",
    }


def test_get_reads_the_topic_back_with_its_title(memory: Memory):
    memory.write_topic("people/ann", "# Ann Weber\nDesign lead.")
    topic = memory.get_topic("People/Ann")
    assert topic.id == "people/ann"
    assert topic.title == "Ann Weber"
    assert topic.detail == ""


def test_an_update_appends_history_with_before_and_after(memory: Memory):
    first = memory.write_topic("people/ann", "Design lead.")
    second = memory.write_topic("people/ann", "Design director.", reason="promoted")
    history = memory.topic_history("people/ann")
    assert [entry.op for entry in history] == ["create", "update"]
    assert history[1].before == first.entry.after
    assert history[1].after == second.entry.after
    assert history[1].reason == "promoted"


def test_an_update_without_detail_keeps_the_detail(memory: Memory):
    memory.write_topic("people/ann", "Design lead.", "Joined in 2019.")
    memory.write_topic("people/ann", "Design director.")
    assert memory.get_topic("people/ann").detail == "Joined in 2019."


def test_archive_keeps_the_files_and_records_it(memory: Memory):
    memory.write_topic("projects/old", "Old site.")
    memory.archive_topic("projects/old", reason="shipped")
    topic = memory.get_topic("projects/old")
    assert topic.meta.state == "archived"
    assert topic.summary == "Old site."
    assert memory.topic_history("projects/old")[-1].op == "archive"


def test_list_returns_topics_sorted_by_id(memory: Memory):
    for topic_id in ("world/b", "people/z", "people/a"):
        memory.write_topic(topic_id, f"About {topic_id}.")
    assert [topic.id for topic in memory.list_topics()] == ["people/a", "people/z", "world/b"]


def test_an_over_cap_summary_says_where_the_rest_belongs(memory: Memory):
    with pytest.raises(CapExceeded, match="detail page"):
        memory.write_topic("people/ann", "x" * 1001)
    assert not memory.workspace.topic_dir("people/ann").exists()


def test_an_editors_final_newline_does_not_count_toward_the_cap(memory: Memory):
    memory.write_topic("notes/big", "x" * 1000 + "\n", "y" * 8000 + "\n")
    assert memory.get_topic("notes/big").summary == "x" * 1000 + "\n"
    with pytest.raises(CapExceeded, match="summary is 1001 chars"):
        memory.write_topic("notes/big", "x" * 1001 + "\n")


def test_an_over_cap_detail_is_refused_and_nothing_changes(memory: Memory):
    memory.write_topic("people/ann", "Design lead.", "short")
    with pytest.raises(CapExceeded, match="8000-char cap"):
        memory.write_topic("people/ann", "Design lead.", "y" * 8001)
    assert memory.get_topic("people/ann").detail == "short"
    assert len(memory.topic_history("people/ann")) == 1


def test_an_empty_summary_is_refused(memory: Memory):
    with pytest.raises(InputError, match="empty"):
        memory.write_topic("people/ann", "   \n")


def test_text_no_utf8_can_hold_is_refused_by_name_and_nothing_changes(memory: Memory):
    memory.write_topic("people/ann", "Design lead.")
    for summary, detail, reason, named in [
        ("Design lead, caf\udce9.", None, "", "summary"),  # undecodable argv, a JSON escape
        ("Design lead.", "caf\udce9", "", "detail"),
        ("Design lead!", None, "caf\udce9", "reason"),
    ]:
        with pytest.raises(InputError, match=f"^{named}: invalid UTF-8 at character"):
            memory.write_topic("people/ann", summary, detail, reason=reason)
    with pytest.raises(InputError, match=r"^reason: invalid UTF-8"):
        memory.archive_topic("people/ann", reason="caf\udce9")

    assert memory.get_topic("people/ann").summary == "Design lead."
    assert memory.get_topic("people/ann").meta.state == "active"
    assert len(memory.topic_history("people/ann")) == 1


def test_a_control_character_is_refused_where_it_stands_and_nothing_changes(memory: Memory):
    # An escape sequence in a summary reached the model, and a terminal, as written.
    memory.write_topic("people/ann", "Design lead.")
    for summary, detail, reason, refused in [
        (
            "# Ann\n\nLikes \x1b[31mred\x1b[0m.",
            None,
            "",
            "summary: control character U+001B at line 3, column 7",
        ),
        ("Design lead.", "ok\n\x07", "", "detail: control character U+0007 at line 2, column 1"),
        ("Design lead!", None, "two\nlines", "reason: a line break at character 4"),
    ]:
        with pytest.raises(InputError, match=f"^{re.escape(refused)};"):
            memory.write_topic("people/ann", summary, detail, reason=reason)
    with pytest.raises(InputError, match=r"^reason: control character U\+0000"):
        memory.archive_topic("people/ann", reason="nul\x00")

    assert memory.get_topic("people/ann").summary == "Design lead."
    assert memory.get_topic("people/ann").meta.state == "active"
    assert len(memory.topic_history("people/ann")) == 1
    # tabs and line ends are plain text
    memory.write_topic("people/ann", "# Ann\r\n\r\nDesign lead.\tBerlin.", reason="moved")
    assert len(memory.topic_history("people/ann")) == 2


def test_a_path_traversal_id_never_touches_the_disk(memory: Memory, tmp_path: Path):
    def files() -> list[Path]:
        return sorted(p for p in tmp_path.rglob("*") if ".memstrata" not in p.parts)

    before = files()
    for bad in ("../../escape", "/etc/passwd", "．．／．．／escape"):
        with pytest.raises(InvalidTopicId):
            memory.write_topic(bad, "pwned")
    assert files() == before


def test_a_missing_topic_is_a_clear_error(memory: Memory):
    with pytest.raises(TopicNotFound, match="people/nobody"):
        memory.get_topic("people/nobody")


def test_a_hand_edit_is_picked_up_into_history_as_the_user(memory: Memory):
    memory.write_topic("people/ann", "Design lead.")
    (memory.workspace.topic_dir("people/ann") / "summary.md").write_text("Design director.")
    memory.sync()
    history = memory.topic_history("people/ann")
    assert history[-1].actor == "user"
    assert history[-1].op == "edit"
    assert history[-1].after == content_hash("Design director.", "", "active")
    assert memory.search("director", include_raw=False)[0].source == "people/ann"


def test_a_broken_meta_json_is_reported_with_its_file_and_never_rewritten(memory: Memory):
    memory.write_topic("people/ann", "Design lead.")
    meta = memory.workspace.topic_dir("people/ann") / "meta.json"
    meta.write_text('{"state": "active",\n  oops}')
    with pytest.raises(ParseError, match=r"meta.json:2"):
        memory.write_topic("people/ann", "Design director.")
    assert meta.read_text() == '{"state": "active",\n  oops}'
    report = memory.sync()
    assert any("meta.json" in problem.path for problem in report.problems)


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("observed", "yesterday", "observed 'yesterday' is no time: write it like 2025-11-27"),
        ("created", 1764237600, "created 1764237600 is no time"),
        ("confidence", 7, "confidence 7 is not a number from 0 to 1"),
        ("confidence", "high", "confidence 'high' is not a number from 0 to 1"),
    ],
)
def test_a_hand_edited_time_or_confidence_that_is_none_is_a_problem_named_by_its_file(
    memory: Memory, field: str, value: object, said: str
):
    memory.write_topic("people/ann", "Design lead.")
    meta_path = memory.workspace.topic_dir("people/ann") / "meta.json"
    meta_path.write_text(json.dumps({**json.loads(meta_path.read_text()), field: value}))

    [problem] = memory.sync().problems

    assert problem.path.endswith("people/ann/meta.json")
    assert problem.message.startswith(f"bad field value: {said}")


@pytest.mark.parametrize(
    ("typed", "read"),
    [("2025-11-27", "2025-11-27T00:00:00Z"), ("2025-11-27T12:00:00+02:00", "2025-11-27T10:00:00Z")],
)
def test_a_hand_typed_time_in_another_iso_form_is_read_as_utc(
    memory: Memory, typed: str, read: str
):
    """The gate and the gardener compare stated times as text, so every one is read in the
    form memstrata writes."""
    memory.write_topic("people/ann", "Design lead.")
    meta_path = memory.workspace.topic_dir("people/ann") / "meta.json"
    meta_path.write_text(json.dumps({**json.loads(meta_path.read_text()), "observed": typed}))

    assert memory.get_topic("people/ann").meta.observed == read


def test_a_topic_whose_summary_was_moved_away_is_named_until_it_is_back(memory: Memory):
    """It vanished from every list, recall and status without a word."""
    memory.write_topic("people/ann", "Design lead.")
    memory.write_topic("people/bob", "Backend lead.")
    summary = memory.workspace.topic_dir("people/ann") / "summary.md"
    summary.rename(summary.with_name("summary.md.bak"))

    problems = memory.sync().problems
    listed = memory.topics.read_all()

    said = "holds meta.json and history.jsonl but no summary.md, so the topic is not read"
    assert [(p.topic, p.message.split(":")[0]) for p in problems] == [("people/ann", said)]
    assert [topic.id for topic in listed.topics] == ["people/bob"]
    assert [p.topic for p in listed.problems] == ["people/ann"]

    summary.with_name("summary.md.bak").rename(summary)
    assert memory.sync().problems == []
    assert memory.get_topic("people/ann").summary == "Design lead."


def test_a_write_to_a_topic_whose_summary_is_missing_is_refused_and_keeps_its_files(
    memory: Memory,
):
    """Written as a new topic it replaced meta.json (created, lineage, use) and began a second
    history, though status said to put the summary back."""
    memory.write_topic("people/ann", "Design lead.")
    folder = memory.workspace.topic_dir("people/ann")
    (folder / "summary.md").unlink()
    kept = {name: (folder / name).read_bytes() for name in ("meta.json", "history.jsonl")}

    with pytest.raises(ParseError, match=r"put its summary\.md back .* or move the folder aside"):
        memory.write_topic("people/ann", "Design director.")
    with pytest.raises(ParseError, match=r"no summary\.md"):
        memory.remember("Ann leads design reviews.", topic="people/ann")

    assert {name: (folder / name).read_bytes() for name in kept} == kept
    assert not (folder / "summary.md").exists()


def test_unknown_keys_in_meta_json_survive_our_rewrites(memory: Memory):
    memory.write_topic("people/ann", "Design lead.")
    meta_path = memory.workspace.topic_dir("people/ann") / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["my_note"] = "keep me"
    meta_path.write_text(json.dumps(meta))
    memory.write_topic("people/ann", "Design director.")
    assert json.loads(meta_path.read_text())["my_note"] == "keep me"


def test_a_pending_intent_left_by_a_killed_writer_is_rolled_forward(memory: Memory):
    memory.write_topic("people/ann", "Design lead.")
    store = memory.topics
    # Simulate a crash right after the intent was written: nothing else happened.
    from dataclasses import asdict

    from memstrata.model import HistoryEntry, TopicMeta
    from memstrata.wiki.store import meta_to_dict
    from memstrata.workspace.atomic import write_json_atomic

    entry = HistoryEntry(
        "2025-11-27T11:00:00Z",
        "user",
        "update",
        content_hash("Design lead.", "", "active"),
        content_hash("Design director.", "", "active"),
    )
    write_json_atomic(
        store._intent_path("people/ann"),
        {
            "topic": "people/ann",
            "summary": "Design director.",
            "detail": "",
            "meta": meta_to_dict(
                TopicMeta(created="2025-11-27T10:00:00Z", updated="2025-11-27T11:00:00Z")
            ),
            "entry": asdict(entry),
        },
    )
    assert store.complete_pending() == ["people/ann"]
    assert memory.get_topic("people/ann").summary == "Design director."
    assert memory.topic_history("people/ann")[-1] == entry
    assert store.complete_pending() == []


def test_index_json_lists_every_topic_after_each_write(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nDesign lead.")
    memory.write_topic("projects/x", "# X\nA project.")
    memory.archive_topic("projects/x")
    index = json.loads(memory.workspace.index_json.read_text())
    assert index["topics"] == [
        {
            "gist": "Design lead.",
            "id": "people/ann",
            "state": "active",
            "title": "Ann",
            "updated": "2025-11-27T10:00:00Z",
        },
        {
            "gist": "A project.",
            "id": "projects/x",
            "state": "archived",
            "title": "X",
            "updated": "2025-11-27T10:00:00Z",
        },
    ]
