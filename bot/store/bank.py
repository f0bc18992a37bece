"""The chip bank: per-guild accounts and the append-only ledger.

Every movement is one ``BEGIN IMMEDIATE`` transaction that writes its ledger
row(s) and the balance(s) together; a refusal raises a ``StoreError`` before
anything is written, and any failure rolls the whole transaction back.

An account is opened on first use (any operation that names the member, a
balance look-up included) with the guild's starting balance, written as a
``starting-grant`` ledger row. The store cannot know who is a member of a
guild: the caller (the cog) resolves members and passes their ids.

Ledger kinds (``ledger_kinds`` table): ``starting-grant``, ``admin-grant``,
``admin-removal`` (the three that bring chips in or take them out: "minted"),
``transfer-in``/``transfer-out``, ``buy-in``/``rebuy``/``top-up`` (balance to
seat), ``cash-out`` (seat to balance) and ``carried-refund`` (carried pot to
balance).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from ..i18n.text import Member, Text
from .connection import Row
from .db import (
    MAX_AMOUNT,
    MAX_BALANCE,
    StoreBase,
    Tx,
    check_amount,
    check_count,
    check_id,
)
from .errors import InsufficientFunds, InvalidAmount, InvalidArgument, NotFound, SelfTransfer
from .nights import CURRENT_NIGHT

__all__ = [
    "DEFAULT_STARTING_BALANCE",
    "BankMixin",
    "GuildSettings",
    "LeaderboardEntry",
    "LedgerEntry",
    "LedgerPage",
    "TransferResult",
    "check_reference",
    "ensure_account",
    "post",
]

DEFAULT_STARTING_BALANCE = 1000
MAX_REFERENCE = 200  # characters of free text on a ledger row
MemberFlag = Literal["turn_alerts", "four_colours"]
MEMBER_FLAGS: dict[MemberFlag, str] = {"turn_alerts": "turn_alerts", "four_colours": "four_colours"}  # the columns


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's bank settings."""

    guild_id: int
    starting_balance: int = DEFAULT_STARTING_BALANCE
    banker_role_id: int | None = None


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One row of the ledger."""

    id: int
    guild_id: int
    user_id: int
    delta: int
    balance_after: int
    kind: str
    reference: str | None
    counterparty: int | None
    table_id: int | None
    hand_id: int | None
    created_at: float


@dataclass(frozen=True, slots=True)
class LedgerPage:
    """One page of a member's ledger, newest first. ``page`` is 1-based; ``pages`` is at least 1."""

    guild_id: int
    user_id: int
    entries: tuple[LedgerEntry, ...]
    page: int
    per_page: int
    total: int

    @property
    def pages(self) -> int:
        """How many pages there are (at least 1)."""
        return max(1, -(-self.total // self.per_page))


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """A leaderboard line: chips in the bank plus chips on seats at the guild's open tables."""

    rank: int
    user_id: int
    balance: int
    at_tables: int

    @property
    def total(self) -> int:
        """Balance plus chips at tables."""
        return self.balance + self.at_tables


@dataclass(frozen=True, slots=True)
class TransferResult:
    """The balances after a transfer."""

    amount: int
    src_balance: int
    dst_balance: int


# ------------------------------------------------------------------ helpers used inside a transaction


def check_reference(reference: object) -> str | None:
    """A ledger reference: None or a short string."""
    if reference is None:
        return None
    if not isinstance(reference, str) or len(reference) > MAX_REFERENCE:
        raise InvalidArgument(f"A reference or reason must be text of at most {MAX_REFERENCE} characters.")
    return reference or None


async def starting_balance(tx: Tx, guild: int) -> int:
    """The guild's starting balance (the default when it has no settings row)."""
    value: int = await tx.value(
        "SELECT starting_balance FROM guild_settings WHERE guild_id = ?", (guild,), DEFAULT_STARTING_BALANCE
    )
    return value


async def ensure_account(tx: Tx, guild: int, user: int) -> int:
    """Return the member's balance, opening the account with a ``starting-grant`` row if it has none."""
    row = await tx.one("SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ? FOR UPDATE", (guild, user))
    if row is not None:
        return int(row["balance"])
    start = await starting_balance(tx, guild)
    opened = await tx.run(
        "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild, user, start, tx.now),
    )
    if not opened:  # another connection opened it meanwhile (PostgreSQL, two stores on one bank): that one counts
        return await ensure_account(tx, guild, user)
    await _insert_ledger(tx, guild, user, start, start, "starting-grant", None, None, None, None)
    return start


async def lock_accounts(tx: Tx, guild: int, users: Collection[int]) -> None:
    """Lock the accounts of a movement between members in one order (by member), before it: two movements
    between the same members never wait for each other in a circle. (PostgreSQL's row locks; SQLite's write
    transaction holds the whole database.)"""
    if tx.engine == "postgresql":
        await tx.all("SELECT 1 FROM accounts WHERE guild_id = :guild AND user_id IN (SELECT a.value FROM"
                      " json_each(:users) AS a) ORDER BY user_id FOR UPDATE",
                      {"guild": guild, "users": json.dumps(sorted(set(users)))})


async def post(
    tx: Tx,
    guild: int,
    user: int,
    delta: int,
    kind: str,
    *,
    reference: str | None = None,
    counterparty: int | None = None,
    table_id: int | None = None,
    hand_id: int | None = None,
) -> int:
    """Move ``delta`` chips into (or, negative, out of) an account: one ledger row plus the balance.

    Must run inside a write transaction; the account's row is locked until it
    ends (``FOR UPDATE``). Raises ``InsufficientFunds`` if the balance would go
    negative and ``InvalidAmount`` if it would pass ``MAX_BALANCE``; return
    the new balance.
    """
    balance = await ensure_account(tx, guild, user)
    new = balance + delta
    if new < 0:
        raise InsufficientFunds(
            Text("Not enough chips: that needs {needed} and {member} has {balance}.", needed=-delta,
                 member=Member(user), balance=balance),
            needed=-delta,
            available=balance,
        )
    if new > MAX_BALANCE:
        raise InvalidAmount(Text("That would take {member}'s balance above the limit of {limit} chips.",
                                 member=Member(user), limit=MAX_BALANCE))
    await _insert_ledger(tx, guild, user, delta, new, kind, reference, counterparty, table_id, hand_id)
    await _set_balance(tx, guild, user, new)
    return new


async def _insert_ledger(
    tx: Tx,
    guild: int,
    user: int,
    delta: int,
    balance_after: int,
    kind: str,
    reference: str | None,
    counterparty: int | None,
    table_id: int | None,
    hand_id: int | None,
) -> None:
    # A row of a table belongs to the table's running night (bot.store.nights).
    await tx.run(
        "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reference, counterparty,"
        f" table_id, hand_id, created_at, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {CURRENT_NIGHT})",
        (guild, user, delta, balance_after, kind, reference, counterparty, table_id, hand_id, tx.now, table_id),
    )


async def _set_balance(tx: Tx, guild: int, user: int, balance: int) -> None:
    await tx.run("UPDATE accounts SET balance = ? WHERE guild_id = ? AND user_id = ?", (balance, guild, user))


def _entry(r: Row) -> LedgerEntry:
    return LedgerEntry(
        id=r["id"], guild_id=r["guild_id"], user_id=r["user_id"], delta=r["delta"], balance_after=r["balance_after"],
        kind=r["kind"], reference=r["reference"], counterparty=r["counterparty"], table_id=r["table_id"],
        hand_id=r["hand_id"], created_at=r["created_at"],
    )


# ------------------------------------------------------------------ the bank operations


class BankMixin(StoreBase):
    """Guild settings, balances, transfers, grants, ledger pages and the leaderboard."""

    # ---- guild settings

    async def guild_settings(self, guild: int) -> GuildSettings:
        """The guild's bank settings (defaults for a guild never configured)."""
        check_id(guild, "The server id")
        async with self._read() as tx:
            row = await tx.one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild,))
        if row is None:
            return GuildSettings(guild)
        return GuildSettings(guild, row["starting_balance"], row["banker_role_id"])

    async def set_starting_balance(self, guild: int, amount: int) -> GuildSettings:
        """Set the balance new accounts open with (0 to ``MAX_AMOUNT``); existing accounts are unchanged."""
        check_id(guild, "The server id")
        check_count(amount, "The starting balance", 0, MAX_AMOUNT)
        async with self._write() as tx:
            await tx.run(
                "INSERT INTO guild_settings (guild_id, starting_balance) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET starting_balance = excluded.starting_balance",
                (guild, amount),
            )
        return await self.guild_settings(guild)

    async def set_banker_role(self, guild: int, role_id: int | None) -> GuildSettings:
        """Set (or clear with None) the role whose members may grant and remove chips."""
        check_id(guild, "The server id")
        if role_id is not None:
            check_id(role_id, "The banker role id")
        async with self._write() as tx:
            await tx.run(
                "INSERT INTO guild_settings (guild_id, banker_role_id) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET banker_role_id = excluded.banker_role_id",
                (guild, role_id),
            )
        return await self.guild_settings(guild)

    # ---- balances and movements

    async def turn_alerts(self, guild: int, user: int) -> bool:
        """Whether the member wants a DM when his turn waits for him (on unless he turned it off)."""
        return await self._member_flag(guild, user, "turn_alerts")

    async def set_turn_alerts(self, guild: int, user: int, on: bool) -> None:
        """Turn the member's turn alerts on or off."""
        await self._set_member_flag(guild, user, "turn_alerts", on)

    async def four_colours(self, guild: int, user: int) -> bool:
        """Whether the member's own cards are drawn in four colours (the default) rather than two."""
        return await self._member_flag(guild, user, "four_colours")

    async def set_four_colours(self, guild: int, user: int, on: bool) -> None:
        """Draw the member's own cards in four colours (True) or two."""
        await self._set_member_flag(guild, user, "four_colours", on)

    async def _member_flag(self, guild: int, user: int, flag: MemberFlag) -> bool:
        """One of the member's settings (each on by default: a member without a row has them all on)."""
        check_id(guild, "The server id")
        check_id(user, "The member id")
        async with self._read() as tx:
            query = f"SELECT {MEMBER_FLAGS[flag]} FROM member_settings WHERE guild_id = ? AND user_id = ?"
            value = await tx.value(query, (guild, user), 1)
        return bool(value)

    async def _set_member_flag(self, guild: int, user: int, flag: MemberFlag, on: bool) -> None:
        check_id(guild, "The server id")
        check_id(user, "The member id")
        column = MEMBER_FLAGS[flag]
        async with self._write() as tx:
            await tx.run(
                f"INSERT INTO member_settings (guild_id, user_id, {column}) VALUES (?, ?, ?)"
                f" ON CONFLICT (guild_id, user_id) DO UPDATE SET {column} = excluded.{column}",
                (guild, user, int(bool(on))),
            )

    async def balance(self, guild: int, user: int) -> int:
        """The member's balance, opening the account with the starting balance on first use."""
        check_id(guild, "The server id")
        check_id(user, "The member id")
        async with self._read() as tx:
            value = await tx.value("SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild, user))
        if value is not None:
            return int(value)
        async with self._write() as tx:
            return await ensure_account(tx, guild, user)

    async def transfer(
        self, guild: int, src: int, dst: int, amount: int, *, reference: str | None = None
    ) -> TransferResult:
        """Move ``amount`` chips from ``src`` to ``dst`` (a ``transfer-out`` and a ``transfer-in`` row).

        Raises ``InvalidArgument``/``InvalidAmount`` for bad ids or amounts,
        ``SelfTransfer`` when ``src == dst`` and ``InsufficientFunds`` when
        ``src`` has fewer than ``amount`` chips; nothing changes then.
        """
        check_id(guild, "The server id")
        check_id(src, "The sender id")
        check_id(dst, "The recipient id")
        check_amount(amount)
        reference = check_reference(reference)
        if src == dst:
            raise SelfTransfer(Text("You cannot send chips to yourself."))
        async with self._write() as tx:
            await lock_accounts(tx, guild, (src, dst))
            try:
                src_balance = await post(tx, guild, src, -amount, "transfer-out", reference=reference, counterparty=dst)
            except InsufficientFunds as error:
                raise InsufficientFunds(
                    Text("You have {available} chips, so you cannot send {amount}.", available=error.available,
                         amount=amount),
                    needed=amount,
                    available=error.available,
                ) from None
            dst_balance = await post(tx, guild, dst, amount, "transfer-in", reference=reference, counterparty=src)
        return TransferResult(amount, src_balance, dst_balance)

    async def grant(self, guild: int, user: int, amount: int, by: int, *, reason: str | None = None) -> int:
        """A banker (``by``) gives ``amount`` new chips to ``user`` (``admin-grant``); return the new balance.

        Checking that ``by`` may do this (the banker role) is the caller's job.
        """
        check_id(guild, "The server id")
        check_id(user, "The member id")
        check_id(by, "The banker id")
        check_amount(amount)
        reason = check_reference(reason)
        async with self._write() as tx:
            return await post(tx, guild, user, amount, "admin-grant", reference=reason, counterparty=by)

    async def remove(self, guild: int, user: int, amount: int, by: int, *, reason: str | None = None) -> int:
        """A banker (``by``) takes ``amount`` chips away from ``user`` (``admin-removal``); return the new balance.

        Raises ``InsufficientFunds`` when the balance is smaller than ``amount``
        (chips on seats are not touched: cash them out first).
        """
        check_id(guild, "The server id")
        check_id(user, "The member id")
        check_id(by, "The banker id")
        check_amount(amount)
        reason = check_reference(reason)
        async with self._write() as tx:
            try:
                return await post(tx, guild, user, -amount, "admin-removal", reference=reason, counterparty=by)
            except InsufficientFunds as error:
                raise InsufficientFunds(
                    Text("{member} has {available} chips in the bank; {amount} cannot be removed.",
                         member=Member(user), available=error.available, amount=amount),
                    needed=amount,
                    available=error.available,
                ) from None

    # ---- history and rankings

    async def ledger_page(self, guild: int, user: int, page: int = 1, per_page: int = 10) -> LedgerPage:
        """One page (1-based, newest first) of a member's ledger; a page past the end is empty.

        Raises ``NotFound`` when the member has no account (the look-up does not open one).
        """
        check_id(guild, "The server id")
        check_id(user, "The member id")
        check_count(page, "The page", 1, 10**9)
        check_count(per_page, "The page size", 1, 100)
        async with self._read() as tx:
            if await tx.one("SELECT 1 FROM accounts WHERE guild_id = ? AND user_id = ?", (guild, user)) is None:
                raise NotFound(Text("{member} has no chips account in this server yet.", member=Member(user)))
            total = await tx.value(
                "SELECT count(*) FROM ledger WHERE guild_id = ? AND user_id = ?", (guild, user), 0
            )
            rows = await tx.all(
                "SELECT * FROM ledger WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
                (guild, user, per_page, (page - 1) * per_page),
            )
        return LedgerPage(guild, user, tuple(_entry(r) for r in rows), page, per_page, int(total))

    async def leaderboard(self, guild: int, limit: int = 10) -> list[LeaderboardEntry]:
        """The richest members: balance plus chips on seats at the guild's cash tables, ties ranked equal."""
        check_id(guild, "The server id")
        check_count(limit, "The leaderboard size", 1, 1000)
        async with self._read() as tx:
            rows = await tx.all(
                """
                WITH at_tables AS (
                    SELECT s.user_id, sum(s.stack) AS chips
                    FROM seats s JOIN tables t ON t.id = s.table_id
                    WHERE t.guild_id = :guild  -- tournament chips are not bank chips:
                      AND NOT EXISTS (SELECT 1 FROM tournaments x WHERE x.table_id = t.id)
                    GROUP BY s.user_id
                )
                SELECT a.user_id, a.balance, coalesce(at.chips, 0) AS at_tables,
                       rank() OVER (ORDER BY a.balance + coalesce(at.chips, 0) DESC) AS rank
                FROM accounts a LEFT JOIN at_tables at ON at.user_id = a.user_id
                WHERE a.guild_id = :guild
                ORDER BY rank, a.user_id
                LIMIT :limit
                """,
                {"guild": guild, "limit": limit},
            )
        return [LeaderboardEntry(r["rank"], r["user_id"], r["balance"], r["at_tables"]) for r in rows]
