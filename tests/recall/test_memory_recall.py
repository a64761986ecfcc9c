"""Memory.recall: what may be injected, each item with kind, time, entities, source and arms."""

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.demo import build_demo_workspace, data_dir
from memstrata.errors import InputError


@pytest.fixture
def demo(tmp_path: Path):
    with build_demo_workspace(tmp_path / "demo") as memory:
        memory.ingest([data_dir() / "transcripts"])
        yield memory


def test_every_item_says_what_when_who_where_and_why(demo: Memory):
    [item, *_] = demo.recall("what does Ann drink?").items
    assert item.source == "memory/2025-11-26.md#L8"
    assert (item.stratum, item.kind, item.time) == ("journal", "world", "2025-11-26")
    assert item.entities == ("Ann",)
    assert item.content == "@Ann: drinks flat white with oat milk"
    assert item.score > 0
    assert set(item.arms) >= {"lexical", "entity"}


def test_a_chinese_name_inside_a_sentence_is_found_by_the_entity_arm(demo: Memory):
    # Chinese is written without spaces: "李娜" is inside the run "李娜喜欢什么咖啡"
    items = demo.recall("李娜喜欢什么咖啡", k=3).items
    assert items and all("李娜" in item.entities for item in items if item.stratum == "journal")
    assert all("entity" in item.arms for item in items if "李娜" in item.entities)


def test_the_phrases_a_query_could_name_an_entity_with():
    from memstrata.recall.entity import query_phrases

    phrases = query_phrases("Did @bo and Li Na ship the billing service? 李娜说好")
    assert {"bo", "li na", "billing service", "li na ship"} <= phrases
    assert {"李娜", "娜说好", "李娜说好"} <= phrases and "李" not in phrases
    assert "did li na ship" not in phrases  # four words: longer than a name is taken to be
    # a hyphen or an apostrophe as written, and the words joined either way
    assert {"li-na", "o'brien", "li na"} <= query_phrases("ask li-na at O’Brien's")
    assert "li-na" in query_phrases("ask Li Na")


@pytest.mark.parametrize("query", ["what does li-na drink?", "what does Li Na drink?"])
def test_a_hyphenated_name_is_known_however_the_query_joins_its_words(memory: Memory, query: str):
    memory.log("@li-na drinks pour-over")
    memory.log("Deployed the billing canary")

    [item, *_] = memory.recall(query).items

    assert item.entities == ("li-na",) and "entity" in item.arms


@pytest.mark.parametrize("name", ["li-na", "Li Na", "@li na"])
def test_the_entity_filter_reads_a_name_as_the_entity_arm_does(memory: Memory, name: str):
    memory.log("@li-na drinks pour-over")
    memory.log("@Ann drinks flat white")

    found = [item.content for item in memory.recall("drinks", entity=name).items]

    assert [content.endswith("@li-na drinks pour-over") for content in found] == [True]


def test_a_name_with_an_apostrophe_is_one_entity(memory: Memory):
    memory.log("@O'Brien runs the pub by the river")
    memory.log("@Ann drinks flat white")

    [item, *_] = memory.recall("where is O'Brien's pub?").items

    assert item.entities == ("O'Brien",) and "entity" in item.arms


def test_recall_never_returns_raw_turns(demo: Memory):
    result = demo.recall("login test midnight flaky", k=50)
    assert result.items
    assert {item.stratum for item in result.items} <= {"wiki", "journal"}
    assert not any(item.source.startswith(("claude-code:", "codex:")) for item in result.items)


def test_kind_and_entity_filters(demo: Memory):
    opinions = demo.recall("billing login test", kind="opinion").items
    assert opinions and {item.kind for item in opinions} == {"opinion"}
    about_li = demo.recall("咖啡 coffee", entity="李娜").items
    assert about_li and all(
        "李娜" in item.entities or item.source == "people/li-na" for item in about_li
    )


@pytest.mark.parametrize("name", ["Ann", "@ann", "Li Na", "李娜"])
def test_the_entity_filter_keeps_the_page_named_for_the_entity(demo: Memory, name: str):
    # the pages are titled "Ann Weber" and "李娜 (Li Na)" and mention nobody with an @
    page = "people/li-na" if name in ("Li Na", "李娜") else "people/ann"

    found = [item.source for item in demo.recall("coffee 咖啡 flat white", entity=name).items]

    assert page in found
    assert "people/ann" not in found or "people/li-na" not in found


