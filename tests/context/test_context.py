"""Context compile: three channels, each within its budget, trimmed whole items, never raw."""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memstrata import Memory
from memstrata.config import BudgetsConfig
from memstrata.context.compile import ContextItem, compile_context, estimate_tokens
from memstrata.demo import build_demo_workspace, data_dir
from memstrata.errors import BudgetExceeded, InputError


def test_the_demo_context_has_three_channels_within_budget(tmp_path: Path):
    with build_demo_workspace(tmp_path / "demo") as memory:
        compiled = memory.context("what does Ann drink?")
        sizes = {channel.name: channel.bytes for channel in compiled.channels}
        assert sizes["rules"] <= 13000 and sizes["index"] <= 2048 and sizes["recall"] <= 6144
        assert "flat white" in compiled.text
        assert all(channel.tokens == estimate_tokens(channel.text) for channel in compiled.channels)


def test_raw_transcripts_never_reach_the_context(tmp_path: Path):
    with build_demo_workspace(tmp_path / "demo") as memory:
        memory.ingest([data_dir() / "transcripts"])
        # Words that appear only in the raw transcripts:
        assert memory.search("200 runs in a row")[0].stratum == "raw"
        compiled = memory.context("200 runs in a row datetime.now UTC expiry")
        assert "200 runs" not in compiled.text
        assert "claude-code:" not in compiled.text and "codex:" not in compiled.text


def test_over_budget_recall_trims_whole_items_and_says_which(workspace: Path):
    (workspace / "memstrata.toml").write_text("[budgets]\nrecall_bytes = 300\n")
    with Memory(workspace) as memory:
        for n in range(12):
            memory.write_topic(f"world/z{n:02d}", f"# Zeppelin {n}\n" + "zeppelin fact " * 10)
        compiled = memory.context("zeppelin fact", k=12)
        recall = compiled.channels[2]
        assert recall.bytes <= 300
        assert recall.trimmed
        assert all(item.text.endswith("\n") for item in recall.items)
        assert len(recall.items) + len(recall.trimmed) == 12


def test_only_what_the_context_injects_counts_as_used(workspace: Path):
    (workspace / "memstrata.toml").write_text("[budgets]\nrecall_bytes = 300\n")
    with Memory(workspace) as memory:
        for n in range(12):
            memory.write_topic(f"world/z{n:02d}", f"# Zeppelin {n}\n" + "zeppelin fact " * 10)
        compiled = memory.context("zeppelin fact", k=12)
        recall = compiled.channel("recall")
        injected = {item.label: memory.access_of(item.label).count for item in recall.items}
        trimmed = {label: memory.access_of(label).count for label in recall.trimmed}

    assert recall.items and recall.trimmed
    assert set(injected.values()) == {1}
    # never shown to the model, so no use to lift it in the next ranking
    assert set(trimmed.values()) == {0}


def test_the_context_size_is_the_size_of_the_text_injected(tmp_path: Path):
    with build_demo_workspace(tmp_path / "demo") as memory:
        compiled = memory.context("what does Ann drink?")
    channels = sum(channel.bytes for channel in compiled.channels)

    assert compiled.bytes == len(compiled.text.encode("utf-8")) > channels
    assert compiled.as_json()["bytes"] == compiled.bytes
    assert compiled.tokens == estimate_tokens(compiled.text)


def test_topics_the_index_leaves_out_are_counted_and_reach_the_metrics(workspace: Path):
    (workspace / "memstrata.toml").write_text("[budgets]\nindex_bytes = 300\n")
    with Memory(workspace) as memory:
        for n in range(30):
            memory.write_topic(f"world/z{n:02d}", f"# Zeppelin {n}\n" + "zeppelin fact " * 5)
        compiled = memory.context()
        summary = memory.metrics()

    index = compiled.channels[1]
    shown = [item for item in index.items if item.label.startswith("world/")]
    assert index.omitted == 30 - len(shown) > 0
    assert compiled.as_json()["channels"]["index"]["omitted"] == index.omitted
    assert compiled.as_json()["channels"]["index"]["items"] == [item.label for item in shown]
    assert index.text.rstrip().endswith(
        f"(+{index.omitted} more topics not shown; search or recall to find them)"
    )
    assert summary.trims == index.omitted


