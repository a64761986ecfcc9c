from dataclasses import replace
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
    assert config.dedup.garden_containment == 0.90


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
        ("[dedup]\ngarden_containment = 'high'\n", "dedup.garden_containment must be float"),
        ("[budgets]\nrecall_bytes = -5\n", "must not be negative"),
        ("[recall]\ndefault_k = 0\n", "recall.default_k must be at least 1"),
        ("[topics]\nsummary_max_chars = 0\n", "topics.summary_max_chars must be at least 1"),
        ("[topics]\nmax_active = 0\n", "topics.max_active must be at least 1"),
        ("[recall]\ndefault_k = 5000\n", "recall.default_k must be at most 1000"),
        ("[recall]\nmin_similarity = 2.0\n", "recall.min_similarity must be at most 1"),
        ("[recall]\nmin_similarity = nan\n", "recall.min_similarity must be a number"),
        ("[dedup]\ngarden_containment = inf\n", "dedup.garden_containment must be a number"),
        ("[dedup]\nmerge_core_share = 1.5\n", "dedup.merge_core_share must be at most 1"),
        ("[embeddings]\nmodel = 'e5-smal'\n", "embeddings.model must be one of use-multilingual"),
        ("[embeddings]\nmodel = 'openai:@http://h/v1'\n", "embeddings.model names no model"),
        ("[embeddings]\nmodel = 'openai:m@localhost/v1'\n", "needs an http:// or https:// URL"),
        ("[embeddings]\nmodel = 'openai:m@'\n", "needs an http:// or https:// URL"),
        ("[embeddings]\ntimeout_s = 0\n", "embeddings.timeout_s must be more than 0"),
        ("[embeddings]\ntimeout_s = -1.5\n", "embeddings.timeout_s must not be negative"),
        ("[embeddings]\ntimeout_s = 'fast'\n", "embeddings.timeout_s must be float"),
        ("[embeddings]\ntimeout_s = 1e9\n", "embeddings.timeout_s must be at most 86400"),
        # a span past what dates can reach: "never" is a hundred years, not a crash later
        ("[recall]\nstale_after_days = 1000000000\n", "stale_after_days must be at most 36,500"),
        ("[garden]\ndecay_after_days = 99999999999999999\n", "must be at most 36,500"),
        ("[upkeep]\nidle_flush_minutes = 10000000000\n", "must be at most 52,560,000"),
        ("[embeddings]\napi_key_env = 'MY KEY'\n", "api_key_env must name an environment variable"),
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
        ("[embeddings]\nmodel = 'hashing'\n\ntimeout_s = 0.0\n", 4),
        ("[recall]\ndefault_k = 5\n[embeddings]\nmodel = 'bogus'\n", 4),
    ],
)
def test_a_bad_config_names_the_line_too(tmp_path: Path, toml: str, line: int):
    path = tmp_path / "memstrata.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_the_endpoint_settings_have_their_documented_defaults():
    embeddings = Config().embeddings
    assert embeddings.model == "use-multilingual"
    assert embeddings.api_key_env == "OPENAI_API_KEY"
    assert embeddings.timeout_s == 10.0


@pytest.mark.parametrize(
    "model",
    [
        "use-multilingual",
        "e5-small",
        "hashing",
        "none",
        "openai:nomic-embed-text",
        "openai:text-embedding-3-small@https://api.openai.com/v1",
        "openai:m@http://127.0.0.1:8080/v1",
    ],
)
def test_every_kind_of_embedder_spec_loads(tmp_path: Path, model: str):
    path = tmp_path / "memstrata.toml"
    path.write_text(f"[embeddings]\nmodel = '{model}'\napi_key_env = ''\ntimeout_s = 2.5\n")

    embeddings = load_config(path).embeddings

    assert (embeddings.model, embeddings.api_key_env, embeddings.timeout_s) == (model, "", 2.5)


def test_a_key_pasted_where_its_variable_belongs_is_refused_without_showing_it(tmp_path: Path):
    path = tmp_path / "memstrata.toml"
    path.write_text("[embeddings]\napi_key_env = 'sk-proj-abc123-very-secret'\n")

    with pytest.raises(ConfigError) as caught:
        load_config(path)

    assert str(caught.value).startswith(f"{path}:2: embeddings.api_key_env must name")
    assert "very-secret" not in str(caught.value)


def test_the_dedup_keys_older_files_hold_still_load(tmp_path: Path):
    # init wrote gate_cosine (never read: the gate's cosine is calibrated per embedder) and
    # garden_cosine (the gardener's share of shared words, now named so)
    path = tmp_path / "memstrata.toml"
    path.write_text("[dedup]\ngate_cosine = 0.92\ngarden_cosine = 0.8\n")
    assert load_config(path).dedup == replace(Config().dedup, garden_containment=0.8)
    path.write_text("[dedup]\ngarden_cosine = 0.8\ngarden_containment = 0.7\n")
    assert load_config(path).dedup.garden_containment == 0.7
    path.write_text("[dedup]\ngarden_cosine = 1.5\n")
    with pytest.raises(ConfigError, match=r"dedup\.garden_containment must be at most 1"):
        load_config(path)
