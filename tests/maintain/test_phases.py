"""What each phase finds and does on the seeded messy workspace, in both modes."""

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.maintain.gardener import run_garden
from memstrata.maintain.ledger import read_ledger
from memstrata.model import IMPORTANCE_DEFAULT
from tests.maintain.conftest import scratch_folder
from tests.maintain.messy import NOW, Truth, garden, make_messy_workspace


@pytest.fixture(scope="module")
def autonomous(tmp_path_factory: pytest.TempPathFactory):
    with scratch_folder(tmp_path_factory.mktemp("autonomous")) as folder:
        root = folder / "ws"
        truth = make_messy_workspace(root)
        report = garden(root, "autonomous")
        with Memory(root, clock=lambda: NOW) as memory:
            yield root, truth, report, {t.id: t for t in memory.list_topics()}


@pytest.fixture(scope="module")
def proposed(tmp_path_factory: pytest.TempPathFactory):
    with scratch_folder(tmp_path_factory.mktemp("propose")) as folder:
        root = folder / "ws"
        truth = make_messy_workspace(root)
        report = garden(root, "propose")
        with Memory(root, clock=lambda: NOW) as memory:
            topics = {t.id: t for t in memory.list_topics()}
            yield root, truth, report, topics, memory.proposals()


# -- autonomous: unambiguous steps executed after a snapshot -----------------------------------


def test_autonomous_mode_takes_a_snapshot_before_changing_anything(autonomous):
    root, _truth, report, _topics = autonomous
    assert report.snapshot
    snapshot = root / ".memstrata" / "snapshots" / report.snapshot
    assert (snapshot / "memory" / "topics" / "notes" / "dup-0-b" / "summary.md").is_file()


def test_dedup_folds_each_duplicate_into_the_older_topic(autonomous):
    _root, truth, report, topics = autonomous
    for keeper, merged in truth.duplicates:
        assert topics[keeper].meta.state == "active"
        assert topics[merged].meta.state == "superseded"
        assert topics[merged].meta.superseded_by == keeper
        assert merged in topics[keeper].meta.lineage
    assert report.actions["merge"] == len(truth.duplicates)


def test_dedup_defers_near_duplicates_where_one_side_says_more(autonomous):
    _root, truth, report, topics = autonomous
    for a, b in truth.near_duplicates:
        assert topics[a].meta.state == topics[b].meta.state == "active"
        assert any(a in line and b in line for line in report.deferred)


def test_decay_lowers_cold_topics_one_importance_step_and_spares_used_and_pinned(autonomous):
    _root, truth, report, topics = autonomous
    for topic_id in truth.decay:
        assert topics[topic_id].meta.importance == IMPORTANCE_DEFAULT - 1
        assert topics[topic_id].meta.decayed == "2025-11-27T10:00:00Z"
        # housekeeping is not news: the topic keeps its place in the injected index
        assert topics[topic_id].meta.updated < "2025-10-20"
    for topic_id in (*truth.recently_used, *truth.pinned, *truth.healthy):
        assert topics[topic_id].meta.importance == IMPORTANCE_DEFAULT
        assert topics[topic_id].meta.state == "active"
    assert report.actions["decay"] == len(truth.decay)


def test_decay_archives_unused_items_old_lessons_and_long_stale_markers(autonomous):
    _root, truth, report, topics = autonomous
    for topic_id in truth.archives:
        assert topics[topic_id].meta.state == "archived"
    for topic_id in (*truth.fresh_marked, *truth.fresh_lessons):
        assert topics[topic_id].meta.state == "active"
    executed = {
        op.topics[0]
        for op in report.destructive
        if op.verb == "EXECUTED" and op.action == "archive"
    }
    assert executed == set(truth.archives)


def test_split_turns_bloated_entries_into_linked_children_and_trims_the_parent(autonomous):
    _root, truth, report, topics = autonomous
    for parent_id in truth.bloated:
        parent = topics[parent_id]
        assert len(parent.summary) <= 750
        children = [topics[child] for child in parent.meta.links if child != "projects/hub"]
        assert len(children) >= 2
        for child in children:
            assert child.meta.links == (parent_id,)
            assert parent_id in child.meta.lineage
    sections = [topics[c] for c in topics["projects/sections-0"].meta.links if c != "projects/hub"]
    assert len(sections) == 3 and all("## " not in child.summary for child in sections)
    assert report.actions["split"] == len(truth.bloated)


def test_split_defers_one_long_paragraph_it_cannot_cut_without_a_model(autonomous):
    _root, truth, report, topics = autonomous
    [wall] = truth.unsplittable
    assert len(topics[wall].summary) > 750
    assert any(line.startswith(wall) and "without a model" in line for line in report.deferred)


def test_invalidate_marks_the_earlier_of_two_dated_statements_superseded(autonomous):
    _root, truth, report, topics = autonomous
    for older, newer in truth.superseded:
        assert topics[older].meta.state == "superseded"
        assert topics[older].meta.superseded_by == newer
        assert older in topics[newer].meta.supersedes
        assert topics[newer].meta.state == "active"
    assert report.actions["supersede"] == len(truth.superseded)


def test_invalidate_defers_a_change_in_other_words(autonomous):
    _root, truth, report, topics = autonomous
    old, new = truth.own_words_update
    assert topics[old].meta.state == topics[new].meta.state == "active"
    assert any(old in line and "may be a newer value" in line for line in report.deferred)


