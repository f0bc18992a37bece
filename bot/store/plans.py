"""Planned nights: each server's time zone, the nights planned in its channels and every member's answer.

Migration ``0006_planned_nights.sql``. The rules (who is in, when reminders are due, how long a night lasts) are
``bot.planning``'s; the store keeps the state and makes each change in one transaction: two nights in one
channel never overlap (``create_plan``'s ``length``), an answer is taken only while the night is planned, and a
reminder is marked handled once (``mark_reminded``), so none is sent twice after a restart.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from ..i18n.text import Text
from ..planning.night import Signup, interested_changes
from .connection import Row
from .db import StoreBase, Tx, check_count, check_id
from .errors import InvalidArgument, NotFound, StoreError

__all__ = ["PlanClash", "PlanClosed", "PlanRecord", "PlanStatus", "PlansMixin"]

PlanStatus = Literal["planned", "open", "done", "cancelled", "missed"]
ENDED: tuple[PlanStatus, ...] = ("done", "cancelled", "missed")
MAX_SEATS_PLANNED = 99
MAX_REMIND_MINUTES = 10**6


class PlanClash(StoreError):
    """A second night in a channel overlapping one planned there (``plan_id``, starting at ``starts_at``)."""

    def __init__(self, plan_id: int, starts_at: int) -> None:
        super().__init__(Text("This channel already has a night planned at that time."))
        self.plan_id = plan_id
        self.starts_at = starts_at


class PlanClosed(StoreError):
    """An answer or a change to a night that is no longer planned (``status`` says what it is)."""

    def __init__(self, status: PlanStatus) -> None:
        super().__init__(_CLOSED[status])
        self.status = status


_CLOSED: dict[PlanStatus, Text] = {
    "open": Text("This poker night has started."),
    "done": Text("This poker night is over."),
    "cancelled": Text("This poker night was cancelled."),
    "missed": Text("This poker night went by while the bot was away."),
    "planned": Text("This poker night is planned."),
}


@dataclass(frozen=True, slots=True)
class PlanRecord:
    """A planned night as stored, with every member's answer (in the order they came)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    starts_at: int
    game: str
    small_blind: int
    big_blind: int
    structure: str | None
    buy_in: int | None
    seats: int
    remind_minutes: int
    notes: str | None
    status: PlanStatus
    event_id: int | None
    message_id: int | None
    table_id: int | None
    reminded: bool
    created_at: float
    signups: tuple[Signup, ...]


def _record(row: Row, signups: Sequence[Row]) -> PlanRecord:
    return PlanRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], host_id=row["host_id"],
        starts_at=row["starts_at"], game=row["game"], small_blind=row["small_blind"], big_blind=row["big_blind"],
        structure=row["structure"], buy_in=row["buy_in"], seats=row["seats"], remind_minutes=row["remind_minutes"],
        notes=row["notes"], status=row["status"], event_id=row["event_id"], message_id=row["message_id"],
        table_id=row["table_id"], reminded=row["reminded_at"] is not None, created_at=row["created_at"],
        signups=tuple(Signup(s["user_id"], s["answer"], s["answered_at"], s["reminded_at"] is not None)
                      for s in signups),
    )


async def _plan(tx: Tx, plan_id: int) -> PlanRecord:
    row = await tx.one("SELECT * FROM planned_nights WHERE id = ?", (plan_id,))
    if row is None:
        raise NotFound(Text("There is no planned night number {night}.", night=str(plan_id)))
    signups = await tx.all("SELECT * FROM night_signups WHERE night_id = ? ORDER BY answered_at, user_id",
                           (plan_id,))
    return _record(row, signups)


async def _planned(tx: Tx, plan_id: int) -> PlanRecord:
    plan = await _plan(tx, plan_id)
    if plan.status != "planned":
        raise PlanClosed(plan.status)
    return plan


