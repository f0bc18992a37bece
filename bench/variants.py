"""The bot with proposed changes applied as patches, so that the load bench can measure them before they are made.

    python bench/variants.py --variant skip-message-events,no-draw-dm --port PORT --db PATH [launch options]

Used by ``bench/load.py --variant ...``; bench-only (the bot itself is never patched). Each variant stands for a
change suggested in ``docs/performance.md``:

* ``skip-message-events``: MESSAGE_CREATE and MESSAGE_UPDATE events are dropped unparsed (MESSAGE_DELETE, which
  the table cog listens to, still works). With the guild messages intent Discord sends the bot one of these, with
  the whole embed, for every message it posts or edits in a channel; discord.py builds a Message from each.
* ``quiet-gateway``: only the GUILDS intent (no message events at all). Cheapest, but the table cog's
  ``on_raw_message_delete`` (post the table again at once when a moderator deletes it) no longer fires; the next
  edit then finds the message gone and posts it again, and until then the player to act has no buttons.
* ``gc-report``: the time spent in each generation's garbage collections, written to the bot's log at exit
  (``--keep`` keeps the log); ``gc-python-thresholds`` the same with Python's own thresholds instead of the
  bot's (``cogs.app.tune_collector``).
* ``no-draw-dm``: no DM after a draw (the player would press My hand to see his new cards). Measures what the
  draw's DM costs; the bot keeps it, since the cards changed.

Made in the bot since (measured with this script first): no message cache (``max_messages=None``), no DM message
events, each player's DM channel remembered, the draw in a modal answered with the table instead of an ephemeral
view.
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

from cogs.app import PokerBot
from cogs.run import run_until_stopped
from pokerdev.launch import point_at


def quiet_gateway(bot: PokerBot) -> None:
    bot._connection._intents = discord.Intents(guilds=True)


def skip_message_events(bot: PokerBot) -> None:
    parsers: dict[str, Callable[[Any], None]] = bot._connection.parsers
    for event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
        parsers[event] = lambda data: None


def no_draw_dm(bot: PokerBot) -> None:
    from cogs.table._dealer import Dealer

    send = Dealer.send_dm

    async def unless_drawing(self: Dealer, *args: Any) -> None:
        if sys._getframe(1).f_code.co_name == "draw":
            return
        await send(self, *args)

    Dealer.send_dm = unless_drawing  # type: ignore[method-assign]


def gc_report(bot: PokerBot, python_thresholds: bool = False) -> None:
    """Time every garbage collection; the totals go to the bot's log at exit. ``python_thresholds``: the bot
    freezes what it loaded, but keeps Python's own collection thresholds."""
    import atexit
    import gc
    import time

    from cogs import app as bot_app

    if python_thresholds:
        bot_app.tune_collector = gc.freeze
    spent = [0.0, 0.0, 0.0]
    counts = [0, 0, 0]
    started: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.process_time()]
        elif started:
            spent[info["generation"]] += time.process_time() - started[0]
            counts[info["generation"]] += 1

    gc.callbacks.append(timed)
    atexit.register(lambda: print(f"GC: {counts} collections, {[round(t, 3) for t in spent]} s CPU, "
                                  f"process {time.process_time():.2f} s", file=sys.stderr, flush=True))


VARIANTS: dict[str, Callable[[PokerBot], None]] = {
    "gc-report": gc_report,
    "gc-python-thresholds": lambda bot: gc_report(bot, python_thresholds=True),
    "skip-message-events": skip_message_events,
    "quiet-gateway": quiet_gateway,
    "no-draw-dm": no_draw_dm,
}


def trace_memory(path: Path) -> None:
    """Trace allocations from now on; each SIGHUP writes what is alive, by file and by line, to ``path``."""
    import signal
    import tracemalloc

    tracemalloc.start(8)

    def dump(*_: object) -> None:
        import gc

        before = tracemalloc.get_traced_memory()[0]
        freed = gc.collect()  # cycles (views and their items, tasks) wait for the collector: not a leak
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        total = sum(s.size for s in snapshot.statistics("filename"))
        lines = [f"{before / 1024:,.0f} KB traced before gc.collect(), which freed {freed:,} objects; "
                 f"{total / 1024:,.0f} KB alive after it (Python allocations made since the start)", "by file:"]
        lines += [f"  {s.size / 1024:10,.0f} KB {s.count:9,} blocks  {s.traceback[0].filename}"
                  for s in snapshot.statistics("filename")[:25]]
        lines.append("by line:")
        lines += [f"  {s.size / 1024:10,.0f} KB {s.count:9,} blocks  {s.traceback[0].filename}:{s.traceback[0].lineno}"
                  for s in snapshot.statistics("lineno")[:40]]
        lines.append("where the biggest come from:")
        for stat in snapshot.statistics("traceback")[:8]:
            lines.append(f"  {stat.size / 1024:,.0f} KB in {stat.count:,} blocks:")
            lines += [f"    {line}" for line in stat.traceback.format(limit=8)]
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
