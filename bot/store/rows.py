"""The rows of tables, seats and hands that every part of the store reads: their records, the conversions from
a row, and the reads and checks the tables, the nights and the tournaments share inside their transactions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..i18n.text import Text
from .bank import post
from .connection import Row
from .db import Tx, check_amount, check_id, from_json, to_json
from .errors import InvalidArgument, NotFound, TableClosed, TableNotEmpty

__all__ = [
    "CashOut", "HandRecord", "HandStatus", "SeatRecord", "TableRecord", "TableStatus", "check_refunds",
    "check_settings", "hand_record", "live_hand_row", "open_table_row", "read_table", "refund_carried",
    "seat_record", "seats_of", "table_record", "table_row",
]

TableStatus = Literal["open", "paused", "closed"]
HandStatus = Literal["live", "complete", "void"]


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A player's seat at a table."""

    table_id: int
    seat_no: int
    user_id: int
    stack: int
    sitting_out: bool
    leaving: bool
    timeouts: int  # hands in a row in which he timed out (two sit him out)
    joined_at: float
    dms_closed: bool = False  # his DMs were found closed (he was told once to use "My hand")
    timed_out_hand: int | None = None  # the hand in which he last timed out


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table with its seats (ordered by seat number). ``settings`` is the caller's JSON object, decoded."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    settings: dict[str, Any]
    status: TableStatus
    button: int | None
    carried_pot: int
    created_at: float
    closed_at: float | None
    seats: tuple[SeatRecord, ...]
    message_id: int | None = None  # the table's message in its channel (the Discord side's)
    message_nonce: str | None = None  # a new table message being posted, not known yet (see ``begin_post``)

    @property
    def is_open(self) -> bool:
        """True unless closed (a paused table is still open)."""
        return self.status != "closed"

    def seat_of(self, user: int) -> SeatRecord | None:
        """The member's seat, or None."""
        return next((s for s in self.seats if s.user_id == user), None)

    def seat_at(self, seat_no: int) -> SeatRecord | None:
        """The seat with that number, or None when it is free."""
        return next((s for s in self.seats if s.seat_no == seat_no), None)

    @property
    def chips(self) -> int:
        """Every chip at the table: the stacks plus the carried pot."""
        return sum(s.stack for s in self.seats) + self.carried_pot


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand as stored: enough to rebuild it (game, settings, seed, stacks, carried chips, actions)."""

    id: int
    table_id: int
    number: int
    game: str
    settings: dict[str, Any]
    seed: int
    seat_users: tuple[int, ...]
    stacks_before: tuple[int, ...]
    carried_in: int
    status: HandStatus
    stacks_after: tuple[int, ...] | None
    carried_out: int | None
    result: Any
    phh: str | None
    void_reason: str | None
    started_at: float
    ended_at: float | None
    actions: tuple[str, ...]
    night_id: int | None = None  # the night it belongs to

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next action must carry."""
        return len(self.actions)


@dataclass(frozen=True, slots=True)
class CashOut:
    """A cash-out: the chips brought back and the balance after."""

    table_id: int
    user_id: int
    seat_no: int
    amount: int
    balance: int



# ------------------------------------------------------------------ row conversion


def seat_record(r: Row) -> SeatRecord:
    return SeatRecord(
        table_id=r["table_id"], seat_no=r["seat_no"], user_id=r["user_id"], stack=r["stack"],
        sitting_out=bool(r["sitting_out"]), leaving=bool(r["leaving"]), timeouts=r["timeouts"],
        joined_at=r["joined_at"], dms_closed=bool(r["dms_closed"]), timed_out_hand=r["timed_out_hand"],
    )


def table_record(r: Row, seats: Sequence[SeatRecord]) -> TableRecord:
    return TableRecord(
        id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"], host_id=r["host_id"],
        settings=from_json(r["settings"]), status=r["status"], button=r["button"], carried_pot=r["carried_pot"],
        created_at=r["created_at"], closed_at=r["closed_at"], seats=tuple(seats), message_id=r["message_id"],
        message_nonce=r["message_nonce"],
    )


def hand_record(r: Row, actions: Sequence[str]) -> HandRecord:
    after = from_json(r["stacks_after"])
    return HandRecord(
        id=r["id"], table_id=r["table_id"], number=r["number"], game=r["game"], settings=from_json(r["settings"]),
        seed=r["seed"], seat_users=tuple(from_json(r["seats"])), stacks_before=tuple(from_json(r["stacks_before"])),
        carried_in=r["carried_in"], status=r["status"], stacks_after=None if after is None else tuple(after),
        carried_out=r["carried_out"], result=from_json(r["result"]), phh=r["phh"], void_reason=r["void_reason"],
        started_at=r["started_at"], ended_at=r["ended_at"], actions=tuple(actions), night_id=r["session_id"],
    )



def check_settings(settings: object, what: str) -> str:
    if not isinstance(settings, Mapping):
        raise InvalidArgument(f"{what} must be a JSON object (a dict), not {type(settings).__name__}.")
    return to_json(dict(settings), what)



# ------------------------------------------------------------------ reads and checks inside a transaction


async def table_row(tx: Tx, table_id: int) -> Row:
    row = await tx.one("SELECT * FROM tables WHERE id = ?", (table_id,))
    if row is None:
        raise NotFound(Text("There is no table number {table}.", table=str(table_id)))
    return row


async def open_table_row(tx: Tx, table_id: int) -> Row:
    row = await table_row(tx, table_id)
    if row["status"] == "closed":
        raise TableClosed(Text("This table is closed."))
    return row



async def live_hand_row(tx: Tx, table_id: int) -> Row | None:
    return await tx.one("SELECT * FROM hands WHERE table_id = ? AND status = 'live'", (table_id,))



async def seats_of(tx: Tx, table_id: int) -> list[SeatRecord]:
    rows = await tx.all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat_no", (table_id,))
    return [seat_record(r) for r in rows]


async def read_table(tx: Tx, table_id: int) -> TableRecord:
    return table_record(await table_row(tx, table_id), await seats_of(tx, table_id))



def check_refunds(refunds: Mapping[int, int] | None) -> dict[int, int]:
    """Refunds of a carried pot ({member: chips}), checked before the transaction."""
    shares = dict(refunds or {})
    for user, amount in shares.items():
        check_id(user, "The member id")
        check_amount(amount, "A refund")
    return shares


async def refund_carried(tx: Tx, table: Row, shares: Mapping[int, int]) -> None:
    """Return the table's carried pot as ``shares`` (``carried-refund`` rows); ``TableNotEmpty`` unless they add
    up to it exactly. The caller empties ``carried_pot`` in the same transaction."""
    carried = int(table["carried_pot"])
    if sum(shares.values()) != carried:
        raise TableNotEmpty(
            f"{carried:,} chips are carried to the next deal; the refunds add up to {sum(shares.values()):,}."
        )
    for user, amount in sorted(shares.items()):
        await post(tx, table["guild_id"], user, amount, "carried-refund",
                   reference=f"table {table['id']}", table_id=table["id"])

