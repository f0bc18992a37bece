"""A table over many hands: seats, buy-ins, the button, dealer's choice, hands.

The table layer sits between the Discord cogs and the engine and the store.
It decides nothing about poker (``bot.poker`` does) and moves no chips itself
(``bot.store`` does, one transaction per movement). It writes every action
through the store before it reports the result, so what a player was shown
is never lost; after a crash ``Tables.restore`` rebuilds each live hand from
its seed and action log, or voids it (every chip is still on its seat).
No Discord imports here.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from .poker import STRUCTURES, Carried, Event, Game, Hand, IllegalAction, Legal, Stakes, get_game
from .poker.phh import export_phh
from .store import Store
from .store.tables import CashOut, HandRecord, SeatRecord, TableRecord
from .table_settings import SettingsError, TableSettings

__all__ = ["ActionResult", "Table", "TableError", "Tables"]

log = logging.getLogger(__name__)

MAX_SEED = 2**62
MAX_VOID_REASON = 500  # the store's limit on a void reason
_PLAYER_PREFIX = re.compile(r"^p(\d+) ")  # the engine's "p3 f": an action naming its player


class TableError(Exception):
    """Something a player asked for that the table cannot do now; the message says why."""


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What one action did: the engine's events, and whether the hand ended."""

    events: list[Event]
    hand_over: bool
    next_seq: int


@dataclass(slots=True)
class _ChoiceState:
    """Dealer's choice between hands, kept in the table's settings row."""

    last_game: str | None = None
    last_structure: str | None = None
    orbit_game: str | None = None
    orbit_structure: str | None = None
    orbit_left: int = 0
    orbit_chooser_seat: int | None = None  # who chose the current orbit; the next orbit is his left neighbour's


@dataclass(slots=True)
class _Live:
    """The hand being played and who sits in each engine seat."""

    hand: Hand
    record: HandRecord
    users: tuple[int, ...]
    timed_out: set[int] = field(default_factory=set)

    @property
    def seq(self) -> int:
        return len(self.hand.actions)


