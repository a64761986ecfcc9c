import pytest

from memstrata.journal.parse import day_of, find_entities, parse_journal

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
