"""The tournament crash test's worker: ``python tests/tables/tournament_worker.py DB SEED T0 SPEED KILL``.

Plays tournaments at one table, one after the other, with random legal moves, on a fast clock that every run
shares (tournament time ``T0 + (wall - T0) * SPEED``): three players register, the tournament starts, hands are
dealt and played, broke players rebuy at random during the rebuy level; once a tournament is paid out its
table is closed and the next one opened. It prints one line after each thing is committed, flushed:

    ready                          the tables are restored
    deal HAND SB BEFORE AFTER      hand HAND was recorded at small blind SB; the tournament time read just
                                   before and just after the deal
    act HAND SEQ                   action SEQ of hand HAND is committed
    finished TOURNAMENT            the tournament is over and paid out
    closed TABLE

``KILL`` makes the worker SIGKILL itself at a chosen moment: ``level`` at its first level change (the first
deal at a higher level than the table's last hand: half the time before the hand is written, half right after
it is), ``payout`` inside the payout's transaction (after the first prize row is written, before the commit),
``none`` never (the test kills it).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bot.store.prize_pool as store_tournaments
from bot.poker import IllegalAction
from bot.store import Store
from bot.tables import Table, TableError, Tables, Terms
from bot.tables import tournament as mode
from bot.tools.simulate import random_action

GUILD, CHANNEL, HOST = 1, 11, 300
PLAYERS = (301, 302, 303)
LEVELS = "10/20, 20/40, 40/80, break 1, 80/160, 160/320"


def say(*words: object) -> None:
    print(*words, flush=True)


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class SharedClock(mode.Clock):
    """The same tournament time in every run of the worker (and in the test)."""

    def __init__(self, t0: float, speed: float) -> None:
        self.t0, self.speed = t0, speed

    def now(self) -> float:
        return self.t0 + (time.time() - self.t0) * self.speed

    def real_seconds(self, seconds: float) -> float:
        return seconds / self.speed


def arm(kill: str, rng: random.Random) -> None:
    """Make the worker kill itself at a level change or inside a payout."""
    if kill == "level":
        before_deal = mode.TournamentMode.before_deal
        after_write = rng.random() < 0.5

        async def killing_deal(self: mode.TournamentMode, table: Table) -> Terms:
            level = await before_deal(self, table)
            hands = await table.store.recent_hands(table.id, 1)
            if hands and level.settings.small_blind > hands[0].settings["stakes"]["small_blind"]:
                if not after_write:
                    die()
                start_hand = table.store.start_hand

                async def recorded(*args: Any, **kwargs: Any) -> Any:
                    record = await start_hand(*args, **kwargs)
                    die()
                    return record

                table.store.start_hand = recorded  # type: ignore[method-assign]
            return level

        mode.TournamentMode.before_deal = killing_deal  # type: ignore[method-assign]
    elif kill == "payout":
        post = store_tournaments.post

        async def killing_post(tx: Any, guild: int, user: int, delta: int, kind: str, **kwargs: Any) -> int:
            balance = await post(tx, guild, user, delta, kind, **kwargs)
            if kind == "tournament-prize":
                die()  # mid-transaction: one prize row written, nothing committed
            return balance

        store_tournaments.post = killing_post  # type: ignore[assignment]


class Worker:
    def __init__(self, store: Store, seed: int) -> None:
        self.store = store
        self.rng = random.Random(seed)
        self.tables = Tables(store, random.Random(seed * 1_000_003 + 7))

    async def run(self) -> None:
        await self.tables.restore()
        say("ready")
        while True:
            table = self.tables.get(CHANNEL)
            if table is None:
                settings, tournament = mode.new_tournament("five-card-draw", 100, 300, 1, levels=LEVELS, rebuys=1)
                await self.tables.create(GUILD, CHANNEL, HOST, settings, tournament=tournament)
                continue
            t = mode.tournament_of(table)
            assert t is not None
            if t.state.stage == "registering":
                await self.register_and_start(table, t)
            elif t.state.stage == "finished":
                await self.tables.close(CHANNEL)
                say("closed", table.id)
            elif table.live is not None:
                await self.act(table, t)
            else:
                await self.between_hands(table, t)

    async def register_and_start(self, table: Table, t: mode.TournamentMode) -> None:
        for user in PLAYERS:
            if user not in t.state.standing.players:
                await self.fund(user)
                await t.register(table, user)
        await t.start(table)

    async def fund(self, user: int) -> None:
        if await self.store.balance(GUILD, user) < 100:
            await self.store.grant(GUILD, user, 1000, HOST, reason="crash test")

    async def act(self, table: Table, t: mode.TournamentMode) -> None:
        live, actor, hand = table.live, table.actor(), table.hand
        assert live is not None and actor is not None and hand is not None
        seq = table.next_seq()
        await table.act(actor, random_action(hand, self.rng), seq)
        say("act", live.record.id, seq)
        if t.state.stage == "finished":
            say("finished", t.id)

    async def between_hands(self, table: Table, t: mode.TournamentMode) -> None:
        for bust in t.state.awaiting_rebuy:
            if self.rng.random() < 0.5:
                await self.fund(bust.player)
                await t.rebuy(table, bust.player)
        before = mode.now()
        try:
            outcome = await table.start_hand()
        except TableError:  # a break, or a wait for a broke player: try again soon
            if t.state.stage == "finished":
                say("finished", t.id)
            await asyncio.sleep(0.005)
            return
        after = mode.now()
        assert outcome.hand is not None and table.live is not None
        say("deal", table.live.record.id, outcome.hand.stakes.small_blind, repr(before), repr(after))


async def main(path: str, seed: int, t0: float, speed: float, kill: str) -> None:
    mode.CLOCK = SharedClock(t0, speed)
    arm(kill, random.Random(seed))
    store = await Store.open(path)
    try:
        await Worker(store, seed).run()
    except IllegalAction as error:  # the random player plays only what legal() allows: a real bug
        raise SystemExit(f"an action legal() allowed was refused: {error}") from error
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]))
