"""A tournament as one value: its settings, entrants, clock and standing, with pure transitions.

Every transition returns a new :class:`Tournament` and changes nothing on bad input (a ValueError with a
message for the player or host). The caller moves the money, each movement with the stored tournament in one
transaction: :meth:`Tournament.register` and :meth:`Tournament.rebuy` take ``buy_in`` from the player into the
prize pool; :meth:`Tournament.unregister` and :meth:`Tournament.cancel` return what they give back; once
``status`` is ``finished``, :meth:`Tournament.prizes` is what the pool pays. Tournament chips are not bank
chips: the table deals them (``starting_chips`` to each entrant and at each rebuy), and the prize pool holds
every buy-in and rebuy until it is paid (:attr:`Tournament.pool_held`, for the audit).

The table's part, before each deal: :meth:`Tournament.settle_busts` once the rebuy window of the last hand
has closed, then :meth:`Tournament.next_hand` for the level; after each hand, :meth:`Tournament.hand_finished`
with the hand's starting and final stacks.

Rebuys: a player may rebuy only when he has no chips left (not while he still has a short stack), during the
first ``rebuy_levels`` levels, at most ``max_rebuys`` times (None: no limit). A player who goes broke then is
not out yet: he is in ``awaiting_rebuy`` until he rebuys or the table settles the busts, and only then out,
placed by the chips he started his last hand with, as if he had gone out in it. Whether he may rebuy is
decided when he goes broke: a window the table keeps open a little past the end of the rebuy levels is his.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from bot.i18n.text import Text

from .clock import (
    ClockState,
    NextHand,
    advance_due,
    level_for_next_hand,
    open_through_level,
    start_clock,
)
from .clock import pause as pause_clock
from .clock import resume as resume_clock
from .levels import Level, Schedule, playing_levels, schedule_from_json, schedule_to_json, validate_schedule
from .payouts import BASIS_POINTS, prize_amounts, shares_for
from .placements import Placing, Standing, final_prizes, knock_out, placings, record_eliminations

Stage = Literal["registering", "running", "finished", "cancelled"]
Status = Literal["registering", "running", "paused", "finished", "cancelled"]
STAGES: tuple[Stage, ...] = ("registering", "running", "finished", "cancelled")
JSON_VERSION = 1

# Refusals that name the tournament's status: a sentence for each (a language cannot slot "finished" into one).
_CANNOT_START: Final[dict[Status, Text]] = {
    "registering": Text("the tournament is registering, it cannot start again"),
    "running": Text("the tournament is running, it cannot start again"),
    "paused": Text("the tournament is paused, it cannot start again"),
    "finished": Text("the tournament is finished, it cannot start again"),
    "cancelled": Text("the tournament is cancelled, it cannot start again"),
}
_CANNOT_CANCEL: Final[dict[Stage, Text]] = {
    "registering": Text("the tournament is registering: it cannot be cancelled"),
    "running": Text("the tournament is running: it cannot be cancelled"),
    "finished": Text("the tournament is finished: it cannot be cancelled"),
    "cancelled": Text("the tournament is cancelled: it cannot be cancelled"),
}
_Needs = Literal["a hand", "the clock", "a rebuy"]  # what needs a running tournament
_NEEDS_RUNNING: Final[dict[_Needs, dict[Status, Text]]] = {
    "a hand": {
        "registering": Text("a hand needs a running tournament; this one is registering"),
        "running": Text("a hand needs a running tournament; this one is running"),
        "paused": Text("a hand needs a running tournament; this one is paused"),
        "finished": Text("a hand needs a running tournament; this one is finished"),
        "cancelled": Text("a hand needs a running tournament; this one is cancelled"),
    },
    "the clock": {
        "registering": Text("the clock needs a running tournament; this one is registering"),
        "running": Text("the clock needs a running tournament; this one is running"),
        "paused": Text("the clock needs a running tournament; this one is paused"),
        "finished": Text("the clock needs a running tournament; this one is finished"),
        "cancelled": Text("the clock needs a running tournament; this one is cancelled"),
    },
    "a rebuy": {
        "registering": Text("a rebuy needs a running tournament; this one is registering"),
        "running": Text("a rebuy needs a running tournament; this one is running"),
        "paused": Text("a rebuy needs a running tournament; this one is paused"),
        "finished": Text("a rebuy needs a running tournament; this one is finished"),
        "cancelled": Text("a rebuy needs a running tournament; this one is cancelled"),
    },
}


@dataclass(frozen=True, slots=True)
class Entry:
    """An entrant: how many times he rebought, and whether he registered late (after the start)."""

    player: int
    rebuys: int = 0
    late: bool = False


@dataclass(frozen=True, slots=True)
class Bust:
    """A player out of chips who may still rebuy, with the chips he started that hand with."""

    player: int
    chips: int


@dataclass(frozen=True, slots=True)
class Tournament:
    """A sit-and-go: the settings first, then the state (start one with only the settings)."""

    buy_in: int
    starting_chips: int
    schedule: Schedule
    payouts: tuple[int, ...] | None = None  # the host's shares (basis points); None: default_payouts
    late_registration_levels: int = 0
    rebuy_levels: int = 0
    max_rebuys: int | None = None
    seats: int | None = None  # the most players in at once (the table's seats); None: no limit here
    stage: Stage = "registering"
    entries: tuple[Entry, ...] = ()
    standing: Standing = field(default_factory=Standing)
    clock: ClockState | None = None
    awaiting_rebuy: tuple[Bust, ...] = ()

    def __post_init__(self) -> None:
        if not _whole(self.buy_in) or self.buy_in < 0:
            raise ValueError(Text("the buy-in must be a whole number of chips, not {buy_in}", buy_in=repr(self.buy_in)))
        if not _whole(self.starting_chips) or self.starting_chips < 1:
            raise ValueError(Text("the starting chips must be a whole number above zero, not {chips}",
                                  chips=repr(self.starting_chips)))
        object.__setattr__(self, "schedule", validate_schedule(self.schedule))
        first = next(step for step in self.schedule if isinstance(step, Level))
        if self.starting_chips < first.big_blind:
            raise ValueError(Text("the starting chips ({chips}) must cover the first big blind ({big_blind})",
                                  chips=str(self.starting_chips), big_blind=str(first.big_blind)))
        if self.payouts is not None:
            shares = tuple(self.payouts)
            if (not shares or any(not _whole(s) or s < 1 for s in shares) or sum(shares) != BASIS_POINTS
                    or any(a < b for a, b in itertools.pairwise(shares))):
                raise ValueError(Text("the payouts must be falling shares of the prize pool summing to 100%"))
            object.__setattr__(self, "payouts", shares)
        levels = playing_levels(self.schedule)
        late, rebuys = self.late_registration_levels, self.rebuy_levels
        if not _whole(late) or not 0 <= late <= levels:
            raise ValueError(Text("late registration can last from 0 to {levels} levels (the schedule's), not {value}",
                                  levels=str(levels), value=repr(late)))
        if not _whole(rebuys) or not 0 <= rebuys <= levels:
            raise ValueError(Text("rebuys can last from 0 to {levels} levels (the schedule's), not {value}",
                                  levels=str(levels), value=repr(rebuys)))
        if self.max_rebuys is not None and (not _whole(self.max_rebuys) or self.max_rebuys < 1):
            raise ValueError(Text("the most rebuys per player must be at least 1 (or no limit), not {value}",
                                  value=repr(self.max_rebuys)))
        if self.seats is not None and (not _whole(self.seats) or self.seats < 2):
            raise ValueError(Text("a tournament needs at least 2 seats, not {seats}", seats=repr(self.seats)))
        self._check_state()

    def _check_state(self) -> None:
        if self.stage not in STAGES:
            raise ValueError(f"unknown tournament stage {self.stage!r}")
        if self.standing.players != tuple(entry.player for entry in self.entries):
            raise ValueError("the standing must list the entrants in registration order")
        if any(not _whole(e.rebuys) or e.rebuys < 0 for e in self.entries):
            raise ValueError("rebuys are counted in whole numbers")
        if self.stage == "registering" and self.clock is not None:
            raise ValueError("a tournament has no clock before its start")
        if self.stage in ("running", "finished") and self.clock is None:
            raise ValueError("a tournament has a clock from its start")
        alive = set(self.standing.alive)
        if not all(bust.player in alive for bust in self.awaiting_rebuy):
            raise ValueError("only a player still in can be waiting to rebuy")
        if self.stage == "finished" and (len(alive) != 1 or self.awaiting_rebuy):
            raise ValueError("a finished tournament has exactly one player left")

    # --- what it is now ---

    @property
    def status(self) -> Status:
        """registering, running, paused (a running tournament whose clock is stopped), finished or cancelled."""
        if self.stage == "running" and self.clock is not None and self.clock.is_paused:
            return "paused"
        return self.stage

    @property
    def entrants(self) -> int:
        return len(self.entries)

    @property
    def rebuys(self) -> int:
        """Rebuys made, by every player."""
        return sum(entry.rebuys for entry in self.entries)

    @property
    def prize_pool(self) -> int:
        """Every buy-in and rebuy: what the pool holds until it is paid (or refunded)."""
        return self.buy_in * (self.entrants + self.rebuys)

    @property
    def pool_held(self) -> int:
        """What the prize pool holds now: the prize pool until the tournament is paid out or cancelled, then 0."""
        return self.prize_pool if self.stage in ("registering", "running") else 0

    def paid_in(self, player: int) -> int:
        """What ``player`` has put into the prize pool: his buy-in and his rebuys."""
        return self.buy_in * (1 + self._entry(player).rebuys)

    def payout_amounts(self) -> list[int]:
        """The prize for each place, first place first, for the field and pool as they stand now."""
        return prize_amounts(self.prize_pool, shares_for(max(2, self.entrants), self.payouts))

    def placings(self) -> list[Placing]:
        """The places known so far, best first (all of them once finished)."""
        return placings(self.standing)

    def prizes(self) -> dict[int, int]:
        """Each entrant's prize (0 out of the money), summing to the prize pool: only once finished."""
        if self.stage != "finished":
            raise ValueError(Text("the prizes are paid when the tournament is over"))
        return final_prizes(self.standing, self.payout_amounts())

    def can_register_late(self, now: float) -> bool:
        """Whether late registration is open at ``now`` (the clock within the late registration levels)."""
        return (self.stage == "running" and self.clock is not None
                and open_through_level(self.schedule, self.clock, now, self.late_registration_levels))

    def next_hand(self, now: float) -> NextHand:
        """The level to deal the next hand at (or why not to deal): call it before each deal and play the
        whole hand at that level. Players waiting to rebuy have no chips and are not dealt in."""
        return level_for_next_hand(self.schedule, self._running_clock("a hand"), now)

    # --- transitions ---

    def register(self, player: int, now: float | None = None) -> Tournament:
        """``player`` registered (he pays the buy-in): before the start, or at ``now`` during late registration."""
        if player in self.standing.players:
            raise ValueError(Text("you were knocked out of this tournament") if self.standing.is_out(player)
                             else Text("you are already registered"))
        if self.stage == "running":
            if now is None or not self.can_register_late(now):
                raise ValueError(Text("registration is closed: the tournament has started") if not
                                 self.late_registration_levels else Text("late registration is closed"))
        elif self.stage == "finished":
            raise ValueError(Text("registration is closed: the tournament is finished"))
        elif self.stage != "registering":
            raise ValueError(Text("registration is closed: the tournament is cancelled"))
        if self.seats is not None and len(self.standing.alive) >= self.seats:
            raise ValueError(Text("the tournament is full ({seats} players)", seats=str(self.seats)))
        entry = Entry(player, late=self.stage == "running")
        return replace(self, entries=(*self.entries, entry), standing=self.standing.with_player(player))

    def unregister(self, player: int) -> tuple[Tournament, int]:
        """``player`` withdrawn before the start, and his buy-in to give back."""
        if self.stage != "registering":
            raise ValueError(Text("you can unregister only before the tournament starts"))
        refund = self.paid_in(player)
        entries = tuple(entry for entry in self.entries if entry.player != player)
        return replace(self, entries=entries, standing=self.standing.without_player(player)), refund

    def start(self, now: float) -> Tournament:
        """The tournament under way at ``now``: the clock starts in the first level."""
        if self.stage != "registering":
            raise ValueError(_CANNOT_START[self.status])
        if self.entrants < 2:
            raise ValueError(Text("a tournament needs at least 2 players; {count} registered",
                                  count=str(self.entrants)))
        return replace(self, stage="running", clock=start_clock(now))

    def pause(self, now: float) -> Tournament:
        """The clock stopped at ``now`` (the hand in play is finished; no new hand is dealt until resumed)."""
        return replace(self, clock=pause_clock(self._running_clock("the clock"), now))

    def resume(self, now: float) -> Tournament:
        """The clock running again from ``now``."""
        return replace(self, clock=resume_clock(self._running_clock("the clock"), now))

    def rebuy(self, player: int) -> Tournament:
        """``player``, out of chips, bought back in (he pays the buy-in again and gets ``starting_chips``)."""
        self._running_clock("a rebuy")
        if not any(bust.player == player for bust in self.awaiting_rebuy):
            if player not in self.standing.players:
                raise ValueError(Text("you are not in this tournament"))
            if self.standing.is_out(player):
                raise ValueError(Text("you are out of the tournament: the rebuy is no longer open to you"))
            raise ValueError(Text("you can rebuy only when you have no chips left"))
        entries = tuple(replace(e, rebuys=e.rebuys + 1) if e.player == player else e for e in self.entries)
        awaiting = tuple(bust for bust in self.awaiting_rebuy if bust.player != player)
        return replace(self, entries=entries, awaiting_rebuy=awaiting)

    def settle_busts(self) -> Tournament:
        """The players still waiting to rebuy put out (they did not rebuy in time); call it before each deal."""
        if not self.awaiting_rebuy:
            return self
        standing = knock_out(self.standing, [(bust.player, bust.chips) for bust in self.awaiting_rebuy])
        return replace(self, standing=standing, awaiting_rebuy=())._finished_if_over()

    def hand_finished(
        self,
        start_stacks: Mapping[int, int],
        end_stacks: Mapping[int, int],
        seat_order: Sequence[int],
        now: float,
    ) -> Tournament:
        """The tournament after a hand that ended at ``now``: ``seat_order`` lists its players from the first
        seat left of the button, with their stacks at its start and end. Players left with no chips are out
        (or wait to rebuy); when one player is left, the tournament is finished."""
        clock = self._running_clock("a hand")
        tournament = self.settle_busts()  # players who were waiting to rebuy while this hand was played
        if tournament.stage != "running":
            raise ValueError("the tournament was over before this hand")
        spared: list[int] = []
        if open_through_level(self.schedule, clock, now, self.rebuy_levels):
            spared = [p for p in seat_order if end_stacks.get(p) == 0 and tournament._rebuys_left(p)]
        standing = record_eliminations(tournament.standing, start_stacks, end_stacks, seat_order, spared)
        awaiting = tuple(Bust(player, start_stacks[player]) for player in spared)
        return replace(tournament, standing=standing, awaiting_rebuy=awaiting,
                       clock=advance_due(self.schedule, clock, now))._finished_if_over()

    def cancel(self) -> tuple[Tournament, dict[int, int]]:
        """The tournament called off, and what each entrant gets back: every buy-in and rebuy he paid."""
        if self.stage not in ("registering", "running"):
            raise ValueError(_CANNOT_CANCEL[self.stage])
        refunds = {entry.player: self.paid_in(entry.player) for entry in self.entries}
        return replace(self, stage="cancelled", awaiting_rebuy=()), refunds

    # --- storage ---

    def to_json(self) -> dict[str, Any]:
        """The whole tournament as JSON-ready data (one column in the store)."""
        return {
            "version": JSON_VERSION,
            "buy_in": self.buy_in,
            "starting_chips": self.starting_chips,
            "schedule": schedule_to_json(self.schedule),
            "payouts": None if self.payouts is None else list(self.payouts),
            "late_registration_levels": self.late_registration_levels,
            "rebuy_levels": self.rebuy_levels,
            "max_rebuys": self.max_rebuys,
            "seats": self.seats,
            "stage": self.stage,
            "entries": [{"player": e.player, "rebuys": e.rebuys, "late": e.late} for e in self.entries],
            "out": self.standing.to_json()["out"],
            "clock": None if self.clock is None else self.clock.to_json(),
            "awaiting_rebuy": [{"player": b.player, "chips": b.chips} for b in self.awaiting_rebuy],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        """The tournament written by :meth:`to_json`, checked again."""
        if data.get("version") != JSON_VERSION:
            raise ValueError(f"unknown tournament data version {data.get('version')!r}")
        entries = tuple(Entry(e["player"], e["rebuys"], e["late"]) for e in data["entries"])
        return cls(
            buy_in=data["buy_in"],
            starting_chips=data["starting_chips"],
            schedule=schedule_from_json(data["schedule"]),
            payouts=None if data["payouts"] is None else tuple(data["payouts"]),
            late_registration_levels=data["late_registration_levels"],
            rebuy_levels=data["rebuy_levels"],
            max_rebuys=data["max_rebuys"],
            seats=data["seats"],
            stage=data["stage"],
            entries=entries,
            standing=Standing.from_json({"players": [e.player for e in entries], "out": data["out"]}),
            clock=None if data["clock"] is None else ClockState.from_json(data["clock"]),
            awaiting_rebuy=tuple(Bust(b["player"], b["chips"]) for b in data["awaiting_rebuy"]),
        )

    # --- helpers ---

    def _entry(self, player: int) -> Entry:
        for entry in self.entries:
            if entry.player == player:
                return entry
        raise ValueError(Text("you are not in the tournament"))

    def _rebuys_left(self, player: int) -> bool:
        return self.max_rebuys is None or self._entry(player).rebuys < self.max_rebuys

    def _running_clock(self, what: _Needs) -> ClockState:
        if self.stage != "running" or self.clock is None:
            raise ValueError(_NEEDS_RUNNING[what][self.status])
        return self.clock

    def _finished_if_over(self) -> Tournament:
        if self.stage == "running" and not self.awaiting_rebuy and len(self.standing.alive) == 1:
            return replace(self, stage="finished")
        return self


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