def test_since_and_until_filter_by_time(demo: Memory):
    recent = demo.recall("Ann", since="2025-11-27", k=50).items
    assert recent and all(item.time >= "2025-11-27" for item in recent)
    early = demo.recall("Ann", until="2025-11-25", k=50).items
    assert early and all(item.time[:10] <= "2025-11-25" for item in early)
    [day] = {
        item.time[:10] for item in demo.recall("Ann", since="2025-11-25", until="2025-11-25").items
    }
    assert day == "2025-11-25"  # one day: from its start to its end


def test_a_since_after_the_until_is_a_clear_error(demo: Memory):
    with pytest.raises(InputError, match="since '2025-11-27' starts after until"):
        demo.recall("Ann", since="2025-11-27", until="2025-11-20")
    at = "2025-11-26T10:05:00Z"
    with pytest.raises(
        InputError, match=r"starts at .*, where until .* ends \(until is not included"
    ):
        demo.recall("Ann", since=at, until=at)


@pytest.mark.parametrize("day", ["2025-11-25", "November 25th", "25 November 2025"])
def test_a_time_phrase_in_the_query_boosts_items_inside_it(demo: Memory, day: str):
    items = demo.recall(f"what happened on {day} with Ann", k=5).items
    assert items[0].time.startswith("2025-11-25")
    assert "temporal" in items[0].arms


@pytest.mark.parametrize(
    "query", ["what happened last week?", "What did I do last week", "anything new last week"]
)
def test_a_query_that_names_only_a_time_recalls_what_lies_in_it_newest_first(
    workspace: Path, query: str
):
    # the clock says Thursday 2025-11-27: last week is 17-23 November
    (workspace / "memory" / "2025-11-10.md").write_text(
        "# 2025-11-10\n\n- What happened: the week started with a long planning meeting.\n"
    )
    (workspace / "memory" / "2025-11-18.md").write_text(
        "# 2025-11-18\n\n- Shipped the payments v2 API.\n- Fixed the login test.\n"
    )
    (workspace / "memory" / "2025-11-21.md").write_text("# 2025-11-21\n\n- Moved to Porto.\n")
    with Memory(workspace, clock=lambda: datetime(2025, 11, 27, 10, tzinfo=UTC)) as memory:
        items = memory.recall(query).items

    # not the entry that says "week" and "happened", nor whatever is nearest in meaning
    assert [item.content for item in items] == [
        "Moved to Porto.",
        "Fixed the login test.",
        "Shipped the payments v2 API.",
    ]
    assert all(item.arms == ("temporal",) for item in items)


def test_a_time_with_nothing_in_it_says_so_and_which_days_it_read(workspace: Path):
    (workspace / "memory" / "2025-11-10.md").write_text("# 2025-11-10\n\n- Planning meeting.\n")
    with Memory(workspace, clock=lambda: datetime(2025, 11, 27, 10, tzinfo=UTC)) as memory:
        empty = memory.recall("what happened last week?")
        other = memory.recall("what did Zed order?")

    assert empty.items == ()
    assert (
        "nothing in the wiki or the journal lies in the time asked about "
        "('last week': 2025-11-17 to 2025-11-23)"
    ) in empty.notes
    assert not any("time asked about" in note for note in other.notes)


def test_the_gardeners_notes_are_kept_in_the_journal_but_never_recalled(memory: Memory):
    memory.write_topic("people/ann", "Ann leads design.")
    memory.log("Planted tulips with Ann")
    memory.garden()  # notes what is new since its last run, and the memory's health
    memory.log("Fixed the login test")
    today = memory.workspace.journal_path("2025-11-27").read_text()

    recalled = memory.recall("what happened today?").items
    context = memory.context("what did we do today, and how healthy is the memory?")
    [hit, *_] = memory.search("garden run", include_raw=False)

    assert "\n## Upkeep\n" in today and "Memory health: " in today
    assert [item.content for item in recalled if item.stratum == "journal"] == [
        "10:00 Fixed the login test",
        "10:00 Planted tulips with Ann",
    ]
    assert "Memory health" not in context.text and "garden run" not in context.text
    assert "First garden run" in hit.text  # search finds them: they are the day's record


def test_recall_records_access_in_a_sidecar_that_survives_rebuild(demo: Memory):
    first = demo.recall("oat milk").items[0]
    demo.rebuild()
    assert demo.access_of(first.source).count == 1
    demo.recall("oat milk")
    assert demo.access_of(first.source).count == 2


