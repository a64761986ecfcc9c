from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from memstrata.model import IndexEntry, Topic, TopicMeta
from memstrata.wiki.index_file import (
    index_file_readable,
    read_index_file,
    render_index,
    render_index_file,
    update_index_file,
    write_index_file,
)


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
@example(gists=["\U000e0020"], budget=0)  # an invisible tag character: held (found in CI)
def test_the_budget_holds_for_any_content(gists: list[str], budget: int):
    entries = [_entry(n, gist) for n, gist in enumerate(gists)]
    rendered = render_index(entries, budget)
    assert len(rendered.text.encode()) <= budget
    # a gist that reads as an instruction (hidden tag characters, say) is held, never shown
    assert rendered.shown + rendered.omitted + rendered.held == len(entries)


# -- the rendering kept between turns (.memstrata/index-view.json) ----------------------------


def _index_file(path: Path, entries: list[IndexEntry]) -> Path:
    write_index_file(path, entries)
    return path


def test_a_remembered_view_is_the_same_as_a_fresh_one(tmp_path: Path):
    index = _index_file(tmp_path / "_index.json", [_entry(n) for n in range(50)])
    cache = tmp_path / "index-view.json"

    first = render_index_file(index, 1024, cache)
    second = render_index_file(index, 1024, cache)

    assert cache.exists()
    assert first == second == render_index(read_index_file(index), 1024)


def test_a_rewritten_index_or_another_budget_redraws_the_view(tmp_path: Path):
    index = _index_file(tmp_path / "_index.json", [_entry(1)])
    cache = tmp_path / "index-view.json"
    render_index_file(index, 2048, cache)

    _index_file(index, [_entry(1), _entry(2)])

    assert render_index_file(index, 2048, cache).shown == 2
    assert render_index_file(index, 40, cache) == render_index(read_index_file(index), 40)


def test_a_damaged_remembered_view_is_redrawn(tmp_path: Path):
    index = _index_file(tmp_path / "_index.json", [_entry(1), _entry(2)])
    cache = tmp_path / "index-view.json"
    for damage in (b"\xff\xfe not json", b'{"key": 3}', b"[]", b""):
        cache.write_bytes(damage)

        assert render_index_file(index, 2048, cache).shown == 2


def test_a_view_that_cannot_be_remembered_is_still_right(tmp_path: Path):
    index = _index_file(tmp_path / "_index.json", [_entry(1)])
    cache = tmp_path / "no-such-folder-is-a-file"
    cache.write_text("a file where a folder should be")

    view = render_index_file(index, 2048, cache / "index-view.json")

    assert view.shown == 1


def test_no_index_file_is_an_empty_view(tmp_path: Path):
    view = render_index_file(tmp_path / "_index.json", 2048, tmp_path / "index-view.json")

    assert (view.text, view.shown, view.omitted) == ("", 0, 0)


def test_a_view_drawn_after_a_readability_check_is_still_right(tmp_path: Path):
    index = _index_file(tmp_path / "_index.json", [_entry(1), _entry(2)])
    cache = tmp_path / "index-view.json"

    assert index_file_readable(index, cache)

    assert render_index_file(index, 2048, cache) == render_index(read_index_file(index), 2048)
    assert render_index_file(index, 2048, cache).shown == 2


# -- a damaged or missing _index.json ----------------------------------------------------------


def _topic(topic_id: str) -> Topic:
    meta = TopicMeta(created="2025-11-27T10:00:00Z", updated="2025-11-27T10:00:00Z")
    return Topic(topic_id, topic_id, f"About {topic_id}.", "", meta)


ON_DISK = [_topic("people/ann"), _topic("people/bob"), _topic("people/cleo")]


@pytest.mark.parametrize(
    "damage",
    [
        b"{oops\n",
        b'{"topics": 3, "version": 1}',
        b"\xff\xfe",
        b"[1, 2]",
        # another version's layout, whose topics may be kept elsewhere: not read as none
        b'{"topics": [], "version": 2}',
        b'{"topics": []}',
        None,
    ],
)
def test_an_update_of_a_damaged_or_missing_file_rebuilds_it_from_every_topic(
    tmp_path: Path, damage: bytes | None
):
    index = tmp_path / "_index.json"
    if damage is not None:
        index.write_bytes(damage)

    update_index_file(index, [ON_DISK[0]], every_topic=lambda: ON_DISK)

    assert [entry.id for entry in read_index_file(index)] == [t.id for t in ON_DISK]


def test_an_update_of_a_sound_file_reads_no_topic(tmp_path: Path):
    index = tmp_path / "_index.json"
    update_index_file(index, ON_DISK[:2], every_topic=lambda: ON_DISK[:2])

    def no_rebuild() -> list[Topic]:
        raise AssertionError("a sound file is updated in place, not rebuilt")

    update_index_file(index, [ON_DISK[2]], ["people/ann"], every_topic=no_rebuild)

    assert [entry.id for entry in read_index_file(index)] == ["people/bob", "people/cleo"]


def test_readability_is_vouched_for_by_the_cache_only_for_the_file_as_it_is(tmp_path: Path):
    index = _index_file(tmp_path / "_index.json", [_entry(1)])
    cache = tmp_path / "index-view.json"
    render_index_file(index, 2048, cache)
    assert index_file_readable(index, cache)

    index.write_text("{oops\n")  # damaged in place: another size and time

    assert not index_file_readable(index, cache)
    assert not index_file_readable(tmp_path / "missing.json", cache)
    assert not index_file_readable(index)