class PlansMixin(StoreBase):
    """The planned-night part of ``Store``."""

    # ------------------------------------------------------------------ the server's time zone

    async def time_zone(self, guild: int) -> str | None:
        """The IANA zone the server's hosts type times in (None: none chosen)."""
        check_id(guild, "The server id")
        async with self._read() as tx:
            zone = await tx.value("SELECT time_zone FROM guild_time_zones WHERE guild_id = ?", (guild,))
        return str(zone) if zone is not None else None

    async def set_time_zone(self, guild: int, zone: str) -> None:
        """Choose the server's zone (an IANA name, checked by the caller)."""
        check_id(guild, "The server id")
        if not isinstance(zone, str) or not 1 <= len(zone) <= 64:
            raise InvalidArgument("A time zone is a name like Europe/Berlin.")
        async with self._write() as tx:
            await tx.run("INSERT INTO guild_time_zones (guild_id, time_zone) VALUES (?, ?)"
                         " ON CONFLICT (guild_id) DO UPDATE SET time_zone = excluded.time_zone", (guild, zone))

    # ------------------------------------------------------------------ plans

    async def create_plan(
        self, guild: int, channel: int, host: int, starts_at: int, *, game: str, small_blind: int, big_blind: int,
        structure: str | None, buy_in: int | None, seats: int, remind_minutes: int, notes: str | None,
        length: int,
    ) -> PlanRecord:
        """Plan a night in ``channel`` from ``starts_at`` (its settings checked by the caller); ``PlanClash`` if
        a night planned or open there starts less than ``length`` seconds before or after it."""
        for value, what in ((guild, "The server id"), (channel, "The channel id"), (host, "The host's id")):
            check_id(value, what)
        check_count(seats, "The number of seats", 2, MAX_SEATS_PLANNED)
        check_count(remind_minutes, "The reminder", 0, MAX_REMIND_MINUTES)
        if not isinstance(starts_at, int) or isinstance(starts_at, bool):
            raise InvalidArgument("A night starts at a whole second.")
        async with self._write() as tx:
            near = await tx.one(
                "SELECT id, starts_at FROM planned_nights WHERE channel_id = ? AND status IN ('planned', 'open')"
                " AND starts_at > ? AND starts_at < ? ORDER BY starts_at LIMIT 1",
                (channel, starts_at - length, starts_at + length))
            if near is not None:
                raise PlanClash(near["id"], near["starts_at"])
            plan_id = await tx.insert(
                "INSERT INTO planned_nights (guild_id, channel_id, host_id, starts_at, game, small_blind, big_blind,"
                " structure, buy_in, seats, remind_minutes, notes, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild, channel, host, starts_at, game, small_blind, big_blind, structure, buy_in, seats,
                 remind_minutes, notes, tx.now))
            return await _plan(tx, plan_id)

    async def get_plan(self, plan_id: int) -> PlanRecord:
        """A planned night (``NotFound`` for an unknown one)."""
        check_id(plan_id, "The night's number")
        async with self._read() as tx:
            return await _plan(tx, plan_id)

    async def plans(self, *, guild: int | None = None, channel: int | None = None, table: int | None = None,
                    statuses: Collection[PlanStatus] = ("planned", "open")) -> list[PlanRecord]:
        """The nights of a server, a channel or a table in these statuses, soonest first."""
        where = ["status IN (" + ", ".join("?" for _ in statuses) + ")"]
        params: list[object] = list(statuses)
        for column, value in (("guild_id", guild), ("channel_id", channel), ("table_id", table)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(check_id(value, "An id"))
        async with self._read() as tx:
            ids = [r[0] for r in await tx.all(
                f"SELECT id FROM planned_nights WHERE {' AND '.join(where)} ORDER BY starts_at, id", params)]
            return [await _plan(tx, i) for i in ids]

    async def set_plan_event(self, plan_id: int, event_id: int | None) -> None:
        """The night's Discord event (None: it has none, or it is gone)."""
        async with self._write() as tx:
            await tx.run("UPDATE planned_nights SET event_id = ? WHERE id = ?", (event_id, plan_id))

    async def set_plan_message(self, plan_id: int, message_id: int) -> None:
        """The night's sign-up message."""
        check_id(message_id, "The message id")
        async with self._write() as tx:
            await tx.run("UPDATE planned_nights SET message_id = ? WHERE id = ?", (message_id, plan_id))

    # ------------------------------------------------------------------ answers

    async def answer_plan(self, plan_id: int, user: int, answer: Literal["in", "out"]) -> PlanRecord:
        """A member taps I'm in or Can't make it (``PlanClosed`` once the night is no longer planned). One who is
        in already (by a tap or the event) keeps his place; one who comes back in goes to the end."""
        check_id(user, "The member id")
        if answer not in ("in", "out"):
            raise InvalidArgument("An answer is in or out.")
        async with self._write() as tx:
            plan = await _planned(tx, plan_id)
            was = next((s for s in plan.signups if s.user == user), None)
            if was is None:
                await tx.run("INSERT INTO night_signups (night_id, user_id, answer, answered_at) VALUES (?, ?, ?, ?)",
                             (plan_id, user, answer, tx.now))
            elif (answer == "in" and was.is_in) or answer == was.answer:
                await tx.run("UPDATE night_signups SET answer = ? WHERE night_id = ? AND user_id = ?",
                             (answer, plan_id, user))
            else:
                await tx.run("UPDATE night_signups SET answer = ?, answered_at = ? WHERE night_id = ? AND user_id = ?",
                             (answer, tx.now, plan_id, user))
            return await _plan(tx, plan_id)

    async def sync_interested(self, plan_id: int, interested: Collection[int]) -> tuple[PlanRecord, list[int]]:
        """The members who mark the night's Discord event Interested now: those who answered nothing count as in
        (from now), those no longer interested who never tapped are dropped. Returns the night and who was
        added. A night no longer planned is left as it is."""
        async with self._write() as tx:
            plan = await _plan(tx, plan_id)
            if plan.status != "planned":
                return plan, []
            added, dropped = interested_changes(plan.signups, interested)
            for user in added:
                await tx.run("INSERT INTO night_signups (night_id, user_id, answer, answered_at)"
                             " VALUES (?, ?, 'interested', ?)", (plan_id, check_id(user, "The member id"), tx.now))
            for user in dropped:
                await tx.run("DELETE FROM night_signups WHERE night_id = ? AND user_id = ? AND answer = 'interested'",
                             (plan_id, user))
            return (await _plan(tx, plan_id) if added or dropped else plan), added

    async def mark_reminded(self, plan_id: int, user: int) -> bool:
        """Mark the member's reminder handled; False if it was already (then it must not be sent again). Marked
        before it is sent: a crash in between loses one reminder rather than sending one twice."""
        async with self._write() as tx:
            changed = await tx.run("UPDATE night_signups SET reminded_at = ? WHERE night_id = ? AND user_id = ?"
                                   " AND reminded_at IS NULL", (tx.now, plan_id, user))
        return changed == 1

    async def reminders_done(self, plan_id: int) -> None:
        """The night's reminder time was handled (later sign-ups are reminded one by one)."""
        async with self._write() as tx:
            await tx.run("UPDATE planned_nights SET reminded_at = ? WHERE id = ? AND reminded_at IS NULL",
                         (tx.now, plan_id))

    # ------------------------------------------------------------------ the night's course

    async def open_plan(self, plan_id: int, table_id: int) -> PlanRecord:
        """The night started: its table is open (``PlanClosed`` unless it was planned)."""
        check_id(table_id, "The table id")
        async with self._write() as tx:
            await _planned(tx, plan_id)
            await tx.run("UPDATE planned_nights SET status = 'open', table_id = ? WHERE id = ?", (table_id, plan_id))
            return await _plan(tx, plan_id)

    async def end_plan(self, plan_id: int, status: Literal["done", "cancelled", "missed"]) -> PlanRecord:
        """The night is over (its table closed), cancelled or missed. Cancelling or missing takes a planned night,
        ending an open one; anything else is ``PlanClosed``."""
        if status not in ENDED:
            raise InvalidArgument("A night ends done, cancelled or missed.")
        async with self._write() as tx:
            plan = await _plan(tx, plan_id)
            if plan.status != ("open" if status == "done" else "planned"):
                raise PlanClosed(plan.status)
            await tx.run("UPDATE planned_nights SET status = ?, ended_at = ? WHERE id = ?", (status, tx.now, plan_id))
            return await _plan(tx, plan_id)
