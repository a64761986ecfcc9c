"""aider's ``.aider.chat.history.md``: one session per ``# aider chat started at`` header."""

from __future__ import annotations

from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.raw.importers import HEAD_BYTES, ParsedFile, aider

from .support import assert_prefix_stable

EXCERPT_A = "aider/chat-history.excerpt-A.bytes3501597-3505570.md"
EXCERPT_B = "aider/chat-history.excerpt-B.bytes598688-603333.md"
NOT_TRANSCRIPTS = {"PROVENANCE.md", "SHA256SUMS", "manifest.json"}


def data_files(transcripts: Path) -> list[Path]:
    return sorted(
        path
        for path in transcripts.rglob("*")
        if path.is_file() and "LICENSES" not in path.parts and path.name not in NOT_TRANSCRIPTS
    )


def non_empty_headers(text: str) -> int:
    sections = text.split("# aider chat started at")[1:]
    return sum(1 for section in sections if any(line.strip() for line in section.splitlines()[1:]))


def roles_texts(parsed: ParsedFile, session: int) -> list[tuple[str, str]]:
    return [(turn.role, turn.text) for turn in parsed.sessions[session].turns]


def write_history(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", [EXCERPT_A, EXCERPT_B])
def test_every_aider_excerpt_parses_without_problems(transcripts: Path, name: str) -> None:
    parsed = aider.parse(transcripts / name, "aider:default:main")

    assert parsed.problems == ()
    assert all(item.session.harness == "aider" for item in parsed.sessions)


@pytest.mark.parametrize("name", [EXCERPT_A, EXCERPT_B])
def test_one_session_per_header_with_content(transcripts: Path, name: str) -> None:
    path = transcripts / name

    parsed = aider.parse(path, "a")

    assert len(parsed.sessions) == non_empty_headers(path.read_text(encoding="utf-8"))


def test_empty_and_back_to_back_headers_give_no_session(transcripts: Path) -> None:
    parsed = aider.parse(transcripts / EXCERPT_A, "a")

    started = [item.session.started for item in parsed.sessions]
    assert "2024-08-19T14:24:16Z" not in started
    assert "2024-08-19T14:55:36Z" not in started
    assert started[0] == "2024-08-19T21:31:09Z"


def test_header_time_is_stored_as_given_and_stamps_every_turn(transcripts: Path) -> None:
    parsed = aider.parse(transcripts / EXCERPT_A, "a")

    first = parsed.sessions[0]
    assert first.session.started == first.session.ended == "2024-08-19T21:31:09Z"
    assert {turn.time for turn in first.turns} == {"2024-08-19T21:31:09Z"}


def test_user_input_assistant_reply_and_aider_output_become_turns(transcripts: Path) -> None:
    parsed = aider.parse(transcripts / EXCERPT_A, "a")

    turns = roles_texts(parsed, 0)
    assert turns[0][0] == "system"
    assert turns[0][1].startswith("/venv/bin/aider --mini\nAider v0.50.2-dev\n")
    assert turns[1:4] == [
        ("user", "hi"),
        (
            "assistant",
            "Hello! How can I assist you today? If you have any requests or need help with code,"
            " feel free to share!",
        ),
        ("system", "Tokens: 638 sent, 25 received. Cost: $0.00011 message, $0.00011 session."),
    ]
    assert turns[4] == ("user", "/web https://aider.chat")
    assert parsed.sessions[0].session.title == "hi"


def test_a_multi_line_aider_message_keeps_its_unquoted_lines(transcripts: Path) -> None:
    parsed = aider.parse(transcripts / EXCERPT_A, "a")

    turns = roles_texts(parsed, 0)
    assert turns[5][0] == "system"
    assert "\n/venv/bin/python -m playwright install --with-deps chromium\n" in turns[5][1]
    assert turns[5][1].endswith("^C KeyboardInterrupt")
    assert all("playwright install" not in text for role, text in turns if role == "assistant")


def test_consecutive_output_lines_are_one_system_turn(transcripts: Path) -> None:
    parsed = aider.parse(transcripts / EXCERPT_B, "a")

    system = [text for role, text in roles_texts(parsed, 0) if role == "system"]
    assert len(system) == 1
    assert "Applied edit to aider/commands.py" in system[0]
    assert "Commit 8b517ca feat: Add cmd_map command" in system[0]


def test_assistant_replies_keep_their_markdown_and_edit_blocks(transcripts: Path) -> None:
    parsed = aider.parse(transcripts / EXCERPT_B, "a")

    role, reply = roles_texts(parsed, 0)[0]
    assert role == "assistant"
    assert reply.startswith("Certainly! I'll add a `cmd_map` command")
    assert "aider/commands.py\n<source>python\n<<<<<<< SEARCH\n" in reply
    assert "\n=======\n" in reply
    assert ">>>>>>> REPLACE\n</source>" in reply
    assert reply.endswith("during a chat session.")
    assert roles_texts(parsed, 0)[-1] == ("user", "/diff")


def test_multi_line_input_is_one_user_turn(tmp_path: Path) -> None:
    path = write_history(
        tmp_path / ".aider.chat.history.md",
        "# aider chat started at 2025-01-02 03:04:05\n\n"
        "#### refactor the parser  \n#### and keep the tests green  \n\n"
        "Sure.\n\n"
        "#### /ask why?  \n\n"
        "#### /run pytest  \n",
    )

    parsed = aider.parse(path, "a")

    assert roles_texts(parsed, 0) == [
        ("user", "refactor the parser\nand keep the tests green"),
        ("assistant", "Sure."),
        ("user", "/ask why?"),
        ("user", "/run pytest"),
    ]


def test_a_blockquote_in_a_reply_does_not_swallow_the_rest(tmp_path: Path) -> None:
    path = write_history(
        tmp_path / ".aider.chat.history.md",
        "# aider chat started at 2025-01-02 03:04:05\n\n#### quote it  \n\n"
        "The docs say:\n> use the force\n> and the source\n\nThat is all.\n",
    )

    parsed = aider.parse(path, "a")

    assert roles_texts(parsed, 0)[-1] == ("assistant", "That is all.")


def test_session_ids_depend_only_on_file_name_header_and_offset(
    transcripts: Path, tmp_path: Path
) -> None:
    text = "# aider chat started at 2025-01-02 03:04:05\n\n#### hi  \n"
    one = write_history(tmp_path / "history.md", text)
    (tmp_path / "moved").mkdir()
    moved = write_history(tmp_path / "moved" / "history.md", text + "\nHello.\n")
    twice = write_history(tmp_path / "twice.md", text + text)

    ids_one = [item.session.id for item in aider.parse(one, "a").sessions]
    ids_moved = [item.session.id for item in aider.parse(moved, "a").sessions]
    ids_twice = [item.session.id for item in aider.parse(twice, "a").sessions]

    assert ids_one == ids_moved
    assert ids_one[0].startswith("aider:") and len(ids_one[0]) == len("aider:") + 16
    assert len(set(ids_twice)) == 2


def test_text_before_the_first_header_is_a_problem(tmp_path: Path) -> None:
    path = write_history(
        tmp_path / "h.md", "stray line\n# aider chat started at 2025-01-02 03:04:05\n#### hi  \n"
    )

    parsed = aider.parse(path, "a")

    assert [problem.line for problem in parsed.problems] == [1]
    assert roles_texts(parsed, 0) == [("user", "hi")]


def test_a_byte_that_is_no_utf8_is_read_as_ufffd_and_its_turn_kept(tmp_path: Path) -> None:
    path = tmp_path / "h.md"
    path.write_bytes(
        b"# aider chat started at 2025-01-02 03:04:05\n#### caf\xe9  \n\n"
        b"First line.\nSecond \xff line.\nThird line.\n"
    )

    parsed = aider.parse(path, "a")

    assert roles_texts(parsed, 0) == [
        ("user", "caf\ufffd"),
        ("assistant", "First line.\nSecond \ufffd line.\nThird line."),
    ]
    assert [(problem.path, problem.line) for problem in parsed.problems] == [
        (str(path), 2),
        (str(path), 5),
    ]
    assert parsed.problems[0].message == "invalid UTF-8 at byte 8, read as \ufffd; the line is kept"


def test_a_bad_byte_in_the_header_still_opens_the_run(tmp_path: Path) -> None:
    path = tmp_path / "h.md"
    path.write_bytes(b"# aider chat started at 2025-01-02 03:04:05\xa0\n#### hi  \n\nHello.\n")

    parsed = aider.parse(path, "a")

    assert roles_texts(parsed, 0) == [("user", "hi"), ("assistant", "Hello.")]
    assert [problem.line for problem in parsed.problems] == [1]


HISTORY = "# aider chat started at 2025-01-02 03:04:05\n\n#### hi  \n\nHello there.\n\n"


@pytest.mark.parametrize(
    "cut",
    [
        "#",  # may become user input, a header or a Markdown heading: not known yet
        "#### next quest",
        "> Tokens: 638 se",
        "More of the rep",
        "# aider chat sta",
    ],
)
def test_an_unfinished_last_line_waits_for_its_line_end(tmp_path: Path, cut: str) -> None:
    path = write_history(tmp_path / "h.md", HISTORY + cut)

    parsed = aider.parse(path, "a")

    assert roles_texts(parsed, 0) == [("user", "hi"), ("assistant", "Hello there.")]
    assert [(problem.line, problem.message) for problem in parsed.problems] == [
        (7, aider.UNFINISHED)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "# aider chat started at 2025-01-02 03:04:05",
        "# aider chat started at 2025-01-02 03:04:05\n#### hi",
    ],
)
def test_a_history_with_no_finished_turn_yet_imports_nothing_and_says_so(
    tmp_path: Path, text: str
) -> None:
    path = write_history(tmp_path / "h.md", text)

    parsed = aider.parse(path, "a")

    assert parsed.sessions == ()
    assert [problem.message for problem in parsed.problems] == [aider.UNFINISHED]


