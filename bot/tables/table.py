"""A table over many hands: seats, buy-ins, the hand in play, and what happens next.

The table layer sits between the Discord side and the engine and the store.
It decides nothing about poker: the engine decides every ruling (``Hand``'s
``legal``/``verify``/``can``) and the rules of a table over many hands (the
button, dealer's choice, timeouts, carried refunds: ``bot.poker.rotation``).
It moves no chips itself: ``bot.store`` does, one transaction per movement.
It writes every action through the store before it reports the result, so
what a player was shown is never lost; after a crash ``Tables.restore``
rebuilds each live hand from its seed and action log, or voids it (every chip
is still on its seat).

A table plays a cash game unless its mode says otherwise: before a deal,
after a hand and for a player sitting out it asks its ``TableMode`` (a
tournament's is ``bot.tables.tournament.TournamentMode``), and nothing else of
it.

Every change returns what the Discord side needs to show it and what the
table waits for next (``Outcome``, ``Next``), so that side never reaches back
in to decide. No Discord imports here, and no Discord markup: refusals name
members as ``{member}`` fields (``bot.refusal``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final, Literal, Protocol

from ..i18n.text import Member, Text
from ..night.facts import PlayerHandFacts, hand_facts
from ..poker import (
    STRUCTURES,
    BetRaise,
    BringIn,
    CheckCall,
    Draw,
    Event,
    Fold,
    Game,
    Hand,
    IllegalAction,
    Legal,
    Move,
    Show,
    Stakes,
    Structure,
    parse_move,
    rotation,
)
from ..poker.mixes import MixGame, MixState, button_moves_after
from ..poker.phh import export_phh
from ..poker.rotation import ChoiceState, RotationError, Seat
from ..refusal import Refusal, reason_of
from ..store import CashOut, HandRecord, NightRecord, SeatRecord, Store, TableRecord, TournamentHand
from ..store.tables import TABLE_BUSY
from ..store.waits import deadline, held
from .settings import SettingsError, TableSettings, table_game

__all__ = [
    "CASH_GAME", "CashGame", "CashOnly", "FinishedHand", "HandChange", "Hold", "LiveHand", "Next", "Outcome", "Table",
    "TableError", "TableMode", "Terms", "stored_hand",
]

log = logging.getLogger(__name__)

MAX_SEED = 2**62
MOVES = (BetRaise, BringIn, CheckCall, Draw, Fold, Show)
MAX_VOID_REASON = 500  # the store's limit on a void reason
_NOT_SEATED: Final = Text("You are not seated at this table.")
_HAND_PLAYED: Final = Text("A hand is already being played.")
_DEALER_CHOOSES: Final = Text("The dealer must choose the game first.")


class TableError(Refusal):
    """Something a player asked for that the table cannot do now; the message (a ``Text``) says why."""


@dataclass(frozen=True, slots=True)
class Next:
    """What the table waits for: a player to act, the dealer's choice, a deal, or nothing (and why)."""

    kind: Literal["act", "choose", "deal", "idle"]
    user: int | None = None  # act: the player to act; choose: the chooser
    reason: Literal["", "paused", "players"] = ""  # idle: the host paused it, or too few players with chips


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a change did: the engine's events, the hand they belong to (still live, or just finished) with
    who sits in each of its seats, and what the table waits for now."""

    events: tuple[Event, ...]
    hand: Hand | None
    users: tuple[int, ...]
    next: Next
    hand_over: bool = False
    next_seq: int = 0
    timed_out: int | None = None  # the member whose clock acted

    def seat_of(self, user: int) -> int | None:
        """The member's seat in ``hand``, or None."""
        return self.users.index(user) if user in self.users else None


@dataclass(slots=True)
class LiveHand:
    """The hand being played, as stored, and who sits in each engine seat."""

    hand: Hand
    record: HandRecord
    users: tuple[int, ...]

    @property
    def seq(self) -> int:
        """The number of the next action (a button carries it: an older one is stale)."""
        return len(self.hand.actions)


# ------------------------------------------------------------------ the table's mode: a cash game or a tournament


CashOnly = Literal["pause", "resume", "start", "join", "rebuy", "leave"]


@dataclass(frozen=True, slots=True)
class Hold:
    """Why the table deals no hand now, and until when (None: until the host or a player does something)."""

    reason: Literal["registering", "paused", "break", "rebuy", "over"]
    until: float | None
    text: Text


@dataclass(frozen=True, slots=True)
class Terms:
    """What the next hand is dealt at: the settings the table shows for it (a tournament's: its level's blinds)
    and the engine's stakes for a game in a structure (None: the game's or the table's own)."""

    settings: TableSettings
    stakes: Callable[[Game, Structure | None], Stakes]


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand that just ended, before its result is written: the engine's hand, the member in each seat, their
    stacks when it was dealt, and who owns the pot it carries to the next deal (``rotation.carried_owners``)."""

    hand: Hand
    users: tuple[int, ...]
    stacks_before: tuple[int, ...]
    carried_owners: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class HandChange:
    """What a tournament makes of a finished hand besides the engine's result, written with it in one
    transaction: the stacks and carried pot to write (a carried pot nobody can play is ``returned``: member:
    chips), the store's part (``stored``), and what to do once it is written (``committed``)."""

    stacks: tuple[int, ...]
    carried_out: int
    returned: Mapping[int, int]
    stored: TournamentHand
    committed: Callable[[], None]