class Table:
    """One table in one channel. Every method that changes it takes its lock."""

    def __init__(self, store: Store, record: TableRecord, rng: random.Random | None = None) -> None:
        self.store = store
        self.record = record
        self.settings = TableSettings.from_json(record.settings)
        self.choice = _ChoiceState(**record.settings.get("_choice", {}))
        self.lock = asyncio.Lock()
        self.live: _Live | None = None
        self.carried_owners: dict[int, int] = {}
        self.meta: dict[str, Any] = dict(record.settings.get("_meta", {}))  # e.g. the table message's id
        self.last_hand: Hand | None = None  # the hand that ended last (for its showdown message)
        self.last_users: tuple[int, ...] = ()
        self._rng = rng or random.SystemRandom()
        self._stale = False  # a write failed: read the table again from the store before the next request

    # ------------------------------------------------------------------ loading

    @classmethod
    async def create(
        cls, store: Store, guild: int, channel: int, host: int, settings: TableSettings,
        rng: random.Random | None = None,
    ) -> Table:
        """Open a new table in ``channel`` with ``host`` as its host."""
        record = await store.create_table(guild, channel, host, settings.to_json())
        return cls(store, record, rng)

    @classmethod
    async def load(
        cls, store: Store, record: TableRecord, rng: random.Random | None = None,
        *, live: HandRecord | Literal["read"] | None = "read",
    ) -> Table:
        """A table from its row; its live hand is rebuilt from seed and log, or voided (and
        the players who were leaving it are cashed out). ``live``: the table's live hand if
        the caller has already read it (``None``: there is none); by default it is read here."""
        table = cls(store, record, rng)
        if record.carried_pot:  # only a carried pot has owners to remember
            table.carried_owners = await _last_carried_owners(store, record.id)
        stored = await store.live_hand(record.id) if live == "read" else live
        if isinstance(stored, HandRecord):
            await table._adopt(stored)
        if table.live is None:
            await table._cash_out_leavers()
        return table

    async def _adopt(self, stored: HandRecord, timed_out: set[int] | None = None) -> None:
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
        if timed_out is None:
            saved = self.meta.get("timed_out") or {}
            timed_out = set(saved.get("users", [])) if saved.get("hand") == stored.id else set()
        live.timed_out = timed_out
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
            await self._refresh()

    async def _reload(self) -> None:
        """Read the table and its live hand again from the store: after a failed or interrupted
        write, the store, not memory, says where the table is."""
        previous = self.live
        self.record = await self.store.get_table_by_id(self.id)
        self.settings = TableSettings.from_json(self.record.settings)
        self.choice = _ChoiceState(**self.record.settings.get("_choice", {}))
        stored = await self.store.live_hand(self.id)
        if previous is not None and (stored is None or stored.id != previous.record.id):
            done = await self.store.get_hand(previous.record.id)
            if done.status == "complete":  # finished, though the caller was told of a failure
                self.carried_owners = _owners_from(done.result)
        self.live = None
        if stored is not None:
            same = previous is not None and previous.record.id == stored.id
            await self._adopt(stored, previous.timed_out if same and previous else None)
        if self.live is None:
            await self._cash_out_leavers()
        self._stale = False

    @asynccontextmanager
    async def _guard(self) -> AsyncIterator[None]:
        """The table's lock, with the table read again first if a failure left it in doubt. A
        refusal (``TableError``, ``IllegalAction``) changes nothing; any other failure may have
        happened half-way through a request, so the next one starts from the store."""
        async with self.lock:
            if self._stale:
                await self._reload()
            try:
                yield
            except (TableError, IllegalAction):
                raise
            except BaseException:
                self._stale = True
                raise

    def _settings_row(self) -> dict[str, Any]:
        return {**self.settings.to_json(), "_choice": asdict(self.choice), "_meta": self.meta}

    async def save_meta(self) -> None:
        """Store ``meta`` (what the Discord layer keeps about the table, such as its message)."""
        await self.store.update_settings(self.id, self._settings_row())

    async def _refresh(self) -> None:
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

    def seat_of(self, user: int) -> SeatRecord | None:
        """The member's seat, or None."""
        return self.record.seat_of(user)

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

    def dealt_in(self) -> list[SeatRecord]:
        """Seats that would be dealt the next hand: seated, in, not leaving, with chips."""
        return [s for s in self.record.seats if not s.sitting_out and not s.leaving and s.stack > 0]

    def next_button(self) -> int | None:
        """The seat number that gets the button for the next hand."""
        seats = [s.seat_no for s in self.dealt_in()]
        if not seats:
            return None
        previous = self.record.button
        if previous is None:
            return seats[-1]
        return next((n for n in seats if n > previous), seats[0])

    def chooser(self) -> int | None:
        """Dealer's choice: the member who must pick the next game, or None if none is due."""
        if not self.settings.is_dealers_choice or self.live is not None:
            return None
        button = self.next_button()
        if button is None:
            return None
        players = len(self.dealt_in())
        games = self.settings.games(players)
        if not games:
            return None  # nothing can be dealt (fewer than two players): nothing to choose
        seat_no = self._chooser_seat(button, games)
        seat = self.record.seat_at(seat_no) if seat_no is not None else None
        return seat.user_id if seat else None

    def _chooser_seat(self, button: int, games: list[Game]) -> int | None:
        """The seat that picks now: the button's, per hand; per orbit, the seat left of the last
        orbit's chooser once the orbit (one hand per player) is over or its game no longer fits."""
        state = self.choice
        if self.settings.choice_per != "orbit":
            return button
        if state.orbit_left > 0 and state.orbit_game is not None and get_game(state.orbit_game) in games:
            return None
        previous = state.orbit_chooser_seat
        if previous is None:
            return button
        seats = [s.seat_no for s in self.dealt_in()]
        return next((n for n in seats if n > previous), seats[0])

    def choices(self) -> list[Game]:
        """The games the players who would be dealt in can play here."""
        return self.settings.games(len(self.dealt_in()))

    # ------------------------------------------------------------------ seats

    async def join(self, user: int, buy_in: int | None = None, seat_no: int | None = None) -> SeatRecord:
        """Sit down with ``buy_in`` chips from the member's balance (default: the largest buy-in
        the balance covers, up to the table's maximum)."""
        async with self._guard():
            low, high = self.settings.buy_in_range
            if self.record.seat_of(user):
                raise TableError("You are already seated at this table.")
            if len(self.record.seats) >= self.settings.max_seats:
                raise TableError(f"The table is full ({self.settings.max_seats} seats).")
            if buy_in is None:
                balance = await self.store.balance(self.record.guild_id, user)
                buy_in = min(high, balance)
                if buy_in < low:
                    raise TableError(f"The smallest buy-in is {low:,} chips and you have {balance:,}.")
            taken = {s.seat_no for s in self.record.seats}
            if seat_no is None:
                seat_no = next(n for n in range(1, self.settings.max_seats + 1) if n not in taken)
            elif not 1 <= seat_no <= self.settings.max_seats:
                raise TableError(f"Seats are numbered 1 to {self.settings.max_seats}.")
            seat = await self.store.buy_in(self.id, user, buy_in, seat_no, min_amount=low, max_amount=high)
            await self._refresh()
            return seat

    async def rebuy(self, user: int, amount: int) -> SeatRecord:
        """Add chips to the member's stack between hands, up to the table's maximum buy-in."""
        async with self._guard():
            seat = self._seated(user)
            if self.live is not None and user in self.live.users:
                raise TableError("You can add chips between hands, not during one.")
            low, high = self.settings.buy_in_range
            min_stack = low if seat.stack == 0 else None
            result = await self.store.top_up(self.id, user, amount, min_stack=min_stack, max_stack=high)
            await self._refresh()
            return result

    async def sit_out(self, user: int) -> SeatRecord:
        """Sit out from the next hand on (the current hand is played to its end)."""
        async with self._guard():
            self._seated(user)
            seat = await self.store.update_seat(self.id, user, sitting_out=True)
            await self._refresh()
            return seat

    async def sit_in(self, user: int) -> SeatRecord:
        """Come back in from the next hand."""
        async with self._guard():
            self._seated(user)
            seat = await self.store.update_seat(self.id, user, sitting_out=False, timeouts=0)
            await self._refresh()
            return seat

    async def leave(self, user: int) -> tuple[CashOut | None, list[Event]]:
        """Leave the table: cashed out now, or, during a hand he plays, folded now and
        cashed out when the hand ends. Returns the cash-out (None if later) and the events."""
        async with self._guard():
            return await self._leave(user)

    async def kick(self, user: int) -> tuple[CashOut | None, list[Event]]:
        """Remove a member (the host's command): the same as his leaving."""
        async with self._guard():
            return await self._leave(user)

    async def _leave(self, user: int) -> tuple[CashOut | None, list[Event]]:
        seat = self._seated(user)
        live = self.live
        if live is None or user not in live.users:
            cash = await self.store.cash_out(self.id, user)
            await self._refresh()
            return cash, []
        if not seat.leaving:
            await self.store.update_seat(self.id, user, leaving=True)
            await self._refresh()
        p = live.users.index(user)
        hand = live.hand
        if hand.folded[p] or hand.stacks[p] == 0 or hand.phase not in ("betting", "drawing"):
            return None, []  # all in or already out: he is cashed out when the hand ends
        result = await self._apply(live, f"p{p + 1} f")
        return None, result.events

    def _seated(self, user: int) -> SeatRecord:
        seat = self.record.seat_of(user)
        if seat is None:
            raise TableError("You are not seated at this table.")
        return seat

    # ------------------------------------------------------------------ hands

    async def start_hand(self, game: str | None = None, structure: str | None = None) -> Hand:
        """Deal the next hand. Dealer's choice needs ``game`` from the chooser (or a timeout);
        otherwise the table's game is dealt."""
        async with self._guard():
            return await self._start(game, structure)

    async def choose_game(self, user: int, game: str, structure: str | None = None) -> Hand:
        """Dealer's choice: the chooser picks the game (and, if the host allows, the structure)."""
        async with self._guard():
            self.check_choice(user, structure)
            return await self._start(game, structure)

    def check_choice(self, user: int, structure: str | None = None) -> None:
        """Raise ``TableError`` unless ``user`` is the dealer's-choice chooser now (and may pick ``structure``)."""
        chooser = self.chooser()
        if chooser is None:
            raise TableError("No game is to be chosen now.")
        if user != chooser:
            raise TableError(f"It is <@{chooser}>'s choice.")
        if structure is not None and not self.settings.dealer_picks_structure:
            raise TableError("The host has not let the dealer pick the structure.")
        if structure is not None and structure not in STRUCTURES:
            raise TableError(f"The structure must be one of: {', '.join(STRUCTURES)}.")

    async def choice_timed_out(self) -> Hand:
        """The chooser did not pick in time: deal the previous game again (RULES.md section 5)."""
        async with self._guard():
            choices = self.choices()
            if not choices:
                raise TableError("Not enough players to deal.")
            last = self.choice.last_game
            if last is not None and get_game(last) in choices:  # the previous game, as it was dealt
                structure = self.choice.last_structure if self.settings.dealer_picks_structure else None
                return await self._start(last, structure)
            return await self._start(choices[0].id, None)

    async def _start(self, game_id: str | None, structure: str | None) -> Hand:
        if self.live is not None:
            raise TableError("A hand is already being played.")
        if self.paused:
            raise TableError("The table is paused; the host can resume it.")
        seats = self.dealt_in()
        if len(seats) < 2:
            raise TableError("At least two players with chips are needed to deal.")
        choices = self.settings.games(len(seats))
        due = self._chooser_seat(self.next_button() or 0, choices) if self.settings.is_dealers_choice else None
        if self.settings.is_dealers_choice:
            if game_id is None:
                if self.chooser() is not None:
                    raise TableError("The dealer must choose the game first.")
                game_id, structure = self.choice.orbit_game, self.choice.orbit_structure
        else:
            game_id = self.settings.game
        if game_id is None:
            raise TableError("The dealer must choose the game first.")
        try:
            game = get_game(game_id)
        except ValueError as error:
            raise TableError(str(error)) from None
        if game not in choices:
            names = ", ".join(g.id for g in choices) or "none"
            raise TableError(f"{game.name} cannot be dealt to {len(seats)} players here; choose from: {names}.")
        if structure is not None and structure not in STRUCTURES:
            raise TableError(f"The structure must be one of: {', '.join(STRUCTURES)}.")
        try:
            stakes = self.settings.stakes_for(game, structure)
        except ValueError as error:
            raise TableError(str(error)) from None
        button = self.next_button()
        assert button is not None
        after = [s for s in seats if s.seat_no > button] + [s for s in seats if s.seat_no <= button]
        users = tuple(s.user_id for s in after)
        stacks = [s.stack for s in after]
        carried = self.record.carried_pot
        options = self.settings.hand_options(game)
        hand_settings = {"stakes": _stakes_json(stakes), **options, "button": button}
        seed = self._rng.randrange(MAX_SEED)
        hand = Hand(game, stakes, stacks, seed=seed, carried_in=carried, **options)
        # The hand, the button and the dealer's-choice state in one transaction (a failure reloads the table).
        self._remember_choice(game.id, structure, len(seats), due)
        row = self._settings_row() if self.settings.is_dealers_choice else None
        record = await self.store.start_hand(self.id, game.id, hand_settings, seed, users, stacks, carried,
                                             button=button, table_settings=row)
        self.live = _Live(hand, record, users)
        self.record = replace(self.record, button=button, settings=row if row is not None else self.record.settings)
        return hand

    def _remember_choice(self, game: str, structure: str | None, players: int, chooser_seat: int | None) -> None:
        if not self.settings.is_dealers_choice:
            return
        state = self.choice
        if self.settings.choice_per == "orbit":
            if chooser_seat is not None:  # a new orbit begins with this choice
                state.orbit_left = players
                state.orbit_chooser_seat = chooser_seat
            state.orbit_game, state.orbit_structure = game, structure
            state.orbit_left -= 1
        state.last_game, state.last_structure = game, structure

    async def act(self, user: int, action: str, seq: int) -> ActionResult:
        """The member's action, if it is his turn and ``seq`` is the current action number."""
        async with self._guard():
            live = self._live_or_raise()
            if seq != live.seq:
                raise TableError("That button is from an earlier moment of the hand; use the current one.")
            if user not in live.users:
                raise TableError("You are not in this hand.")
            actor = self.actor()
            if actor != user:
                raise TableError("It is not your turn." if actor is not None else "Nobody is to act now.")
            if isinstance(action, str):
                # The engine folds a named player out of turn (how a leaver is folded): a player may
                # name only his own seat.
                named = _PLAYER_PREFIX.match(" ".join(action.split()))
                if named and int(named.group(1)) != live.users.index(user) + 1:
                    raise TableError("You can act only for yourself.")
            return await self._apply(live, action)

    async def timeout(self, seq: int) -> ActionResult | None:
        """The clock ran out on action ``seq``: check or fold, stand pat in a draw (RULES.md
        section 5). A stale timer (the player already acted) does nothing."""
        async with self._guard():
            live = self.live
            if live is None or live.seq != seq or live.hand.actor is None:
                return None
            live.timed_out.add(live.users[live.hand.actor])
            # Remembered in the store, so that a restart still counts it (two hands in a row sit out).
            self.meta["timed_out"] = {"hand": live.record.id, "users": sorted(live.timed_out)}
            await self.save_meta()
            return await self._apply(live, live.hand.default_action())

    async def _apply(self, live: _Live, action: str) -> ActionResult:
        """Apply an action to the engine and write it through the store. If the write fails
        (or is cancelled) the hand goes back to where it was, then to what the store holds."""
        seq = live.seq
        events = live.hand.act(action)  # IllegalAction: refused, nothing changed
        text = live.hand.actions[-1]
        try:
            if live.hand.is_complete:
                await self._finish(live, seq, text)
            else:
                await self.store.append_action(live.record.id, seq, text)
        except BaseException:
            if self.live is live:  # memory first (no I/O): the hand as it was before this action
                self.live = _rebuild(replace(live.record, actions=tuple(live.hand.actions[:-1])))
                self.live.timed_out = live.timed_out
            self._stale = True
            try:
                await self._reload()  # then the store's word (a cancelled write may have committed)
            except Exception:
                pass  # still stale: read again before the next request
            raise
        return ActionResult(events, live.hand.is_complete, live.seq)

    async def _finish(self, live: _Live, seq: int, text: str) -> None:
        hand = live.hand
        owners = self._carried_owners_after(live)
        leavers = [s.user_id for s in self.record.seats if s.leaving and s.user_id in live.users]
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
        await self.store.finish_hand(
            live.record.id, hand.stacks, hand.carried_out, result, phh,
            last_action=(seq, text), cash_out=leavers,
        )
        self.carried_owners = owners
        self.last_hand, self.last_users = hand, live.users
        self.live = None
        await self._refresh()
        await self._after_hand(live)

    async def _after_hand(self, live: _Live) -> None:
        """Count timeouts (two hands in a row sit a player out) and cash out leavers not dealt in."""
        changed = False
        for seat in self.record.seats:
            if seat.user_id not in live.users:
                if seat.leaving:
                    await self.store.cash_out(self.id, seat.user_id)
                    changed = True
                continue
            timeouts = seat.timeouts + 1 if seat.user_id in live.timed_out else 0
            if timeouts != seat.timeouts:
                await self.store.update_seat(self.id, seat.user_id, timeouts=timeouts,
                                             sitting_out=True if timeouts >= 2 else None)
                changed = True
        if changed:
            await self._refresh()

    def _carried_owners_after(self, live: _Live) -> dict[int, int]:
        """Who put in the chips that this hand carries on (for refunds if the table closes).

        A hand plays the whole carried pot, so what was carried before is either
        won or carried on again inside the main pot (``with_carried_in``)."""
        owners: dict[int, int] = {}
        for event in live.hand.events:
            if not isinstance(event, Carried):
                continue
            if event.with_carried_in:
                for user, amount in self.carried_owners.items():
                    owners[user] = owners.get(user, 0) + amount
            for seat, amount in enumerate(event.paid_in):
                if amount:
                    user = live.users[seat]
                    owners[user] = owners.get(user, 0) + amount
        return owners

    def _live_or_raise(self) -> _Live:
        if self.live is None:
            raise TableError("No hand is being played.")
        return self.live

    # ------------------------------------------------------------------ host commands

    async def pause(self) -> None:
        """Deal no new hand until resumed (the hand in play is finished)."""
        async with self._guard():
            await self.store.set_paused(self.id, True)
            await self._refresh()

    async def resume(self) -> None:
        """Deal again."""
        async with self._guard():
            await self.store.set_paused(self.id, False)
            await self._refresh()

    async def update_settings(self, **changes: Any) -> TableSettings:
        """Change settings between hands (checked as at creation)."""
        async with self._guard():
            if self.live is not None:
                raise TableError("Settings can change between hands, not during one.")
            try:
                settings = self.settings.with_changes(**changes)
            except (SettingsError, TypeError) as error:
                raise TableError(str(error)) from None
            seated = len(self.record.seats)
            if settings.max_seats < seated:
                raise TableError(f"{seated} players are seated; the table cannot have only {settings.max_seats} seats.")
            previous, self.settings = self.settings, settings
            try:
                await self.store.update_settings(self.id, self._settings_row())
            except Exception:
                self.settings = previous
                raise
            await self._refresh()
            return settings

    async def close(self) -> list[CashOut]:
        """Close the table: a hand in play is voided (every chip goes back where it was),
        carried chips go back to those who put them in, and everyone is cashed out."""
        async with self._guard():
            if self.live is not None:
                await self.store.void_hand(self.live.record.id, "the table was closed")
                self.live = None
                await self._refresh()
            if self.record.carried_pot:
                shares = carried_refunds(self.record.carried_pot, self.carried_owners, self._refund_order())
                await self.store.refund_carried(self.id, shares)
                self.carried_owners = {}
            cashes = [await self.store.cash_out(self.id, s.user_id) for s in self.record.seats]
            self.record = await self.store.close_table(self.id)
            return cashes

    def _refund_order(self) -> list[int]:
        """Members from the first seat left of the button, clockwise (odd chips go first)."""
        seats = sorted(self.record.seats, key=lambda s: s.seat_no)
        button = self.record.button or 0
        ordered = [s for s in seats if s.seat_no > button] + [s for s in seats if s.seat_no <= button]
        return [s.user_id for s in ordered]


