"""Persistence of tables, seats and hands (the rules live in ``bot.poker`` and ``bot.tables``).

Chip accounting, kept simple so that ``audit`` can check it at any instant:

* A seat's ``stack`` holds that player's chips at the table. Buy-ins, rebuys
  and top-ups move chips from the bank balance to the stack; a cash-out moves
  the whole stack back and frees the seat. Each is one transaction with its
  ledger row (which carries ``table_id``).
* During a live hand the stacks are **not** touched: the chips a player has
  put in the pot are derivable by replaying the hand's seed and action log, and
  are still counted in ``seats.stack``. ``finish_hand`` writes the new stacks,
  the table's carried pot and the result in one transaction, and refuses a
  result that creates or destroys chips. ``void_hand`` needs no chip movement
  at all: every chip is still where it came from.
* The table's ``carried_pot`` (Assassin) holds chips that belong to no stack:
  ``start_hand(carried_in=...)`` lets a hand play some of it and
  ``finish_hand(carried_out=...)`` sets what the hand carries on, so after the
  hand ``carried_pot = carried_pot - carried_in + carried_out``.
  ``refund_carried`` returns it to balances (``carried-refund``) so the table
  can close.
* While a hand is live, its players cannot cash out or top up
  (``HandInProgress``); mark them ``leaving`` and cash them out with
  ``finish_hand(cash_out=...)``, in the same transaction as the result.

Seat numbers are 1-based (1 to ``MAX_SEATS``). Engine seats are the 0-based
positions in ``seat_users`` given to ``start_hand``. Action ``seq`` numbers are
0-based positions in the engine's ``Hand.actions``: the next action to append
is ``seq == len(hand.actions)`` (``HandRecord.next_seq``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Literal

from ..i18n.text import Member, Text
from ..night.facts import PlayerHandFacts
from ..poker.games import MAX_PLAYERS
from .bank import post
from .connection import Row
from .db import (
    MAX_BALANCE,
    MAX_ID,
    StoreBase,
    Tx,
    check_amount,
    check_count,
    check_id,
    from_json,
    to_json,
)
from .errors import (
    ActionOutOfOrder,
    AlreadySeated,
    BuyInOutOfRange,
    ChipsNotConserved,
    HandInProgress,
    HandNotLive,
    InsufficientFunds,
    InvalidAmount,
    InvalidArgument,
    NotFound,
    NotSeated,
    SeatTaken,
    TableExists,
    TableNotEmpty,
)
from .nights import CURRENT_NIGHT, end_night, start_night, write_facts
from .prize_pool import TournamentHand, check_hand_change, write_hand_result
from .rows import (
    CashOut,
    HandRecord,
    HandStatus,
    SeatRecord,
    TableRecord,
    TableStatus,
    check_refunds,
    check_settings,
    hand_record,
    live_hand_row,
    open_table_row,
    read_table,
    refund_carried,
    seat_record,
    seats_of,
    table_record,
    table_row,
)

TABLE_BUSY = Text("The table is busy right now (another program is using the bot's database); nothing was changed. "
                  "Please try again in a moment.")

__all__ = [
    "MAX_ACTION_LENGTH",
    "MAX_SEATS",
    "CashOut",
    "HandRecord",
    "HandStatus",
    "SeatRecord",
    "TableRecord",
    "TableStatus",
    "TablesMixin",
]

MAX_SEATS = MAX_PLAYERS  # a seat for each player the largest game deals to
MAX_ACTION_LENGTH = 200
MAX_GAME_LENGTH = 64
MAX_REASON_LENGTH = 500


# ------------------------------------------------------------------ checks


def _check_text(value: object, what: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise InvalidArgument(f"{what} must be non-empty text of at most {limit} characters, not {value!r}.")
    return value


def _check_stack(value: object, what: str, *, low: int = 0) -> int:
    return check_count(value, what, low, MAX_BALANCE)


# ------------------------------------------------------------------ helpers inside a transaction


async def _seat_row(tx: Tx, table_id: int, user: int) -> Row | None:
    return await tx.one("SELECT * FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user))


async def _require_seat(tx: Tx, table_id: int, user: int) -> Row:
    row = await _seat_row(tx, table_id, user)
    if row is None:
        raise NotSeated(Text("{member} is not seated at this table.", member=Member(user)))
    return row


async def _refuse_if_in_live_hand(tx: Tx, table_id: int, user: int, doing: Literal["add chips", "leave"]) -> None:
    hand = await live_hand_row(tx, table_id)
    if hand is not None and user in from_json(hand["seats"]):
        member, number = Member(user), str(hand["number"])
        if doing == "leave":
            raise HandInProgress(Text("{member} is playing hand #{number}; leave once it is over.", member=member,
                                      number=number))
        raise HandInProgress(Text("{member} is playing hand #{number}; add chips once it is over.", member=member,
                                  number=number))


def _over(hand: Row) -> HandNotLive:
    """The refusal of a change to a hand that is no longer live (complete or void)."""
    number = str(hand["number"])
    if hand["status"] == "void":
        return HandNotLive(Text("Hand #{number} is already over (void).", number=number))
    return HandNotLive(Text("Hand #{number} is already over (complete).", number=number))


async def _actions_of(tx: Tx, hand_id: int) -> list[str]:
    rows = await tx.all("SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,))
    return [r[0] for r in rows]


async def _hand_row(tx: Tx, hand_id: int) -> Row:
    row = await tx.one("SELECT * FROM hands WHERE id = ?", (hand_id,))
    if row is None:
        raise NotFound(Text("There is no hand number {hand}.", hand=str(hand_id)))
    return row


async def _cash_out(tx: Tx, table: Row, seat: Row) -> CashOut:
    """Stack to balance (a ``cash-out`` row when the stack is not empty), then free the seat."""
    stack = int(seat["stack"])
    user = int(seat["user_id"])
    if stack and await _plays_tournament(tx, table["id"]):  # tournament chips are not bank chips: the pool pays
        raise InvalidArgument(Text("Tournament chips cannot be cashed out: the prize pool is paid when the tournament "
                                   "ends."))
    if stack:
        balance = await post(
            tx, table["guild_id"], user, stack, "cash-out", reference=f"table {table['id']}", table_id=table["id"]
        )
    else:
        balance = int(await tx.value(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (table["guild_id"], user), 0
        ))
    await tx.run("DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table["id"], user))
    return CashOut(table["id"], user, seat["seat_no"], stack, balance)


async def _append(tx: Tx, hand_id: int, seq: int, action: str) -> None:
    """Insert action ``seq`` if the hand is live and ``seq`` is the next one; otherwise say exactly why not."""
    changed = await tx.run(
        "INSERT INTO hand_actions (hand_id, seq, action, created_at)"
        " SELECT id, CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) FROM hands"
        " WHERE id = ? AND status = 'live'"
        " AND ? = (SELECT coalesce(max(seq) + 1, 0) FROM hand_actions WHERE hand_id = ?)"
        " ON CONFLICT (hand_id, seq) DO NOTHING",  # another connection wrote it meanwhile (PostgreSQL): a repeat
        (seq, action, tx.now, hand_id, seq, hand_id),
    )
    if changed == 1:
        return
    row = await _hand_row(tx, hand_id)
    if row["status"] != "live":
        raise _over(row)
    expected = int(await tx.value("SELECT coalesce(max(seq) + 1, 0) FROM hand_actions WHERE hand_id = ?",
                                  (hand_id,), 0))
    if seq < expected:
        raise ActionOutOfOrder(
            Text("That action was already taken: the hand has moved on."), expected=expected, got=seq
        )
    raise ActionOutOfOrder(
        f"Action number {seq} cannot be recorded before number {expected}.", expected=expected, got=seq
    )


def _check_action(seq: object, action: object) -> tuple[int, str]:
    seq = check_count(seq, "The action number", 0, 10**6)
    action = _check_text(action, "An action", MAX_ACTION_LENGTH)
    return seq, action


# ------------------------------------------------------------------ the table operations


class TablesMixin(StoreBase):
    """Tables, seats, buy-ins and cash-outs, hands and their action logs."""

    # ---- tables

    async def create_table(self, guild: int, channel: int, host: int, settings: Mapping[str, Any]) -> TableRecord:
        """Open a table in ``channel`` and start its first night; raises ``TableExists`` if the channel already
        has an open one."""
        check_id(guild, "The server id")
        check_id(channel, "The channel id")
        check_id(host, "The host id")
        text = check_settings(settings, "The table settings")
        async with self._write() as tx:
            if await tx.one("SELECT 1 FROM tables WHERE channel_id = ? AND status != 'closed'", (channel,)):
                raise TableExists(Text("This channel already has a table; close it before opening another."))
            table_id = await tx.insert(
                "INSERT INTO tables (guild_id, channel_id, host_id, settings, created_at) VALUES (?, ?, ?, ?, ?)",
                (guild, channel, host, text, tx.now),
            )
            await start_night(tx, table_id)
            return await read_table(tx, table_id)

    async def get_table_by_id(self, table_id: int) -> TableRecord:
        """Any table by id, closed ones included; raises ``NotFound``."""
        check_id(table_id, "The table id")
        async with self._read() as tx:
            return await read_table(tx, table_id)

    async def list_open_tables(self, guild: int | None = None) -> list[TableRecord]:
        """Every open or paused table (of one guild, or of all), with seats, ordered by id. Two queries."""
        if guild is not None:
            check_id(guild, "The server id")
        where = "t.status != 'closed'" + ("" if guild is None else " AND t.guild_id = :guild")
        async with self._read() as tx:
            rows = await tx.all(f"SELECT * FROM tables t WHERE {where} ORDER BY t.id", {"guild": guild})
            seat_rows = await tx.all(
                f"SELECT s.* FROM seats s JOIN tables t ON t.id = s.table_id WHERE {where}"
                " ORDER BY s.table_id, s.seat_no",
                {"guild": guild},
            )
        seats: dict[int, list[SeatRecord]] = {}
        for r in seat_rows:
            seats.setdefault(r["table_id"], []).append(seat_record(r))
        return [table_record(r, seats.get(r["id"], [])) for r in rows]

    async def update_settings(self, table_id: int, settings: Mapping[str, Any]) -> TableRecord:
        """Replace the table's settings object (merge on the caller's side)."""
        check_id(table_id, "The table id")
        text = check_settings(settings, "The table settings")
        async with self._write() as tx:
            await open_table_row(tx, table_id)
            await tx.run("UPDATE tables SET settings = ? WHERE id = ?", (text, table_id))
            return await read_table(tx, table_id)

    async def set_paused(self, table_id: int, paused: bool) -> TableRecord:
        """Pause (status ``paused``) or resume (``open``) the table. The store does not stop a paused table
        from dealing: that is the table layer's rule."""
        check_id(table_id, "The table id")
        async with self._write() as tx:
            await open_table_row(tx, table_id)
            await tx.run("UPDATE tables SET status = ? WHERE id = ?", ("paused" if paused else "open", table_id))
            return await read_table(tx, table_id)

    async def set_button(self, table_id: int, seat_no: int | None) -> TableRecord:
        """Put the button on ``seat_no`` (or None)."""
        check_id(table_id, "The table id")
        if seat_no is not None:
            check_count(seat_no, "The seat number", 1, MAX_SEATS)
        async with self._write() as tx:
            await open_table_row(tx, table_id)
            await tx.run("UPDATE tables SET button = ? WHERE id = ?", (seat_no, table_id))
            return await read_table(tx, table_id)

    async def close_table(
        self, table_id: int, *, void_reason: str | None = None, refunds: Mapping[int, int] | None = None,
    ) -> tuple[TableRecord, list[CashOut]]:
        """Close the table in one transaction: its live hand voided (``void_reason``; every chip is still on its
        seat), the carried pot returned as ``refunds`` ({member: chips}, adding up to the carried pot exactly),
        every seat cashed out, the table and its night closed. Returns the closed table and the cash-outs in
        seat order.
        A crash at any moment leaves the table either open as it was or closed: never half closed.
        Refused (``HandInProgress``, ``TableNotEmpty``) when a hand is live without a reason, or the refunds do
        not match the carried pot."""
        check_id(table_id, "The table id")
        reason = _check_text(void_reason, "The reason", MAX_REASON_LENGTH) if void_reason is not None else None
        shares = check_refunds(refunds)
        async with self._write() as tx:
            table = await open_table_row(tx, table_id)
            if await _plays_tournament(tx, table_id, active=True):
                raise TableNotEmpty(Text("A tournament is under way at this table: cancel it to return every buy-in."))
            live = await live_hand_row(tx, table_id)
            if live is not None:
                if reason is None:
                    raise HandInProgress(Text("A hand is still being played; finish or void it before closing the "
                                              "table."))
                await tx.run("UPDATE hands SET status = 'void', void_reason = ?, ended_at = ? WHERE id = ?",
                             (reason, tx.now, live["id"]))
            await refund_carried(tx, table, shares)
            seats = await tx.all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat_no", (table_id,))
            cashes = [await _cash_out(tx, table, seat) for seat in seats]
            await end_night(tx, table_id)
            await tx.run("UPDATE tables SET status = 'closed', closed_at = ?, carried_pot = 0 WHERE id = ?",
                         (tx.now, table_id))
            return await read_table(tx, table_id), cashes

    async def set_message(self, table_id: int, message_id: int | None) -> TableRecord:
        """Remember the table's message in its channel (None: it has none now); a post under way is over."""
        check_id(table_id, "The table id")
        if message_id is not None:
            check_id(message_id, "The message id")
        async with self._write() as tx:
            await open_table_row(tx, table_id)
            await tx.run("UPDATE tables SET message_id = ?, message_nonce = NULL WHERE id = ?", (message_id, table_id))
            return await read_table(tx, table_id)

    async def closes_not_shown(self) -> list[TableRecord]:
        """Closed tables whose message may still show the table (the close was stored, "Table closed" not shown:
        ``close_shown`` was not called), oldest first, without seats."""
        async with self._read() as tx:
            rows = await tx.all("SELECT * FROM tables WHERE status = 'closed' AND message_id IS NOT NULL ORDER BY id")
        return [table_record(row, ()) for row in rows]

    async def close_shown(self, table_id: int) -> None:
        """The closed table's message shows it closed (or is gone): nothing is left to show."""
        check_id(table_id, "The table id")
        async with self._write() as tx:
            await tx.run("UPDATE tables SET message_id = NULL, message_nonce = NULL WHERE id = ? AND status = 'closed'",
                         (table_id,))

    async def begin_post(self, table_id: int, nonce: str) -> TableRecord:
        """A new table message is about to be posted with ``nonce`` (Discord's idempotency key)."""
        check_id(table_id, "The table id")
        nonce = _check_text(nonce, "The nonce", 25)
        async with self._write() as tx:
            await open_table_row(tx, table_id)
            await tx.run("UPDATE tables SET message_nonce = ? WHERE id = ?", (nonce, table_id))
            return await read_table(tx, table_id)

    async def set_dms_closed(self, table_id: int, user: int, closed: bool) -> SeatRecord:
        """Note that the member's DMs were found closed (or open again)."""
        check_id(table_id, "The table id")
        check_id(user, "The member id")
        async with self._write() as tx:
            await open_table_row(tx, table_id)
            await _require_seat(tx, table_id, user)
            await tx.run("UPDATE seats SET dms_closed = ? WHERE table_id = ? AND user_id = ?",
                         (int(bool(closed)), table_id, user))
            return seat_record(await _require_seat(tx, table_id, user))

    # ---- seats and chips

    async def buy_in(
        self,
        table_id: int,
        user: int,
        amount: int,
        seat_no: int,
        *,
        min_amount: int | None = None,
        max_amount: int | None = None,
    ) -> SeatRecord:
        """Take ``seat_no`` with ``amount`` chips from the member's balance (a ``buy-in`` row).

        ``min_amount``/``max_amount`` are the table's buy-in range in chips (the
        table layer computes them from big blinds). Raises ``TableClosed``,
        ``AlreadySeated``, ``SeatTaken``, ``InvalidAmount``,
        ``BuyInOutOfRange`` or ``InsufficientFunds``; nothing changes then.
        """
        check_id(table_id, "The table id")
        check_id(user, "The member id")
        check_amount(amount, "The buy-in")
        check_count(seat_no, "The seat number", 1, MAX_SEATS)
        _check_range(amount, min_amount, max_amount, "buy in")
        async with self._write() as tx:
            table = await open_table_row(tx, table_id)
            mine = await _seat_row(tx, table_id, user)
            if mine is not None:
                raise AlreadySeated(Text("{member} is already seated here (seat {seat}).", member=Member(user),
                                         seat=str(mine["seat_no"])))
            if await tx.one("SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, seat_no)):
                raise SeatTaken(Text("Seat {seat} is taken; pick another one.", seat=str(seat_no)))
            await _debit_for_table(tx, table, user, amount, "buy-in")
            await tx.run(
                "INSERT INTO seats (table_id, seat_no, user_id, stack, joined_at) VALUES (?, ?, ?, ?, ?)",
                (table_id, seat_no, user, amount, tx.now),
            )
            return seat_record(await _require_seat(tx, table_id, user))

    async def top_up(
        self,
        table_id: int,
        user: int,
        amount: int,
        *,
        min_stack: int | None = None,
        max_stack: int | None = None,
    ) -> SeatRecord:
        """Add ``amount`` chips from the balance to the member's stack, between hands.

        The ledger kind is ``rebuy`` when the stack was empty, ``top-up``
        otherwise. ``min_stack``/``max_stack`` bound the resulting stack
        (``BuyInOutOfRange``). Refused with ``HandInProgress`` while the member
        plays a live hand, ``NotSeated`` when not at the table.
        """
        check_id(table_id, "The table id")
        check_id(user, "The member id")
        check_amount(amount, "The top-up")
        async with self._write() as tx:
            table = await open_table_row(tx, table_id)
            seat = await _require_seat(tx, table_id, user)
            await _refuse_if_in_live_hand(tx, table_id, user, "add chips")
            stack = int(seat["stack"])
            _check_range(stack + amount, min_stack, max_stack, "have a stack of")
            if stack + amount > MAX_BALANCE:
                raise InvalidAmount(Text("A stack cannot pass {limit} chips.", limit=MAX_BALANCE))
            await _debit_for_table(tx, table, user, amount, "rebuy" if stack == 0 else "top-up")
            await tx.run(
                "UPDATE seats SET stack = stack + ? WHERE table_id = ? AND user_id = ?", (amount, table_id, user)
            )
            return seat_record(await _require_seat(tx, table_id, user))

    async def cash_out(self, table_id: int, user: int) -> CashOut:
        """Bring the member's whole stack back to the balance (a ``cash-out`` row) and free the seat.

        Raises ``NotSeated`` (leaving a table one is not at) and
        ``HandInProgress`` while the member plays a live hand (mark the seat
        ``leaving`` and pass the member to ``finish_hand(cash_out=...)``).
        """
        check_id(table_id, "The table id")
        check_id(user, "The member id")
        async with self._write() as tx:
            table = await table_row(tx, table_id)
            seat = await _require_seat(tx, table_id, user)
            await _refuse_if_in_live_hand(tx, table_id, user, "leave")
            return await _cash_out(tx, table, seat)

    async def update_seat(
        self,
        table_id: int,
        user: int,
        *,
        sitting_out: bool | None = None,
        leaving: bool | None = None,
        timeouts: int | None = None,
        timed_out_hand: int | None = None,
    ) -> SeatRecord:
        """Change a seat's flags (None leaves a field as it is); allowed during a hand. ``timed_out_hand``: the
        member's clock ran out in that hand (counted when it ends)."""
        check_id(table_id, "The table id")
        check_id(user, "The member id")
        changes: dict[str, int] = {}
        if sitting_out is not None:
            changes["sitting_out"] = int(bool(sitting_out))
        if leaving is not None:
            changes["leaving"] = int(bool(leaving))
        if timeouts is not None:
            changes["timeouts"] = check_count(timeouts, "The timeout count", 0, 10**6)
        if timed_out_hand is not None:
            changes["timed_out_hand"] = check_id(timed_out_hand, "The hand id")
        async with self._write() as tx:
            await open_table_row(tx, table_id)
            await _require_seat(tx, table_id, user)
            if changes:
                assignments = ", ".join(f"{column} = :{column}" for column in changes)
                await tx.run(
                    f"UPDATE seats SET {assignments} WHERE table_id = :table AND user_id = :user",
                    {**changes, "table": table_id, "user": user},
                )
            return seat_record(await _require_seat(tx, table_id, user))

    async def refund_carried(self, table_id: int, shares: Mapping[int, int]) -> int:
        """Return carried chips to balances (``carried-refund`` rows); return what stays carried.

        ``shares`` maps member ids to positive amounts adding up to at most the
        carried pot (``InsufficientFunds`` otherwise). Refused while a hand is live.
        """
        check_id(table_id, "The table id")
        if not isinstance(shares, Mapping) or not shares:
            raise InvalidArgument("Say who gets the carried chips back: a non-empty {member: amount} mapping.")
        for user, amount in shares.items():
            check_id(user, "The member id")
            check_amount(amount, "A refund")
        total = sum(shares.values())
        async with self._write() as tx:
            table = await open_table_row(tx, table_id)
            if await live_hand_row(tx, table_id) is not None:
                raise HandInProgress(Text("The carried pot can be refunded only between hands."))
            carried = int(table["carried_pot"])
            if total > carried:
                raise InsufficientFunds(
                    Text("Only {carried} chips are carried; {total} cannot be refunded.", carried=carried, total=total),
                    needed=total,
                    available=carried,
                )
            for user, amount in sorted(shares.items()):
                await post(tx, table["guild_id"], user, amount, "carried-refund",
                           reference=f"table {table_id}", table_id=table_id)
            await tx.run("UPDATE tables SET carried_pot = carried_pot - ? WHERE id = ?", (total, table_id))
            return carried - total

    # ---- hands

    async def start_hand(
        self,
        table_id: int,
        game: str,
        settings: Mapping[str, Any],
        seed: int,
        seat_users: Sequence[int],
        stacks_before: Sequence[int],
        carried_in: int = 0,
        *,
        button: int | None = None,
        table_settings: Mapping[str, Any] | None = None,
    ) -> HandRecord:
        """Record a new live hand; no chips move (see the module docstring).

        ``seat_users`` lists the member in each engine seat and
        ``stacks_before`` their stacks, which must equal their seat stacks now.
        ``carried_in`` (at most the table's carried pot) is what the hand plays
        of the carried pot. ``settings`` holds whatever the table layer needs
        to rebuild the hand (stakes, options, button...). Refused with
        ``HandInProgress`` if the table already has a live hand. ``button``
        (the seat it moves to) and ``table_settings`` (the table's settings
        object) are written in the same transaction, when given.
        """
        check_id(table_id, "The table id")
        if button is not None:
            check_count(button, "The seat number", 1, MAX_SEATS)
        table_text = check_settings(table_settings, "The table settings") if table_settings is not None else None
        game = _check_text(game, "The game", MAX_GAME_LENGTH)
        settings_text = check_settings(settings, "The hand settings")
        seed = check_count(seed, "The seed", 0, MAX_ID)
        users = [check_id(u, "A player id") for u in seat_users]
        if not 2 <= len(users) <= MAX_SEATS or len(set(users)) != len(users):
            raise InvalidArgument(f"A hand needs 2 to {MAX_SEATS} different players.")
        stacks = [_check_stack(s, "A starting stack", low=1) for s in stacks_before]
        if len(stacks) != len(users):
            raise InvalidArgument("Give one starting stack per player.")
        carried_in = _check_stack(carried_in, "The carried chips")
        async with self._write() as tx:
            table = await open_table_row(tx, table_id)
            live = await live_hand_row(tx, table_id)
            if live is not None:
                raise HandInProgress(Text("Hand #{number} is still being played at this table.",
                                          number=str(live["number"])))
            seats = {s.user_id: s for s in await seats_of(tx, table_id)}
            for user, stack in zip(users, stacks):
                seat = seats.get(user)
                if seat is None:
                    raise NotSeated(Text("{member} is not seated at this table.", member=Member(user)))
                if seat.stack != stack:
                    raise ChipsNotConserved(
                        f"{{member}} has {seat.stack:,} chips at the table, not {stack:,}: the hand would not add up.",
                        member=user)
            if carried_in > table["carried_pot"]:
                raise ChipsNotConserved(
                    f"Only {table['carried_pot']:,} chips are carried; the hand cannot take {carried_in:,}."
                )
            number = int(await tx.value("SELECT coalesce(max(number), 0) + 1 FROM hands WHERE table_id = ?",
                                        (table_id,), 1))
            hand_id = await tx.insert(
                "INSERT INTO hands (table_id, number, game, settings, seed, seats, stacks_before, carried_in,"
                f" started_at, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, {CURRENT_NIGHT})",
                (table_id, number, game, settings_text, seed, to_json(users, "seats"), to_json(stacks, "stacks"),
                 carried_in, tx.now, table_id),
            )
            if button is not None:
                await tx.run("UPDATE tables SET button = ? WHERE id = ?", (button, table_id))
            if table_text is not None:
                await tx.run("UPDATE tables SET settings = ? WHERE id = ?", (table_text, table_id))
            return hand_record(await _hand_row(tx, hand_id), [])

    async def append_action(self, hand_id: int, seq: int, action: str) -> None:
        """Append action ``seq`` (0-based; must be the next one) to a live hand, durably, in one statement.

        A repeated ``seq`` (a double click, a stale button) raises
        ``ActionOutOfOrder`` with ``is_duplicate`` True; a gap raises it with
        ``is_duplicate`` False; a finished hand raises ``HandNotLive``.
        """
        check_id(hand_id, "The hand id")
        seq, action = _check_action(seq, action)
        async with self._writing(TABLE_BUSY) as until:
            # Autocommit: the single INSERT ... SELECT is its own transaction (checks and write together).
            tx = Tx(self._conn, self._clock())
            await self._conn.autocommit(lambda: _append(tx, hand_id, seq, action), until, TABLE_BUSY)

    async def finish_hand(
        self,
        hand_id: int,
        final_stacks: Sequence[int],
        carried_out: int,
        result: Any,
        phh: str | None = None,
        *,
        last_action: tuple[int, str] | None = None,
        cash_out: Collection[int] = (),
        timeouts: Mapping[int, tuple[int, bool]] | None = None,
        facts: Sequence[PlayerHandFacts] | None = None,
        tournament: TournamentHand | None = None,
    ) -> HandRecord:
        """Complete a live hand in one transaction: new seat stacks, the carried pot, status and result.

        ``final_stacks`` are the engine's final stacks in engine-seat order
        (``Hand.stacks``) and ``carried_out`` the chips carried to the next
        deal; they must add up to ``stacks_before + carried_in``
        (``ChipsNotConserved`` otherwise). ``last_action=(seq, action)``
        appends the hand's final action in the same transaction; ``cash_out``
        lists members (marked leaving) to cash out right after, also in the
        same transaction. ``timeouts`` maps members to their new count of
        hands in a row with a timeout and whether that sits them out (the
        table layer asks the rules), also written in the transaction.
        ``result`` is any JSON value; ``phh`` the hand history text, if available; ``facts`` what each
        player did (``bot.night.facts.hand_facts``, one per seat), kept for the stats in the same transaction.
        At a tournament table, ``tournament`` (``bot.store.tournaments``) is written in the same transaction too:
        the eliminations and, when the hand ends the tournament, the payout.
        """
        check_id(hand_id, "The hand id")
        stacks = [_check_stack(s, "A final stack") for s in final_stacks]
        carried_out = _check_stack(carried_out, "The carried chips")
        result_text = to_json(result, "The result")
        if phh is not None and not isinstance(phh, str):
            raise InvalidArgument("The hand history must be text.")
        action = _check_action(*last_action) if last_action is not None else None
        leavers = [check_id(u, "A player id") for u in cash_out]
        counts = {check_id(u, "A player id"): (check_count(c, "The timeout count", 0, 10**6), bool(out))
                  for u, (c, out) in (timeouts or {}).items()}
        if tournament is not None:
            check_hand_change(tournament)
        async with self._write() as tx:
            hand = await _hand_row(tx, hand_id)
            if hand["status"] != "live":
                raise _over(hand)
            users: list[int] = from_json(hand["seats"])
            before: list[int] = from_json(hand["stacks_before"])
            if len(stacks) != len(users):
                raise InvalidArgument(f"Give one final stack per player ({len(users)}), not {len(stacks)}.")
            if sum(stacks) + carried_out != sum(before) + hand["carried_in"]:
                raise ChipsNotConserved(
                    f"The hand's chips do not add up: {sum(before):,} in stacks and {hand['carried_in']:,} carried in,"
                    f" but {sum(stacks):,} in stacks and {carried_out:,} carried out after."
                )
            if action is not None:
                await _append(tx, hand_id, *action)
            for user, stack, was in zip(users, stacks, before):
                changed = await tx.run(
                    "UPDATE seats SET stack = ? WHERE table_id = ? AND user_id = ? AND stack = ?",
                    (stack, hand["table_id"], user, was),
                )
                if changed != 1:
                    raise ChipsNotConserved(f"{{member}}'s seat changed during hand #{hand['number']}.", member=user)
            await tx.run(
                "UPDATE tables SET carried_pot = carried_pot - ? + ? WHERE id = ?",
                (hand["carried_in"], carried_out, hand["table_id"]),
            )
            await tx.run(
                "UPDATE hands SET status = 'complete', stacks_after = ?, carried_out = ?, result = ?, phh = ?,"
                " ended_at = ? WHERE id = ?",
                (to_json(stacks, "stacks"), carried_out, result_text, phh, tx.now, hand_id),
            )
            if facts is not None:
                guild = await tx.value("SELECT guild_id FROM tables WHERE id = ?", (hand["table_id"],))
                await write_facts(tx, hand, int(guild), facts, stacks, tx.now)
            for user, (count, sit_out) in counts.items():
                await tx.run(
                    "UPDATE seats SET timeouts = ?, sitting_out = CASE WHEN ? = 1 THEN 1 ELSE sitting_out END"
                    " WHERE table_id = ? AND user_id = ?",
                    (count, int(sit_out), hand["table_id"], user),
                )
            if leavers:
                table = await table_row(tx, hand["table_id"])
                for user in leavers:
                    await _cash_out(tx, table, await _require_seat(tx, hand["table_id"], user))
            if tournament is not None:
                await write_hand_result(tx, hand["table_id"], tournament)
            elif await _plays_tournament(tx, hand["table_id"], active=True):  # its eliminations go with it
                raise InvalidArgument("A tournament's hand is finished with the tournament's change (tournament=).")
            return hand_record(await _hand_row(tx, hand_id), await _actions_of(tx, hand_id))

    async def void_hand(self, hand_id: int, reason: str) -> HandRecord:
        """Mark a live hand void (it cannot be rebuilt); every chip is still on the stacks it came from."""
        check_id(hand_id, "The hand id")
        reason = _check_text(reason, "The reason", MAX_REASON_LENGTH)
        async with self._write() as tx:
            hand = await _hand_row(tx, hand_id)
            if hand["status"] != "live":
                raise _over(hand)
            await tx.run(
                "UPDATE hands SET status = 'void', void_reason = ?, ended_at = ? WHERE id = ?",
                (reason, tx.now, hand_id),
            )
            return hand_record(await _hand_row(tx, hand_id), await _actions_of(tx, hand_id))

    async def get_hand(self, hand_id: int) -> HandRecord:
        """A hand with its actions; raises ``NotFound``."""
        check_id(hand_id, "The hand id")
        async with self._read() as tx:
            return hand_record(await _hand_row(tx, hand_id), await _actions_of(tx, hand_id))

    async def live_hand(self, table_id: int) -> HandRecord | None:
        """The table's live hand with its actions, or None."""
        check_id(table_id, "The table id")
        async with self._read() as tx:
            row = await live_hand_row(tx, table_id)
            return None if row is None else hand_record(row, await _actions_of(tx, row["id"]))

    async def last_activity(self, hand_id: int) -> float:
        """When the hand last moved: the time of its last action, or of its deal (for the clock
        of the player to act, so that a restart does not give him a fresh clock)."""
        check_id(hand_id, "The hand id")
        async with self._read() as tx:
            row = await tx.one(
                "SELECT max(at) AS at FROM (SELECT started_at AS at FROM hands WHERE id = :hand"
                " UNION ALL SELECT created_at FROM hand_actions WHERE hand_id = :hand) AS moments"
                " WHERE EXISTS (SELECT 1 FROM hands WHERE id = :hand)",
                {"hand": hand_id},
            )
            if row is None or row["at"] is None:
                raise NotFound(f"There is no hand {hand_id}.")
            return float(row["at"])

    async def live_hands(self) -> list[HandRecord]:
        """Every live hand with its actions in order (two queries), to rebuild them on start."""
        async with self._read() as tx:
            rows = await tx.all("SELECT * FROM hands WHERE status = 'live' ORDER BY id")
            action_rows = await tx.all(
                "SELECT a.hand_id, a.action FROM hand_actions a JOIN hands h ON h.id = a.hand_id"
                " WHERE h.status = 'live' ORDER BY a.hand_id, a.seq"
            )
        actions: dict[int, list[str]] = {}
        for r in action_rows:
            actions.setdefault(r[0], []).append(r[1])
        return [hand_record(r, actions.get(r["id"], [])) for r in rows]

    async def hands_dealt(self, table_id: int) -> int:
        """The number of the table's last hand (0 before its first)."""
        check_id(table_id, "The table id")
        async with self._read() as tx:
            return int(await tx.value("SELECT coalesce(max(number), 0) FROM hands WHERE table_id = ?",
                                      (table_id,), 0))

    async def hands_dealt_by_table(self) -> dict[int, int]:
        """The number of each open table's last hand, in one query (for restoring every table)."""
        async with self._read() as tx:
            rows = await tx.all("SELECT h.table_id, max(h.number) FROM hands h JOIN tables t ON t.id = h.table_id"
                                " WHERE t.status != 'closed' GROUP BY h.table_id")
        return {int(r[0]): int(r[1]) for r in rows}

    async def recent_hands(self, table_id: int, count: int = 10) -> list[HandRecord]:
        """The table's last ``count`` hands (any status), newest first, with their actions."""
        check_id(table_id, "The table id")
        check_count(count, "The number of hands", 1, 1000)
        async with self._read() as tx:
            rows = await tx.all(
                "SELECT * FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT ?", (table_id, count)
            )
            return [hand_record(r, await _actions_of(tx, r["id"])) for r in rows]


def _check_range(amount: int, low: int | None, high: int | None, doing: Literal["buy in", "have a stack of"]) -> None:
    if low is not None and amount < low:
        if doing == "buy in":
            raise BuyInOutOfRange(Text("You must buy in at least {low} chips here, not {amount}.", low=low,
                                       amount=amount))
        raise BuyInOutOfRange(Text("You must have a stack of at least {low} chips here, not {amount}.", low=low,
                                   amount=amount))
    if high is not None and amount > high:
        if doing == "buy in":
            raise BuyInOutOfRange(Text("You can buy in at most {high} chips here, not {amount}.", high=high,
                                       amount=amount))
        raise BuyInOutOfRange(Text("You can have a stack of at most {high} chips here, not {amount}.", high=high,
                                   amount=amount))


async def _debit_for_table(tx: Tx, table: Row, user: int, amount: int, kind: str) -> None:
    """Take chips from the member's balance for a seat, with a clear refusal if there are too few."""
    if await _plays_tournament(tx, table["id"]):  # its seats hold tournament chips, not a balance's
        raise InvalidArgument(Text("This table plays a tournament: enter it with its Register button."))
    try:
        await post(tx, table["guild_id"], user, -amount, kind, reference=f"table {table['id']}", table_id=table["id"])
    except InsufficientFunds as error:
        raise InsufficientFunds(
            Text("You have {available} chips in the bank, not enough for {amount}.", available=error.available,
                 amount=amount),
            needed=amount,
            available=error.available,
        ) from None


async def _plays_tournament(tx: Tx, table_id: int, *, active: bool = False) -> bool:
    """Whether the table is a tournament's (whose seats hold tournament chips); ``active``: one still running."""
    where = " AND status IN ('registering', 'running')" if active else ""
    return await tx.one(f"SELECT 1 FROM tournaments WHERE table_id = ?{where}", (table_id,)) is not None
