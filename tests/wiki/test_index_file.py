from hypothesis import given
from hypothesis import strategies as st

from memstrata.model import IndexEntry
from memstrata.wiki.index_file import render_index


def _entry(n: int, gist: str = "something worth knowing", state: str = "active") -> IndexEntry:
    return IndexEntry(
        f"world/topic-{n:04d}", f"Topic {n}", gist, state, f"2025-11-{1 + n % 28:02d}"
    )  # type: ignore[arg-type]


def test_the_rendering_shows_live_topics_newest_first():
    entries = [_entry(1), _entry(2), _entry(3, state="archived")]
    rendered = render_index(entries, 2048)
    assert rendered.text.splitlines() == [
        "- world/topic-0002 — Topic 2: something worth knowing",
        "- world/topic-0001 — Topic 1: something worth knowing",
    ]
    assert (rendered.shown, rendered.omitted) == (2, 0)


def test_the_rendering_stays_within_2kb_and_says_what_it_left_out():
    rendered = render_index([_entry(n) for n in range(500)], 2048)
    assert len(rendered.text.encode()) <= 2048
    assert rendered.omitted == 500 - rendered.shown
    assert rendered.text.splitlines()[-1] == (
        f"(+{rendered.omitted} more topics not shown; search or recall to find them)"
    )


def test_a_topic_titled_by_its_opening_words_says_them_once():
    fact = "@Ann booked LX Factory in Lisbon for the offsite, 12–14 March 2026"
    entries = [
        IndexEntry(
            "world/ann-booked",
            "@Ann booked LX Factory in Lisbon for the…",
            fact,
            "conflict",
            "2025-11-27",
        ),
        IndexEntry("world/short", fact, fact, "active", "2025-11-26"),
    ]

    lines = render_index(entries, 2048).text.splitlines()

    assert lines == [f"- world/ann-booked — {fact} [conflict]", f"- world/short — {fact}"]


def test_conflicted_topics_are_marked():
    rendered = render_index([_entry(1, state="conflict")], 2048)
    assert "[conflict]" in rendered.text


@given(
    gists=st.lists(st.text(min_size=0, max_size=200), min_size=0, max_size=80),
    budget=st.integers(min_value=0, max_value=4096),
)
def test_the_budget_holds_for_any_content(gists: list[str], budget: int):
    entries = [_entry(n, gist) for n, gist in enumerate(gists)]
    rendered = render_index(entries, budget)
    assert len(rendered.text.encode()) <= budget
    assert rendered.shown + rendered.omitted == len(entries)
