"""Run the real bot against a fake Discord listening on this machine (tests, benchmarks).

    python -m pokerdev.launch --port PORT --db PATH [--seed S] [--next-hand-delay SECONDS] [--connect-for SECONDS]

Only loopback addresses are accepted: this never talks to Discord.
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

from bot.app import PokerBot
from bot.logs import setup_logging
from bot.run import CONNECT_FOR, serve


def point_at(port: int) -> None:
    """Send discord.py's REST calls and gateway connection to the fake on 127.0.0.1:``port``."""
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")


def make(port: int, db: str, seed: int | None, delay: float) -> PokerBot:
    """The bot, pointed at the fake."""
    point_at(port)
    bot = PokerBot(db, rng=random.Random(seed) if seed is not None else None, next_hand_delay=delay)
    bot._connection.guild_ready_timeout = 0.05
    return bot


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the bot (exit status as ``python -m bot``'s: 2 for a problem at start)."""
    parser = argparse.ArgumentParser(prog="python -m pokerdev.launch", description=__doc__)
    parser.add_argument("--port", type=int, required=True, help="the fake Discord's port on 127.0.0.1")
    parser.add_argument("--db", required=True, help="the SQLite file")
    parser.add_argument("--seed", type=int, default=None, help="seed the hands (reproducible runs)")
    parser.add_argument("--next-hand-delay", type=float, default=0.05)
    parser.add_argument("--log-level", default="WARNING")
    parser.add_argument("--connect-for", type=float, default=CONNECT_FOR,
                        help="seconds to keep trying to reach the fake at start before giving up")
    args = parser.parse_args(argv)
    setup_logging(getattr(logging, args.log_level.upper(), logging.WARNING))
    return serve(make(args.port, args.db, args.seed, args.next_hand_delay), "fake-token",
                 connect_for=args.connect_for)


if __name__ == "__main__":
    sys.exit(main())
