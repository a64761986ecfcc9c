import pytest

from memstrata.journal.parse import (
    check_fact_text,
    day_of,
    entity_key,
    find_entities,
    parse_journal,
)

JOURNAL = """# 2025-11-27

- 09:12 Call with @Ann about the offsite.
- 11:40 Staging is up;
  migrations ran clean.

A paragraph about the flaky test
that spans two lines.

## Retain
- W @Peter: works at Acme since March
- B Fixed the flaky login test
- O(c=0.95) @Peter prefers cortado
- S Reviews go faster with an agenda
- went to the gym
- O(c=1.7) too sure
- W
"""


def parse():
    return parse_journal(JOURNAL, "memory/2025-11-27.md", "2025-11-27")


def test_every_paragraph_and_bullet_is_an_entry_with_its_line():
    entries = parse().entries
    assert [(entry.line, entry.text) for entry in entries[:4]] == [
        (3, "09:12 Call with @Ann about the offsite."),
        (4, "11:40 Staging is up;\nmigrations ran clean."),
        (7, "A paragraph about the flaky test\nthat spans two lines."),
        (11, "W @Peter: works at Acme since March"),
    ]
    assert entries[0].source == "memory/2025-11-27.md#L3"


def test_retain_bullets_become_typed_facts():
    facts = parse().facts
    assert [(fact.kind, fact.line) for fact in facts] == [
        ("world", 11),
        ("experience", 12),
        ("opinion", 13),
        ("observation", 14),
    ]
    world = facts[0]
    assert world.text == "@Peter: works at Acme since March"
    assert world.entities == ("Peter",)
    assert world.day == "2025-11-27"
    assert world.source == "memory/2025-11-27.md#L11"
    assert world.confidence is None
    assert facts[2].confidence == 0.95


def test_malformed_retain_bullets_are_reported_by_line_and_the_rest_still_parses():
    parsed = parse()
    assert [(problem.line, problem.path) for problem in parsed.problems] == [
        (15, "memory/2025-11-27.md"),
        (16, "memory/2025-11-27.md"),
        (17, "memory/2025-11-27.md"),
    ]
    assert "confidence" in parsed.problems[1].message
    assert len(parsed.facts) == 4
    # A malformed fact is still an entry: it stays searchable.
    assert any(entry.text == "went to the gym" for entry in parsed.entries)


@pytest.mark.parametrize("bullet", ["- W @Ann:", "- O(c=0.5) @Ann @Bob:  ", "- W @Ann, @Bob."])
def test_a_retain_bullet_that_names_someone_and_says_nothing_is_a_problem_not_a_fact(bullet):
    """It was promoted as a topic whose whole summary is '@Ann:'."""
    parsed = parse_journal(
        f"# 2025-11-27\n\n## Retain\n{bullet}\n- W @Ann: likes tea\n", "d.md", "2025-11-27"
    )

    assert [fact.text for fact in parsed.facts] == ["@Ann: likes tea"]
    [problem] = parsed.problems
    assert (problem.line, problem.message) == (
        4,
        "retain bullet names who it is about but says nothing",
    )


def test_bullets_outside_retain_are_never_facts():
    parsed = parse_journal("- W not a fact here\n", "memory/2025-11-27.md", "2025-11-27")
    assert parsed.facts == ()
    assert parsed.problems == ()


def test_a_later_section_ends_retain():
    text = "## Retain\n- W a fact\n\n## Notes\n- W just a note\n"
    parsed = parse_journal(text, "memory/d.md", "2025-11-27")
    assert [fact.text for fact in parsed.facts] == ["a fact"]


def test_frontmatter_is_skipped_and_lines_still_count_from_the_file_start():
    text = "---\ntitle: day\n---\n## Retain\n- W @Ann: a fact\n"
    parsed = parse_journal(text, "memory/d.md", "2025-11-27")
    assert parsed.facts[0].line == 5


def test_broken_frontmatter_is_a_problem_and_the_body_still_parses():
    text = "---\nthis is not a key value\n---\n## Retain\n- W @Ann: a fact\n"
    parsed = parse_journal(text, "memory/d.md", "2025-11-27")
    assert parsed.problems[0].line == 2
    assert [fact.text for fact in parsed.facts] == ["@Ann: a fact"]


def test_unclosed_frontmatter_is_a_problem():
    parsed = parse_journal("---\ntitle: x\n\nsome: note\n", "memory/d.md", "2025-11-27")
    assert "never closed" in parsed.problems[0].message


