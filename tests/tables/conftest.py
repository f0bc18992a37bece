"""Fixtures for the table-layer tests: a real SQLite store in tmp_path (``tests/conftest.py``: audited after
every test), a ``Tables`` with a seeded ``random.Random``, and helpers to seat players and play hands
through ``Table.act(user, action, table.next_seq())``."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.poker import Hand
from bot.store import SeatRecord, Store
from bot.tables import Outcome, Table, Tables, TableSettings
from bot.tables.night import NightResults, night_results, resolve_night
from bot.tools.simulate import random_action

from ..conftest import OpenStore as OpenStore  # re-exported for the tests of this folder

G = 11  # the guild of most tests
CHANNEL = 2101
HOST = 100
ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GRACE, HEIDI = range(101, 109)
PLAYERS = (ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GRACE, HEIDI)
TABLE_SEED = 20240603

Policy = Callable[[Table], str]
Snapshot = dict[str, list[tuple[Any, ...]]]


class ScriptedSeeds(random.Random):
    """A ``random.Random`` whose ``randrange`` (what a table draws a hand's seed with) returns the
    given seeds first, then falls back to the seeded generator."""

    def __init__(self, seeds: Iterable[int] = (), fallback: int = 0) -> None:
        super().__init__(fallback)
        self.seeds = list(seeds)

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        if self.seeds:
            return self.seeds.pop(0)
        return super().randrange(*args, **kwargs)


def settings(game: str = "five-card-draw", **changes: Any) -> TableSettings:
    """Blinds 1/2 (buy-ins 40 to 200 chips by default) of ``game``."""
    base: dict[str, Any] = {"small_blind": 1, "big_blind": 2}
    return TableSettings(game, **{**base, **changes})


# ------------------------------------------------------------------ the store, audited after every test


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The database file of a test."""
    return tmp_path / "tables.db"


@pytest.fixture
def rng() -> random.Random:
    """The tables' seeded generator (hand seeds)."""
    return random.Random(TABLE_SEED)


@pytest.fixture
def tables(store: Store, rng: random.Random) -> Tables:
    """The table registry over the test's store."""
    return Tables(store, rng)


# ------------------------------------------------------------------ helpers


async def take_snapshot(store: Store) -> Snapshot:
    """Every row of every table of the bank, sorted: compare before and after a refused request."""
    from ..store.conftest import take_snapshot as every_row

    return await every_row(store)


def engine_state(hand: Hand | None) -> tuple[Any, ...]:
    """What an action could change in a hand, to compare before and after a refused one."""
    if hand is None:
        return ()
    return (
        tuple(hand.actions), tuple(hand.history), tuple(hand.stacks), tuple(hand.bets), tuple(hand.contributed),
        tuple(hand.folded), hand.actor, hand.phase, hand.round, tuple(tuple(h) for h in hand.holes),
        hand.deck.stub_size, len(hand.events),
    )


async def seat_players(table: Table, users: Sequence[int], buy_in: int | None = 100) -> list[SeatRecord]:
    """Sit ``users`` down in seats 1, 2, 3... (the first free ones) with ``buy_in`` chips each."""
    return [await table.join(user, buy_in) for user in users]


def passive(table: Table) -> str:
    """Check or call; stand pat; bring in (stud)."""
    legal = table.legal()
    assert legal is not None
    if legal.can_bring_in:
        return "pb"
    return "sd" if legal.phase == "drawing" else "cc"


def randomly(rng: random.Random) -> Policy:
    """The random legal player of ``bot.tools.simulate``."""

    def policy(table: Table) -> str:
        assert table.hand is not None
        return random_action(table.hand, rng)

    return policy


async def deal(table: Table, game: str | None = None) -> Hand:
    """Deal the next hand; when a dealer's choice is due the chooser picks ``game`` (default: the first
    game offered); otherwise the table's game (or the orbit's) is dealt."""
    chooser = table.chooser()
    if chooser is not None:
        outcome = await table.choose_game(chooser, game or table.choices()[0].id)
    else:
        outcome = await table.start_hand()
    assert outcome.hand is not None
    return outcome.hand


async def finish(table: Table, policy: Policy = passive, limit: int = 500) -> list[Outcome]:
    """Play the live hand to its end, each action by the member to act with the current seq."""
    results: list[Outcome] = []
    for _ in range(limit):
        actor = table.actor()
        if actor is None:
            return results
        results.append(await table.act(actor, policy(table), table.next_seq()))
    raise AssertionError(f"the hand did not end in {limit} actions")


async def play_hand(table: Table, policy: Policy = passive, game: str | None = None) -> Hand:
    """Deal a hand (see ``deal``) and play it to the end; return the finished engine hand."""
    hand = await deal(table, game)
    await finish(table, policy)
    assert hand.is_complete and table.hand is None
    return hand


def find_seed(ok: Callable[[Hand], bool], make: Callable[[int], Hand], start: int = 0, tries: int = 20_000) -> int:
    """The first seed from ``start`` whose freshly dealt hand ``make(seed)`` satisfies ``ok``."""
    for seed in range(start, start + tries):
        if ok(make(seed)):
            return seed
    raise AssertionError("no seed found")


async def channel_night(store: Store, tables: Tables) -> NightResults:
    """The results of the test channel's current (or last) night, as ``/chips results`` there shows them."""
    return await night_results(store, tables, await resolve_night(store, G, CHANNEL, None))