def test_reconnect_links_orphans_to_the_page_of_their_entity_and_notes_ambiguous_ones(autonomous):
    _root, truth, report, topics = autonomous
    for orphan, target in truth.orphans:
        assert topics[orphan].meta.links == (target,)
    [rota] = truth.ambiguous_orphans
    assert topics[rota].meta.links == ()
    assert any(line.startswith(rota) and "ambiguous" in line for line in report.deferred)
    assert report.actions["link"] == len(truth.orphans)


def test_summarise_appends_what_is_new_and_a_health_line_to_the_days_journal(autonomous):
    root, _truth, report, _topics = autonomous
    journal = (root / "memory" / "2025-11-27.md").read_text()
    upkeep = journal.split("\n## Upkeep\n", 1)[1]
    assert "First garden run (autonomous" in upkeep
    assert "Memory health: " in upkeep
    sentences = report.summary.splitlines()[0].count(". ")
    assert 1 <= sentences <= 5


def test_the_report_has_the_documented_form_and_is_written_to_memory_reports(autonomous):
    root, _truth, report, _topics = autonomous
    text = (root / report.path).read_text()
    assert text == report.text
    lines = text.splitlines()
    assert lines[0] == "# Gardening report — 2025-11-27T10:00:00Z"
    assert lines[1].startswith("Stores tended: wiki: 61 topics")
    assert lines[2].startswith("Stats: active 61 → ")
    assert lines[3] == (
        "Actions: merges 5 · decays 6 · archives 5 · splits 4 · invalidations 3 · reconnects 3"
    )
    assert lines[4] == "Destructive ops (mode: autonomous):"
    assert '  - EXECUTED MERGE notes/dup-0-a ← notes/dup-0-b — "By the way' in text
    assert any(line.startswith("Deferred (uncertain):") for line in lines)
    assert "Skipped: none" in lines
    assert lines[-1] == f"Budget: {report.mutations_used}/200 mutations · resume point: clean"


def test_every_executed_step_is_a_ledger_line_and_nothing_is_deleted(autonomous):
    root, _truth, report, topics = autonomous
    records = read_ledger(root / "memory" / "ledger.jsonl")
    assert [record.id for record in records] == list(report.steps)
    seeded = 61
    assert len(topics) == seeded + sum(len(r.changes) - 1 for r in records if r.action == "split")
    assert {r.action for r in records} == {
        "merge",
        "decay",
        "archive",
        "split",
        "supersede",
        "link",
    }


def test_the_actions_line_counts_every_step_the_run_wrote_to_the_ledger_by_kind(autonomous):
    root, truth, report, _topics = autonomous
    records = read_ledger(root / "memory" / "ledger.jsonl")
    [line] = [line for line in report.text.splitlines() if line.startswith("Actions: ")]
    shown = {
        label: int(count)
        for label, count in (
            part.rsplit(" ", 1) for part in line.removeprefix("Actions: ").split(" · ")
        )
    }
    labels = {
        "merge": "merges",
        "decay": "decays",
        "archive": "archives",
        "split": "splits",
        "supersede": "invalidations",
        "link": "reconnects",
    }
    assert shown == {labels[kind]: n for kind, n in Counter(r.action for r in records).items()}
    # the archives of the decay phase are destructive steps, and counted as done like the rest
    assert shown["archives"] == len(truth.archives)
    assert sum(shown.values()) == len(report.steps) == len(records)


def test_a_kind_of_step_without_a_label_still_counts_in_the_actions_line(autonomous):
    _root, _truth, report, _topics = autonomous
    text = replace(report, actions={**report.actions, "undo": 2}).text
    assert "· reconnects 3 · undo 2\n" in text


# -- propose: destructive steps become proposals -----------------------------------------------


def test_propose_mode_writes_destructive_steps_as_proposals_and_changes_none_of_them(proposed):
    _root, truth, report, topics, proposals = proposed
    kinds = sorted(p.kind for p in proposals)
    assert kinds == sorted(
        ["merge"] * len(truth.duplicates)
        + ["archive"] * len(truth.archives)
        + ["split"] * len(truth.bloated)
    )
    for _keeper, merged in truth.duplicates:
        assert topics[merged].meta.state == "active"
    for topic_id in (*truth.archives, *truth.bloated):
        assert topics[topic_id].meta.state == "active"
    assert not report.snapshot
    assert all(op.verb == "PROPOSED" for op in report.destructive)


def test_propose_mode_still_tends_what_is_not_destructive(proposed):
    _root, truth, report, topics, _proposals = proposed
    assert all(topics[t].meta.importance == IMPORTANCE_DEFAULT - 1 for t in truth.decay)
    assert all(topics[old].meta.state == "superseded" for old, _new in truth.superseded)
    assert all(topics[orphan].meta.links for orphan, _target in truth.orphans)
    assert report.actions == {"decay": 6, "supersede": 3, "link": 3}


def test_a_dry_run_writes_nothing_and_lists_cross_topic_patterns(messy: tuple[Path, Truth]):
    root, truth = messy
    from tests.maintain.messy import file_states

    before = file_states(root)
    with Memory(root, clock=lambda: NOW) as memory:
        report = run_garden(
            memory, "autonomous", dry_run=True, now=NOW, max_mutations=200, max_comparisons=500
        )
    assert file_states(root) == before
    assert report.path == "" and not report.changed
    assert report.actions["merge"] == len(truth.duplicates)
    assert any(op.verb == "WOULD EXECUTE" for op in report.destructive)
    assert any(line.startswith("stale marker in notes/marked-new") for line in report.patterns)
    assert "Patterns:" in report.text