def test_an_index_line_wider_once_injected_is_trimmed_and_counted_in_the_last_line(
    workspace: Path,
):
    # a hand edit puts escape characters in the gists: each is injected as its picture (␛,
    # three bytes for one), so lines the rendering fitted in the budget no longer all fit
    with Memory(workspace) as memory:
        for n in range(30):
            memory.write_topic(f"notes/t{n:02d}", f"# Topic {n}\nWords about subject {n}.\n")
        escapes = "\x1b" * 16
        for n in range(30):
            summary = workspace / "memory" / "topics" / "notes" / f"t{n:02d}" / "summary.md"
            summary.write_text(f"# Topic {n}\nWords about {escapes} subject {n}.\n")
        compiled = memory.context()

    index = compiled.channel("index")
    shown = [item.label for item in index.items if item.label]
    assert index.trimmed and "" not in index.trimmed
    assert len(shown) + len(index.trimmed) + index.omitted == 30
    left_out = len(index.trimmed) + index.omitted
    assert index.text.endswith(
        f"(+{left_out} more topics not shown; search or recall to find them)\n"
    )
    assert "\x1b" not in index.text and index.bytes <= 2048


def test_an_index_given_as_text_alone_keeps_the_count_its_last_line_gave():
    from memstrata.context.compile import index_items, more_topics_line

    lines = [f"- notes/t{n} — Topic {n}: {chr(0x1B) * 20}\n" for n in range(3)]
    view = "".join(lines) + more_topics_line(7)
    budget = sum(len(line.encode()) for line in lines) + len(more_topics_line(7).encode())

    compiled = compile_context([], index_items(view), [], BudgetsConfig(100, budget, 100))

    index = compiled.channel("index")
    assert index.trimmed and index.omitted == 7
    assert index.text.endswith(more_topics_line(7 + len(index.trimmed)))
    assert index.bytes <= budget


def test_the_index_counts_what_it_leaves_out_in_the_words_the_wiki_renders():
    from memstrata.context.compile import more_topics_line
    from memstrata.model import IndexEntry
    from memstrata.wiki.index_file import render_index

    for count in (1, 2):
        entries = [
            IndexEntry(f"notes/t{n}", f"Topic {n}", "gist " * 40, "active", f"2026-12-0{n + 1}")
            for n in range(count + 1)
        ]
        one_line = len(f"- notes/t0 — Topic 0: {'gist ' * 40}\n".encode())
        view = render_index(entries, one_line + len(more_topics_line(count).encode()))
        assert view.omitted == count
        assert view.text.splitlines(keepends=True)[-1] == more_topics_line(count)


def test_a_title_that_repeats_the_summary_is_injected_once(workspace: Path):
    with Memory(workspace) as memory:
        memory.remember("Deploys go out on Thursdays after the standup")
        long = "The staging cluster moved to the eu-west region with three nodes " * 2
        memory.remember(long.strip())
        memory.write_topic("people/ann", "# Ann\nDesign lead; plays the cello.\n")
        lines = memory.context("deploys staging Ann cello").channels[2].text.splitlines()
    [deploys] = [line for line in lines if "Thursdays" in line]
    assert deploys.count("Deploys go out") == 1
    [staging] = [line for line in lines if "staging cluster" in line]
    assert staging.count("The staging cluster moved") == 2  # the summary itself says it twice
    [ann] = [line for line in lines if "cello" in line]
    assert ann.endswith("] Ann: Design lead; plays the cello.")


def test_rules_that_cannot_fit_are_an_explicit_error_and_status_says_so(workspace: Path):
    (workspace / "prompt" / "SOUL.md").write_text("rule\n" * 4000)
    with Memory(workspace) as memory:
        with pytest.raises(BudgetExceeded, match=r"prompt/SOUL\.md"):
            memory.context()
        [warning] = memory.status().rules.warnings
        assert "no context can be compiled until they are shortened" in warning


def test_session_state_is_trimmed_not_an_error_and_status_says_so(workspace: Path):
    (workspace / "memory" / "SESSION-STATE.md").write_text("state\n" * 4000)
    with Memory(workspace) as memory:
        rules = memory.context().channels[0]
        assert "memory/SESSION-STATE.md" in rules.trimmed
        [warning] = memory.status().rules.warnings
        assert warning.endswith("the context leaves out memory/SESSION-STATE.md")


def test_status_counts_the_rules_as_the_context_injects_them(workspace: Path):
    (workspace / "prompt" / "SOUL.md").write_text("Be brief.\n")
    with Memory(workspace) as memory:
        [rules] = [c for c in memory.context().channels if c.name == "rules"]
        assert memory.status().rules.total_bytes == rules.bytes


