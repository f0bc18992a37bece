"""Checks shared by the reliability tests: the table message shows the table as the bot holds it, the store did not
change, no chip was lost, every interaction was acknowledged in time."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.tables import Table
from cogs.table._cog import TableCog
from cogs.table._runner import TableRunner
from cogs.table._runners import COG_NAME
from pokerdev.fakediscord.pseudo import unwrapped
from tests.e2e.fakediscord import FakeDiscord, StoredMessage
from tests.e2e.players import Players

ACK_DEADLINE = 3.0


def rendered(players: Players, table: Table | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """The table message as the bot would render it now: (embeds, custom_ids)."""
    table = table or players.table
    rendered = runner_of(players, table).presenter.render()
    embed = unwrapped(dict(rendered.embed.to_dict()))  # as the fake keeps it: without the pseudo-language's wraps
    return [embed], [str(getattr(item, "custom_id", "")) for item in rendered.view.children]


def runner_of(players: Players, table: Table) -> TableRunner:
    """The Discord side of a table (its writer, clock, log)."""
    cog: TableCog = players.bot.get_cog(COG_NAME)  # type: ignore[assignment]
    return cog.runners.of(table)


async def assert_shows_table(players: Players, table: Table | None = None, timeout: float = 10.0) -> StoredMessage:
    """Wait until the table message shows exactly the table's state as the bot holds it (then nothing is left to
    write), and return it."""
    fake = players.fake
    table = table or players.table

    def shown() -> StoredMessage | None:
        message_id = table.message_id
        message = fake.messages.get(message_id) if message_id is not None else None
        if message is None or message.deleted:
            return None
        embeds, custom_ids = rendered(players, table)
        return message if message.embeds == embeds and message.custom_ids() == custom_ids else None

    message = await fake.wait_for(shown, timeout, what="the table message to show the table's state")
    writer = runner_of(players, table).writer
    await fake.wait_for(lambda: not writer.busy and writer.written >= writer.wanted, timeout,
                        what="the table message writer to finish")
    assert shown() is message
    return message


def assert_acknowledged_in_time(fake: FakeDiscord, deadline: float = ACK_DEADLINE) -> float:
    """Every interaction that expected an answer got one within ``deadline`` seconds; the slowest latency."""
    slowest = 0.0
    for rec in fake.interactions.values():
        if not rec.expect_ack:
            continue
        assert rec.acknowledged and not rec.late, f"interaction {rec} not acknowledged in time"
        assert rec.ack_latency is not None and rec.ack_latency < deadline, rec
        slowest = max(slowest, rec.ack_latency)
    return slowest


def snapshot(db_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """What no refused input may change: balances, seats, tables, hands and their action logs, the ledger."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        queries = {
            "accounts": "SELECT guild_id, user_id, balance FROM accounts ORDER BY guild_id, user_id",
            "seats": "SELECT table_id, seat_no, user_id, stack, sitting_out, leaving FROM seats ORDER BY 1, 2",
            "tables": "SELECT id, status, button, carried_pot FROM tables ORDER BY id",
            "hands": "SELECT id, status, stacks_after FROM hands ORDER BY id",
            "actions": "SELECT hand_id, seq, action FROM hand_actions ORDER BY hand_id, seq",
            "ledger": "SELECT count(*), coalesce(max(id), 0) FROM ledger",
        }
        return {name: [tuple(row) for row in con.execute(sql)] for name, sql in queries.items()}
    finally:
        con.close()


async def chips_lost(db_path: Path | str, guild_id: int) -> int:
    """Chips minted minus chips that exist (balances, stacks, carried pots), after the audit passed."""
    store = await Store.open(db_path)
    try:
        report = await store.audit(guild_id)
    finally:
        await store.close()
    assert report.ok, report.problems
    return report.minted - report.in_play
