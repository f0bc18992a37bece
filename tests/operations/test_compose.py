"""compose.yaml, checked without a Docker engine (none runs here, and the images cannot be pulled): the services it
starts, the environment each bot process gets, read by the bot's own configuration, and the commands they run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from bot.runtime.config import load_config

from .test_docker import exec_form

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "s3cret"


def compose() -> dict[str, Any]:
    """compose.yaml with its ${VARIABLE...} read from a .env that sets the password."""
    text = (ROOT / "compose.yaml").read_text()
    text = re.sub(r"\$\{POSTGRES_PASSWORD(:\?[^}]*)?\}", PASSWORD, text)
    assert "${" not in text, "compose.yaml needs a variable the README's .env does not set"
    loaded: dict[str, Any] = yaml.safe_load(text)
    return loaded


def bots(services: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: service for name, service in services.items() if service.get("build") == "."}


def test_postgresql_a_rate_limiting_proxy_and_two_bot_processes() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "nirn-proxy", *bots(services)} and len(bots(services)) == 2
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert postgres["environment"]["POSTGRES_PASSWORD"] == PASSWORD
    check = postgres["healthcheck"]["test"]
    assert check[:2] == ["CMD", "pg_isready"] and postgres["environment"]["POSTGRES_USER"] in check
    assert any(v.startswith("pgdata:") for v in postgres["volumes"])
    assert services["nirn-proxy"]["image"].startswith("ghcr.io/germanoeich/nirn-proxy:")
    for name, bot in bots(services).items():
        assert bot["depends_on"]["postgres"] == {"condition": "service_healthy"}, name
        assert "nirn-proxy" in bot["depends_on"] and bot["restart"] == "unless-stopped"
        assert "command" not in bot and "entrypoint" not in bot  # the image's own: python -m bot
        assert re.fullmatch(r"\d+s", bot["stop_grace_period"]) and int(bot["stop_grace_period"][:-1]) >= 10
        assert bot["env_file"] == ".env"  # the token from .env, never on a command line
    assert exec_form("CMD") == ["python", "-m", "bot"]


def test_each_bot_process_is_configured_for_the_shared_bank_the_proxy_and_half_the_shards() -> None:
    services = compose()["services"]
    postgres, proxy = services["postgres"]["environment"], services["nirn-proxy"]["environment"]
    counts, shards = set(), []
    for name, bot in bots(services).items():
        env = {key: str(value) for key, value in bot["environment"].items()}
        config = load_config({**env, "DISCORD_TOKEN": "x"}, dotenv=None)  # read as the bot reads it
        url = urlsplit(str(config.db_path))
        assert url.scheme == "postgresql" and url.hostname == "postgres" and url.port == 5432, name
        assert (url.username, url.password, url.path) == (postgres["POSTGRES_USER"], PASSWORD,
                                                          f"/{postgres['POSTGRES_DB']}")
        assert config.api_base == f"http://nirn-proxy:{proxy['PORT']}/api/v10"
        assert config.sharded and config.shard_ids is not None
        counts.add(config.shard_count)
        shards.append(set(config.shard_ids))
    [count] = counts  # one shard count for every process of the bank
    assert shards[0].isdisjoint(shards[1]) and shards[0] | shards[1] == set(range(count))
    assert len(shards[0]) == len(shards[1])  # half each
