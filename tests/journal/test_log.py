import re
from datetime import UTC, datetime

import pytest

from memstrata import Memory
from memstrata.errors import InputError, ParseError
from memstrata.journal.log import append_log


def test_log_creates_todays_file_with_a_timestamped_line(memory: Memory):
    written = memory.log("Deployed the canary")
    path = memory.workspace.memory_dir / "2025-11-27.md"
    assert written.path == path
    assert path.read_text() == "# 2025-11-27\n\n- 10:00 Deployed the canary\n"
    assert written.line == 3


def test_log_appends_below_earlier_lines(memory: Memory):
    memory.log("first")
    memory.log("second")
    text = (memory.workspace.memory_dir / "2025-11-27.md").read_text()
    assert text == "# 2025-11-27\n\n- 10:00 first\n- 10:00 second\n"


def test_a_journal_saved_with_crlf_line_ends_keeps_them(memory: Memory):
    path = memory.workspace.memory_dir / "2025-11-27.md"
    path.write_bytes(b"# 2025-11-27\r\n\r\n- 09:00 from an editor\r\n\r\n## Retain\r\n- W: x\r\n")

    memory.log("first")
    memory.log("a fact", kind="world")

    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")  # no bare LF among them
    assert b"- 10:00 first\r\n" in data and b"- W a fact\r\n" in data


def test_a_typed_log_goes_into_the_retain_section(memory: Memory):
    memory.log("first")
    memory.log("@Ann prefers cortado", kind="opinion", confidence=0.8)
    memory.log("second")
    text = (memory.workspace.memory_dir / "2025-11-27.md").read_text()
    assert text == (
        "# 2025-11-27\n\n- 10:00 first\n- 10:00 second\n\n"
        "## Retain\n- O(c=0.8) @Ann prefers cortado\n"
    )
    [fact] = memory.read_journal("2025-11-27").facts
    assert (fact.kind, fact.confidence, fact.entities) == ("opinion", 0.8, ("Ann",))


def test_logged_text_is_searchable_at_once(memory: Memory):
    memory.log("The billing canary is healthy")
    [hit] = memory.search("canary", include_raw=False)
    assert hit.source == "memory/2025-11-27.md#L3"


@pytest.mark.parametrize("kind", [None, "world"])
def test_a_confidence_is_refused_unless_the_fact_is_an_opinion(memory: Memory, kind):
    # only O(c=…) carries one: anything else would write the line and drop the number
    with pytest.raises(InputError, match="belongs to an opinion"):
        memory.log("Ann prefers cortado", kind=kind, confidence=0.5)
    assert not memory.workspace.journal_path("2025-11-27").exists()


def test_empty_log_text_is_refused(memory: Memory):
    with pytest.raises(InputError, match="empty"):
        memory.log("   ")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("painted the \x1b[31mshed\x1b[0m red", "U+001B at character 13"),  # a terminal escape
        ("a\x00b", "U+0000 at character 2"),
        ("tab\tthen a bell\x07", "U+0007 at character 16"),  # the tab before it is white space
    ],
)
def test_log_text_with_a_control_character_is_refused_whole(memory: Memory, text, said):
    with pytest.raises(InputError, match=re.escape(f"control character ({said})")):
        memory.log(text)
    assert not memory.workspace.journal_path("2025-11-27").exists()


def test_tabs_and_line_ends_in_log_text_are_spaces(memory: Memory):
    assert memory.log("shipped\tthe\r\ncanary").text == "- 10:00 shipped the canary"


def test_a_retain_section_in_log_text_is_refused_with_what_to_do(memory: Memory):
    # Folded into one line it was a note reading "## Retain - W @Ann: …", promoting nothing.
    with pytest.raises(InputError, match=r"'## Retain' heading.*--kind world"):
        memory.log("Met Ann.\n\n## Retain\n- W @Ann: Ann moved to Porto")
    assert not memory.workspace.journal_path("2025-11-27").exists()
    assert memory.log("@Ann moved to Porto", kind="world").text == "- W @Ann moved to Porto"


def test_a_journal_that_is_not_utf8_is_never_rewritten(workspace, fixed_now):
    path = workspace / "memory" / "2025-11-27.md"
    path.write_bytes(b"# day\n\n- caf\xe9\n")
    with (
        Memory(workspace, clock=lambda: fixed_now) as memory,
        pytest.raises(ParseError, match=":3"),
    ):
        memory.log("more")
    assert path.read_bytes() == b"# day\n\n- caf\xe9\n"


def test_the_day_comes_from_the_injected_clock(workspace):
    late = datetime(2025, 12, 31, 23, 59, tzinfo=UTC)
    with Memory(workspace, clock=lambda: late) as memory:
        assert memory.log("last entry of the year").path.name == "2025-12-31.md"


def test_secrets_never_reach_the_journal_file_or_the_index(memory: Memory):
    token = "glpat-" + "a1B2c3D4e5F6g7H8i9J0"
    memory.log(f"rotated the deploy token, new one is {token}")
    memory.close()
    for path in memory.workspace.root.rglob("*"):
        if path.is_file():
            assert token.encode() not in path.read_bytes(), path


def test_a_secret_written_by_hand_into_a_journal_is_not_indexed(memory: Memory):
    token = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
    (memory.workspace.memory_dir / "2025-11-20.md").write_text(f"- slack bot token {token}\n")
    hits = memory.search("slack bot token", include_raw=False)
    assert hits and token not in hits[0].text
    memory.close()
    assert token.encode() not in memory.workspace.index_db.read_bytes()


