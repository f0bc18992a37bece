"""Moving a bank between engines: every row of every table of one bank into another, empty one.

``copy_bank(source, target)`` reads the source in one read transaction (one consistent moment, while its bot may
run) and writes the target in one write transaction: the target holds the whole bank or, after any failure,
nothing. Both banks must be at this version's schema; the target must hold no bank yet (only what the migrations
wrote: the ledger's kinds, which must be the source's). Tables are copied parents first (by their foreign keys),
rows in key order, with the ids they had; the write-time guards (triggers such as "a ledger row of a table must
name its running session") are lifted for the copy, since history is copied as it is, and the audit checks
everything after. PostgreSQL's id counters are moved past the copied ids.

``bank_rows(store)`` reads every row of every table, for a comparison row for row.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .connection import Connection
from .errors import StoreError
from .waits import BUSY

__all__ = ["CopyRefused", "CopyReport", "bank_rows", "bank_tables", "copy_bank", "lift_guards", "restore_guards"]

SCHEMA_TABLES = frozenset({"poker_schema", "ledger_kinds"})  # written by the migrations, not copied
BATCH = 2000  # rows per statement batch


class CopyRefused(StoreError):
    """The copy cannot be made (a target that holds a bank, schemas of two versions); nothing was written."""


@dataclass
class CopyReport:
    """What was copied: rows per table, in the order copied, and the seconds it took."""

    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.rows.values())


async def _columns(conn: Connection, table: str) -> list[str]:
    if conn.engine == "sqlite":
        return [str(r["name"]) for r in await conn.fetch(f'PRAGMA table_info("{table}")')]
    rows = await conn.fetch("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
                            " AND table_name = ? ORDER BY ordinal_position", (table,))
    return [str(r[0]) for r in rows]


async def _key(conn: Connection, table: str) -> list[str]:
    if conn.engine == "sqlite":
        info = await conn.fetch(f'PRAGMA table_info("{table}")')
        return [str(r["name"]) for r in sorted((r for r in info if r["pk"]), key=lambda r: r["pk"])]
    rows = await conn.fetch(
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
        " WHERE i.indrelid = CAST(? AS regclass) AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)",
        (table,))
    return [str(r[0]) for r in rows]


async def _parents(conn: Connection, table: str) -> set[str]:
    if conn.engine == "sqlite":
        return {str(r["table"]) for r in await conn.fetch(f'PRAGMA foreign_key_list("{table}")')}
    rows = await conn.fetch("SELECT DISTINCT CAST(confrelid AS regclass) FROM pg_constraint"
                            " WHERE contype = 'f' AND conrelid = CAST(? AS regclass)", (table,))
    return {str(r[0]).strip('"') for r in rows}


async def bank_tables(conn: Connection) -> list[str]:
    """The bank's tables, parents before children (by their foreign keys), the schema's own left out."""
    names = [t for t in await conn.table_names() if t not in SCHEMA_TABLES]
    parents = {t: (await _parents(conn, t)) & set(names) - {t} for t in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = sorted(t for t in names if t not in ordered and parents[t] <= set(ordered))
        if not ready:
            raise CopyRefused(f"the tables' foreign keys go round in a circle: {sorted(set(names) - set(ordered))}")
        ordered += ready
    return ordered


async def _rows(conn: Connection, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
    key = await _key(conn, table) or list(columns[:1])
    listed = ", ".join(f'"{c}"' for c in columns)
    order = ", ".join(f'"{c}"' for c in key)
    return [tuple(r) for r in await conn.fetch(f'SELECT {listed} FROM "{table}" ORDER BY {order}')]


async def bank_rows(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the bank (the ledger's kinds included), in key order."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for table in sorted([*await bank_tables(conn), "ledger_kinds"]):
        found[table] = await _rows(conn, table, await _columns(conn, table))
    return found


async def lift_guards(conn: Connection, tables: Sequence[str]) -> list[str]:
    """Lift the write-time guards of ``tables`` (SQLite: every trigger) inside the transaction; what
    ``restore_guards`` puts back."""
    if conn.engine == "postgresql":
        for table in tables:
            await conn.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')
        return list(tables)
    triggers = await conn.fetch("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name")
    for trigger in triggers:
        await conn.execute(f'DROP TRIGGER "{trigger[0]}"')
    return [str(trigger[1]) for trigger in triggers]


async def restore_guards(conn: Connection, lifted: Sequence[str]) -> None:
    """Put back the guards ``lift_guards`` lifted, in the same transaction."""
    for item in lifted:
        if conn.engine == "postgresql":
            await conn.execute(f'ALTER TABLE "{item}" ENABLE TRIGGER USER')
        else:
            await conn.execute(item)


async def _advance_ids(conn: Connection, tables: Sequence[str]) -> None:
    """PostgreSQL: each identity column's counter past the largest id copied."""
    if conn.engine != "postgresql":
        return
    for table in tables:
        sequence = await conn.fetch("SELECT pg_get_serial_sequence(?, 'id')", (table,)) \
            if "id" in await _columns(conn, table) else []
        if sequence and sequence[0][0] is not None:
            await conn.fetch(f"SELECT setval(?, coalesce((SELECT max(id) FROM \"{table}\"), 0) + 1, false)",
                             (sequence[0][0],))


async def _write(conn: Connection, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
    listed = ", ".join(f'"{c}"' for c in columns)
    marks = ", ".join("?" for _ in columns)
    for start in range(0, len(rows), BATCH):
        await conn.executemany(f'INSERT INTO "{table}" ({listed}) VALUES ({marks})', rows[start:start + BATCH])


async def copy_bank(source: Connection, target: Connection) -> CopyReport:
    """Copy every row of the bank at ``source`` into the empty bank at ``target`` (see the module's docstring);
    ``CopyRefused`` when the target holds a bank or the two schemas differ."""
    began = time.monotonic()
    versions = (await source.schema_version(), await target.schema_version())
    if versions[0] != versions[1]:
        raise CopyRefused(f"the source's schema version is {versions[0]} and the target's {versions[1]}: start the "
                          "bot (this version) once on the source to upgrade it first")
    report = CopyReport()
    await source.begin_read()
    try:
        tables = await bank_tables(source)
        if tables != await bank_tables(target):
            raise CopyRefused("the two banks do not have the same tables")
        kinds = await _rows(source, "ledger_kinds", await _columns(source, "ledger_kinds"))
        if kinds != await _rows(target, "ledger_kinds", await _columns(target, "ledger_kinds")):
            raise CopyRefused("the two banks do not have the same kinds of ledger rows")
        for table in tables:
            if await target.fetch(f'SELECT 1 FROM "{table}" LIMIT 1'):
                raise CopyRefused(f"the target holds a bank already (its table {table} has rows): copy into a new, "
                                  "empty database or file")
        await target.begin_write(None, BUSY)  # no deadline: it waits, and is never refused as busy
        try:
            lifted = await lift_guards(target, tables)
            for table in tables:
                columns = await _columns(source, table)
                if columns != await _columns(target, table):
                    raise CopyRefused(f"the table {table} has other columns in the target")
                rows = await _rows(source, table, columns)
                await _write(target, table, columns, rows)
                report.rows[table] = len(rows)
            await restore_guards(target, lifted)
            await _advance_ids(target, tables)
            await target.commit()
        except BaseException:
            if target.in_transaction:
                await target.rollback()
            raise
    finally:
        if source.in_transaction:
            await source.commit()
    report.seconds = time.monotonic() - began
    return report
