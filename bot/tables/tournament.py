"""A table in tournament mode: the level clock, registration and rebuys, eliminations, the payout.

A tournament is played at a table of its own (``Tables.create(..., tournament=...)``), whose mode
(``Table.mode``, :func:`tournament_of`) is a :class:`TournamentMode`. The table asks it through
``bot.tables.table.TableMode``: before each deal whether to deal and at what level
(:meth:`TournamentMode.before_deal`: levels change between hands, never during one, since a hand's stakes are
stored with it), after each hand what the hand changes (:meth:`TournamentMode.after_hand`: the eliminations
and, at the end, the payout, which the store writes with the hand's result in one transaction), and whether it
acts at once for a player sitting out. The rules are the pure core's (``bot.tournament``: the ``Tournament``
value, and ``bot.tournament.table_rules`` for the absent players, the rebuy wait and a dead carried pot);
chips move only in the store (``bot.store.tournaments``); nothing here knows Discord.

Crash safety: the tournament, its clock included (the start of the level and the pauses), is stored with every
change it depends on, and every answer is computed from it and the time, so a restarted bot deals the level it
would have dealt and shows the time left it would have shown. The hand in play is rebuilt from its log by the
table, at the stakes it was dealt with.

What the Discord side shows or announces comes out as news (:class:`Broke`, :class:`Eliminated`,
:class:`Finished`, :class:`Wake`), queued until a listener is set (:meth:`TournamentMode.listen`). The time is
:data:`CLOCK`'s (the wall clock; tests run a fast one).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..i18n.text import Text
from ..poker import STRUCTURES, Game, Stakes, Structure, stakes_for
from ..poker.rotation import RotationError, Seat
from ..refusal import Sentence, reason_of
from ..store import CashOut, SeatRecord, Store, TableRecord, TournamentHand, TournamentRecord
from ..tournament import (
    Level,
    Placing,
    Tournament,
    default_structure,
    level_number,
    parse_levels,
    parse_payouts,
    playing_levels,
    table_rules,
)
from .settings import SettingsError, TableSettings, table_game
from .table import CashOnly, FinishedHand, HandChange, Hold, Table, TableError, Terms

__all__ = [
    "CLOCK", "Broke", "Clock", "Eliminated", "Finished", "News", "TournamentMode", "Wake", "new_tournament", "now",
    "tournament_of",
]

EXTRA = "table"  # the table layer's own fields, stored beside the core's in the tournament's JSON


class Clock:
    """The time a tournament's clock reads: the wall clock (tests put a faster one in :data:`CLOCK`)."""

    def now(self) -> float:
        """The tournament time now, in seconds."""
        return time.time()

    def wall(self, at: float) -> float:
        """The wall-clock time (Unix seconds) at which the tournament time reads ``at`` (for Discord's
        timestamps)."""
        return at

    def real_seconds(self, seconds: float) -> float:
        """How long ``seconds`` of tournament time last on the wall clock (to wait for a break to end)."""
        return seconds


CLOCK = Clock()


def now() -> float:
    """The tournament time now (:data:`CLOCK`'s)."""
    return CLOCK.now()


@dataclass(frozen=True, slots=True)
class Broke:
    """Players left with no chips who may still rebuy (until the end of the next hand, or a wait)."""

    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Eliminated:
    """Players knocked out (by a hand, or by not rebuying in time) and their places."""

    placings: tuple[Placing, ...]


@dataclass(frozen=True, slots=True)
class Finished:
    """The tournament is over: the final standings and the prizes paid (member: chips)."""

    placings: tuple[Placing, ...]
    prizes: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Wake:
    """No hand can be dealt before ``at`` (a break, a wait for a rebuy): try to deal again then."""

    at: float


News = Broke | Eliminated | Finished | Wake