class TableMode(Protocol):
    """What a table asks of its mode, a cash game (:data:`CASH_GAME`) or a tournament
    (``bot.tables.tournament.TournamentMode``): before a deal, after a hand, and for a player sitting out. A mode
    changes the table only through its public methods (``changing``, ``reread``)."""

    def refuse(self, doing: CashOnly) -> None:
        """Raise a ``TableError`` if this mode has no such thing (a tournament has no rebuy from the balance)."""

    def dealt_seat(self, seat: Seat) -> Seat:
        """A seat as the deal sees it (a tournament deals in a player who sits out)."""

    def acts_for(self, seat: SeatRecord) -> bool:
        """Whether the table makes this player's move at once when it is his turn (a tournament's absent player)."""

    def hold(self, can_deal: bool) -> Hold | None:
        """Why no hand may be dealt now, or None (``can_deal``: the table has two players with chips)."""

    async def before_deal(self, table: Table) -> Terms:
        """What the next hand is dealt at; a ``TableError`` saying why none may be dealt now."""

    def after_hand(self, table: Table, finished: FinishedHand) -> HandChange | None:
        """What a finished hand changes besides the engine's result (None: nothing); nothing is written here."""

    async def reload(self) -> None:
        """Read the mode's state again from the store (after a failed write)."""

    async def close(self, table: Table) -> tuple[TableRecord, list[CashOut]] | None:
        """Close the table the mode's way (a running tournament is cancelled: every buy-in returned), or None to
        close it as a cash table. Runs under the table's lock."""


class CashGame:
    """A cash game: the table's own settings, every hand dealt when two players can play, nothing to add."""

    def refuse(self, doing: CashOnly) -> None:
        """A cash table does all of these."""

    def dealt_seat(self, seat: Seat) -> Seat:
        """A player sitting out is not dealt in."""
        return seat

    def acts_for(self, seat: SeatRecord) -> bool:
        """Every player makes his own moves (or his clock runs out)."""
        return False

    def hold(self, can_deal: bool) -> Hold | None:
        """Nothing holds a cash table's deal but the host's pause and the players."""
        return None

    async def before_deal(self, table: Table) -> Terms:
        """The table's own settings."""
        return Terms(table.settings, table.settings.stakes_for)

    def after_hand(self, table: Table, finished: FinishedHand) -> HandChange | None:
        """The engine's result is all."""
        return None

    async def reload(self) -> None:
        """Nothing is kept beside the table."""

    async def close(self, table: Table) -> tuple[TableRecord, list[CashOut]] | None:
        """Closed as a cash table."""
        return None


CASH_GAME = CashGame()


# Asked before a member sits down (his id, the members seated, the seats free): raises TableError when the
# free seats are held for others (a planned night's players who signed up).
SeatHold = Callable[[int, frozenset[int], int], None]


