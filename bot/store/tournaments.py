"""Tournaments: the prize pool, the entries and the stored tournament of a tournament table.

Chip accounting (migration ``0003_tournaments.sql``; ``bot.store.audit`` checks it):

* A tournament is played at a table of its own, for the table's whole life. Its seat stacks and carried pot
  are tournament chips: they never reach a balance (``buy_in``, ``top_up`` and ``cash_out`` refuse a
  tournament table; a seat emptied by an elimination is freed with no chip moved).
* ``register_tournament`` moves the buy-in from the member's balance into the prize pool
  (``tournament-buy-in``) and seats him with the starting chips; ``rebuy_tournament`` does the same for an
  empty stack (``tournament-rebuy``); ``unregister_tournament`` undoes a registration before the start
  (``tournament-refund``). Each is one transaction, with the stored tournament (``state``: the table layer's
  JSON, opaque here) written in it.
* The pool is paid out in one transaction (``tournament-prize`` rows summing to the pool exactly): with the
  result of the hand that ends the tournament (``finish_hand(tournament=TournamentHand(...))``) or with the
  state that ends it between hands (``save_tournament(prizes=...)``). The tournament chips go with it (the
  seats are freed, the carried pot emptied); the table stays open, showing the final standings, until closed.
* ``cancel_tournament`` returns every buy-in and rebuy (``tournament-refund``), voids a hand in play, frees
  the seats and closes the table, in one transaction.

The amounts are the store's own: the buy-in and the starting chips are fixed when the tournament is created,
so a caller cannot move other amounts; prizes must add up to the pool, refunds are recomputed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ..i18n.text import Member, Text
from .connection import Row
from .db import MAX_AMOUNT, MAX_BALANCE, StoreBase, Tx, check_count, check_id, from_json, to_json
from .errors import (
    AlreadySeated,
    ChipsNotConserved,
    InsufficientFunds,
    NotFound,
    NotSeated,
    SeatTaken,
    TableExists,
    TournamentError,
)
from .nights import end_night, start_night
from .prize_pool import (
    ACTIVE,
    TournamentHand,
    TournamentStatus,
    check_prizes,
    free_seats,
    move_chips,
    pay_out,
    save_state,
    write_hand_result,
)
from .rows import CashOut, SeatRecord, TableRecord, check_settings, read_table, seat_record
from .tables import MAX_SEATS

__all__ = [
    "ACTIVE", "EntryRecord", "TournamentError", "TournamentHand", "TournamentRecord", "TournamentStatus",
    "TournamentsMixin", "write_hand_result",
]


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """An entrant: his rebuys and, once paid out, his prize."""

    user_id: int
    rebuys: int
    prize: int | None
    registered_at: float


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament as stored: its fixed amounts, its pool, the table layer's state, its entrants."""

    id: int
    guild_id: int
    table_id: int
    buy_in: int
    starting_chips: int
    status: TournamentStatus
    pool: int
    state: dict[str, Any]
    message_id: int | None
    announced: bool
    created_at: float
    ended_at: float | None
    entries: tuple[EntryRecord, ...]

    @property
    def is_active(self) -> bool:
        """Registering or running: the pool holds the buy-ins."""
        return self.status in ACTIVE

    def entry(self, user: int) -> EntryRecord | None:
        """The member's entry, or None."""
        return next((e for e in self.entries if e.user_id == user), None)


# ------------------------------------------------------------------ inside a transaction


def _record(r: Row, entries: list[Row]) -> TournamentRecord:
    return TournamentRecord(
        id=r["id"], guild_id=r["guild_id"], table_id=r["table_id"], buy_in=r["buy_in"],
        starting_chips=r["starting_chips"], status=r["status"], pool=r["pool"], state=from_json(r["state"]),
        message_id=r["message_id"], announced=bool(r["announced"]), created_at=r["created_at"],
        ended_at=r["ended_at"],
        entries=tuple(EntryRecord(e["user_id"], e["rebuys"], e["prize"], e["registered_at"]) for e in entries),
    )