def test_fenced_code_is_one_entry_and_never_a_heading():
    text = "```\n# not a heading\n- not a bullet\n```\n"
    parsed = parse_journal(text, "memory/d.md", "2025-11-27")
    assert len(parsed.entries) == 1


def test_entities_are_mentions_in_order_of_first_appearance():
    assert find_entities("@Ann met @李娜 and @Ann again; mail ann@example.com.") == ("Ann", "李娜")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Met @O'Brien and @D’Angelo.", ("O'Brien", "D'Angelo")),  # an apostrophe inside a name
        ("@Ann's coffee, @James' car", ("Ann", "James")),  # a possessive is not part of it
        ("Ask @li-na. Or @Ann-Marie!", ("li-na", "Ann-Marie")),
        ("Thanks @Ann.", ("Ann",)),
    ],
)
def test_a_mention_is_the_name_without_possessive_or_closing_punctuation(text: str, names):
    assert find_entities(text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("今天和@王伟讨论了数据库迁移方案", ("王伟",)),  # after a Han character, up to a verb
        ("@王伟和@李娜负责迁移", ("王伟", "李娜")),  # 和 and 负(责) follow a name
        ("@李小龙来了。@欧阳娜娜说", ("李小龙", "欧阳娜娜")),  # three and four characters
        ("＠王伟 明天到", ("王伟",)),  # the full-width @ of a Chinese input method
        ("请@タナカさんに連絡", ("タナカ",)),  # a katakana name ends at the hiragana after it
        ("和@Ann讨论", ("Ann",)),  # a Latin name ends at the Chinese after it
        ("设计评审，和@王伟一起", ("王伟",)),  # 一起 (together) follows a name
        ("@李娜一直在跟进", ("李娜",)),
        ("@王一博说，@欧阳一鸣来了", ("王一博", "欧阳一鸣")),  # 一 alone may be in a name
    ],
)
def test_a_mention_in_chinese_needs_no_space_around_it(text: str, names):
    assert find_entities(text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("@R&D signed off, as did @AT&T's lawyers", ("R&D", "AT&T")),
        ("Install @types/node and @babel/core", ()),  # a package scope, not R or types
        ("Rewrite it in @C++ or @C#", ()),
        ("Ask @R& someone", ()),
    ],
)
def test_a_mention_is_the_whole_name_or_none(text: str, names):
    assert find_entities(text) == names


@pytest.mark.parametrize(
    ("names", "key"),
    [
        (["José", "jose", "JOSE", "Jose\u0301"], "jose"),  # accents, decomposed or not
        (["O'Brien", "O’Brien", "obrien"], "obrien"),
        (["li-na", "Li Na", "li  na", "li.na"], "li na"),
        (["Zoë", "ＺＯＥ"], "zoe"),  # full-width letters from an input method
        (["李娜"], "李娜"),
        (["R&D", "r&d"], "r&d"),
    ],
)
def test_an_entity_key_folds_case_accents_and_punctuation(names: list[str], key: str):
    assert {entity_key(name) for name in names} == {key}


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("@Ann said:\n```python\n@dataclass\nclass Fix: ...\n```\nthanks @Bob", ("Ann", "Bob")),
        ("~~~\n@Override\n", ()),  # a fence left open runs to the end
        ("Use `@pytest.fixture` as @Ann showed", ("Ann",)),
    ],
)
def test_code_mentions_nobody(text: str, names):
    # in code an @ is a decorator or an annotation, not a person
    assert find_entities(text) == names


@pytest.mark.parametrize(
    ("filename", "day"),
    [
        ("2025-11-27.md", "2025-11-27"),
        ("2025-02-30.md", None),  # no such day
        ("2025-1-4.md", None),
        ("notes.md", None),
    ],
)
def test_only_a_file_named_for_a_real_day_is_a_daily_log(filename: str, day: str | None):
    assert day_of(filename) == day