def test_a_journal_entry_keeps_its_access_when_lines_are_written_above_it(workspace: Path):
    day = workspace / "memory" / "2025-11-26.md"
    day.write_text("# 2025-11-26\n\n## Retain\n- W @Ann prefers cortado coffee\n", "utf-8")
    with Memory(workspace, embeddings=False) as memory:
        for _ in range(3):
            memory.recall("cortado")
        day.write_text(
            "# 2025-11-26\n\n- Reviewed the billing PR\n- Lunch with the platform team\n"
            "\n## Retain\n- W @Ann prefers cortado coffee\n",
            encoding="utf-8",
        )
        # read as the file is now, though no recall has run since the edit
        assert memory.access_of("memory/2025-11-26.md#L7").count == 3
        moved = memory.recall("cortado", record_access=False).items[0]
        newcomer = memory.recall("platform team lunch", record_access=False).items[0]

        assert moved.source == "memory/2025-11-26.md#L7"  # was line 4
        assert memory.access_of(moved.source).count == 3
        assert newcomer.source == "memory/2025-11-26.md#L4"
        assert memory.access_of(newcomer.source).count == 0  # nothing inherited from line 5


def test_superseded_and_archived_topics_only_on_request(memory: Memory):
    memory.write_topic("projects/old", "# Old site\nThe zeppelin site.")
    memory.archive_topic("projects/old")
    assert memory.recall("zeppelin").items == ()
    assert memory.recall("zeppelin", include_archived=True).items[0].state == "archived"


@pytest.mark.parametrize(
    "query", ["", "   ", "the of and", "?!.,", '"', "NEAR(", "x" * 100_000, "mixed 混合 scripts"]
)
def test_odd_queries_give_an_empty_or_normal_result_never_an_error(memory: Memory, query: str):
    memory.log("something about zeppelins")
    memory.recall(query)


def test_an_unparseable_since_is_a_clear_error(memory: Memory):
    with pytest.raises(InputError, match="since 'whenever'"):
        memory.recall("x", since="whenever")


def test_a_timestamp_bound_cuts_at_that_instant(demo: Memory):
    items = demo.recall("Lisbon", since="2025-11-27T00:00:00Z", k=50).items
    before = demo.recall("Lisbon", until="2025-11-25T23:59:59Z", k=50).items

    assert items and all(item.time >= "2025-11-27" for item in items)
    assert before and all(item.time[:10] <= "2025-11-25" for item in before)


def test_a_journal_line_opening_with_its_time_of_day_is_cut_at_that_time(demo: Memory):
    morning = demo.recall(
        "", since="2025-11-26T00:00:01Z", until="2025-11-26T12:00:00Z", k=50
    ).items
    day = demo.recall("", since="2025-11-26T00:00:01Z", until="2025-11-26T23:59:59Z", k=50).items

    timed = [item.content[:5] for item in morning if item.content[:2].isdigit()]
    assert timed == ["10:05"]  # 14:30 and 16:00 are after noon
    assert len(day) > len(morning)
    lines = [int(item.source.rpartition("#L")[2]) for item in day if item.content[:2].isdigit()]
    assert lines == sorted(lines, reverse=True)  # the day's latest line first


@pytest.mark.parametrize("value", ["27.11.2025", "garbage 2025-11 garbage", "9999-12-31"])
def test_a_bound_that_is_not_only_a_time_is_a_clear_error(demo: Memory, value: str):
    with pytest.raises(InputError, match="not a time I understand"):
        demo.recall("Lisbon", since=value)


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"since": ""}, "since is empty"),
        ({"until": "   "}, "until is empty"),
        ({"since": 5}, "since is a time"),
        ({"entity": ""}, "entity is empty"),
        ({"entity": "@"}, "entity is empty"),
        ({"entity": ["ann"]}, "entity is a name"),
    ],
)
def test_a_filter_that_is_empty_or_of_another_type_is_a_clear_error(
    demo: Memory, filters: dict, message: str
):
    with pytest.raises(InputError, match=message):
        demo.recall("Lisbon", **filters)


def test_a_bound_may_be_a_datetime_or_a_date(demo: Memory):
    def found(since: object, until: object) -> list[str]:
        result = demo.recall("Lisbon", since=since, until=until, k=50, record_access=False)
        return [item.source for item in result.items]

    as_text = found("2025-11-27T00:00:00Z", "2025-11-27")

    assert as_text and found(datetime(2025, 11, 27, tzinfo=UTC), date(2025, 11, 27)) == as_text
    assert found(datetime(2025, 11, 27), date(2025, 11, 27)) == as_text  # naive: UTC


