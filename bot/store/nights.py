"""The steps inside a transaction that nights and hand facts add to the table operations (``tables``) and to
the night's operations (``night``): starting and ending a table's night, and writing a hand's facts.

A night of play at one table (a row of the ``sessions`` table: "session" in the commands) starts when the table
opens (``create_table``) or when the host starts a new one (``new_night``), and ends at the next one or when the
table closes (``close_table``), in the same transaction. Every hand and every ledger row of the table belongs to
the night running when it was written (``CURRENT_NIGHT``); the schema's triggers refuse anything else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import astuple

from ..night.facts import FACT_COLUMNS, PlayerHandFacts
from .connection import Row
from .db import Tx, from_json
from .errors import InvalidArgument

__all__ = ["CURRENT_NIGHT", "end_night", "start_night", "write_facts"]

CURRENT_NIGHT = "(SELECT id FROM sessions WHERE table_id = ? AND ended_at IS NULL)"
"""The running night of the table given as the parameter, as an SQL expression."""

_INSERT_FACTS = (
    f"INSERT INTO hand_facts (hand_id, session_id, guild_id, ended_at, {', '.join(FACT_COLUMNS)})"
    f" VALUES (?, ?, ?, ?, {', '.join('?' * len(FACT_COLUMNS))})"
)


async def start_night(tx: Tx, table_id: int) -> int:
    """Start the table's next night (numbered 1, 2, 3... within the table); return its id."""
    number = int(await tx.value("SELECT coalesce(max(number), 0) + 1 FROM sessions WHERE table_id = ?",
                                (table_id,), 1))
    return await tx.insert("INSERT INTO sessions (table_id, number, started_at) VALUES (?, ?, ?)",
                           (table_id, number, tx.now))


async def end_night(tx: Tx, table_id: int) -> int | None:
    """End the table's running night now; return its id (None if none was running)."""
    session_id = await tx.value(f"SELECT {CURRENT_NIGHT}", (table_id,))
    if session_id is not None:
        await tx.run("UPDATE sessions SET ended_at = ? WHERE id = ?", (tx.now, session_id))
    return None if session_id is None else int(session_id)


async def write_facts(tx: Tx, hand: Row, guild: int, facts: Sequence[PlayerHandFacts],
                      stacks_after: Sequence[int], ended_at: float) -> None:
    """Keep what each player did in the finished ``hand`` (its row), one row per seat, with the time it ended.

    The facts must be the hand's: one per seat in seat order, naming its players and its game, each net the
    seat's stack after minus before (``InvalidArgument`` otherwise, and the transaction rolls back).
    """
    users: list[int] = from_json(hand["seats"])
    before: list[int] = from_json(hand["stacks_before"])
    for seat, item in enumerate(facts):
        if not isinstance(item, PlayerHandFacts):
            raise InvalidArgument(f"The facts of a hand are PlayerHandFacts, not {type(item).__name__}.")
        if (item.seat, item.user_id, item.game) != (seat, users[seat] if seat < len(users) else None, hand["game"]):
            raise InvalidArgument(f"The facts of seat {seat} are not those of hand #{hand['number']}'s player.")
        if item.net != stacks_after[seat] - before[seat]:
            raise InvalidArgument(f"The facts of seat {seat} give a net of {item.net:,}, but the stack went from"
                                  f" {before[seat]:,} to {stacks_after[seat]:,}.")
    if len(facts) != len(users):
        raise InvalidArgument(f"Give the facts of every player of the hand ({len(users)}), not {len(facts)}.")
    await tx.many(
        _INSERT_FACTS,
        [(hand["id"], hand["session_id"], guild, ended_at, *astuple(item)) for item in facts],
    )
