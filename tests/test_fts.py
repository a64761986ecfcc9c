import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memstrata import Memory, fts
from memstrata.fts import (
    MAX_TERMS,
    dropped_terms,
    match_expression,
    query_terms,
    searched_terms,
    segment,
)


@pytest.mark.parametrize(
    "query",
    [
        '"',
        '""',
        "'",
        "*",
        "a*",
        "AND",
        "OR",
        "NOT",
        "NEAR(",
        "NEAR(a b, 2)",
        "(",
        ")",
        "((a)",
        "a AND",
        "OR b",
        "col:term",
        "title:x",
        "^start",
        "-minus",
        "+plus",
        "{a b}",
        "[x]",
        "a\x00b",
        "\\",
        "😀",
        "   ",
        "",
        "%_",
        "'; DROP TABLE topics; --",
        "x" * 10_000,
    ],
)
def test_no_user_query_ever_raises(memory: Memory, query: str):
    memory.write_topic("people/ann", "Ann likes AND and OR and NEAR things.")
    memory.search(query)


def test_operators_in_a_query_are_searched_as_words(memory: Memory):
    memory.write_topic("world/logic", "Boolean NEAR operators explained.")
    assert memory.search("NEAR(", include_raw=False)[0].source == "world/logic"


def test_stop_words_are_dropped_unless_nothing_else_is_left():
    assert query_terms("what is the cortado") == ["cortado"]
    assert query_terms("the of") == ["the", "of"]


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("What is Ann's coffee?", ["ann", "coffee"]),  # the tokenizer indexes "Ann's" as ann + s
        ("Ann’s coffee", ["ann", "coffee"]),  # a typographic apostrophe too
        ("I'm sure we've seen they'll go", ["sure", "seen", "go"]),
        ("I don't know, it won't work", ["know", "work"]),  # negated auxiliaries are stop words
        ("a pint at O'Brien's", ["pint", "o'brien"]),  # a name with an apostrophe stays one phrase
    ],
)
def test_possessives_and_contractions_are_queried_as_the_tokenizer_indexes_them(
    query: str, terms: list[str]
):
    assert query_terms(query) == terms


def test_a_possessive_query_finds_the_plain_name(memory: Memory):
    memory.log("Ann prefers a cortado in the morning")
    memory.log("Deployed the billing canary")
    hits = memory.search("Ann's coffee", include_raw=False)
    assert [hit.text.endswith("Ann prefers a cortado in the morning") for hit in hits] == [True]


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("what happened in 2025-11", ["happened", "2025-11"]),
        ("GPT-4 or v2.11?", ["gpt-4", "v2.11"]),
        ("the feature/login-v2 branch at 10:30", ["feature/login-v2", "branch", "10:30"]),
        # words alone joined are still words: no number in them to match by accident
        ("a follow-up, e.g. Ann's", ["follow", "e", "g", "ann"]),
    ],
)
def test_words_joined_with_a_number_are_one_phrase(query: str, terms: list[str]):
    assert query_terms(query) == terms


def test_a_dated_query_does_not_match_the_number_in_a_version(memory: Memory):
    # "2025-11" searched as the words 2025 OR 11 would find "OpenSearch 2.11" (logged in
    # October here: a search that names a month also lists what lies in it)
    day = memory.workspace.memory_dir / "2025-10-15.md"
    day.write_text("# 2025-10-15\n\n- Migrated the search index to OpenSearch 2.11\n")
    memory.log("Release train 2025-11 closed")

    hits = memory.search("2025-11", include_raw=False)

    assert [hit.text.endswith("Release train 2025-11 closed") for hit in hits] == [True]


def test_chinese_runs_become_bigram_phrases():
    assert match_expression("手冲咖啡") == '"手 冲" OR "冲 咖" OR "咖 啡"'
    assert segment("喜欢tea") == " 喜  欢 tea"


