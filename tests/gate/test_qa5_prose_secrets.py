"""A key or token given in a sentence is redacted as a password given so is.

People tell an agent "the API key for the weather service is …" as often as "my password is …".
Only a value that looks generated goes; a sentence about keys and tokens keeps its words.
"""

from pathlib import Path

import pytest

from memstrata import Memory
from memstrata.redaction import redact_secrets

HEX_KEY = "3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
MIXED = "Zk8vQ2pLmN4rT6yU"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"The API key for the weather service is {HEX_KEY}", HEX_KEY),
        (f"Weather API key: {HEX_KEY}", HEX_KEY),
        (f"Our Datadog API key is {HEX_KEY}.", HEX_KEY),
        (f"The access token is {HEX_KEY}", HEX_KEY),
        (f"the client secret is {MIXED}", MIXED),
        (f"The webhook secret for GitHub is now '{MIXED}'", MIXED),
        (f"天气服务的API密钥是{HEX_KEY}", HEX_KEY),
        (f"令牌是 {HEX_KEY}", HEX_KEY),
        (f"机器人的 token：{MIXED}", MIXED),
    ],
)
def test_a_key_given_in_a_sentence_loses_only_its_value(text: str, secret: str):
    result = redact_secrets(text)

    assert secret not in result.text
    assert result.text == text.replace(secret, "[REDACTED:generic-secret]")


@pytest.mark.parametrize(
    "text",
    [
        "the token is valid for 15 minutes",
        "The auth token is SHA256-signed",
        "The access token is JWT-encoded and lasts 1 hour",
        "the API key is sent in the X-Api-Key header",
        "The API key is stored in 1Password under prod-api",
        "the refresh token is rotated every 30 days",
        "Our session token is a UUIDv4",
        "The API key is 32 characters long",
        "The secret to good coffee is 93C water",
        "The secret is out: Ann is moving to Lisbon in Q3 2026",
        "The token is x86_64-linux-gnu",
        "the token is GPT-4o-mini's limit",
        "The key: consistency matters more than speed.",
        "这个接口的token会在15分钟后过期。",
        "token是必填项",
    ],
)
def test_a_sentence_about_keys_and_tokens_keeps_its_words(text: str):
    assert redact_secrets(text).text == text


def test_a_key_remembered_in_a_sentence_is_nowhere_in_the_workspace(workspace: Path, fixed_now):
    with Memory(workspace, clock=lambda: fixed_now, embeddings=False) as memory:
        verdict = memory.remember(f"The API key for the weather service is {HEX_KEY}")
        memory.log(f"Datadog API key: {HEX_KEY}", kind="world")

    assert verdict.redactions == ("generic-secret",)
    for path in workspace.rglob("*"):
        if path.is_file():
            assert HEX_KEY.encode() not in path.read_bytes(), path