@pytest.mark.parametrize("query", ["what happened on 9999-12-31", "mar\udcffmot", "mar\ud800mot"])
def test_queries_past_the_calendar_or_with_broken_characters_still_recall(demo: Memory, query: str):
    demo.recall(query)
    demo.context(query)
    demo.search(query)


@pytest.mark.parametrize(("k", "message"), [(-1, "k must"), (0, "k must"), (2.5, "k must")])
def test_a_k_that_is_no_count_is_a_clear_error(demo: Memory, k: object, message: str):
    with pytest.raises(InputError, match=message):
        demo.recall("coffee", k=k)  # type: ignore[arg-type]
    with pytest.raises(InputError, match=message):
        demo.context("coffee", k=k)  # type: ignore[arg-type]


def test_a_limit_that_is_no_count_or_a_query_that_is_no_text_is_a_clear_error(demo: Memory):
    with pytest.raises(InputError, match="limit must"):
        demo.search("coffee", limit=-1)
    with pytest.raises(InputError, match="a query is text"):
        demo.recall(None)  # type: ignore[arg-type]


def test_an_unknown_kind_is_a_clear_error(memory: Memory):
    with pytest.raises(InputError, match="unknown kind"):
        memory.recall("x", kind="gossip")


def test_old_unaccessed_items_are_demoted_but_relevance_decides(workspace: Path):
    with Memory(workspace, clock=lambda: datetime(2025, 1, 1, tzinfo=UTC)) as memory:
        memory.write_topic("world/old", "# Zeppelin A\nzeppelin facts")
        memory.write_topic("world/hangar", "# Hangar\nthe zeppelin hangar in Friedrichshafen")
    with Memory(workspace, clock=lambda: datetime(2025, 12, 1, tzinfo=UTC)) as memory:
        memory.write_topic("world/new", "# Zeppelin B\nzeppelin facts")
        # as relevant: the recent one first, and only just (recency breaks ties)
        items = memory.recall("zeppelin facts", k=2).items
        assert [item.source for item in items] == ["world/new", "world/old"]
        assert 1.0 < items[0].score / items[1].score < 1.2
        # a year-old item that answers the question outranks a new one that does not
        [first, *_] = memory.recall("zeppelin hangar Friedrichshafen").items
        assert first.source == "world/hangar"


@pytest.mark.parametrize("query", ["", "   ", "?!.,", "😀 👍"])
def test_a_query_without_a_word_recalls_nothing_and_says_why(demo: Memory, query: str):
    result = demo.recall(query)

    assert result.items == ()
    assert any("no words" in note for note in result.notes)
    assert demo.search(query) == []
    assert demo.rank_raw(query, 5) == ([], [])


@pytest.mark.parametrize("query", ["what is it?", "the", "Was it THAT?"])
def test_a_query_of_common_words_only_recalls_nothing_and_says_why(demo: Memory, query: str):
    result = demo.recall(query)

    assert result.items == ()
    assert any("only common words" in note for note in result.notes)
    assert demo.search(query) == []
    assert demo.search_notes(query) == ("nothing to search: the query has only common words",)
    # the context has no filters to suggest, as recall's note does
    assert demo.context(query).notes == ("nothing to recall: the query has only common words",)


