"""``load_embedder``: a config's spec, key variable and timeout become an embedder."""

from __future__ import annotations

import pytest

from memstrata.config import EMBEDDER_NAMES
from memstrata.providers.embedder import load_embedder
from memstrata.providers.openai import OpenAIEmbedder
from tests.providers.fake_endpoint import FakeEmbeddings, serving


def test_every_embedder_a_config_may_name_is_known_to_the_loader():
    for name in EMBEDDER_NAMES:
        if name == "none":  # embeddings off: nothing is loaded
            continue
        assert "unknown embedder" not in load_embedder(name).fallback_reason


def test_an_endpoint_gets_the_key_from_the_variable_named(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MEMSTRATA_TEST_KEY", "sk-from-env")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-this-one")
    with serving() as url:
        FakeEmbeddings.required_key = "sk-from-env"
        choice = load_embedder(f"openai:tiny@{url}", api_key_env="MEMSTRATA_TEST_KEY")

        rows = choice.embedder.embed(["alpha"])

    assert rows.shape == (1, 16)
    assert FakeEmbeddings.requests[0]["auth"] == "Bearer sk-from-env"


def test_the_key_variable_defaults_to_openai_api_key(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-default")
    with serving() as url:
        load_embedder(f"openai:tiny@{url}").embedder.embed(["alpha"])

    assert FakeEmbeddings.requests[0]["auth"] == "Bearer sk-default"


@pytest.mark.parametrize("variable", ["", "MEMSTRATA_UNSET_KEY"])
def test_no_key_is_sent_without_a_variable_or_when_it_is_unset(
    monkeypatch: pytest.MonkeyPatch, variable: str
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-must-not-leave")
    monkeypatch.delenv("MEMSTRATA_UNSET_KEY", raising=False)
    with serving() as url:
        load_embedder(f"openai:tiny@{url}", api_key_env=variable).embedder.embed(["alpha"])

    assert FakeEmbeddings.requests[0]["auth"] is None


def test_the_endpoint_timeout_is_the_one_given():
    embedder = load_embedder("openai:tiny@http://127.0.0.1:9/v1", timeout_s=2.5).embedder

    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.timeout_s == 2.5