def carried_refunds(carried: int, owners: dict[int, int], order: Sequence[int]) -> dict[int, int]:
    """Split ``carried`` chips in proportion to what each owner put in (RULES.md, Assassin);
    remainders one chip each to owners in ``order`` (left of the button first), then the rest.
    With no known owners the chips go to the seated players in ``order`` equally."""
    weights = {u: a for u, a in owners.items() if a > 0} or {u: 1 for u in order}
    if not weights:
        raise TableError("Nobody is left to return the carried chips to.")
    total = sum(weights.values())
    shares = {u: carried * w // total for u, w in weights.items()}
    rest = carried - sum(shares.values())
    ranked = [u for u in order if u in weights] + sorted(u for u in weights if u not in order)
    for user in ranked:
        if rest == 0:
            break
        shares[user] += 1
        rest -= 1
    return {u: a for u, a in shares.items() if a > 0}


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
    if data["antes"] is not None:
        data["antes"] = list(data["antes"])
    return data


def stored_hand(game: str, settings: Mapping[str, Any], stacks: Sequence[int], seed: int, carried_in: int = 0) -> Hand:
    """The hand a stored deal describes (its game, the hand settings the table wrote, the stacks and the seed),
    before any action: replaying its log on it rebuilds the hand."""
    stakes_data = dict(settings["stakes"])
    if stakes_data.get("antes") is not None:
        stakes_data["antes"] = tuple(stakes_data["antes"])
    return Hand(game, Stakes(**stakes_data), list(stacks), seed=seed, carried_in=carried_in,
                jokers=bool(settings.get("jokers", False)), draw_limit=settings.get("draw_limit", "none"))


def _rebuild(record: HandRecord) -> _Live:
    """The live hand from its stored seed and action log (how a restarted bot resumes it)."""
    hand = stored_hand(record.game, record.settings, record.stacks_before, record.seed, record.carried_in)
    if len(record.seat_users) != hand.players:
        raise ValueError(f"the hand names {len(record.seat_users)} players for {hand.players} stacks")
    for action in record.actions:
        hand.act(action)
    if hand.is_complete:
        raise IllegalAction("the log ends the hand but the hand was not recorded as finished")
    return _Live(hand, record, record.seat_users)


class Tables:
    """Every open table, by channel; restores them all when the bot starts."""

    def __init__(self, store: Store, rng: random.Random | None = None) -> None:
        self.store = store
        self.by_channel: dict[int, Table] = {}
        self._rng = rng

    async def restore(self) -> list[Table]:
        """Load every open table and rebuild its live hand (voiding one that cannot be rebuilt)."""
        self.by_channel.clear()
        records = await self.store.list_open_tables()
        live = {hand.table_id: hand for hand in await self.store.live_hands()}  # every log in two queries
        for record in records:
            try:
                table = await Table.load(self.store, record, self._rng, live=live.get(record.id))
            except (SettingsError, TypeError, ValueError):
                # One table whose stored settings this version cannot read must not stop the others.
                log.exception("table %s in channel %s could not be loaded", record.id, record.channel_id)
                continue
            self.by_channel[record.channel_id] = table
        return list(self.by_channel.values())

    def get(self, channel: int) -> Table | None:
        """The open table in ``channel``, if any."""
        return self.by_channel.get(channel)

    def require(self, channel: int) -> Table:
        """The open table in ``channel``; TableError if there is none."""
        table = self.get(channel)
        if table is None:
            raise TableError("There is no table in this channel; `/poker create` opens one.")
        return table

    async def create(self, guild: int, channel: int, host: int, settings: TableSettings) -> Table:
        """Open a table in ``channel``; TableError if one is already open there."""
        if channel in self.by_channel:
            raise TableError("This channel already has a table.")
        table = await Table.create(self.store, guild, channel, host, settings, self._rng)
        self.by_channel[channel] = table
        return table

    async def close(self, channel: int) -> list[CashOut]:
        """Close the channel's table and forget it."""
        table = self.require(channel)
        cashes = await table.close()
        del self.by_channel[channel]
        return cashes