def facts_and_problems(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    parsed = parse_journal(text, "memory/d.md", "2025-11-27")
    return (
        [(fact.line, fact.text) for fact in parsed.facts],
        [(problem.line, problem.message) for problem in parsed.problems],
    )


def test_a_fenced_block_below_a_retain_bullet_is_its_own_entry_and_never_a_fact():
    """It was read as more lines of the bullet above: the fact "second\\n```\\n## Retain…"."""
    text = "# d\n\n## Retain\n- B second\n```\n## Retain\n- W inside fence\n```\n- W after it\n"

    parsed = parse_journal(text, "memory/d.md", "2025-11-27")

    assert [(fact.line, fact.text) for fact in parsed.facts] == [(4, "second"), (9, "after it")]
    assert parsed.problems == ()
    fence = "```\n## Retain\n- W inside fence\n```"
    assert [(entry.line, entry.text) for entry in parsed.entries][1] == (5, fence)


def test_a_retain_heading_in_fenced_code_outside_retain_starts_no_section():
    text = "# d\n\n- 09:00 a note\n~~~\n## Retain\n- W inside fence\n~~~\n- W a plain bullet\n"
    assert facts_and_problems(text) == ([], [])


def test_a_fence_indented_under_a_retain_bullet_is_part_of_its_fact():
    text = "## Retain\n- W @Ann: wrote\n  ```\n  @dataclass\n  ```\n- W next\n"
    facts, problems = facts_and_problems(text)
    assert facts == [(2, "@Ann: wrote\n  ```\n  @dataclass\n  ```"), (6, "next")]
    assert problems == []


def test_a_line_right_below_a_closing_fence_is_no_more_code():
    parsed = parse_journal("```\ncode\n```\nafter the code\n", "memory/d.md", "2025-11-27")
    assert [(entry.line, entry.text) for entry in parsed.entries] == [
        (1, "```\ncode\n```"),
        (4, "after the code"),
    ]


def test_every_nested_retain_bullet_is_a_fact_of_its_own_and_an_untyped_one_is_reported():
    """A sub-bullet was more words of the one above: the fact "star bullet\\n- W nested"."""
    text = (
        "## Retain\n"
        "* W star bullet\n"
        "  - W nested bullet\n"
        "    more of the nested one\n"
        "  - since March\n"
        "- B second\n"
    )

    facts, problems = facts_and_problems(text)

    assert facts == [
        (2, "star bullet"),
        (3, "nested bullet\nmore of the nested one"),
        (6, "second"),
    ]
    assert problems == [
        (
            5,
            "a nested retain bullet is a fact too, and must start with W, B, O, O(c=0.0-1.0) "
            "or S, e.g. '- W @Ann: works at Acme'",
        )
    ]


def test_nested_bullets_outside_retain_are_entries_of_their_own():
    parsed = parse_journal("- 09:00 standup\n  - Ann is out\n", "memory/d.md", "2025-11-27")
    assert [(entry.line, entry.text) for entry in parsed.entries] == [
        (1, "09:00 standup"),
        (2, "Ann is out"),
    ]


@pytest.mark.parametrize(
    "below",
    [
        "-W no space",  # a bullet that lost its space: it was stored as the fact "-W no space"
        "  @Ann works at Acme",  # a fact's text starts on its bullet's line
    ],
)
def test_a_bare_kind_letter_is_an_empty_fact_whatever_line_follows(below: str):
    facts, problems = facts_and_problems(f"## Retain\n- W\n{below}\n- B a fact\n")
    assert facts == [(4, "a fact")]
    assert problems == [(2, "retain bullet has no text after its kind")]


def test_an_opinion_needs_no_confidence_and_the_message_says_so():
    parsed = parse_journal("## Retain\n- O @Bob x\n- went out\n", "memory/d.md", "2025-11-27")

    [opinion] = parsed.facts
    assert (opinion.kind, opinion.text, opinion.confidence) == ("opinion", "@Bob x", None)
    [problem] = parsed.problems
    assert "W, B, O, O(c=0.0-1.0) or S" in problem.message


@pytest.mark.parametrize("letter", ["W", "B", "S"])
def test_a_confidence_on_any_kind_but_an_opinion_is_a_problem_not_a_fact(letter: str):
    """Promoted, it was stored with the world topic; ``log`` and ``remember`` refuse it too."""
    facts, problems = facts_and_problems(f"## Retain\n- {letter}(c=0.5) Ann is tall\n- W x\n")

    assert facts == [(3, "x")]
    assert problems == [
        (2, f"a confidence belongs to an opinion: write O(c=0.5), or {letter} without (c=0.5)")
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("@Ann: leads the design team", None),
        ("@Ann:", "names who it is about but says nothing"),
        ("@Ann, @Bob.", "names who it is about but says nothing"),
        (" : ", "has no text after its kind"),
    ],
)
def test_check_fact_text_says_why_a_text_is_no_fact(text: str, reason: str | None):
    assert check_fact_text(text) == reason
