"""Table-layer benchmark: rebuild 1,000 open tables with live hands through ``Tables.restore()``.

    python bench/bench_tables.py [--tables N] [--finished N] [--dir DIR] [--repeat N]

Builds a fresh SQLite file through the table layer itself: ``--tables`` tables (default 1,000) in
ten guilds, each with 2 to 6 players, a game from the catalogue (dealer's choice on some), and a
live hand a few random legal actions in (``--finished`` completed hands before it, default 0).
Then it closes the store and, like a restarted bot, opens it and times ``Tables.restore()``: the
open tables, their seats, the live hands' seeds and logs, and every hand rebuilt through the engine.
The same hands are replayed once more through the engine alone (``Hand`` + ``act``), on records
already in memory, to show what share of the restore is the replay. The best of ``--repeat`` runs
(default 3) of each is reported.

Target (issue 3): rebuilding 1,000 open tables with live hands in under 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.poker import Hand, Stakes
from bot.store import HandRecord, Store
from bot.tables import Table, Tables, TableSettings
from bot.tools.simulate import random_action

GAMES = ("five-card-draw", "assassin", "triple-draw-27", "single-draw-a5", "double-draw-27", "dealers-choice")


async def build(path: Path, count: int, finished: int, rng: random.Random) -> None:
    """Open ``count`` tables, each with ``finished`` completed hands and a live hand a few actions in."""
    async with await Store.open(path) as store:
        tables = Tables(store, random.Random(1))
        for i in range(count):
            game = GAMES[i % len(GAMES)]
            table = await tables.create(1 + i % 10, 10_000 + i, 1, TableSettings(game, 1, 2))
            for seat in range(rng.randint(2, 6)):
                await table.join(100_000 + 10 * i + seat, rng.randint(40, 200))
            for _ in range(finished):
                await deal(table, rng)
                while (actor := table.actor()) is not None:
                    await table.act(actor, random_action(table.hand, rng), table.next_seq())  # type: ignore[arg-type]
            while not await live_hand_a_few_actions_in(table, rng):
                pass  # the hand ended (everyone all in): deal another


async def live_hand_a_few_actions_in(table: Table, rng: random.Random) -> bool:
    """Deal and play 2 to 8 random actions, not folding to one player; True if the hand is still live."""
    await deal(table, rng)
    for _ in range(rng.randint(2, 8)):
        hand, actor = table.hand, table.actor()
        if hand is None or actor is None:
            break
        action = random_action(hand, rng)
        await table.act(actor, "cc" if action == "f" and len(hand.in_hand()) == 2 else action, table.next_seq())
    return table.hand is not None


async def deal(table: Table, rng: random.Random) -> None:
    for seat in table.record.seats:
        if seat.stack == 0:
            await table.rebuy(seat.user_id, 40)
    chooser = table.chooser()
    if chooser is not None:
        await table.choose_game(chooser, rng.choice(table.choices()).id)
    else:
        await table.start_hand()


async def time_restore(path: Path) -> tuple[float, int, list[HandRecord]]:
    """Seconds for ``Tables.restore()`` on a freshly opened store; live tables; the live hand records."""
    async with await Store.open(path) as store:
        start = time.perf_counter()
        restored = await Tables(store).restore()
        elapsed = time.perf_counter() - start
        live = sum(t.live is not None for t in restored)
        records = await store.live_hands()
    return elapsed, live, records


def time_replay(records: list[HandRecord]) -> float:
    """Seconds to rebuild the same hands with the engine alone."""
    start = time.perf_counter()
    for record in records:
        settings = record.settings
        stakes = dict(settings["stakes"])
        if stakes.get("antes") is not None:
            stakes["antes"] = tuple(stakes["antes"])
        hand = Hand(record.game, Stakes(**stakes), list(record.stacks_before), seed=record.seed,
                    carried_in=record.carried_in, jokers=settings["jokers"], draw_limit=settings["draw_limit"])
        for action in record.actions:
            hand.act(action)
    return time.perf_counter() - start


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--finished", type=int, default=0, help="completed hands per table before the live one")
    parser.add_argument("--dir", type=Path, default=None, help="where the temporary file goes")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-tables-", dir=args.dir))
    try:
        path = folder / "tables.db"
        start = time.perf_counter()
        await build(path, args.tables, args.finished, random.Random(7))
        print(f"built {args.tables:,} tables ({args.finished} finished hands each, then a live one)"
              f" in {time.perf_counter() - start:.1f} s; file {path.stat().st_size / 1e6:.1f} MB")
        restores, replays = [], []
        for _ in range(args.repeat):
            elapsed, live, records = await time_restore(path)
            assert live == args.tables == len(records), (live, len(records))
            restores.append(elapsed)
            replays.append(time_replay(records))
        actions = sum(len(r.actions) for r in records)
        restore, replay = min(restores), min(replays)
        print(f"Tables.restore(): {args.tables:,} tables, {live:,} live hands ({actions:,} actions)"
              f" in {restore:.3f} s (best of {args.repeat}; target < 2 s: {'OK' if restore < 2 else 'MISSED'})")
        print(f"engine replay alone of the same hands: {replay:.3f} s; restore / replay = {restore / replay:.1f}x")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
