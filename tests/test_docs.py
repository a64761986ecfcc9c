"""The examples in docs/file-format.md parse with the code that reads those files."""

import json
import re
import tomllib
from pathlib import Path

from memstrata.config import Config, config_from_dict
from memstrata.journal.parse import parse_journal
from memstrata.model import HistoryEntry
from memstrata.wiki.store import meta_from_dict

DOC = (Path(__file__).resolve().parents[1] / "docs" / "file-format.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, flags=re.DOTALL)


def test_the_documented_config_is_the_default_config():
    [toml] = blocks("toml")
    assert config_from_dict(tomllib.loads(toml)) == Config()


def test_the_json_examples_parse_as_meta_history_and_index():
    meta, history, index = blocks("json")
    assert meta_from_dict(json.loads(meta)).state == "active"
    assert HistoryEntry(**json.loads(history)).op == "create"
    assert json.loads(index)["topics"][0]["id"] == "people/ann"


def test_the_journal_example_has_one_fact_of_each_kind():
    [markdown] = blocks("markdown")
    parsed = parse_journal(markdown, "memory/2025-11-27.md", "2025-11-27")
    assert [fact.kind for fact in parsed.facts] == ["world", "experience", "opinion", "observation"]
    assert parsed.problems == ()
