"""Run the real bot against a fake Discord listening on this machine (tests, benchmarks).

    python -m pokerdev.launch --port PORT --db PATH|URL [--seed S] [--next-hand-delay SECONDS] [--connect-for SECONDS]
                              [--shards COUNT:ID,ID...] [--api-base URL]

``--db`` is an SQLite file or a ``postgresql://`` URL. ``--shards 2:1`` runs shard 1 of 2 (``SHARD_COUNT`` and
``SHARD_IDS``). ``--api-base`` sends the REST calls through the bot's own ``DISCORD_API_BASE`` setting instead of
pointing discord.py at the fake (the gateway is pointed at the fake either way). Only loopback addresses are
accepted: this never talks to Discord.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from collections.abc import Sequence

import discord
import discord.gateway
import discord.http
import yarl

from bot.runtime.bank_location import parse_bank
from bot.runtime.config import Config
from cogs.app import PokerBot, make_bot
from cogs.logs import setup_logging
from cogs.run import CONNECT_FOR, serve


def point_at(port: int, *, rest: bool = True) -> None:
    """Send discord.py's gateway connection (and its REST calls, unless ``rest`` is False) to the fake on
    127.0.0.1:``port``."""
    if rest:
        discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")


def make(port: int, db: str, seed: int | None, delay: float, *, shards: tuple[int, tuple[int, ...]] | None = None,
         api_base: str | None = None) -> PokerBot:
    """The bot, pointed at the fake (its REST calls through ``api_base`` when given)."""
    point_at(port, rest=api_base is None)
    if api_base is not None and not api_base.startswith(("http://127.", "http://localhost")):
        raise SystemExit("--api-base must be a loopback URL: this never talks to Discord")
    config = Config(db_path=parse_bank(db).target, api_base=api_base,
                    shard_count=shards[0] if shards else None, shard_ids=shards[1] if shards else None)
    bot = make_bot(config, rng=random.Random(seed) if seed is not None else None, next_hand_delay=delay)
    bot._connection.guild_ready_timeout = 0.05
    return bot


def _shards(text: str) -> tuple[int, tuple[int, ...]]:
    count, _, ids = text.partition(":")
    return int(count), tuple(int(i) for i in ids.split(",")) if ids else tuple(range(int(count)))


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the bot (exit status as ``python -m bot``'s: 2 for a problem at start)."""
    parser = argparse.ArgumentParser(prog="python -m pokerdev.launch", description=__doc__)
    parser.add_argument("--port", type=int, required=True, help="the fake Discord's port on 127.0.0.1")
    parser.add_argument("--db", required=True, help="the SQLite file or a postgresql:// URL")
    parser.add_argument("--shards", type=_shards, default=None, help="COUNT:ID,ID...: the shards this process runs")
    parser.add_argument("--api-base", default=None, help="the REST base URL (DISCORD_API_BASE), on loopback")
    parser.add_argument("--seed", type=int, default=None, help="seed the hands (reproducible runs)")
    parser.add_argument("--next-hand-delay", type=float, default=0.05)
    parser.add_argument("--log-level", default="WARNING")
    parser.add_argument("--connect-for", type=float, default=CONNECT_FOR,
                        help="seconds to keep trying to reach the fake at start before giving up")
    args = parser.parse_args(argv)
    setup_logging(getattr(logging, args.log_level.upper(), logging.WARNING))
    return serve(make(args.port, args.db, args.seed, args.next_hand_delay, shards=args.shards,
                      api_base=args.api_base), "fake-token",
                 connect_for=args.connect_for)


if __name__ == "__main__":
    sys.exit(main())