def test_upkeep_notes_go_into_their_own_section_and_notes_stay_above_it(memory: Memory):
    path = memory.workspace.memory_dir / "2025-11-27.md"
    now = datetime(2025, 11, 27, 10, 0, tzinfo=UTC)
    memory.log("first")
    append_log(path, "Memory health: 4 active", now, upkeep=True)
    memory.log("@Ann prefers cortado", kind="opinion", confidence=0.8)
    memory.log("second")

    assert path.read_text() == (
        "# 2025-11-27\n\n- 10:00 first\n- 10:00 second\n\n"
        "## Upkeep\n- 10:00 Memory health: 4 active\n\n"
        "## Retain\n- O(c=0.8) @Ann prefers cortado\n"
    )
    sections = {entry.text: entry.section for entry in memory.read_journal("2025-11-27").entries}
    assert sections["10:00 Memory health: 4 active"] == "Upkeep"
    assert sections["10:00 second"] == "2025-11-27"


@pytest.mark.parametrize(
    ("text", "kind"),
    [("@Ann:", "world"), ("@Ann, @Bob.", "opinion"), (" : ", "observation")],
)
def test_a_fact_that_says_nothing_is_refused_and_nothing_written(memory: Memory, text, kind):
    """`log --kind world "@Ann:"` wrote "- W @Ann:", which every status then reported."""
    with pytest.raises(InputError, match=f"is no {kind} fact: it .*; nothing was written"):
        memory.log(text, kind=kind)
    assert not memory.workspace.journal_path("2025-11-27").exists()


def test_log_refuses_a_fact_for_the_reason_the_journal_would_report_it(memory: Memory):
    path = memory.workspace.journal_path("2025-11-27")
    path.write_text("# 2025-11-27\n\n## Retain\n- W @Ann:\n")
    [problem] = memory.read_journal("2025-11-27").problems

    with pytest.raises(InputError) as refused:
        memory.log("@Ann:", kind="world")

    assert problem.message.removeprefix("retain bullet ") in str(refused.value)


def test_a_note_may_name_someone_and_say_nothing(memory: Memory):
    # only a fact must say something: a note is not promoted
    assert memory.log("@Ann:").text == "- 10:00 @Ann:"


def test_a_line_appended_to_a_day_that_ends_with_retain_lands_in_it_and_log_goes_above(
    memory: Memory,
):
    """What docs/file-format.md tells whoever would `echo "- note" >>` a journal."""
    path = memory.workspace.journal_path("2025-11-27")
    path.write_text("# 2025-11-27\n\n## Retain\n- W @Ann: leads the design team\n")
    with path.open("a") as appended:  # echo "- note" >> memory/2025-11-27.md
        appended.write("- note\n")

    memory.log("logged note")

    journal = memory.read_journal("2025-11-27")
    assert [(problem.line, problem.message[:30]) for problem in journal.problems] == [
        (7, "retain bullet must start with ")
    ]
    sections = {entry.text: entry.section for entry in journal.entries}
    assert sections == {
        "10:00 logged note": "2025-11-27",
        "W @Ann: leads the design team": "Retain",
        "note": "Retain",
    }


def test_a_day_holding_a_byte_that_is_no_utf8_is_left_as_it_is_and_says_what_to_do(
    memory: Memory,
):
    path = memory.workspace.memory_dir / "2025-11-27.md"
    path.write_bytes(b"# 2025-11-27\n\n- caf\xe9\n")

    with pytest.raises(ParseError) as caught:
        memory.log("hello")

    assert str(caught.value) == (
        f"{path}:3: invalid UTF-8 at byte 19; nothing was written: save the file as UTF-8"
    )
    assert path.read_bytes() == b"# 2025-11-27\n\n- caf\xe9\n"


FENCED_RETAIN = "# 2025-11-27\n\n- 09:00 note\n\n```\n## Retain\n- W @X: in code\n```\n"


def test_a_heading_in_fenced_code_is_no_section_to_log_into(words_memory: Memory):
    day = words_memory.workspace.root / "memory" / "2025-11-27.md"
    day.write_text(FENCED_RETAIN, encoding="utf-8")

    fact = words_memory.log("@Bob: owns the release", kind="world")
    note = words_memory.log("plain note")

    text = day.read_text(encoding="utf-8")
    assert text.startswith(FENCED_RETAIN)  # the code block untouched, nothing written into it
    assert text.endswith("\n- 10:00 plain note\n\n## Retain\n- W @Bob: owns the release\n")
    assert (fact.line, note.line) == (11, 10)  # the note went in above the new section
    [parsed] = words_memory.read_journal("2025-11-27").facts
    assert parsed.text == "@Bob: owns the release"


@pytest.mark.parametrize("kind", [None, "world"])
def test_a_line_that_would_land_in_an_unclosed_fence_is_refused(words_memory: Memory, kind):
    day = words_memory.workspace.root / "memory" / "2025-11-27.md"
    before = "# 2025-11-27\n\n- 09:00 note\n\n```\nunclosed code\n"
    day.write_text(before, encoding="utf-8")

    with pytest.raises(ParseError, match=r"2025-11-27\.md:5: a code fence opened here is never"):
        words_memory.log("@Bob: owns the release", kind=kind)
    assert day.read_text(encoding="utf-8") == before


def test_a_day_that_is_a_folder_is_named(words_memory: Memory):
    (words_memory.workspace.root / "memory" / "2025-11-27.md").mkdir()

    with pytest.raises(InputError, match=r"2025-11-27\.md: the day's journal is a folder"):
        words_memory.log("anything")
