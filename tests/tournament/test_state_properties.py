"""Property test of the tournament value (hypothesis stateful): random registrations, starts, hands, rebuys,
pauses, late registrations, restarts from JSON and cancels, checked against a model of the bank and the table.

The model keeps what each player paid into the prize pool and got back, and the table's stacks. After every
step: the prize pool is every buy-in and rebuy still held, a restart from JSON changes nothing, a player still
in has chips unless he is waiting to rebuy; a cancel returns exactly what each paid; a finished tournament
pays the whole pool, the winner first and no worse place more than a better one.
"""

from __future__ import annotations

import itertools
import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from bot.tournament.levels import parse_levels
from bot.tournament.state import Tournament

T0 = 1_700_000_000.0
SCHEDULE = tuple(parse_levels("5/10, 10/20, break 1, 20/40, 40/80/5, 80/160/10", level_minutes=1))
PLAYERS = st.integers(1, 9)


class TournamentMachine(RuleBasedStateMachine):
    t: Tournament

    def __init__(self) -> None:
        super().__init__()
        self.now = T0
        self.paid: dict[int, int] = {}  # the bank's view: chips each player put into the pool, net of refunds
        self.refunded = 0
        self.stacks: dict[int, int] = {}  # the table's tournament chips

    @initialize(
        buy_in=st.sampled_from([0, 1, 7, 20]),
        late=st.integers(0, 3),
        rebuys=st.integers(0, 3),
        max_rebuys=st.none() | st.integers(1, 2),
        seats=st.none() | st.integers(2, 6),
        payouts=st.none() | st.sampled_from([(5_000, 3_000, 2_000), (10_000,), (3_334, 3_333, 3_333)]),
        players=st.lists(PLAYERS, min_size=2, max_size=6, unique=True),
        started=st.integers(0, 3),
    )
    def create(self, buy_in: int, late: int, rebuys: int, max_rebuys: int | None, seats: int | None,
               payouts: tuple[int, ...] | None, players: list[int], started: int) -> None:
        self.t = Tournament(buy_in, 100, SCHEDULE, payouts, late, rebuys, max_rebuys, seats)
        for player in players:
            self.register(player)
        if started:  # most runs start at once; the others register, unregister and start as they go
            self.start()

    def in_play(self) -> list[int]:
        waiting = {bust.player for bust in self.t.awaiting_rebuy}
        return [p for p in self.t.standing.alive if p not in waiting]

    @rule(player=PLAYERS)
    def register(self, player: int) -> None:
        t = self.t
        open_now = t.stage == "registering" or t.can_register_late(self.now)
        room = t.seats is None or len(t.standing.alive) < t.seats
        if open_now and room and player not in t.standing.players:
            self.t = t.register(player, self.now)
            self.paid[player] = self.paid.get(player, 0) + t.buy_in
            if t.stage == "running":
                self.stacks[player] = t.starting_chips
        else:
            self.refused(lambda: t.register(player, self.now))

    @rule(player=PLAYERS)
    def unregister(self, player: int) -> None:
        t = self.t
        if t.stage == "registering" and player in t.standing.players:
            self.t, refund = t.unregister(player)
            assert refund == self.paid[player] == t.buy_in
            self.paid[player] -= refund
        else:
            self.refused(lambda: t.unregister(player))

    @rule()
    def start(self) -> None:
        t = self.t
        if t.stage == "registering" and t.entrants >= 2:
            self.t = t.start(self.now)
            self.stacks = dict.fromkeys(t.standing.players, t.starting_chips)
        else:
            self.refused(lambda: t.start(self.now))

    @rule(seconds=st.sampled_from([1, 10, 30, 45, 61]))
    def wait(self, seconds: int) -> None:
        self.now += seconds

    @rule()
    def toggle_pause(self) -> None:
        t = self.t
        if t.status == "paused":
            self.t = t.resume(self.now)
        elif t.status == "running":
            self.t = t.pause(self.now)
        else:
            self.refused(lambda: t.pause(self.now))

    @precondition(lambda self: self.t.stage == "running" and len(self.in_play()) >= 2)
    @rule(data=st.data())
    def play_hand(self, data: st.DataObject) -> None:
        seats = data.draw(st.lists(st.sampled_from(self.in_play()), min_size=2, unique=True))
        start = {p: self.stacks[p] for p in seats}
        winner = data.draw(st.sampled_from(seats))
        end = dict(start)
        for loser in seats:
            if loser != winner:
                lost = data.draw(st.sampled_from([start[loser], start[loser], start[loser] // 2, 0]))
                end[loser] -= lost
                end[winner] += lost
        self.t = self.t.hand_finished(start, end, seats, self.now)
        self.stacks.update(end)

    @precondition(lambda self: bool(self.t.awaiting_rebuy))
    @rule(data=st.data())
    def rebuy(self, data: st.DataObject) -> None:
        player = data.draw(st.sampled_from([bust.player for bust in self.t.awaiting_rebuy]))
        self.t = self.t.rebuy(player)
        self.paid[player] += self.t.buy_in
        self.stacks[player] = self.t.starting_chips

    @rule()
    def settle(self) -> None:
        self.t = self.t.settle_busts()

    @rule()
    def restart(self) -> None:
        self.t = Tournament.from_json(json.loads(json.dumps(self.t.to_json())))

    @rule(now=st.integers(0, 19))
    def cancel(self, now: int) -> None:
        t = self.t
        if now:  # a host cancels rarely: most draws leave it running
            return
        if t.stage in ("registering", "running"):
            self.t, refunds = t.cancel()
            assert refunds == {p: paid for p, paid in self.paid.items() if p in t.standing.players}
            assert all(paid == 0 for p, paid in self.paid.items() if p not in t.standing.players)
            self.refunded += sum(refunds.values())
        else:
            self.refused(t.cancel)

    @staticmethod
    def refused(action: object) -> None:
        try:
            action()  # type: ignore[operator]
        except ValueError:
            return
        raise AssertionError("a refused action went through")

    @invariant()
    def the_pool_holds_every_buy_in_and_rebuy(self) -> None:
        t = self.t
        assert t.prize_pool == sum(self.paid.values())
        paid_out = t.stage in ("finished", "cancelled")
        assert t.pool_held == (0 if paid_out else t.prize_pool)
        assert self.refunded == (t.prize_pool if t.stage == "cancelled" else 0)
        assert t.prize_pool == t.buy_in * (t.entrants + t.rebuys)
        assert Tournament.from_json(json.loads(json.dumps(t.to_json()))) == t

    @invariant()
    def a_cancel_now_would_return_exactly_what_each_paid(self) -> None:
        if self.t.stage in ("registering", "running"):
            cancelled, refunds = self.t.cancel()
            assert refunds == {p: self.paid[p] for p in self.t.standing.players}
            assert sum(self.paid.values()) == sum(refunds.values()), "the withdrawn got theirs back already"
            assert cancelled.pool_held == 0

    @invariant()
    def players_still_in_have_chips_unless_waiting_to_rebuy(self) -> None:
        if self.t.stage != "running":
            return
        for player in self.in_play():
            assert self.stacks[player] > 0
        for bust in self.t.awaiting_rebuy:
            assert self.stacks[bust.player] == 0

    @invariant()
    def a_finished_tournament_pays_the_whole_pool_by_place(self) -> None:
        t = self.t
        if t.stage != "finished":
            return
        prizes = t.prizes()
        assert sum(prizes.values()) == t.prize_pool
        ranked = t.placings()
        (winner,) = ranked[0].players
        assert self.stacks[winner] > 0 and ranked[0].place == 1
        for better, worse in itertools.pairwise(ranked):
            assert min(prizes[p] for p in better.players) >= max(prizes[p] for p in worse.players)


TournamentMachine.TestCase.settings = settings(
    max_examples=150, stateful_step_count=40, derandomize=True, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_tournament_machine = TournamentMachine.TestCase
