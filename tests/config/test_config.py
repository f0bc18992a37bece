"""The configuration is read once, the environment over ``.env``, and what it says reaches the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.runtime.config import Config, load_config
from cogs.app import PokerBot, ShardedPokerBot, make_bot


def test_defaults_without_environment_or_file(tmp_path: Path) -> None:
    config = load_config({}, dotenv=tmp_path / "missing.env")
    assert config == Config()
    assert config.db_path == Path("data/poker.db") and config.db_sync == "normal" and not config.sharded


def test_the_environment_wins_over_the_dotenv_file(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# a comment\nDISCORD_TOKEN='from-file'\nPOKER_DB=/file.db\nexport LOG_LEVEL=debug\n\n"
                      "POKER_DB_SYNC=full\nDEV_GUILD_ID=42\n", encoding="utf-8")
    config = load_config({"POKER_DB": "/env.db"}, dotenv=dotenv)
    assert config.token == "from-file" and config.db_path == Path("/env.db") and config.log_level == "DEBUG"
    assert config.db_sync == "full" and config.dev_guild_id == 42


@pytest.mark.parametrize(("env", "message"), [
    ({"POKER_DB_SYNC": "sometimes"}, "POKER_DB_SYNC must be normal or full"),
    ({"LOG_LEVEL": "loud"}, "LOG_LEVEL must be"),
    ({"DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID must be a server id"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "SHARD_IDS must list shard numbers"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,2"}, "SHARD_IDS are numbered 0 to 1"),
])
def test_bad_values_are_named(tmp_path: Path, env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_config(env, dotenv=tmp_path / "missing.env")


def test_shards(tmp_path: Path) -> None:
    config = load_config({"SHARD_COUNT": "4", "SHARD_IDS": " 3, 1,1 "}, dotenv=tmp_path / "missing.env")
    assert config.sharded and config.shard_count == 4 and config.shard_ids == (1, 3)
    bot = make_bot(config)
    assert isinstance(bot, ShardedPokerBot) and bot.shard_count == 4 and bot.shard_ids == [1, 3]
    assert type(make_bot(Config())) is PokerBot


async def test_poker_db_sync_in_dotenv_opens_the_database_with_full(tmp_path: Path) -> None:
    """POKER_DB_SYNC=full written in .env (not in the environment) reaches the store: PRAGMA synchronous is FULL."""
    dotenv = tmp_path / ".env"
    dotenv.write_text(f"POKER_DB={tmp_path / 'poker.db'}\nPOKER_DB_SYNC=full\n", encoding="utf-8")
    config = load_config({}, dotenv=dotenv)
    bot = PokerBot(config, sync_commands=False)
    bot._store = await __import__("bot.store", fromlist=["Store"]).Store.open(bot.config.db_path,
                                                                               synchronous=bot.config.db_sync)
    try:
        async with bot.store.connection.execute("PRAGMA synchronous") as cursor:
            row = await cursor.fetchone()
        assert row is not None and row[0] == 2  # FULL
    finally:
        await bot.store.close()