CASH_ONLY: dict[CashOnly, Text] = {  # what a tournament table refuses, and what to do instead
    "pause": Text("A tournament pauses with /poker tournament pause (its clock stops too)."),
    "resume": Text("A tournament resumes with /poker tournament resume."),
    "start": Text("A tournament starts with /poker tournament start."),
    "join": Text("This table plays a tournament: enter it with the Register button of its message."),
    "rebuy": Text("In this tournament a player who goes broke may rebuy (the buy-in again) with the Rebuy button "
                  "its message shows then."),
    "leave": Text("Tournament chips cannot be taken away from the table: sit out (your blinds are still posted) or "
                  "unregister before the start; the host can cancel the tournament."),
}


def tournament_of(table: Table) -> TournamentMode | None:
    """The tournament played at ``table``, or None at a cash table."""
    mode = table.mode
    return mode if isinstance(mode, TournamentMode) else None


def new_tournament(
    game: str, buy_in: int, starting_chips: int, level_minutes: float, *, levels: str | None = None,
    payouts: str | None = None, late_registration_levels: int = 0, rebuys: int = 0, structure: str | None = None,
    games: str | None = None, hands_per_game: int | None = None,
) -> tuple[TableSettings, Tournament]:
    """The table settings and the tournament a host's ``/poker tournament create`` asks for; ``TableError``
    saying what to change. ``levels``: a number of levels of the default rise, or the host's own list
    (``10/20, 15/30, break 10, 25/50/5``); ``rebuys``: the levels during which a broke player may rebuy;
    ``games`` and ``hands_per_game``: a rotation's (``game`` ``rotation``, ``horse`` or ``eight-game``)."""
    try:
        if structure is not None and structure not in STRUCTURES:
            raise ValueError(Text("the structure must be one of: {structures}", structures=", ".join(STRUCTURES)))
        # checks the game (a rotation's list too); the blinds follow the levels
        base = TableSettings(game, 1, 2, structure=structure, game_list=games, hands_per_game=hands_per_game)
        rise = base.structure or _default_rise(base)
        text = (levels or "").strip()
        if text and not text.isdigit():
            schedule = parse_levels(text, level_minutes=level_minutes)
        else:
            schedule = default_structure(rise, starting_chips, level_minutes, int(text) if text else None)
        first = next(step for step in schedule if isinstance(step, Level))
        settings = base.with_changes(small_blind=first.small_blind, big_blind=first.big_blind, ante=first.ante)
        shares = parse_payouts(payouts) if payouts and payouts.strip() else None
        tournament = Tournament(buy_in, starting_chips, tuple(schedule), shares, late_registration_levels, rebuys,
                                None, settings.max_seats)
    except (SettingsError, ValueError) as error:
        raise TableError(Sentence(reason_of(error))) from None
    return settings, tournament


def _default_rise(settings: TableSettings) -> Structure:
    """The default levels follow the table's structure: a game's own, or for dealer's choice fixed limit's
    blinds only, and for a rotation (antes in every game of a mixed night would surprise the lowball players)."""
    if settings.mixed:
        return "fixed-limit"
    return table_game(settings.game).default_structure


def _refused(action: Callable[..., Any], *args: Any) -> Any:
    """Run a transition of the core; its ValueError is the player's refusal."""
    try:
        return action(*args)
    except ValueError as error:
        raise TableError(Sentence(reason_of(error))) from None


