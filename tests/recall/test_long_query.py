"""A long query (a whole message from an agent or the prompt hook) is searched for its
questions, wherever they are, and for its start and end."""

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from memstrata import Memory
from memstrata.demo import build_demo_workspace
from memstrata.recall.inputs import MAX_QUERY_CHARS
from memstrata.recall.long_query import GAP, cut_query, semantic_text

LOG_LINES = " ".join(
    f"worker{number} finished batch{number} without errors." for number in range(60)
)


def test_a_short_query_is_kept_whole():
    query = "Where did Ann book the offsite? " * 10

    assert cut_query(query).text == query
    assert semantic_text(query) == query


def test_a_long_query_keeps_its_question_wherever_it_is_and_both_ends():
    question = "Why did the billing job fail?"
    message = f"Deploy notes for the billing job. {LOG_LINES} {question} {LOG_LINES} Thanks, Bo"

    cut = cut_query(message).text

    assert len(message) > MAX_QUERY_CHARS >= len(cut)
    assert cut.startswith("Deploy notes for the billing job.")
    assert question in cut
    assert cut.endswith("Thanks, Bo")
    assert all(part == part.strip() and part for part in cut.split(GAP))


def test_the_cut_ends_its_parts_at_spaces_not_inside_words():
    cut = cut_query(LOG_LINES * 2).text
    words = set((LOG_LINES * 2).split())

    assert all(word in words for part in cut.split(GAP) for word in part.split())


def test_the_last_questions_are_kept_first_when_they_do_not_all_fit():
    questions = [
        f"Did worker{number} retry batch{number} after the timeout?" for number in range(80)
    ]
    message = " ".join(questions)

    cut = cut_query(message).text

    assert questions[-1] in cut and questions[0] in cut  # the last asked, and the start
    assert len(cut) <= MAX_QUERY_CHARS


def test_a_long_query_is_embedded_as_its_questions():
    message = f"{LOG_LINES} Why did the billing job fail? {LOG_LINES}"

    assert semantic_text(message) == "Why did the billing job fail?"
    assert semantic_text(LOG_LINES) == LOG_LINES  # no question: the whole message
    assert (
        semantic_text("何时发布？" + "".join(chr(c) for c in range(0x4E00, 0x4E60))) == "何时发布？"
    )


@given(st.text(max_size=6_000))
def test_a_cut_query_never_exceeds_the_limit(text: str):
    cut = cut_query(text).text
    assert len(cut) <= MAX_QUERY_CHARS
    assert cut == text or len(text) > MAX_QUERY_CHARS
    assert not cut.startswith(GAP) and not cut.endswith(GAP)


def test_recall_answers_the_question_at_the_end_of_a_long_message(tmp_path: Path):
    with build_demo_workspace(tmp_path / "demo") as memory:
        message = f"{LOG_LINES} {LOG_LINES.replace('worker', 'node')} What does Ann drink?"
        assert len(message) > MAX_QUERY_CHARS

        result = memory.recall(message)

        assert result.items[0].content == "@Ann: drinks flat white with oat milk"
        assert result.notes[0].startswith(f"query of {len(message)} characters cut to ")
        assert result.notes[0].endswith(": its questions, start and end searched")
        assert result.query == memory.searched_query(message)


def test_recall_of_a_long_message_with_its_question_in_the_middle(memory: Memory):
    memory.log("@Ann booked the LX Factory for the offsite")
    message = f"{LOG_LINES} Where did Ann book the offsite? {LOG_LINES.replace('worker', 'node')}"

    assert memory.recall(message).items[0].content.endswith("LX Factory for the offsite")


def test_search_takes_a_long_message_as_recall_does(tmp_path: Path):
    with build_demo_workspace(tmp_path / "demo") as memory:
        message = f"{LOG_LINES} {LOG_LINES.replace('worker', 'node')} What does Ann drink?"

        hits = memory.search(message, include_raw=False)

        assert hits[0].text == "@Ann: drinks flat white with oat milk"
        assert memory.search_notes(message)[0].startswith(f"query of {len(message)} characters")


def test_the_context_of_a_long_prompt_without_words_says_it_was_cut_and_why_nothing_came(
    tmp_path: Path,
):
    with build_demo_workspace(tmp_path / "demo") as memory:
        prompt = "😀 👍 " * 1000

        notes = memory.context(prompt).notes

        assert notes[0].startswith(f"query of {len(prompt)} characters cut to ")
        assert notes[1] == "nothing to recall: the query has no words"


def test_a_question_mark_inside_a_url_or_code_asks_nothing():
    noise = " ".join(
        f"GET https://example.com/invoices?page={n} then SELECT * FROM t WHERE id = ? and"
        f" x = a > b ? a : b;"
        for n in range(40)
    )
    message = f"{noise} Where did Ann book the offsite? {noise.replace('page', 'p')}"

    cut = cut_query(message)

    assert cut.questions == 1 and "Where did Ann book the offsite?" in cut.text
    # no sentence ends in the log before it: the question is its sentence's last 400 characters
    meaning = semantic_text(cut.text)
    assert meaning.endswith("b; Where did Ann book the offsite?") and len(meaning) <= 400


def test_the_end_of_a_question_longer_than_half_the_cut_is_kept():
    emoji = "🙂" * 3_000
    long_question = f"{LOG_LINES} {LOG_LINES} so what does Ann drink?"

    assert "What does Ann drink?" in cut_query(f"{emoji} What does Ann drink? {emoji}").text
    assert cut_query(f"{long_question} {LOG_LINES}").text.count("what does Ann drink?") == 1


def test_an_arabic_question_is_a_question():
    question = "ماذا تشرب آن؟"
    message = f"{LOG_LINES} {question} {LOG_LINES.replace('worker', 'node')}"

    assert question in cut_query(message).text
    assert semantic_text(message) == question


def test_the_note_says_what_a_cut_kept_and_never_claims_a_question():
    no_question = LOG_LINES * 2

    assert cut_query(no_question).note(no_question).endswith(": its start and end searched")
    assert cut_query(" " * 5_000).text == ""
    assert cut_query("short").note("short") == ""


def test_words_broken_by_lines_and_tabs_are_not_cut():
    text = "\n".join(f"line{n}\tvalue{n}" for n in range(600))
    words = set(text.split())

    assert all(word in words for part in cut_query(text).text.split(GAP) for word in part.split())


def test_a_question_whose_next_sentence_lost_its_space_is_still_a_question():
    message = f"{LOG_LINES} What does Ann drink?The log goes on. {LOG_LINES.replace('w', 'v')}"

    assert semantic_text(message) == "What does Ann drink?"