class Table:
    """One table in one channel. Every method that changes it takes its lock."""

    def __init__(self, store: Store, record: TableRecord, rng: random.Random | None = None,
                 mode: TableMode = CASH_GAME) -> None:
        self.store = store
        self.record = record
        self.settings = TableSettings.from_json(record.settings)
        self.choice = _choice_from(record.settings)
        self.mix = _mix_from(record.settings)
        self.lock = asyncio.Lock()
        self.mode = mode
        self.live: LiveHand | None = None
        self.carried_owners: dict[int, int] = {}
        self.last_hand: Hand | None = None  # the hand that ended last (for its showdown)
        self.last_users: tuple[int, ...] = ()
        self.last_number = 0  # the number of the hand that ended last
        self.hands_dealt = 0  # hands dealt at the table so far (the next one is number hands_dealt + 1)
        self._rng = rng or random.SystemRandom()
        self._stale = False  # a write failed: read the table again from the store before the next request
        self.seat_hold: SeatHold | None = None  # a planned night's: seats held for those who signed up

    # ------------------------------------------------------------------ loading

    @classmethod
    async def create(cls, store: Store, guild: int, channel: int, host: int, settings: TableSettings,
                     rng: random.Random | None = None) -> Table:
        """Open a new cash table in ``channel`` with ``host`` as its host."""
        record = await store.create_table(guild, channel, host, settings.to_json())
        return cls(store, record, rng)

    @classmethod
    async def load(
        cls, store: Store, record: TableRecord, rng: random.Random | None = None,
        *, live: HandRecord | Literal["read"] | None = "read", hands_dealt: int | None = None,
        mode: TableMode = CASH_GAME,
    ) -> Table:
        """A table from its row; its live hand is rebuilt from seed and log, or voided (and
        the players who were leaving it are cashed out). ``live``: the table's live hand if
        the caller has already read it (``None``: there is none); by default it is read here (and so is
        ``hands_dealt``, the number of the table's last hand). ``mode``: a tournament table's."""
        table = cls(store, record, rng, mode)
        table.hands_dealt = await store.hands_dealt(record.id) if hands_dealt is None else hands_dealt
        if record.carried_pot:  # only a carried pot has owners to remember
            table.carried_owners = await _last_carried_owners(store, record.id)
        stored = await store.live_hand(record.id) if live == "read" else live
        if isinstance(stored, HandRecord):
            await table._adopt(stored)
        if table.live is None:
            await table._cash_out_leavers()
        return table

    async def _adopt(self, stored: HandRecord) -> None:
        """Make the store's live hand the hand in play: rebuilt from its seed and log (and the
        button put back on its seat), or voided if it cannot be rebuilt."""
        try:
            live = _rebuild(stored)
        except (IllegalAction, ValueError, KeyError, TypeError) as error:
            reason = f"could not be rebuilt: {error}"[:MAX_VOID_REASON]
            await self.store.void_hand(stored.id, reason)
            self.live = None
            self.record = await self.store.get_table_by_id(self.id)
            return
        self.live = live
        button = stored.settings.get("button")
        if isinstance(button, int) and button != self.record.button:
            self.record = await self.store.set_button(self.id, button)

    async def _cash_out_leavers(self) -> None:
        """Between hands: cash out the players marked leaving (after a void, or a crash)."""
        leavers = [s.user_id for s in self.record.seats if s.leaving]
        for user in leavers:
            await self.store.cash_out(self.id, user)
        if leavers:
            await self.reread()

    async def _reload(self) -> None:
        """Read the table and its live hand again from the store: after a failed or interrupted
        write, the store, not memory, says where the table is."""
        previous = self.live
        self.record = await self.store.get_table_by_id(self.id)
        self.settings = TableSettings.from_json(self.record.settings)
        self.choice = _choice_from(self.record.settings)
        self.mix = _mix_from(self.record.settings)
        await self.mode.reload()
        stored = await self.store.live_hand(self.id)
        if previous is not None and (stored is None or stored.id != previous.record.id):
            done = await self.store.get_hand(previous.record.id)
            if done.status == "complete":  # finished, though the caller was told of a failure
                self.carried_owners = _owners_from(done.result)
        self.live = None
        if stored is not None:
            await self._adopt(stored)
        if self.live is None:
            await self._cash_out_leavers()
        self._stale = False

    @asynccontextmanager
    async def changing(self) -> AsyncIterator[None]:
        """The table's lock, around one change of the table (its own, or its mode's), with the table read again
        first if a failure left it in doubt. A refusal (``TableError``, ``IllegalAction``) changes nothing; any
        other failure may have happened half-way through a request, so the next one starts from the store."""
        async with held(self.lock, deadline(None), TABLE_BUSY):  # an interaction waits only until its deadline
            if self._stale:
                await self._reload()
            try:
                yield
            except (TableError, IllegalAction):
                raise
            except BaseException:
                self._stale = True
                raise

    def _settings_row(self, choice: ChoiceState | None = None, mix: MixPlace | None = None) -> dict[str, Any]:
        mix = mix or self.mix
        return {**self.settings.to_json(), "_choice": asdict(choice or self.choice), "_mix": asdict(mix.state),
                "_button_stays": mix.button_stays}

    async def reread(self) -> None:
        """Read the table's row again (after a change the store made: a seat taken or freed)."""
        self.record = await self.store.get_table_by_id(self.record.id)

    # ------------------------------------------------------------------ queries

    @property
    def id(self) -> int:
        """The table's id in the store."""
        return self.record.id

    @property
    def hand(self) -> Hand | None:
        """The hand being played, if any."""
        return self.live.hand if self.live else None

    @property
    def paused(self) -> bool:
        """True when no new hand is dealt."""
        return self.record.status == "paused"

    @property
    def message_id(self) -> int | None:
        """The table's message in its channel, as the Discord side last stored it."""
        return self.record.message_id

    def seat_of(self, user: int) -> SeatRecord | None:
        """The member's seat, or None."""
        return self.record.seat_of(user)

    def offers(self, doing: CashOnly) -> bool:
        """Whether this table has ``doing`` of a cash table (a tournament enters, rebuys and leaves its own way)."""
        try:
            self.mode.refuse(doing)
        except TableError:
            return False
        return True

    def engine_seat(self, user: int) -> int | None:
        """The member's seat in the live hand (0 is left of the button), or None."""
        if self.live is None or user not in self.live.users:
            return None
        return self.live.users.index(user)

    def actor(self) -> int | None:
        """The member whose turn it is, or None."""
        if self.live is None or self.live.hand.actor is None:
            return None
        return self.live.users[self.live.hand.actor]

    def legal(self) -> Legal | None:
        """What the member to act may do."""
        if self.live is None or self.live.hand.actor is None:
            return None
        return self.live.hand.legal()

    def next_seq(self) -> int:
        """The action number the next action must carry (stale buttons carry an older one)."""
        return self.live.seq if self.live else 0

    def dms_closed(self, user: int) -> bool:
        """True if the member's DMs were found closed at this table (he was told to use "My hand")."""
        seat = self.record.seat_of(user)
        return seat is not None and seat.dms_closed

    def _seats(self) -> list[Seat]:
        return [self.mode.dealt_seat(Seat(s.seat_no, s.user_id, s.stack, s.sitting_out, s.leaving))
                for s in self.record.seats]

    def can_deal(self) -> bool:
        """Whether two players with chips would be dealt in."""
        return rotation.can_deal(self._seats())

    def refund_order(self) -> list[int]:
        """The seated members from the first seat left of the button, clockwise: odd chips of a refund go first
        to the first of them."""
        return rotation.refund_order(self._seats(), self.record.button)

    def dealt_in(self) -> list[SeatRecord]:
        """Seats that would be dealt the next hand: seated, in, not leaving, with chips."""
        numbers = {s.seat_no for s in rotation.dealt_in(self._seats())}
        return [s for s in self.record.seats if s.seat_no in numbers]

    def next_button(self) -> int | None:
        """The seat number that gets the button for the next hand: the next seat, but in a rotation after a stud
        hand the same one while its player is dealt in (docs/rules.md section 21.5, ``mixes.button_moves_after``)."""
        seats = self._seats()
        button = self.record.button
        if self.mix.button_stays and button is not None and any(s.seat_no == button for s in rotation.dealt_in(seats)):
            return button
        return rotation.next_button(seats, button)

    def mix_game(self) -> MixGame | None:
        """A rotation's game for the next hand (None at a table that is not a rotation)."""
        return self.mix.state.current(self.settings.mix) if self.settings.is_mix else None

    def mix_upcoming(self) -> MixGame | None:
        """A rotation's game after the current one (None at a table that is not a rotation)."""
        return self.mix.state.upcoming(self.settings.mix) if self.settings.is_mix else None

    def mix_hands_left(self) -> int | None:
        """Hands of the rotation's current game still to deal, the next one included (None: not a rotation).
        While a hand is played: the hands after it."""
        if not self.settings.is_mix:
            return None
        if self.live is not None:
            state = self.mix.state
            return max(0, state.hands - state.dealt)
        return self.mix.state.hands_left(len(self.dealt_in()), self.settings.hands_per_game)

    def choices(self) -> list[Game]:
        """The games the players who would be dealt in can play here."""
        return self.settings.games(len(self.dealt_in()))

    def chooser(self) -> int | None:
        """Dealer's choice: the member who must pick the next game, or None if none is due."""
        seat_no = self._chooser_seat()
        seat = self.record.seat_at(seat_no) if seat_no is not None else None
        return seat.user_id if seat else None

    def _chooser_seat(self) -> int | None:
        if not self.settings.is_dealers_choice or self.live is not None:
            return None
        if self.mode.hold(self.can_deal()) is not None:  # no deal now, so no choice either
            return None
        button = self.next_button()
        if button is None:
            return None
        return rotation.chooser_seat(self.settings.choice_per, self.choice, self._seats(), button, self.choices())

    def next(self) -> Next:
        """What the table waits for now."""
        actor = self.actor()
        if actor is not None:
            return Next("act", actor)
        if self.live is not None:
            return Next("idle")
        if self.paused:
            return Next("idle", reason="paused")
        can_deal = self.can_deal()
        if (hold := self.mode.hold(can_deal)) is not None:
            # A hold that ends by itself (a break, a wait for a rebuy): the deal is tried, and says when to retry.
            return Next("deal") if hold.until is not None else Next("idle", reason="paused")
        if not can_deal:
            return Next("idle", reason="players")
        chooser = self.chooser()
        if chooser is not None:
            return Next("choose", chooser)
        return Next("deal")

    def check_turn(self, user: int, hand_id: int, seq: int) -> Legal:
        """What ``user`` may do on action ``seq`` of hand ``hand_id``; ``TableError`` saying why he may not (an
        old button, not his turn, not in the hand). The one turn check: buttons, forms and commands use it."""
        live = self._at(hand_id, seq)
        if self.record.seat_of(user) is None:
            raise TableError(_NOT_SEATED)
        if user not in live.users:
            raise TableError(Text("You are not in this hand."))
        actor = self.actor()
        if actor != user:
            raise TableError(Text("It is not your turn.") if actor is not None else Text("Nobody is to act now."))
        legal = self.legal()
        assert legal is not None
        return legal

    def _at(self, hand_id: int, seq: int) -> LiveHand:
        """The hand in play, if it is hand ``hand_id`` at action ``seq``; else ``TableError`` saying it moved on."""
        live = self.live
        if live is None or live.record.id != hand_id:
            raise TableError(Text("That hand is over."))
        if seq != live.seq:
            raise TableError(Text("That button is from an earlier moment of the hand; use the current one."))
        return live

    def check_choice(self, user: int, structure: str | None = None, game: str | None = None) -> None:
        """Raise ``TableError`` unless ``user`` is the dealer's-choice chooser now (and may pick ``structure``, and
        ``game`` can be dealt to these players)."""
        chooser = self.chooser()
        if chooser is None:
            raise TableError(Text("No game is to be chosen now."))
        if user != chooser:
            raise TableError(Text("It is {member}'s choice.", member=Member(chooser)))
        try:
            rotation.check_structure(structure, self.settings.dealer_picks_structure)
        except RotationError as error:
            raise TableError(reason_of(error)) from None
        if game is not None:
            self._dealable(game, self.choices(), len(self.dealt_in()))

    @staticmethod
    def _dealable(game_id: str, choices: Sequence[Game], players: int) -> Game:
        """The game ``game_id``, if it is one of ``choices`` (the games ``players`` can play here)."""
        try:
            game = table_game(game_id)
        except ValueError as error:
            raise TableError(reason_of(error)) from None
        if not choices:
            raise TableError(Text("{game} cannot be dealt to {players} players here; choose from: none.",
                                  game=game.name, players=str(players)))
        if game not in choices:
            raise TableError(Text("{game} cannot be dealt to {players} players here; choose from: {games}.",
                                  game=game.name, players=str(players), games=", ".join(g.id for g in choices)))
        return game

    def _outcome(self, events: Sequence[Event] = (), hand: Hand | None = None, users: tuple[int, ...] = (),
                 *, timed_out: int | None = None) -> Outcome:
        if hand is None and self.live is not None:
            hand, users = self.live.hand, self.live.users
        over = hand is not None and hand.is_complete
        return Outcome(tuple(events), hand, users, self.next(), over, self.next_seq(), timed_out)

    # ------------------------------------------------------------------ seats

    async def join(self, user: int, buy_in: int | None = None, seat_no: int | None = None) -> SeatRecord:
        """Sit down with ``buy_in`` chips from the member's balance (default: the largest buy-in
        the balance covers, up to the table's maximum)."""
        async with self.changing():
            self.mode.refuse("join")
            low, high = self.settings.buy_in_range
            if self.record.seat_of(user):
                raise TableError(Text("You are already seated at this table."))
            if len(self.record.seats) >= self.settings.max_seats:
                raise TableError(Text("The table is full ({seats} seats).", seats=str(self.settings.max_seats)))
            if self.seat_hold is not None:
                self.seat_hold(user, frozenset(s.user_id for s in self.record.seats),
                               self.settings.max_seats - len(self.record.seats))
            if buy_in is None:
                balance = await self.store.balance(self.record.guild_id, user)
                try:
                    buy_in = rotation.default_buy_in(balance, low, high)
                except RotationError as error:
                    raise TableError(reason_of(error)) from None
            taken = {s.seat_no for s in self.record.seats}
            if seat_no is None:
                seat_no = next(n for n in range(1, self.settings.max_seats + 1) if n not in taken)
            elif not 1 <= seat_no <= self.settings.max_seats:
                raise TableError(Text("Seats are numbered 1 to {seats}.", seats=str(self.settings.max_seats)))
            seat = await self.store.buy_in(self.id, user, buy_in, seat_no, min_amount=low, max_amount=high)
            await self.reread()
            return seat

    async def rebuy(self, user: int, amount: int) -> SeatRecord:
        """Add chips to the member's stack between hands, up to the table's maximum buy-in."""
        async with self.changing():
            self.mode.refuse("rebuy")
            seat = self._seated(user)
            if self.live is not None and user in self.live.users:
                raise TableError(Text("You can add chips between hands, not during one."))
            low, high = self.settings.buy_in_range
            min_stack = low if seat.stack == 0 else None
            result = await self.store.top_up(self.id, user, amount, min_stack=min_stack, max_stack=high)
            await self.reread()
            return result

    async def sit_out(self, user: int) -> SeatRecord:
        """Sit out from the next hand on (the current hand is played to its end)."""
        async with self.changing():
            self._seated(user)
            seat = await self.store.update_seat(self.id, user, sitting_out=True)
            await self.reread()
            return seat

    async def sit_in(self, user: int) -> SeatRecord:
        """Come back in from the next hand."""
        async with self.changing():
            self._seated(user)
            seat = await self.store.update_seat(self.id, user, sitting_out=False, timeouts=0)
            await self.reread()
            return seat

    async def leave(self, user: int) -> tuple[CashOut | None, Outcome]:
        """Leave the table: cashed out now, or, during a hand he plays, folded now (if he still can be) and
        cashed out when the hand ends. Returns the cash-out (None if later) and what his fold did."""
        async with self.changing():
            return await self._leave(user)

    kick = leave  # the host's /poker kick removes a member as his leaving would

    async def _leave(self, user: int) -> tuple[CashOut | None, Outcome]:
        self.mode.refuse("leave")
        seat = self._seated(user)
        live = self.live
        if live is None or user not in live.users:
            cash = await self.store.cash_out(self.id, user)
            await self.reread()
            return cash, self._outcome()
        if not seat.leaving:
            await self.store.update_seat(self.id, user, leaving=True)
            await self.reread()
        fold = Fold(player=live.users.index(user))
        if not live.hand.can(fold):
            return None, self._outcome()  # all in or already out: he is cashed out when the hand ends
        return None, await self._apply(live, fold)

    def _seated(self, user: int) -> SeatRecord:
        seat = self.record.seat_of(user)
        if seat is None:
            raise TableError(_NOT_SEATED)
        return seat

    async def remember_dms(self, user: int, *, closed: bool) -> None:
        """Note that the member's DMs are closed (or open again), so that he is told once, also across a restart."""
        async with self.changing():
            seat = self.record.seat_of(user)
            if seat is None or seat.dms_closed == closed:
                return
            await self.store.set_dms_closed(self.id, user, closed)
            await self.reread()

    async def remember_message(self, message_id: int | None) -> None:
        """Store the table's message in its channel (None: it is gone)."""
        async with self.changing():
            if self.record.message_id != message_id or self.record.message_nonce is not None:
                self.record = await self.store.set_message(self.id, message_id)

    @property
    def message_nonce(self) -> str | None:
        """The nonce of a table message being posted (stored before the post), or None."""
        return self.record.message_nonce

    async def remember_post(self, nonce: str) -> None:
        """Store the nonce of the table message about to be posted, so that a restart finds that message."""
        async with self.changing():
            self.record = await self.store.begin_post(self.id, nonce)

    # ------------------------------------------------------------------ hands

    async def start_hand(self, game: str | None = None, structure: str | None = None) -> Outcome:
        """Deal the next hand. Dealer's choice needs ``game`` from the chooser (or a timeout);
        otherwise the table's game is dealt."""
        async with self.changing():
            return await self._start(game, structure)

    async def choose_game(self, user: int, game: str, structure: str | None = None) -> Outcome:
        """Dealer's choice: the chooser picks the game (and, if the host allows, the structure)."""
        async with self.changing():
            self.check_choice(user, structure)
            return await self._start(game, structure)

    async def choice_timed_out(self) -> Outcome:
        """The chooser did not pick in time: deal the previous game again (docs/rules.md section 1.8)."""
        async with self.changing():
            try:
                game, structure = rotation.game_on_timeout(self.choice, self.choices(),
                                                           self.settings.dealer_picks_structure)
            except RotationError as error:
                raise TableError(reason_of(error)) from None
            return await self._start(game, structure)

    async def _start(self, game_id: str | None, structure: str | None) -> Outcome:
        if self.live is not None:
            raise TableError(_HAND_PLAYED)
        if self.paused:
            raise TableError(Text("The table is paused; the host can resume it."))
        terms = await self.mode.before_deal(self)
        seats = self._seats()
        if not rotation.can_deal(seats):
            raise TableError(Text("At least two players with chips are needed to deal."))
        choices = self.choices()
        chooser = self._chooser_seat()
        if self.settings.is_dealers_choice:
            if game_id is None:
                if chooser is not None:
                    raise TableError(_DEALER_CHOOSES)
                game_id, structure = rotation.orbit_deal(self.choice)
        elif self.settings.is_mix:
            entry = self.mix.state.current(self.settings.mix)
            game_id, structure = entry.game.id, entry.structure
        else:
            game_id = self.settings.game
        if game_id is None:
            raise TableError(_DEALER_CHOOSES)
        players = len(rotation.dealt_in(seats))
        game = self._dealable(game_id, choices, players)
        if structure is not None and structure not in STRUCTURES:
            raise TableError(Text("The structure must be one of: {structures}.", structures=", ".join(STRUCTURES)))
        try:
            stakes = terms.stakes(game, structure)
        except (SettingsError, ValueError) as error:
            raise TableError(reason_of(error)) from None
        changed = terms.settings != self.settings  # a tournament's new level: its blinds shown as the table's
        self.settings = terms.settings
        button = self.next_button()
        assert button is not None
        order = rotation.deal_order(seats, button)
        users = tuple(s.user for s in order)
        stacks = [s.stack for s in order]
        carried = self.record.carried_pot
        options = self.settings.hand_options(game, stakes.structure)
        hand_settings = {"stakes": _stakes_json(stakes), **options, "button": button}
        seed = self._rng.randrange(MAX_SEED)
        hand = Hand(game, stakes, stacks, seed=seed, carried_in=carried, **options)
        choice, mix = self.choice, self.mix
        if self.settings.is_dealers_choice:
            choice = rotation.after_deal(self.settings.choice_per, choice, game.id, structure,
                                         players, chooser)
        if self.settings.is_mix:
            mix = MixPlace(mix.state.after_hand(self.settings.mix, players, self.settings.hands_per_game),
                           not button_moves_after(game, in_rotation=True))
        # The hand, the button and the dealer's-choice or rotation state in one transaction (a failure reloads
        # the table): a restart resumes the rotation at the same game and hand count.
        row = self._settings_row(choice, mix) if self.settings.mixed or changed else None
        record = await self.store.start_hand(self.id, game.id, hand_settings, seed, users, stacks, carried,
                                             button=button, table_settings=row)
        self.choice, self.mix = choice, mix
        self.live = LiveHand(hand, record, users)
        self.hands_dealt = max(self.hands_dealt, record.number)
        self.record = replace(self.record, button=button, settings=row if row is not None else self.record.settings)
        return await self._absent(self._outcome(hand.events))

    async def act(self, user: int, move: Move | str | Callable[[Legal], Move], seq: int,
                  hand: int | None = None) -> Outcome:
        """The member's move, if it is his turn at action ``seq`` of hand ``hand`` (None: the hand being played).
        The turn is checked once, here (``check_turn``), as the move arrives: a move that may not be made is
        refused at once, without waiting for the table. ``move`` may be made from what he may do then (a function of
        his ``Legal``: the smallest raise, all in...; it may refuse with a ``TableError``). Under the table's lock
        the move is made if the table is still at that moment, else refused as late."""
        if hand is None:
            if self.live is None:
                raise TableError(Text("No hand is being played."))
            hand = self.live.record.id
        legal = self.check_turn(user, hand, seq)
        if callable(move):
            move = move(legal)
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, MOVES):
            raise TableError(Text("That is not a move: fold, check or call, bet or raise, or draw."))
        if move.player not in (None, legal.player):
            raise TableError(Text("You can act only for yourself."))
        async with self.changing():
            live = self._at(hand, seq)  # a click, a command or the clock may have acted while this one waited
            return await self._absent(await self._apply(live, replace(move, player=None)))

    async def timeout(self, seq: int) -> Outcome | None:
        """The clock ran out on action ``seq``: check or fold, stand pat in a draw (docs/rules.md
        section 1.8). A stale timer (the player already acted) does nothing."""
        async with self.changing():
            live = self.live
            if live is None or live.seq != seq or live.hand.actor is None:
                return None
            user = live.users[live.hand.actor]
            # Remembered in the store, so that a restart still counts it (two hands in a row sit out).
            await self.store.update_seat(self.id, user, timed_out_hand=live.record.id)
            await self.reread()
            return await self._absent(await self._apply(live, live.hand.default_action(), timed_out=user))

    async def _apply(self, live: LiveHand, move: Move | str, *, timed_out: int | None = None) -> Outcome:
        """Apply a move to the engine and write it through the store. If the write fails
        (or is cancelled) the hand goes back to where it was, then to what the store holds."""
        seq = live.seq
        events = live.hand.act(move)  # IllegalAction: refused, nothing changed
        text = live.hand.actions[-1]
        try:
            if live.hand.is_complete:
                await self._finish(live, seq, text)
            else:
                await self.store.append_action(live.record.id, seq, text)
        except BaseException:
            if self.live is live:  # memory first (no I/O): the hand as it was before this action
                self.live = _rebuild(replace(live.record, actions=tuple(live.hand.actions[:-1])))
            self._stale = True
            try:
                await self._reload()  # then the store's word (a cancelled write may have committed)
            except Exception:
                pass  # still stale: read again before the next request
            raise
        return self._outcome(events, live.hand, live.users, timed_out=timed_out)

    async def _absent(self, outcome: Outcome) -> Outcome:
        """The moves the table makes at once for the players its mode acts for (a tournament's absent players,
        blinded off), added to ``outcome``."""
        events = list(outcome.events)
        while (live := self.live) is not None and (user := self.actor()) is not None:
            seat = self.record.seat_of(user)
            if seat is None or not self.mode.acts_for(seat):
                break
            outcome = await self._apply(live, live.hand.default_action())
            events += outcome.events
        return outcome if len(events) == len(outcome.events) else replace(outcome, events=tuple(events))

    async def _finish(self, live: LiveHand, seq: int, text: str) -> None:
        hand = live.hand
        owners = rotation.carried_owners(hand.events, live.users, self.carried_owners)
        leavers = [s.user_id for s in self.record.seats if s.leaving]
        timeouts: dict[int, tuple[int, bool]] = {}
        for seat in self.record.seats:
            if seat.user_id in live.users:
                count, sit_out = rotation.timeouts_after_hand(seat.timeouts, seat.timed_out_hand == live.record.id)
                if count != seat.timeouts or (sit_out and not seat.sitting_out):
                    timeouts[seat.user_id] = count, sit_out
        result = {
            "stacks": list(hand.stacks),
            "payouts": list(hand.payouts),
            "winners": [live.users[i] for i in sorted(hand.winners)],
            "carried_out": hand.carried_out,
            "carried_owners": {str(u): a for u, a in owners.items()},
        }
        try:
            phh: str | None = export_phh(hand, players=[str(u) for u in live.users], _hand_id=live.record.id)
        except Exception:  # the result matters more than its history: never lose a hand over the PHH
            log.exception("hand %s: the PHH export failed; the hand is recorded without it", live.record.id)
            phh = None
        # A tournament's eliminations (and its payout) are written with the result, in its transaction.
        change = self.mode.after_hand(self, FinishedHand(hand, live.users, live.record.stacks_before, owners))
        returned: Mapping[int, int] = {}
        if change is not None and change.returned:
            returned = change.returned
            owners, result["carried_refunds"] = {}, {str(u): a for u, a in returned.items()}
        try:
            facts: list[PlayerHandFacts] | None = hand_facts(hand, live.users, returned=returned)
        except Exception:  # nor over its stats
            log.exception("hand %s: its facts could not be worked out; the hand is recorded without them",
                          live.record.id)
            facts = None
        await self.store.finish_hand(
            live.record.id, hand.stacks if change is None else change.stacks,
            hand.carried_out if change is None else change.carried_out, result, phh,
            last_action=(seq, text), cash_out=leavers, timeouts=timeouts, facts=facts,
            tournament=None if change is None else change.stored,
        )
        if change is not None:
            change.committed()
        self.carried_owners = owners
        self.last_hand, self.last_users, self.last_number = hand, live.users, live.record.number
        self.live = None
        await self.reread()

    # ------------------------------------------------------------------ host commands

    async def pause(self) -> None:
        """Deal no new hand until resumed (the hand in play is finished)."""
        async with self.changing():
            self.mode.refuse("pause")
            await self.store.set_paused(self.id, True)
            await self.reread()

    async def resume(self) -> None:
        """Deal again."""
        async with self.changing():
            self.mode.refuse("resume")
            await self.store.set_paused(self.id, False)
            await self.reread()

    async def start(self) -> Outcome:
        """The host's start: refused while a hand is played or with fewer than two players with chips;
        otherwise the table deals (it is resumed)."""
        async with self.changing():
            self.mode.refuse("start")
            if self.live is not None:
                raise TableError(_HAND_PLAYED)
            if not rotation.can_deal(self._seats()):
                raise TableError(Text("At least two players with chips must be seated."))
            await self.store.set_paused(self.id, False)
            await self.reread()
            return self._outcome()

    async def update_settings(self, **changes: Any) -> TableSettings:
        """Change settings between hands (checked as at creation)."""
        async with self.changing():
            if self.live is not None:
                raise TableError(Text("Settings can change between hands, not during one."))
            try:
                settings = self.settings.with_changes(**changes)
            except (SettingsError, TypeError) as error:
                raise TableError(reason_of(error)) from None
            seated = len(self.record.seats)
            if settings.max_seats < seated:
                raise TableError(Text("{seated} players are seated; the table cannot have only {seats} seats.",
                                      seated=str(seated), seats=str(settings.max_seats)))
            previous, self.settings = self.settings, settings
            previous_mix = self.mix
            if (settings.game, settings.game_list) != (previous.game, previous.game_list):
                self.mix = MixPlace()  # another rotation (or none) starts at its first game
            try:
                await self.store.update_settings(self.id, self._settings_row())
            except Exception:
                self.settings, self.mix = previous, previous_mix
                raise
            await self.reread()
            return settings

    async def set_language(self, language: str | None) -> TableSettings:
        """The language everyone at the table reads (a catalogue code; None: the server's). It changes no play, so
        it may change during a hand too."""
        async with self.changing():
            try:
                settings = self.settings.with_changes(language=language)
            except (SettingsError, TypeError) as error:
                raise TableError(reason_of(error)) from None
            previous, self.settings = self.settings, settings
            try:
                await self.store.update_settings(self.id, self._settings_row())
            except Exception:
                self.settings = previous
                raise
            return settings

    def carried_refunds(self) -> dict[int, int]:
        """Who gets the carried pot back if the night ends now (docs/rules.md section 3.3: those who put it in, in
        proportion; ``bot.poker.rotation``): {member: chips}, empty when nothing is carried."""
        if not self.record.carried_pot:
            return {}
        order = rotation.refund_order(self._seats(), self.record.button)
        try:
            return rotation.carried_refunds(self.record.carried_pot, self.carried_owners, order)
        except RotationError as error:
            raise TableError(reason_of(error)) from None

    async def new_night(self) -> NightRecord:
        """The host's new night at this table, between hands: the running night ends and the next starts, the
        players keep their seats and stacks, and chips still carried go back to those who put them in (a night's
        results add up; nothing is carried from one night into the next)."""
        async with self.changing():
            if self.live is not None:
                raise TableError(Text("Hand #{number} is being played; a new night starts between hands.",
                                      number=str(self.live.record.number)))
            night = await self.store.new_night(self.id, refunds=self.carried_refunds())
            self.carried_owners = {}
            await self.reread()
            return night

    async def close(self) -> list[CashOut]:
        """Close the table in one transaction: a hand in play is voided (every chip goes back where it was),
        carried chips go back to those who put them in, and everyone is cashed out; or as the table's mode closes
        it (an unfinished tournament is cancelled: every buy-in and rebuy returned)."""
        async with self.changing():
            closed = await self.mode.close(self)
            if closed is not None:
                self.record, cashes = closed
                self.live = None
                return cashes
            refunds = self.carried_refunds()
            reason = "the table was closed" if self.live is not None else None
            self.record, cashes = await self.store.close_table(self.id, void_reason=reason, refunds=refunds)
            self.live = None
            self.carried_owners = {}
            return cashes