class TournamentMode:
    """The tournament of one table (its ``TableMode``): its stored record, the core's value, and the news for the
    Discord side. Its writes run under the table's lock (``Table.changing``) and go through the store in one
    transaction each."""

    def __init__(self, store: Store, record: TournamentRecord) -> None:
        self.store = store
        self.news: list[News] = []
        self._listener: Callable[[News], None] | None = None
        self._use(record)
        if record.status == "finished" and not record.announced:  # not posted before a restart: post it now
            self._tell(Finished(tuple(self.state.placings()), self._paid(record)))

    def _use(self, record: TournamentRecord) -> None:
        self.record = record
        self.state = Tournament.from_json(record.state)
        extra = record.state.get(EXTRA) or {}
        self.broke_at = float(extra.get("broke_at") or 0.0)

    @classmethod
    async def load(cls, store: Store, table_id: int) -> TournamentMode | None:
        """The tournament of table ``table_id``, or None for a cash table."""
        record = await store.get_tournament(table_id)
        return None if record is None else cls(store, record)

    @classmethod
    async def open(cls, store: Store, guild: int, channel: int, host: int, settings: TableSettings,
                   tournament: Tournament, rng: random.Random | None = None) -> Table:
        """A new tournament table in ``channel`` with its tournament (registering), in one transaction."""
        table_record, record = await store.create_tournament(
            guild, channel, host, settings.to_json(), buy_in=tournament.buy_in,
            starting_chips=tournament.starting_chips, state=cls._stored(tournament, 0.0))
        return Table(store, table_record, rng, cls(store, record))

    # ------------------------------------------------------------------ news

    def listen(self, listener: Callable[[News], None]) -> None:
        """Give the news to ``listener`` (the Discord side), the news queued so far first."""
        self._listener = listener
        queued, self.news = self.news, []
        for item in queued:
            listener(item)

    def _tell(self, item: News) -> None:
        if self._listener is not None:
            self._listener(item)
            return
        if isinstance(item, Wake):
            self.news = [n for n in self.news if not isinstance(n, Wake)]
        self.news.append(item)

    async def remember_message(self, message_id: int | None) -> None:
        """Store the tournament's registration message (the Discord side's)."""
        await self.store.set_tournament_message(self.id, message_id)
        self.record = replace(self.record, message_id=message_id)

    async def announced(self) -> None:
        """The final standings were posted (a restart does not post them again)."""
        await self.store.mark_tournament_announced(self.id)
        self.record = replace(self.record, announced=True)

    # ------------------------------------------------------------------ queries

    @property
    def id(self) -> int:
        """The tournament's id in the store."""
        return self.record.id

    @property
    def is_active(self) -> bool:
        """Registering or running (paused included): its prize pool is held."""
        return self.state.stage in ("registering", "running")

    def now(self) -> float:
        """The time of the tournament's clock."""
        return now()

    def level_number(self, step: int) -> int:
        """The 1-based number of the blind level at or last before schedule step ``step``."""
        return level_number(self.state.schedule, step)

    @property
    def levels(self) -> int:
        """How many blind levels the schedule has."""
        return playing_levels(self.state.schedule)

    # ------------------------------------------------------------------ what the table asks (its TableMode)

    def refuse(self, doing: CashOnly) -> None:
        """A tournament table has no pause, start, buy-in, rebuy or leaving of a cash table's: say what instead (what
        can be done at this tournament now: a Register button gone once registration closed, no rebuys at all)."""
        state = self.state
        if doing == "join" and state.status != "registering" and not state.can_register_late(now()):
            raise TableError(Text("This table plays a tournament, and its registration is closed: you can watch."))
        if doing == "rebuy" and not state.rebuy_levels:
            raise TableError(Text("This tournament has no rebuys: a player who goes broke is out."))
        raise TableError(CASH_ONLY[doing])

    def knocked_out(self, user: int) -> Placing | None:
        """Where ``user`` went out of this tournament (his place, shared in a tie), or None if he has not: he has no
        seat at the table any more, nor a way to sit down again."""
        if not self.state.standing.is_out(user):
            return None
        return next((p for p in self.state.placings() if user in p.players), None)

    def dealt_seat(self, seat: Seat) -> Seat:
        """A player sitting out is dealt in (``table_rules.dealt_seat``)."""
        return table_rules.dealt_seat(seat)

    def acts_for(self, seat: SeatRecord) -> bool:
        """A player sitting out is blinded off: the table acts for him at once (``table_rules.acts_for``)."""
        return table_rules.acts_for(seat.sitting_out)

    def hold(self, can_deal: bool) -> Hold | None:
        """Why no hand may be dealt now, or None."""
        state = self.state
        if state.stage == "registering":
            return Hold("registering", None, Text("The tournament has not started yet."))
        if state.stage != "running":
            return Hold("over", None, Text("The tournament is over."))
        if state.status == "paused":
            return Hold("paused", None, Text("The tournament's clock is paused."))
        at = now()
        step = state.next_hand(at)
        if step.status == "break":
            return Hold("break", at + (step.seconds_left or 0.0), Text("It is a break."))
        until = table_rules.rebuy_wait_ends(bool(state.awaiting_rebuy), can_deal, self.broke_at, at)
        if until is not None:
            return Hold("rebuy", until, Text("Waiting for a broke player to rebuy."))
        return None

    async def reload(self) -> None:
        """Read the tournament again (after a failed write: the store, not memory, says where it is)."""
        record = await self.store.get_tournament(self.record.table_id)
        if record is not None:
            self._use(record)

    @staticmethod
    def _stored(state: Tournament, broke_at: float) -> dict[str, Any]:
        return {**state.to_json(), EXTRA: {"broke_at": broke_at}}

    def _paid(self, record: TournamentRecord) -> dict[int, int]:
        return {e.user_id: e.prize or 0 for e in record.entries}

    # -------------------------------------------------------- before and after a hand (under the table's lock)

    async def before_deal(self, table: Table) -> Terms:
        """The next hand is dealt at the level of the clock (the table shows its blinds as its own): the busts
        that waited long enough for a rebuy go out first; a hold (a break, a pause...) refuses the deal, and says
        when to try again (:class:`Wake`)."""
        hold = self.hold(table.can_deal())
        if hold is not None and hold.reason == "rebuy" and hold.until is not None and hold.until <= now():
            await self._settle(table)
            hold = self.hold(table.can_deal())
        if hold is not None:
            if hold.until is not None:
                self._tell(Wake(hold.until))
            raise TableError(hold.text)
        level = self.state.next_hand(now()).level
        settings = table.settings.with_changes(small_blind=level.small_blind, big_blind=level.big_blind,
                                               ante=level.ante)
        return Terms(settings, lambda game, structure: _stakes(level, settings, game, structure))

    async def _settle(self, table: Table) -> None:
        """The players who did not rebuy in time are out (and the tournament is over if one is left)."""
        state = self.state.settle_busts()
        out = _newly_out(self.state, state)
        prizes = state.prizes() if state.stage == "finished" else None
        await self.store.save_tournament(self.id, self._stored(state, self.broke_at), out=out, prizes=prizes)
        self._after(state, out, prizes)
        await table.reread()

    def after_hand(self, table: Table, finished: FinishedHand) -> HandChange:
        """What the hand that just ended does to the tournament (nothing is written here): its eliminations, the
        payout if it ends the tournament, and a carried pot nobody can play returned."""
        hand, users = finished.hand, finished.users
        stacks, carried = tuple(hand.stacks), hand.carried_out
        returned: dict[int, int] = {}
        after = dict(zip(users, stacks))
        if carried and table_rules.carried_pot_is_dead(
                {s.user_id: after.get(s.user_id, s.stack) for s in table.record.seats}, stacks):
            try:
                returned = table_rules.dead_pot_refunds(carried, finished.carried_owners, users,
                                                        table.refund_order())
            except RotationError as error:  # a hand always has players
                raise TableError(reason_of(error)) from None
            stacks = tuple(stack + returned.get(user, 0) for user, stack in zip(users, stacks))
            carried = 0
        start = dict(zip(users, finished.stacks_before))
        end = dict(zip(users, stacks))
        at = now()
        state = self.state.hand_finished(start, end, users, at)
        out = _newly_out(self.state, state)
        prizes = state.prizes() if state.stage == "finished" else None
        broke_at = at if state.awaiting_rebuy else self.broke_at  # the busts of this hand wait from now
        stored = TournamentHand(self._stored(state, broke_at), out=out, prizes=prizes)

        def committed() -> None:  # the hand's result and the tournament's change are stored: take them
            self.broke_at = broke_at
            self._after(state, out, prizes)

        return HandChange(stacks, carried, returned, stored, committed)

    def _after(self, state: Tournament, out: Collection[int], prizes: Mapping[int, int] | None) -> None:
        placed = tuple(p for p in state.placings() if set(p.players) & set(out))
        broke = {b.player for b in state.awaiting_rebuy} - {b.player for b in self.state.awaiting_rebuy}
        self.state = state
        if placed:
            self._tell(Eliminated(placed))
        if broke:
            self._tell(Broke(tuple(p for p in state.standing.players if p in broke)))
        if prizes is not None:
            self.record = replace(self.record, status="finished", pool=0)
            self._tell(Finished(tuple(state.placings()), dict(prizes)))

    # ------------------------------------------------------------------ the players' and the host's moves

    async def register(self, table: Table, user: int) -> SeatRecord:
        """The member enters (his buy-in goes to the prize pool; he sits with the starting chips): before the
        start, or during late registration."""
        async with table.changing():
            state = _refused(self.state.register, user, now())
            taken = {s.seat_no for s in table.record.seats}
            free = [n for n in range(1, table.settings.max_seats + 1) if n not in taken]
            if not free:
                raise TableError(Text("The tournament is full ({seats} seats).", seats=str(table.settings.max_seats)))
            seat = await self.store.register_tournament(self.id, user, free[0], self._stored(state, self.broke_at))
            self.state = state
            await table.reread()
            return seat

    async def unregister(self, table: Table, user: int) -> int:
        """The member withdraws before the start; returns the chips given back (his buy-in)."""
        async with table.changing():
            state, _ = _refused(self.state.unregister, user)
            refund: int = await self.store.unregister_tournament(self.id, user, self._stored(state, self.broke_at))
            self.state = state
            await table.reread()
            return refund

    async def rebuy(self, table: Table, user: int) -> SeatRecord:
        """A broke player buys back in (the buy-in again, for the starting chips)."""
        async with table.changing():
            state = _refused(self.state.rebuy, user)
            seat = await self.store.rebuy_tournament(self.id, user, self._stored(state, self.broke_at))
            self.state = state
            await table.reread()
            return seat

    async def start(self, table: Table) -> None:
        """The host starts the tournament: the clock starts in the first level."""
        async with table.changing():
            state = _refused(self.state.start, now())
            await self.store.save_tournament(self.id, self._stored(state, self.broke_at), start=True)
            self.state = state
            self.record = replace(self.record, status="running")

    async def pause(self, table: Table) -> None:
        """The clock stops (the hand in play is played out; no new hand until resumed)."""
        await self._clock(table, self.state.pause)

    async def resume(self, table: Table) -> None:
        """The clock runs again; the pause did not count against the level."""
        await self._clock(table, self.state.resume)

    async def _clock(self, table: Table, change: Callable[[float], Tournament]) -> None:
        async with table.changing():
            state = _refused(change, now())
            await self.store.save_tournament(self.id, self._stored(state, self.broke_at))
            self.state = state

    async def close(self, table: Table) -> tuple[TableRecord, list[CashOut]] | None:
        """Closing the table of a tournament not over calls it off (under the table's lock, from ``Table.close``):
        a hand in play is voided and every buy-in and rebuy returned, in one transaction. Over, it closes as a
        cash table (nothing is left on it)."""
        if not self.is_active:
            return None
        state, _ = _refused(self.state.cancel)
        closed = await self.store.cancel_tournament(self.id, self._stored(state, self.broke_at))
        self.state = state
        self.record = replace(self.record, status="cancelled", pool=0)
        return closed


def _newly_out(before: Tournament, after: Tournament) -> list[int]:
    """The players out in ``after`` who were still in ``before``."""
    return [p for p in after.standing.players if after.standing.is_out(p) and not before.standing.is_out(p)]


def _stakes(level: Level, settings: TableSettings, game: Game, structure: Structure | None) -> Stakes:
    """The engine's stakes of a hand of ``game`` dealt at ``level``: the flop and stud games' mapped from the
    level's blinds as a cash table's are from its own (docs/rules.md section 21.6; the stud ante and bring-in follow the
    level, whatever a cash table's host would set)."""
    if game.family != "draw":
        return stakes_for(game, settings.structure_for(game, structure), level.small_blind, level.big_blind,
                          ante=level.ante, raise_cap=settings.raise_cap)
    return level.stakes(settings.structure_for(game, structure), raise_cap=settings.raise_cap,
                        big_bet_round=settings.big_bet_round)