def test_blanks_after_the_last_line_end_are_no_problem(tmp_path: Path) -> None:
    path = write_history(tmp_path / "h.md", HISTORY + "  ")

    parsed = aider.parse(path, "a")

    assert parsed.problems == ()
    assert roles_texts(parsed, 0) == [("user", "hi"), ("assistant", "Hello there.")]


def test_a_history_imported_while_aider_writes_is_stored_right_once_it_is_whole(
    memory: Memory, tmp_path: Path
) -> None:
    path = write_history(tmp_path / ".aider.chat.history.md", HISTORY + "#")
    mid_write = memory.ingest([path])
    write_history(path, HISTORY + "#### next question  \n")

    whole = memory.ingest([path])

    assert [problem.line for problem in mid_write.problems] == [7]
    assert whole.problems == []
    (session,) = memory.raw.sessions()
    assert [(turn.role, turn.text) for turn in memory.raw.turns(session.id)] == [
        ("user", "hi"),
        ("assistant", "Hello there."),
        ("user", "next question"),
    ]


def test_a_long_reply_is_cut_with_a_marker(tmp_path: Path) -> None:
    path = write_history(
        tmp_path / "h.md", "# aider chat started at 2025-01-02 03:04:05\n" + "y" * 20_010 + "\n"
    )

    assert aider.parse(path, "a").sessions[0].turns[0].text.endswith("… [truncated 10 chars]")


def test_sniff_claims_aider_histories_and_nothing_else(transcripts: Path, tmp_path: Path) -> None:
    readme = write_history(tmp_path / "README.md", "# My project\n\nSome text.\n")
    claimed = {
        path.relative_to(transcripts).as_posix()
        for path in data_files(transcripts)
        if aider.sniff(path, path.read_bytes()[:HEAD_BYTES])
    }

    assert claimed == {EXCERPT_A, EXCERPT_B}
    assert not aider.sniff(readme, readme.read_bytes())


@pytest.mark.parametrize("name", [EXCERPT_A, EXCERPT_B])
def test_parsing_a_growing_history_is_prefix_stable(
    transcripts: Path, tmp_path: Path, name: str
) -> None:
    assert_prefix_stable(transcripts / name, aider.parse, tmp_path)