async def _row(tx: Tx, tournament_id: int) -> Row:
    row = await tx.one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        raise NotFound(Text("There is no tournament number {tournament}.", tournament=str(tournament_id)))
    return row


async def _active_row(tx: Tx, tournament_id: int) -> Row:
    row = await _row(tx, tournament_id)
    if row["status"] not in ACTIVE:  # finished or cancelled
        if row["status"] == "cancelled":
            raise TournamentError(Text("This tournament is cancelled."))
        raise TournamentError(Text("This tournament is finished."))
    return row


async def _tournament_record(tx: Tx, tournament_id: int) -> TournamentRecord:
    entries = await tx.all("SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY registered_at, user_id",
                           (tournament_id,))
    return _record(await _row(tx, tournament_id), entries)


async def _entry_row(tx: Tx, tournament_id: int, user: int) -> Row | None:
    return await tx.one("SELECT * FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                        (tournament_id, user))


# ------------------------------------------------------------------ the operations


class TournamentsMixin(StoreBase):
    """Tournaments: create, register and unregister, rebuy, save, pay out, cancel."""

    async def create_tournament(
        self, guild: int, channel: int, host: int, table_settings: Mapping[str, Any], *, buy_in: int,
        starting_chips: int, state: Mapping[str, Any],
    ) -> tuple[TableRecord, TournamentRecord]:
        """Open a tournament table in ``channel`` and its tournament (registering, empty pool) in one transaction;
        ``TableExists`` if the channel has an open table."""
        check_id(guild, "The server id")
        check_id(channel, "The channel id")
        check_id(host, "The host id")
        check_count(buy_in, "The buy-in", 0, MAX_AMOUNT)
        check_count(starting_chips, "The starting chips", 1, MAX_BALANCE)
        settings_text = check_settings(table_settings, "The table settings")
        state_text = to_json(dict(state), "The tournament")
        async with self._write() as tx:
            if await tx.one("SELECT 1 FROM tables WHERE channel_id = ? AND status != 'closed'", (channel,)):
                raise TableExists(Text("This channel already has a table; close it before opening a tournament."))
            table_id = await tx.insert(
                "INSERT INTO tables (guild_id, channel_id, host_id, settings, created_at) VALUES (?, ?, ?, ?, ?)",
                (guild, channel, host, settings_text, tx.now),
            )
            await start_night(tx, table_id)  # the tournament is the table's one night
            tournament_id = await tx.insert(
                "INSERT INTO tournaments (guild_id, table_id, buy_in, starting_chips, state, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild, table_id, buy_in, starting_chips, state_text, tx.now),
            )
            return await read_table(tx, table_id), await _tournament_record(tx, tournament_id)

    async def get_tournament(self, table_id: int) -> TournamentRecord | None:
        """The tournament played at table ``table_id`` (any status), or None for a cash table."""
        check_id(table_id, "The table id")
        async with self._read() as tx:
            row = await tx.one("SELECT id FROM tournaments WHERE table_id = ?", (table_id,))
            return None if row is None else await _tournament_record(tx, row["id"])

    async def register_tournament(
        self, tournament_id: int, user: int, seat_no: int, state: Mapping[str, Any]
    ) -> SeatRecord:
        """The member pays the buy-in into the pool and takes ``seat_no`` with the starting chips, and the
        tournament's new ``state`` is written, in one transaction. Refused (``AlreadySeated``, ``SeatTaken``,
        ``InsufficientFunds``, ``TournamentError``) with nothing changed."""
        check_id(tournament_id, "The tournament id")
        check_id(user, "The member id")
        check_count(seat_no, "The seat number", 1, MAX_SEATS)
        state_text = to_json(dict(state), "The tournament")
        async with self._write() as tx:
            t = await _active_row(tx, tournament_id)
            table_id = t["table_id"]
            if await _entry_row(tx, tournament_id, user) is not None:
                raise AlreadySeated(Text("{member} is already registered for this tournament.", member=Member(user)))
            if await tx.one("SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, seat_no)):
                raise SeatTaken(Text("Seat {seat} is taken; pick another one.", seat=str(seat_no)))
            try:
                await move_chips(tx, t, user, -t["buy_in"], "tournament-buy-in")
            except InsufficientFunds as error:
                raise InsufficientFunds(
                    Text("The buy-in is {buy_in} chips and you have {available} in the bank.", buy_in=t["buy_in"],
                         available=error.available),
                    needed=t["buy_in"], available=error.available,
                ) from None
            await tx.run("INSERT INTO seats (table_id, seat_no, user_id, stack, joined_at) VALUES (?, ?, ?, ?, ?)",
                         (table_id, seat_no, user, t["starting_chips"], tx.now))
            await tx.run("INSERT INTO tournament_entries (tournament_id, user_id, registered_at) VALUES (?, ?, ?)",
                         (tournament_id, user, tx.now))
            await save_state(tx, tournament_id, state_text)
            return seat_record(await _seat_or_fail(tx, table_id, user))

    async def unregister_tournament(self, tournament_id: int, user: int, state: Mapping[str, Any]) -> int:
        """Before the start: the member's buy-in back to his balance, his seat and entry gone, the new ``state``
        written, in one transaction; returns the chips returned."""
        check_id(tournament_id, "The tournament id")
        check_id(user, "The member id")
        state_text = to_json(dict(state), "The tournament")
        async with self._write() as tx:
            t = await _active_row(tx, tournament_id)
            if t["status"] != "registering":
                raise TournamentError(Text("The tournament has started: registrations can no longer be withdrawn."))
            entry = await _entry_row(tx, tournament_id, user)
            if entry is None:
                raise NotSeated(Text("{member} is not registered for this tournament.", member=Member(user)))
            refund = t["buy_in"] * (1 + entry["rebuys"])
            await move_chips(tx, t, user, refund, "tournament-refund")
            await tx.run("DELETE FROM seats WHERE table_id = ? AND user_id = ?", (t["table_id"], user))
            await tx.run("DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                         (tournament_id, user))
            await save_state(tx, tournament_id, state_text)
            return int(refund)

    async def rebuy_tournament(self, tournament_id: int, user: int, state: Mapping[str, Any]) -> SeatRecord:
        """A player with no chips left pays the buy-in again and gets the starting chips, with the new ``state``,
        in one transaction (he is in no hand: an empty stack is dealt none)."""
        check_id(tournament_id, "The tournament id")
        check_id(user, "The member id")
        state_text = to_json(dict(state), "The tournament")
        async with self._write() as tx:
            t = await _active_row(tx, tournament_id)
            if t["status"] != "running":
                raise TournamentError(Text("Rebuys are made during the tournament."))
            seat = await _seat_or_fail(tx, t["table_id"], user)
            if await _entry_row(tx, tournament_id, user) is None:
                raise NotSeated(Text("{member} is not registered for this tournament.", member=Member(user)))
            if seat["stack"] != 0:
                raise TournamentError(Text("You can rebuy only when you have no chips left."))
            try:
                await move_chips(tx, t, user, -t["buy_in"], "tournament-rebuy")
            except InsufficientFunds as error:
                raise InsufficientFunds(
                    Text("A rebuy is {buy_in} chips and you have {available} in the bank.", buy_in=t["buy_in"],
                         available=error.available),
                    needed=t["buy_in"], available=error.available,
                ) from None
            await tx.run("UPDATE seats SET stack = ? WHERE table_id = ? AND user_id = ?",
                         (t["starting_chips"], t["table_id"], user))
            await tx.run("UPDATE tournament_entries SET rebuys = rebuys + 1 WHERE tournament_id = ? AND user_id = ?",
                         (tournament_id, user))
            await save_state(tx, tournament_id, state_text)
            return seat_record(await _seat_or_fail(tx, t["table_id"], user))

    async def save_tournament(
        self, tournament_id: int, state: Mapping[str, Any], *, start: bool = False, out: Collection[int] = (),
        prizes: Mapping[int, int] | None = None,
    ) -> TournamentRecord:
        """Write a change of the tournament made between hands, in one transaction: its new ``state``; ``start``
        (registering to running); the players knocked ``out`` (their empty seats freed); and, when the change
        ends it, the payout (``prizes``, member: chips, summing to the pool exactly)."""
        check_id(tournament_id, "The tournament id")
        state_text = to_json(dict(state), "The tournament")
        users = [check_id(u, "A player id") for u in out]
        check_prizes(prizes)
        async with self._write() as tx:
            t = await _active_row(tx, tournament_id)
            if start:
                if t["status"] != "registering":
                    raise TournamentError(Text("The tournament has started already."))
                await save_state(tx, tournament_id, state_text, "running")
            else:
                await save_state(tx, tournament_id, state_text)
            await free_seats(tx, t["table_id"], users)
            if prizes is not None:
                await pay_out(tx, await _row(tx, tournament_id), prizes)
            return await _tournament_record(tx, tournament_id)

    async def cancel_tournament(
        self, tournament_id: int, state: Mapping[str, Any], *, void_reason: str = "the tournament was cancelled",
    ) -> tuple[TableRecord, list[CashOut]]:
        """Call the tournament off in one transaction: a hand in play voided, every buy-in and rebuy returned
        (``tournament-refund``), the seats freed (tournament chips are not money), the table closed. Returns the
        closed table and the refunds (as cash-outs, in seat order; a free tournament returns nothing)."""
        check_id(tournament_id, "The tournament id")
        state_text = to_json(dict(state), "The tournament")
        async with self._write() as tx:
            t = await _active_row(tx, tournament_id)
            table_id = t["table_id"]
            await tx.run("UPDATE hands SET status = 'void', void_reason = ?, ended_at = ?"
                         " WHERE table_id = ? AND status = 'live'", (void_reason, tx.now, table_id))
            seat_of = {r["user_id"]: r["seat_no"] for r in await tx.all(
                "SELECT user_id, seat_no FROM seats WHERE table_id = ?", (table_id,))}
            refunds: list[CashOut] = []
            for entry in await tx.all("SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY user_id",
                                      (tournament_id,)):
                user, amount = entry["user_id"], t["buy_in"] * (1 + entry["rebuys"])
                await move_chips(tx, t, user, amount, "tournament-refund")
                balance = int(await tx.value("SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?",
                                             (t["guild_id"], user), 0))
                refunds.append(CashOut(table_id, user, seat_of.get(user, 0), amount, balance))
            if int(await tx.value("SELECT pool FROM tournaments WHERE id = ?", (tournament_id,), 0)) != 0:
                raise ChipsNotConserved("The refunds do not add up to the prize pool.")
            await tx.run("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await end_night(tx, table_id)
            await tx.run("UPDATE tables SET status = 'closed', closed_at = ?, carried_pot = 0 WHERE id = ?",
                         (tx.now, table_id))
            await tx.run("UPDATE tournaments SET status = 'cancelled', state = ?, ended_at = ? WHERE id = ?",
                         (state_text, tx.now, tournament_id))
            refunds.sort(key=lambda cash: (cash.seat_no == 0, cash.seat_no, cash.user_id))
            return await read_table(tx, table_id), refunds

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        """Remember the tournament's registration message (None: it has none now)."""
        check_id(tournament_id, "The tournament id")
        if message_id is not None:
            check_id(message_id, "The message id")
        async with self._write() as tx:
            await _row(tx, tournament_id)
            await tx.run("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def mark_tournament_announced(self, tournament_id: int) -> None:
        """Note that the final standings were posted (so that a restart does not post them twice)."""
        check_id(tournament_id, "The tournament id")
        async with self._write() as tx:
            await _row(tx, tournament_id)
            await tx.run("UPDATE tournaments SET announced = 1 WHERE id = ?", (tournament_id,))


async def _seat_or_fail(tx: Tx, table_id: int, user: int) -> Row:
    row = await tx.one("SELECT * FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user))
    if row is None:
        raise NotSeated(Text("{member} has no seat in this tournament.", member=Member(user)))
    return row