def test_a_turn_input_smaller_than_the_injection_is_refused_and_not_recorded(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nPrefers cortado.")

    with pytest.raises(InputError, match="injection included"):
        memory.context("cortado", total_input_bytes=10)

    assert not memory.metrics_path.exists() or not memory.metrics_path.read_text().strip()


def test_each_context_appends_a_metric_with_the_injection_share(memory: Memory):
    memory.write_topic("people/ann", "# Ann\nPrefers cortado.")
    memory.context("cortado", total_input_bytes=100_000)
    [line] = memory.metrics_path.read_text().splitlines()
    record = json.loads(line)
    assert record["event"] == "context"
    assert set(record["bytes"]) == {"rules", "index", "recall"}
    assert 0 < record["share"] < 0.1
    summary = memory.metrics(days=7)
    assert summary.contexts == 1
    assert summary.mean_injection_share == record["share"]


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=400)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    rules=st.lists(_text, max_size=6),
    index=st.lists(_text, max_size=40),
    recall=st.lists(_text, max_size=40),
    budgets=st.tuples(st.integers(0, 3000), st.integers(0, 1500), st.integers(0, 2000)),
)
def test_caps_hold_and_output_is_deterministic_for_any_content(rules, index, recall, budgets):
    config = BudgetsConfig(*budgets)
    make = lambda channel, texts: [  # noqa: E731
        ContextItem(channel, f"{channel}{n}", text) for n, text in enumerate(texts)
    ]
    first = compile_context(
        make("rules", rules), make("index", index), make("recall", recall), config
    )
    again = compile_context(
        make("rules", rules), make("index", index), make("recall", recall), config
    )
    assert first == again
    for channel, budget in zip(first.channels, budgets, strict=True):
        assert channel.bytes <= budget
        # every item given is in or trimmed; the Index may add its "+N more" line
        assert (
            len([item for item in channel.items if item.label]) + len(channel.trimmed)
            == {"rules": len(rules), "index": len(index), "recall": len(recall)}[channel.name]
        )
        assert "" not in channel.trimmed


@settings(
    max_examples=15,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(
    topics=st.lists(st.tuples(st.text(min_size=1, max_size=30), _text), max_size=12),
    query=st.text(max_size=40),
)
def test_caps_hold_for_any_workspace_content(tmp_path_factory, topics, query):
    from memstrata.workspace.layout import init_workspace
    from memstrata.workspace.names import slugify
    from memstrata.workspace.textfile import first_control

    root = tmp_path_factory.mktemp("ws")
    init_workspace(root)
    with Memory(root) as memory:
        for n, (title, body) in enumerate(topics):
            summary = f"# {title}\n{body}".strip()[:1000] or "x"
            topic_id = f"world/{slugify(title)}-{n}"
            if first_control(summary) is None:
                memory.write_topic(topic_id, summary)
            else:  # write_topic refuses it; a person's editor saves anything
                memory.topics.write(topic_id, summary, None, actor="user", reason="by hand")
        compiled = memory.context(query or None)
        budgets = memory.config.budgets
        caps = {
            "rules": budgets.resident_bytes,
            "index": budgets.index_bytes,
            "recall": budgets.recall_bytes,
        }
        for channel in compiled.channels:
            assert channel.bytes <= caps[channel.name]
        assert memory.context(query or None).text == compiled.text


def test_rules_saved_with_crlf_line_ends_are_injected_with_plain_newlines(workspace: Path):
    (workspace / "prompt" / "USER.md").write_bytes(b"# User\r\n\r\nPrefers short answers.\r\n")
    with Memory(workspace) as memory:
        text = memory.context().text

    assert "\r" not in text
    assert "## prompt/USER.md\n# User\n\nPrefers short answers.\n" in text


def test_a_rules_file_saved_in_latin_1_is_injected_mended_and_named_not_dropped(workspace: Path):
    """One byte that is no UTF-8 (an editor saving "café" as Latin-1) used to fail the whole
    context: every turn went without its rules, and status failed too."""
    (workspace / "prompt" / "USER.md").write_bytes(b"# User\n\nLikes caf\xe9.\nok\nna\xefve\n")
    with Memory(workspace, embeddings=False) as memory:
        compiled = memory.context()
        warnings = memory.status().rules.warnings

    said = "prompt/USER.md:3: invalid UTF-8 (also line 5), injected with U+FFFD in its place"
    assert "Likes caf\ufffd.\nok\nna\ufffdve" in compiled.text
    assert "## prompt/SOUL.md" in compiled.text and "## MEMORY.md" in compiled.text
    assert [note for note in compiled.notes if "USER.md" in note] == [
        f"{said}: save the file as UTF-8"
    ]
    assert f"{said}: save the file as UTF-8" in warnings


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("flat white", 3),  # English: about 4 characters a token
        ("上海办公室的后端工程师", 11),  # Chinese: about a token a character
        ("李娜 owns the payment gateway", 2 + 7),  # the space after 娜 counts as English
        ("café crème", 2 + 1),  # accented letters: about 2 a token
    ],
)
def test_tokens_are_estimated_by_script(text: str, tokens: int):
    assert estimate_tokens(text) == tokens