@dataclass(frozen=True, slots=True)
class MixPlace:
    """Where a rotation stands (``mixes.MixState``) and whether the button stays on its seat for the next hand
    (the hand just dealt was a stud game of the rotation)."""

    state: MixState = field(default_factory=MixState)
    button_stays: bool = False


def _mix_from(settings: Mapping[str, Any]) -> MixPlace:
    data = settings.get("_mix") or {}
    known = set(MixState.__dataclass_fields__)
    state = MixState(**{k: int(v) for k, v in data.items() if k in known})
    return MixPlace(state, bool(settings.get("_button_stays", False)))


def _choice_from(settings: Mapping[str, Any]) -> ChoiceState:
    data = settings.get("_choice") or {}
    known = set(ChoiceState.__dataclass_fields__)
    return ChoiceState(**{k: v for k, v in data.items() if k in known})


def _owners_from(result: Any) -> dict[int, int]:
    """The carried pot's owners recorded in a finished hand's result."""
    owners = result.get("carried_owners", {}) if isinstance(result, dict) else {}
    return {int(u): int(a) for u, a in owners.items()}


async def _last_carried_owners(store: Store, table_id: int) -> dict[int, int]:
    """The owners recorded by the table's last finished hand (void hands leave the carried pot alone)."""
    for count in (3, 50):
        hands = await store.recent_hands(table_id, count)
        for past in hands:
            if past.status == "complete":
                return _owners_from(past.result)
        if len(hands) < count:
            break
    return {}


