from pathlib import Path

import pytest

from memstrata.config import Config, load_config, render_config
from memstrata.errors import ConfigError


def test_a_missing_config_file_means_every_default(tmp_path: Path):
    assert load_config(tmp_path / "memstrata.toml") == Config()


def test_the_rendered_defaults_load_back_to_the_same_config(tmp_path: Path):
    path = tmp_path / "memstrata.toml"
    path.write_text(render_config(Config()))
    assert load_config(path) == Config()


def test_design_defaults_are_the_documented_values():
    config = Config()
    assert config.topics.max_active == 100
    assert config.topics.summary_max_chars == 1000
    assert config.topics.detail_max_chars == 8000
    assert config.rules.memory_max_chars == 3000
    assert config.budgets.index_bytes == 2048
    assert config.budgets.recall_bytes == 6144
    assert config.garden.max_mutations == 25
    assert config.dedup.gate_cosine == 0.92


def test_a_value_can_be_overridden(tmp_path: Path):
    path = tmp_path / "memstrata.toml"
    path.write_text("[budgets]\nrecall_bytes = 4096\n")
    assert load_config(path).budgets.recall_bytes == 4096


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[budgets]\nrecal_bytes = 1\n", "unknown key budgets.recal_bytes"),
        ("[budget]\nrecall_bytes = 1\n", "unknown section [budget]"),
        ("[budgets]\nrecall_bytes = 'big'\n", "budgets.recall_bytes must be int"),
        ("[budgets]\nrecall_bytes = true\n", "budgets.recall_bytes must be int"),
        ("[dedup]\ngate_cosine = 'high'\n", "dedup.gate_cosine must be float"),
        ("[budgets]\nrecall_bytes = -5\n", "must not be negative"),
        ("[recall]\ndefault_k = 0\n", "recall.default_k must be at least 1"),
        ("[topics]\nsummary_max_chars = 0\n", "topics.summary_max_chars must be at least 1"),
        ("[topics]\nmax_active = 0\n", "topics.max_active must be at least 1"),
        ("[recall]\ndefault_k = 5000\n", "recall.default_k must be at most 1000"),
        ("[recall]\nmin_similarity = 2.0\n", "recall.min_similarity must be at most 1"),
        ("[recall]\nmin_similarity = nan\n", "recall.min_similarity must be a number"),
        ("[dedup]\ngate_cosine = inf\n", "dedup.gate_cosine must be a number"),
        ("[dedup]\nmerge_core_share = 1.5\n", "dedup.merge_core_share must be at most 1"),
        ("budgets = 3\n", "[budgets] must be a table"),
        ("[budgets\n", "invalid TOML"),
    ],
)
def test_a_bad_config_names_the_key(tmp_path: Path, toml: str, message: str):
    path = tmp_path / "memstrata.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError, match=None) as caught:
        load_config(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def test_a_config_that_is_not_utf8_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "memstrata.toml"
    path.write_bytes(b"[budgets]\n# caf\xe9\n")
    with pytest.raises(ConfigError, match="invalid UTF-8"):
        load_config(path)


@pytest.mark.parametrize(
    ("toml", "line"),
    [
        ("[topics]\nmax_active = 5\n\n[budgets]\nindex_bytes = 1\nrecal_bytes = 1\n", 6),
        ("# mine\n\n[budget]\nrecall_bytes = 1\n", 3),
        ("[budgets]\n  recall_bytes   =   'big'\n", 2),
    ],
)
def test_a_bad_config_names_the_line_too(tmp_path: Path, toml: str, line: int):
    path = tmp_path / "memstrata.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")
