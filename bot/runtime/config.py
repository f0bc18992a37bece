"""The bot's configuration: read once, from the environment over an optional ``.env`` file, then passed down.

Nothing else in the bot reads ``os.environ``: the store, the bot and the cogs get what they need from the
``Config`` that ``load_config`` returns.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from .bank_location import parse_bank

DbSync = Literal["normal", "full"]
DEFAULT_DB_PATH: Final = Path("data/poker.db")
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DB_SYNCS: Final[tuple[DbSync, ...]] = ("normal", "full")


@dataclass(frozen=True, slots=True)
class Config:
    """What the bot needs to run. ``shard_count`` None runs one shard (no sharding); with it the bot runs
    ``shard_ids`` of that many shards (default: all of them) in this process."""

    token: str | None = None
    db_path: Path | str = DEFAULT_DB_PATH  # the SQLite file, or a postgresql:// URL (``bot.runtime.bank_location``)
    db_sync: DbSync = "normal"
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    health_file: Path | None = None
    api_base: str | None = None  # Discord's REST base URL (a rate-limiting proxy shared by the processes)

    @property
    def shards(self) -> tuple[int, tuple[int, ...]]:
        """(the shard count, the shards this process runs): (1, (0,)) for one unsharded connection."""
        count = self.shard_count or 1
        return count, self.shard_ids if self.shard_ids is not None else tuple(range(count))

    @property
    def sharded(self) -> bool:
        """True when the bot runs as an AutoShardedBot."""
        return self.shard_count is not None

    def runs_guild(self, guild_id: int) -> bool:
        """True when this process runs the shard of ``guild_id`` (Discord's ``(guild_id >> 22) % shard_count``)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines of a ``.env`` file (comments, blank lines and quotes handled)."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def load_config(env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Config:
    """The configuration: the environment wins over ``.env``. ValueError names a bad value."""
    merged: dict[str, str] = read_dotenv(dotenv) if dotenv is not None else {}
    merged.update(os.environ if env is None else env)
    guild = merged.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ValueError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
    level = merged.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ValueError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    sync = merged.get("POKER_DB_SYNC", "normal").strip().lower() or "normal"
    if sync not in DB_SYNCS:
        raise ValueError(f"POKER_DB_SYNC must be normal or full, not {sync!r}")
    shard_count, shard_ids = _shards(merged.get("SHARD_COUNT", ""), merged.get("SHARD_IDS", ""))
    health = merged.get("HEALTH_FILE", "").strip()
    return Config(
        token=merged.get("DISCORD_TOKEN", "").strip() or None,
        db_path=parse_bank(merged.get("POKER_DB", "").strip() or str(DEFAULT_DB_PATH)).target,
        db_sync=sync,
        log_level=level,
        dev_guild_id=int(guild) if guild else None,
        shard_count=shard_count,
        shard_ids=shard_ids,
        health_file=Path(health) if health else None,
        api_base=_api_base(merged.get("DISCORD_API_BASE", "")),
    )


def configured() -> Config | None:
    """The configuration of the environment and ``.env``, or None after printing what is wrong with it (one line
    on standard error: a command then exits 2)."""
    try:
        return load_config()
    except ValueError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return None


def _api_base(text: str) -> str | None:
    """``DISCORD_API_BASE``: an http(s) URL ending with the API version (``http://proxy:8080/api/v10``), or None."""
    value = text.strip().rstrip("/")
    if not value:
        return None
    if not re.match(r"^https?://[^/\s]+(/\S*)?$", value):
        raise ValueError(f"DISCORD_API_BASE must be an http:// or https:// URL such as http://nirn-proxy:8080/api/v10,"
                         f" not {text.strip()!r}")
    if not re.search(r"/api/v\d+$", value):
        raise ValueError(f"DISCORD_API_BASE must end with Discord's API version, such as {value}/api/v10")
    return value


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all)")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ValueError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return count, None
    parts = [p.strip() for p in ids_text.split(",") if p.strip()]
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(f"SHARD_IDS must list shard numbers separated by commas, such as 0,1, not {ids_text!r}")
    ids = tuple(sorted({int(p) for p in parts}))
    if ids[-1] >= count:
        raise ValueError(f"SHARD_IDS are numbered 0 to {count - 1} for SHARD_COUNT={count}, not {ids[-1]}")
    return count, ids