@pytest.mark.parametrize(
    ("text", "indexed", "terms"),
    [
        ("ｆｌａｔ　ｗｈｉｔｅ", "flat white", ["flat", "white"]),  # full-width, ideographic space
        ("ＡＮＮ ①", "ANN 1", ["ann", "1"]),
        ("ﬁle", "file", ["file"]),
        # half-width katakana becomes the katakana that is spaced out and paired
        ("ｺｰﾋｰ", " コ  ー  ヒ  ー ", ["コー", "ーヒ", "ヒー"]),
        ("⼀杯", " 一  杯 ", ["一杯"]),  # a Kangxi radical is the ideograph it stands for
    ],
)
def test_compatibility_forms_are_indexed_and_queried_as_their_plain_forms(
    text: str, indexed: str, terms: list[str]
):
    assert segment(text) == indexed
    assert query_terms(text) == terms


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("咖啡", "people/li-na"),
        ("手冲", "people/li-na"),
        ("上海办公室", "people/li-na"),
        ("支付网关", "people/li-na"),
        ("cortado", "people/ann"),
        ("preferring cortados", "people/ann"),  # stemmed
        ("offsite in Lisbon", "people/ann"),
    ],
)
def test_chinese_and_english_search_find_the_right_topic(memory: Memory, query: str, expected: str):
    memory.write_topic(
        "people/li-na", "# 李娜\n上海办公室的后端工程师，负责支付网关。喜欢手冲咖啡。"
    )
    memory.write_topic("people/ann", "# Ann\nPrefers a cortado. Plans the Lisbon offsite.")
    memory.write_topic("world/noise", "# Noise\nNothing relevant here at all.")
    assert memory.search(query, include_raw=False)[0].source == expected


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("나는 아침마다 커피를 마신다.", "커피"),  # Korean: the particle 를 is part of the word
        ("회의에서 예산을 논의했다.", "예산"),
        ("ประชุมเรื่องงบประมาณประจำปี", "งบประมาณ"),  # Thai: written without spaces
        ("ไปกินข้าวกับทีม", "กินข้าว"),  # a letter keeps its vowel and tone marks
        ("ຂ້ອຍມັກກິນເຂົ້າໜຽວ", "ເຂົ້າໜຽວ"),  # Lao
        ("ខ្ញុំចូលចិត្តកាហ្វេ", "កាហ្វេ"),  # Khmer
        ("ကျွန်တော်ကော်ဖီကြိုက်တယ်", "ကော်ဖီ"),  # Myanmar
    ],
)
def test_a_word_inside_korean_thai_lao_khmer_or_myanmar_text_is_found(
    memory: Memory, text: str, query: str
):
    memory.write_topic("world/found", f"# Found\n{text}")
    memory.write_topic("world/noise", "# Noise\n회의 ประชุม ນ້ຳ ទឹក ရေ")
    assert memory.search(query, include_raw=False)[0].source == "world/found"


def test_thai_vowel_and_tone_marks_stay_with_their_letter():
    assert query_terms("กินข้าว") == ["กิน", "นข้", "ข้า", "าว"]
    assert segment("กิน") == " กิ  น "


def test_a_one_character_chinese_query_matches(memory: Memory):
    memory.write_topic("world/cats", "# 猫\n我的猫叫小白。")
    assert memory.search("猫", include_raw=False)[0].source == "world/cats"


def test_a_mixed_script_query_finds_both_sides(memory: Memory):
    memory.write_topic("people/li-na", "# 李娜\n喜欢手冲咖啡。")
    memory.write_topic("people/ann", "# Ann\nPlans the Lisbon offsite.")
    memory.write_topic("world/noise", "# Noise\nNothing relevant here at all.")
    top = {hit.source for hit in memory.search("Lisbon 咖啡", include_raw=False)}
    assert top == {"people/li-na", "people/ann"}


#: a message of 83 terms whose question comes last (the QA report's user prompt)
LONG_MESSAGE = (
    "Context for you: I have been reviewing our quarterly engineering retrospective document, "
    "which covers incident response drills, on-call rotation fairness, dependency upgrades, flaky "
    "integration suites, documentation debt, hiring pipeline bottlenecks, interview calibration "
    "sessions, onboarding checklists, laptop provisioning delays, security training completion "
    "rates, cloud spending anomalies, database migration rehearsals, observability dashboards, "
    "alert fatigue metrics, customer escalation handling, release train cadence, feature flag "
    "hygiene, accessibility audits, localisation backlog, mobile crash analytics, design system "
    "adoption, vendor contract renewals, budget forecasting spreadsheets, sprint planning "
    "rituals, and stakeholder newsletter formatting. Anyway, quick question: where is the "
    "Lisbon offsite venue?"
)


