"""Full-width and other compatibility forms (what CJK input methods type: ``ｆｌａｔ ｗｈｉｔｅ``,
``ＡＮＮ``, half-width ``ｺｰﾋｰ``) match their plain forms in the wiki, the journal and raw turns,
whichever side of the search holds them."""

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from memstrata import Memory

CASES = [
    # (stored text, query)
    ("Ann orders a flat white before standup.", "ｆｌａｔ ｗｈｉｔｅ"),
    ("Ann orders a ｆｌａｔ ｗｈｉｔｅ before standup.", "flat white"),
    ("The ＡＮＮ index is rebuilt hourly.", "ann"),
    ("The ANN index is rebuilt hourly.", "ＡＮＮ"),
    ("李娜每天早上喝一杯コーヒー。", "ｺｰﾋｰ"),  # half-width katakana
    ("李娜每天早上喝一杯ｺｰﾋｰ。", "コーヒー"),
]


def _store(memory: Memory, stratum: str, text: str, tmp_path: Path) -> str:
    """Put ``text`` in ``stratum``; return the source its hit cites (``""``: cited by a line)."""
    if stratum == "wiki":
        memory.write_topic("notes/coffee", f"# Coffee\n{text}")
        memory.write_topic("notes/noise", "# Noise\nNothing relevant here at all.")
        return "notes/coffee"
    if stratum == "journal":
        memory.log(text)
        memory.log("Nothing relevant here at all.")
        return ""
    chat = tmp_path / "chat.jsonl"
    rows = [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]
    chat.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    memory.ingest([chat])
    return f"{memory.raw.sessions()[0].id}#0"


@pytest.mark.parametrize("stratum", ["wiki", "journal", "raw"])
@pytest.mark.parametrize(("text", "query"), CASES)
def test_a_compatibility_form_finds_its_plain_form_and_back(
    memory: Memory, tmp_path: Path, stratum: str, text: str, query: str
):
    source = _store(memory, stratum, text, tmp_path)

    hits = [hit for hit in memory.search(query) if hit.stratum == stratum and hit.holds_a_word]

    assert hits, f"{query!r} found nothing in the {stratum}"
    assert text in hits[0].text
    assert not source or hits[0].source == source


def test_raw_turns_and_sessions_are_found_by_words_in_either_form(memory: Memory, tmp_path: Path):
    source = _store(memory, "raw", "Ann orders a ｆｌａｔ ｗｈｉｔｅ before standup.", tmp_path)
    session = source.rpartition("#")[0]

    assert [hit.source for hit in memory.raw.search("flat white")] == [source]
    assert [hit.source for hit in memory.search_sessions("FLAT WHITE")][:1] == [session]


def test_an_index_of_schema_8_is_rebuilt_so_full_width_text_is_found(workspace: Path):
    with Memory(workspace) as memory:
        memory.write_topic("notes/coffee", "# Coffee\nAnn orders a ｆｌａｔ ｗｈｉｔｅ.")
        index = memory.workspace.index_db
    # What schema 8 indexed: the text as written, not normalised.
    with closing(sqlite3.connect(index)) as db:
        db.execute("UPDATE meta SET value = '8' WHERE key = 'schema_version'")
        db.execute("DELETE FROM topics_fts")
        db.execute(
            "INSERT INTO topics_fts (rowid, title, summary, detail)"
            " SELECT rowid, title, summary, detail FROM topics"
        )
        db.commit()

    with Memory(workspace) as memory:
        hits = memory.search("flat white", include_raw=False)

    assert [hit.source for hit in hits] == ["notes/coffee"]
