"""The bot with proposed changes applied as patches, so that the load bench can measure them before they are made.

    python bench/variants.py --variant quiet-gateway,dm-cache --port PORT --db PATH [launch options]

Used by ``bench/load.py --variant ...``; bench-only (the bot itself is never patched). Each variant stands for a
change suggested in ``docs/performance.md``:

* ``no-message-cache``: ``max_messages=None``. discord.py keeps the last 1,000 messages it saw and finds one by
  a linear scan (``ConnectionState._get_message``), which it does for every MESSAGE_UPDATE it receives; the bot
  never reads that cache.
* ``skip-message-events``: ``no-message-cache``, and MESSAGE_CREATE and MESSAGE_UPDATE events are dropped
  unparsed (MESSAGE_DELETE, which the table cog listens to, still works). With the default intents Discord sends
  the bot one of these, with the whole embed, for every message it posts or edits; discord.py builds a Message
  (embeds, components) from each.
* ``quiet-gateway``: only the GUILDS intent (no message events at all) and no message cache. Cheapest, but the
  table cog's ``on_raw_message_delete`` (post the table again at once when a moderator deletes it) no longer
  fires; the next edit then finds the message gone and posts it again.
* ``dm-cache``: remember each player's DM channel. ``Client.create_dm`` caches only the last 128 DM channels, so
  with more than 128 players every private hand costs an extra ``POST /users/@me/channels``.
* ``no-draw-dm``: no DM after a draw: the answer to the Discard click already shows the player his new hand (and
  "My hand" shows it again). Cuts a REST call per draw.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bot.app import PokerBot
from bot.devtools.launch import point_at
from bot.run import run_until_stopped


def quiet_gateway(bot: PokerBot) -> None:
    bot._connection._intents = discord.Intents(guilds=True)
    bot._connection.max_messages = None
    bot._connection._messages = None


def no_message_cache(bot: PokerBot) -> None:
    bot._connection.max_messages = None
    bot._connection._messages = None


def skip_message_events(bot: PokerBot) -> None:
    no_message_cache(bot)
    parsers: dict[str, Callable[[Any], None]] = bot._connection.parsers
    for event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
        parsers[event] = lambda data: None


def dm_cache(bot: PokerBot) -> None:
    create_dm = bot.create_dm
    channels: dict[int, discord.DMChannel] = {}

    async def cached(user: discord.abc.Snowflake) -> discord.DMChannel:
        channel = channels.get(user.id)
        if channel is None:
            channel = channels[user.id] = await create_dm(user)
        return channel

    bot.create_dm = cached  # type: ignore[method-assign]


def no_draw_dm(bot: PokerBot) -> None:
    from cogs.table._runner import TableRunner

    # The runner DMs through send_dm (or, in older versions, send_private_hand); skip the one the draw sends.
    name = "send_dm" if hasattr(TableRunner, "send_dm") else "send_private_hand"
    send = getattr(TableRunner, name)

    async def unless_drawing(self: TableRunner, *args: Any) -> None:
        if sys._getframe(1).f_code.co_name == "on_draw":  # the draw's answer shows the new hand
            return
        await send(self, *args)

    setattr(TableRunner, name, unless_drawing)


VARIANTS: dict[str, Callable[[PokerBot], None]] = {
    "no-message-cache": no_message_cache,
    "skip-message-events": skip_message_events,
    "quiet-gateway": quiet_gateway,
    "dm-cache": dm_cache,
    "no-draw-dm": no_draw_dm,
}


def trace_memory(path: Path) -> None:
    """Trace allocations from now on; each SIGHUP writes what is alive, by file and by line, to ``path``."""
    import signal
    import tracemalloc

    tracemalloc.start(1)

    def dump(*_: object) -> None:
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        total = sum(s.size for s in snapshot.statistics("filename"))
        lines = [f"{total / 1024:,.0f} KB traced (Python allocations alive since the start)", "by file:"]
        lines += [f"  {s.size / 1024:10,.0f} KB {s.count:9,} blocks  {s.traceback[0].filename}"
                  for s in snapshot.statistics("filename")[:25]]
        lines.append("by line:")
        lines += [f"  {s.size / 1024:10,.0f} KB {s.count:9,} blocks  {s.traceback[0].filename}:{s.traceback[0].lineno}"
                  for s in snapshot.statistics("lineno")[:40]]
        path.write_text("\n".join(lines) + "\n")

    signal.signal(signal.SIGHUP, dump)


async def run(port: int, db: str, seed: int | None, delay: float, variants: Sequence[str]) -> None:
    point_at(port)
    bot = PokerBot(db, rng=random.Random(seed) if seed is not None else None, next_hand_delay=delay)
    bot._connection.guild_ready_timeout = 0.05
    for name in variants:
        VARIANTS[name](bot)
    await run_until_stopped(bot, "fake-token")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="", help=f"comma-separated: {', '.join(VARIANTS)}")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--next-hand-delay", type=float, default=0.05)
    parser.add_argument("--sample", type=Path, default=None,
                        help="sample the event loop's stack (bench/sampler.py); the report goes to this file")
    parser.add_argument("--tracemalloc", type=Path, default=None,
                        help="trace allocations; on SIGHUP write the biggest live ones to this file")
    args = parser.parse_args(argv)
    chosen = [v for v in args.variant.split(",") if v]
    unknown = [v for v in chosen if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant(s) {unknown}; known: {sorted(VARIANTS)}")
    discord.utils.setup_logging(level=logging.WARNING)
    if args.tracemalloc is not None:
        trace_memory(args.tracemalloc)
    if args.sample is not None:
        from sampler import profile_to  # bench/ is on sys.path when this file runs as a script

        profile_to(args.sample)
    try:
        asyncio.run(run(args.port, args.db, args.seed, args.next_hand_delay, chosen))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