def test_a_long_message_is_searched_for_the_question_at_its_end(memory: Memory):
    memory.log("Set up the staging database for the billing service")
    memory.log("Ann confirmed the Lisbon venue: LX Factory")
    memory.log("Drafted the quarterly engineering newsletter")

    hits = memory.search(LONG_MESSAGE, include_raw=False)

    assert len(query_terms(LONG_MESSAGE)) > MAX_TERMS
    assert "10:00 Ann confirmed the Lisbon venue: LX Factory" in [hit.text for hit in hits]
    assert {"lisbon", "offsite", "venue"} <= set(searched_terms(LONG_MESSAGE))
    assert "quarterly" in searched_terms(LONG_MESSAGE)  # what it is about, at the start


def test_past_the_cap_the_middle_of_a_query_is_dropped_first():
    words = [f"word{number}" for number in range(MAX_TERMS + 10)]

    kept, dropped = searched_terms(" ".join(words)), dropped_terms(" ".join(words))

    assert len(kept) == MAX_TERMS
    assert kept[:3] == words[:3] and kept[-3:] == words[-3:]  # the ends: subject and question
    middle = len(words) // 2
    assert dropped == words[middle - 5 : middle + 5]
    assert match_expression(" ".join(words)) == " OR ".join(f'"{word}"' for word in kept)


def test_past_the_cap_chinese_pairs_holding_a_particle_are_dropped_first():
    # 60 distinct characters in pairs joined by 的: 30 pairs are words, 58 straddle a 的
    characters = [chr(code) for code in range(0x4F00, 0x4F3C)]
    text = "的".join(characters[i] + characters[i + 1] for i in range(0, 60, 2))
    pairs = {characters[i] + characters[i + 1] for i in range(0, 60, 2)}

    kept, dropped = searched_terms(text), dropped_terms(text)

    assert len(query_terms(text)) > MAX_TERMS
    assert pairs <= set(kept)
    assert dropped and all("的" in term for term in dropped)


def test_a_query_past_the_cap_says_how_many_terms_it_left_out(memory: Memory):
    words = [f"q{a}{b}" for a in "abcdefghijklmnopqrstuvwxyz" for b in "abcdefghijk"]
    query = " ".join(words[: MAX_TERMS + 10])
    memory.log(f"{words[0]} starts it")

    recalled = memory.recall(query)
    noted = [note for note in recalled.notes if "not searched" in note]

    shown = ", ".join(dropped_terms(query)[:3])
    assert noted == [
        f"query has over {MAX_TERMS} terms: 10 of the least informative not searched ({shown} …)"
    ]
    assert noted[0] in memory.search_notes(query)
    assert recalled.items[0].content == f"10:00 {words[0]} starts it"


def test_past_the_cap_the_words_of_a_question_are_kept_wherever_it_is(memory: Memory):
    memory.log("Ann booked the LX Factory for the offsite")
    filler = " ".join(f"We reviewed item{number} of the backlog today." for number in range(40))
    message = f"{filler} Where did Ann book the offsite? {filler.replace('item', 'entry')}"

    kept = searched_terms(message)

    assert len(query_terms(message)) > MAX_TERMS
    assert {"ann", "book", "offsite"} <= set(kept)
    assert memory.recall(message).items[0].content.endswith("LX Factory for the offsite")


def test_a_question_is_a_sentence_ending_in_a_question_mark_in_either_script():
    before = "".join(chr(code) for code in range(0x4F00, 0x4F30)) + "。"
    after = "".join(chr(code) for code in range(0x4F40, 0x4F70))
    shipped = [" ".join(f"v{n}.0 shipped." for n in range(start, start + 40)) for start in (0, 100)]

    assert {"会议", "哪里"} <= set(searched_terms(f"{before}会议在哪里？{after}"))
    assert "v2.11" in searched_terms(f"{shipped[0]} Is v2.11 out? {shipped[1]}")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.printable, max_size=60))
def test_ascii_text_is_split_as_the_full_patterns_split_it(ascii_text: str):
    # the prompt path compiles only the ASCII forms (fts module comments); they must agree
    assert fts._COMPOUND_ASCII.findall(ascii_text) == fts._COMPOUND.findall(ascii_text)
    for token in fts._COMPOUND_ASCII.findall(ascii_text):
        assert fts._TOKEN_ASCII.findall(token) == fts._TOKEN.findall(token)