def test_filters_alone_list_everything_they_select_newest_first(demo: Memory):
    about_ann = demo.recall("", entity="Ann", k=50).items
    world = demo.recall("", kind="world", k=50).items
    late = demo.recall("", since="2025-11-27", k=50).items

    ann_lines = [
        f"memory/{path.name}#L{number}"
        for path in sorted((demo.workspace.memory_dir).glob("2025-*.md"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if "@Ann" in line
    ]
    assert {item.source for item in about_ann} == {"people/ann", *ann_lines}
    assert {"memory/2025-11-25.md#L9", "memory/2025-11-26.md#L10"} <= {i.source for i in world}
    assert {item.kind for item in world} == {"world"}
    assert late and all(item.time >= "2025-11-27" for item in late)
    for items in (about_ann, world, late):
        times = [item.time[:10] for item in items]
        assert times == sorted(times, reverse=True)


def test_a_narrow_filter_keeps_matches_ranked_below_the_usual_pool(workspace: Path):
    day = workspace / "memory" / "2025-11-20.md"
    notes = [f"- Billing review {n}" for n in range(120)]  # short: BM25 ranks them first
    opinion = "in my view a billing review takes far too long for what it ever covers in the end"
    day.write_text(
        "# 2025-11-20\n\n" + "\n".join(notes) + f"\n\n## Retain\n- O: {opinion}\n",
        encoding="utf-8",
    )
    with Memory(workspace, embeddings=False) as memory:
        opinions = memory.recall("billing review", kind="opinion").items

    assert [item.content for item in opinions] == [opinion]


def test_a_long_lived_memory_recalls_before_and_after_its_first_write(workspace: Path):
    # The MCP server's life: its first recall finds no vectors, later ones must find new ones.
    with Memory(workspace) as memory:
        assert memory.recall("coffee").items == ()
        written = memory.remember("Ann prefers cortado")
        assert [item.source for item in memory.recall("coffee Ann").items] == [written.topic_id]


@pytest.mark.parametrize("query", ["Ann", "coffee last week", "Lisbon offsite", "login test UTC"])
def test_the_best_k_are_the_first_k_of_a_longer_recall(demo: Memory, query: str):
    # Re-ranking stops reading candidates that can no longer reach the k best: never a change.
    def sources(k: int) -> list[str]:
        result = demo.recall(query, k=k, record_access=False, record_metric=False)
        return [item.source for item in result.items]

    longest = sources(50)
    for k in (1, 3, 5):
        assert sources(k) == longest[:k]


def test_min_similarity_keeps_out_what_only_nearness_found(workspace: Path):
    # No shared word: only the semantic arm links the question to the topic.
    question = "what animal do they keep at home"
    with Memory(workspace) as memory:
        memory.write_topic("world/biscuit", "# Biscuit\nOur dog Biscuit is a three-year-old beagle")
        nearest = memory.recall(question).items
        assert [(item.source, item.arms) for item in nearest] == [("world/biscuit", ("semantic",))]

    config = workspace / "memstrata.toml"
    edited = config.read_text().replace("min_similarity = 0.0", "min_similarity = 0.9")
    config.write_text(edited)
    with Memory(workspace) as memory:
        assert memory.recall(question).items == ()
        # an item another arm found is never held back by the floor
        assert [item.source for item in memory.recall("beagle").items] == ["world/biscuit"]


def test_search_puts_every_hit_holding_a_word_before_turns_only_near_in_meaning(tmp_path: Path):
    from memstrata.workspace.layout import init_workspace

    init_workspace(tmp_path / "ws")
    with Memory(tmp_path / "ws") as memory:
        memory.log("Ann prefers cortado")
        memory.write_topic("people/ann", "# Ann\nDrinks a cortado before reviews.\n")
        memory.ingest([data_dir() / "transcripts"])  # no turn of them says cortado

        hits = memory.search("cortado", limit=5)

    assert {hit.stratum for hit in hits[:2]} == {"journal", "wiki"}
    assert [hit.holds_a_word for hit in hits] == [True, True, False, False, False]
    assert all(hit.stratum == "raw" and "semantic" in hit.extra["arms"] for hit in hits[2:])


def test_topics_that_say_the_same_get_the_same_vector_and_rank_as_equals(memory: Memory):
    # The model's vector for a text moves in its last bits with the text's place in a batch:
    # two topics saying the same once got cosines 1e-7 apart, and as recall counted their uses
    # the rounding of their scores put one, then the other, first.
    from memstrata.recall.semantic import stored_vectors

    for n, text in enumerate(["Ann drinks a flat white", "The build takes ten minutes"] * 3):
        memory.write_topic(f"notes/n{n}", text)
    memory.recall("what coffee does she order")
    embedder = memory.embedder
    assert embedder is not None

    vectors = [
        stored_vectors(memory.index.db, "topic", embedder.name, embedder.dim, [f"notes/n{n}"])[0]
        for n in (0, 2, 4)
    ]
    assert all((vector == vectors[0]).all() for vector in vectors)
    scores = [item.score for item in memory.recall("what coffee does she order").items[:3]]
    assert len(set(scores)) == 1


def test_a_superseded_fact_asked_for_comes_after_the_fact_that_replaced_it(words_memory: Memory):
    words_memory.remember("Ann drinks tea", entities=["Ann"])
    words_memory.remember("Ann now drinks cortado", entities=["Ann"])

    items = words_memory.recall("what does Ann drink", include_superseded=True).items

    assert [item.state for item in items[:2]] == ["active", "superseded"]
    assert "cortado" in items[0].content
