"""Run the real bot against a fake Discord listening on this machine (tests, benchmarks).

    python -m pokerdev.launch --port PORT --db PATH [--seed S] [--next-hand-delay SECONDS]

Only loopback addresses are accepted: this never talks to Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
from collections.abc import Sequence

import discord
import discord.gateway
import discord.http
import yarl

from bot.app import PokerBot
from bot.run import run_until_stopped


def point_at(port: int) -> None:
    """Send discord.py's REST calls and gateway connection to the fake on 127.0.0.1:``port``."""
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")


async def run(port: int, db: str, seed: int | None, delay: float) -> None:
    """Start the bot on the fake and run until it is stopped."""
    point_at(port)
    bot = PokerBot(db, rng=random.Random(seed) if seed is not None else None, next_hand_delay=delay)
    bot._connection.guild_ready_timeout = 0.05
    await run_until_stopped(bot, "fake-token")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the bot."""
    parser = argparse.ArgumentParser(prog="python -m pokerdev.launch", description=__doc__)
    parser.add_argument("--port", type=int, required=True, help="the fake Discord's port on 127.0.0.1")
    parser.add_argument("--db", required=True, help="the SQLite file")
    parser.add_argument("--seed", type=int, default=None, help="seed the hands (reproducible runs)")
    parser.add_argument("--next-hand-delay", type=float, default=0.05)
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args(argv)
    discord.utils.setup_logging(level=getattr(logging, args.log_level.upper(), logging.WARNING))
    try:
        asyncio.run(run(args.port, args.db, args.seed, args.next_hand_delay))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
