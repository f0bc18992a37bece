"""The crash test's worker: ``python tests/tables/crash_worker.py DB_PATH SEED``, or ``run([DB_PATH, SEED])`` in a
child of a fork server (``python -m pokerdev.forks tests.tables.crash_worker:run``), which imports the bot once: a
forked worker is a process like any other to the kill and to the file; it only skips the second of imports each
start would cost.

Opens the store at DB_PATH, restores its tables (creating the planned ones on first run, or
again after one was closed) and plays forever with random legal actions from a generator
seeded by SEED: hands dealt (dealer's choice picked or timed out), actions, timeouts, players
leaving mid-hand, joining, rebuying, topping up, sitting out and in, tables paused and now and
then closed. It prints one line after each thing is committed, flushed, so that whoever kills
it knows what was written:

    ready                       the tables are restored
    act HAND SEQ TABLE          action SEQ (0-based) of hand HAND is committed
    deal HAND TABLE             hand HAND was recorded
    close TABLE                 the table was closed (a hand in play voided)

It never stops by itself: the test kills it with SIGKILL. Any unexpected exception ends it
with a traceback on stderr (and the test fails on the exit code).
"""

from __future__ import annotations

import asyncio
import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.poker import IllegalAction
from bot.store import Store, StoreError
from bot.tables import Table, TableError, Tables, TableSettings
from bot.tools.simulate import random_action

BANKER = 1


@dataclass(frozen=True)
class Plan:
    """A table the worker keeps open: where, what, and who may sit at it."""

    guild: int
    channel: int
    settings: TableSettings
    pool: tuple[int, ...]


PLANS = (
    Plan(1, 11, TableSettings("assassin", 1, 2, jokers=True, draw_limit="3"), tuple(range(101, 108))),
    Plan(1, 12, TableSettings("dealers-choice", 1, 2, choice_per="orbit", dealer_picks_structure=True),
         tuple(range(111, 119))),
    Plan(2, 21, TableSettings("triple-draw-27", 2, 4), tuple(range(201, 207))),
    Plan(2, 22, TableSettings("dealers-choice", 5, 10, ante=1), tuple(range(203, 210))),  # shares players
)
STRUCTURES = (None, None, "fixed-limit", "pot-limit", "no-limit")


def say(*words: object) -> None:
    print(*words, flush=True)


class Worker:
    def __init__(self, store: Store, seed: int) -> None:
        self.store = store
        self.rng = random.Random(seed)
        self.tables = Tables(store, random.Random(seed * 1_000_003 + 7))

    async def run(self) -> None:
        await self.tables.restore()
        say("ready")
        while True:
            plan = self.rng.choice(PLANS)
            table = self.tables.get(plan.channel) or await self.tables.create(
                plan.guild, plan.channel, BANKER, plan.settings
            )
            if table.live is not None:
                await self.play(table)
            else:
                await self.between_hands(plan, table)

    # ------------------------------------------------------------------ a hand

    async def play(self, table: Table) -> None:
        live = table.live
        assert live is not None
        hand_id, seq = live.record.id, table.next_seq()
        r = self.rng.random()
        if r < 0.001:  # the host closes the table mid-hand: the hand is voided
            await self.tables.close(table.record.channel_id)
            say("close", table.id)
        elif r < 0.02:  # somebody still in the hand leaves
            users = [u for u in live.users if (s := table.seat_of(u)) is not None and not s.leaving]
            if not users:
                return
            _, outcome = await table.leave(self.rng.choice(users))
            if outcome.events:
                say("act", hand_id, seq, table.id)
        elif r < 0.06:
            if await table.timeout(seq) is not None:
                say("act", hand_id, seq, table.id)
        else:
            actor = table.actor()
            assert actor is not None and table.hand is not None
            await table.act(actor, random_action(table.hand, self.rng), seq)
            say("act", hand_id, seq, table.id)

    # ------------------------------------------------------------------ between hands

    async def between_hands(self, plan: Plan, table: Table) -> None:
        rng = self.rng
        if table.paused:
            if rng.random() < 0.5:
                await table.resume()
            return
        r = rng.random()
        if r < 0.003:
            await self.tables.close(plan.channel)
            say("close", table.id)
            return
        if r < 0.01:
            await table.pause()
            return
        try:
            await self.seats(plan, table)
        except (TableError, StoreError):
            pass  # a refusal (a buy-in the balance does not cover...) changes nothing
        if len(table.dealt_in()) < 2:
            return
        try:
            chooser = table.chooser()
            if chooser is not None and rng.random() < 0.2:
                hand = (await table.choice_timed_out()).hand
            elif chooser is not None:
                game = rng.choice(table.choices()).id
                structure = rng.choice(STRUCTURES) if table.settings.dealer_picks_structure else None
                hand = (await table.choose_game(chooser, game, structure)).hand
            else:
                hand = (await table.start_hand()).hand
        except TableError:
            return  # e.g. too many players for any game of a 6-max table
        assert table.live is not None and table.live.hand is hand
        say("deal", table.live.record.id, table.id)

    async def seats(self, plan: Plan, table: Table) -> None:
        rng = self.rng
        low, high = table.settings.buy_in_range
        for seat in table.record.seats:
            if seat.stack == 0:
                if await self.store.balance(plan.guild, seat.user_id) < low:
                    await self.store.grant(plan.guild, seat.user_id, 2 * high, BANKER, reason="crash test")
                await table.rebuy(seat.user_id, rng.randint(low, high))
            elif seat.sitting_out and rng.random() < 0.5:
                await table.sit_in(seat.user_id)
        r = rng.random()
        seated = {s.user_id for s in table.record.seats}
        free = [u for u in plan.pool if u not in seated]
        if (r < 0.15 or len(seated) < 3) and free and len(seated) < table.settings.max_seats:
            user = rng.choice(free)
            if await self.store.balance(plan.guild, user) < high:
                await self.store.grant(plan.guild, user, 2 * high, BANKER, reason="crash test")
            await table.join(user, rng.randint(low, high))
        elif r < 0.22 and seated:
            await table.leave(rng.choice(sorted(seated)))
        elif r < 0.27 and seated:
            user = rng.choice(sorted(seated))
            mine = table.seat_of(user)
            if mine is not None and mine.stack < high:
                await table.rebuy(user, rng.randint(1, high - mine.stack))
        elif r < 0.30 and seated:
            await table.sit_out(rng.choice(sorted(seated)))


async def main(path: str, seed: int) -> None:
    store = await Store.open(path)
    try:
        await Worker(store, seed).run()
    except IllegalAction as error:  # the random player only plays what legal() allows: a real bug
        raise SystemExit(f"an action legal() allowed was refused: {error}") from error
    finally:
        await store.close()


def run(argv: list[str]) -> None:
    """The worker on ``[DB_PATH, SEED]``."""
    path, seed = argv
    asyncio.run(main(path, int(seed)))


if __name__ == "__main__":
    run(sys.argv[1:])
