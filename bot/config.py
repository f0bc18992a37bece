"""Settings from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .store.db import db_path_from_env


@dataclass(frozen=True, slots=True)
class Config:
    """What the bot needs to run."""

    token: str | None
    db_path: Path
    log_level: str
    dev_guild_id: int | None


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
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ValueError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    return Config(
        token=merged.get("DISCORD_TOKEN", "").strip() or None,
        db_path=db_path_from_env(merged),
        log_level=level,
        dev_guild_id=int(guild) if guild else None,
    )