def _stakes_json(stakes: Stakes) -> dict[str, Any]:
    data = asdict(stakes)
    for name in ("antes", "blinds"):
        if data[name] is not None:
            data[name] = list(data[name])
    return data


def stored_hand(game: str, settings: Mapping[str, Any], stacks: Sequence[int], seed: int, carried_in: int = 0) -> Hand:
    """The hand a stored deal describes (its game, the hand settings the table wrote, the stacks and the seed),
    before any action: replaying its log on it rebuilds the hand."""
    stakes_data = dict(settings["stakes"])
    for name in ("antes", "blinds"):
        if stakes_data.get(name) is not None:
            stakes_data[name] = tuple(stakes_data[name])
    return Hand(table_game(game), Stakes(**stakes_data), list(stacks), seed=seed, carried_in=carried_in,
                jokers=bool(settings.get("jokers", False)), draw_limit=settings.get("draw_limit", "none"),
                open_pair=bool(settings.get("open_pair", False)))


def _rebuild(record: HandRecord) -> LiveHand:
    """The live hand from its stored seed and action log (how a restarted bot resumes it)."""
    hand = stored_hand(record.game, record.settings, record.stacks_before, record.seed, record.carried_in)
    if len(record.seat_users) != hand.players:
        raise ValueError(f"the hand names {len(record.seat_users)} players for {hand.players} stacks")
    for action in record.actions:
        hand.act(action)
    if hand.is_complete:
        raise IllegalAction("the log ends the hand but the hand was not recorded as finished")
    return LiveHand(hand, record, record.seat_users)
