"""Opening the file: location, pragmas, migrations (fresh, upgrade, failure, newer file)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import InvalidArgument, SchemaError, SchemaTooNew, Store, latest_version
from bot.store.db import load_migrations, split_sql

from .conftest import OpenStore

PACKAGE_MIGRATIONS = Path(__file__).resolve().parents[2] / "bot" / "store" / "migrations"

EXPECTED_TABLES = {"accounts", "guild_settings", "hand_actions", "hands", "ledger", "ledger_kinds", "seats", "tables"}


async def _names(store: Store, kind: str = "table") -> set[str]:
    rows = await store.connection.execute_fetchall(
        "SELECT name FROM sqlite_schema WHERE type = ? AND name NOT LIKE 'sqlite_%'", (kind,)
    )
    return {r[0] for r in rows}


async def _pragma(store: Store, name: str) -> object:
    rows = list(await store.connection.execute_fetchall(f"PRAGMA {name}"))
    return rows[0][0]


async def test_fresh_file_gets_every_migration_and_the_pragmas(open_store: OpenStore, db_path: Path) -> None:
    store = await open_store()
    assert await store.schema_version() == latest_version() == len(load_migrations())
    assert await _names(store) >= EXPECTED_TABLES
    assert {"ledger_no_update", "ledger_no_delete", "ledger_checks"} <= await _names(store, "trigger")
    assert await _pragma(store, "journal_mode") == "wal"
    assert await _pragma(store, "foreign_keys") == 1
    assert await _pragma(store, "synchronous") == 1  # NORMAL
    assert await _pragma(store, "busy_timeout") == 100  # SQLite waits in slices; the store waits up to a deadline
    assert db_path.exists()


async def test_synchronous_full_from_argument(
    open_store: OpenStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await open_store(tmp_path / "a.db", synchronous="full")
    assert await _pragma(store, "synchronous") == 2  # FULL
    store = await open_store(tmp_path / "b.db", synchronous=" Normal ")
    assert await _pragma(store, "synchronous") == 1
    # The store reads no environment (the configuration does: tests/config): POKER_DB_SYNC here changes nothing.
    monkeypatch.setenv("POKER_DB_SYNC", "full")
    store = await open_store(tmp_path / "c.db")
    assert await _pragma(store, "synchronous") == 1
    with pytest.raises(InvalidArgument, match="synchronous must be one of normal, full"):
        await Store.open(tmp_path / "d.db", synchronous="sometimes")
    assert not (tmp_path / "d.db").exists()


async def test_the_folder_of_the_path_is_created(
    tmp_path: Path, _audited_paths: dict[Path, object]
) -> None:
    target = tmp_path / "deep" / "er" / "bank.db"
    async with await Store.open(target) as store:
        assert store.path == target
        await store.balance(1, 2)
    assert target.exists()
    _audited_paths[target] = None


async def test_reopening_keeps_data_and_applies_nothing_twice(open_store: OpenStore) -> None:
    store = await open_store()
    await store.grant(1, 2, 500, 3)
    await store.close()
    store = await open_store()
    assert await store.balance(1, 2) == 1500
    assert await store.schema_version() == latest_version()


def _v1_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations"
    folder.mkdir()
    shutil.copy(PACKAGE_MIGRATIONS / "0001_initial.sql", folder / "0001_initial.sql")
    return folder


def _release_dir(tmp_path: Path) -> tuple[Path, int]:
    """A folder with this release's migrations (the store's code needs its whole schema), and the number the next
    release's first migration takes."""
    folder = tmp_path / "migrations"
    shutil.copytree(PACKAGE_MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder, latest_version() + 1


async def test_upgrade_from_an_older_version(open_store: OpenStore, tmp_path: Path, db_path: Path,
                                             user_version_of: Callable[[Path], int]) -> None:
    folder, n = _release_dir(tmp_path)
    store = await open_store(migrations_dir=folder)
    await store.grant(1, 2, 250, 3)
    await store.close()
    assert user_version_of(db_path) == n - 1

    (folder / f"{n:04d}_nicknames.sql").write_text(
        "-- a later release adds a table, a column and a ledger kind\n"
        "CREATE TABLE nicknames (guild_id INTEGER, user_id INTEGER, nick TEXT, PRIMARY KEY (guild_id, user_id));\n"
        "ALTER TABLE accounts ADD COLUMN frozen INTEGER NOT NULL DEFAULT 0;\n"
        "INSERT INTO ledger_kinds (kind, sign, mint, description) VALUES ('bounty', 1, 0, 'a bounty; won');\n"
        "CREATE TRIGGER nick_trim BEFORE INSERT ON nicknames BEGIN SELECT RAISE(ABORT, 'no; semicolons') "
        "WHERE NEW.nick LIKE '%;%'; END;\n"
    )
    store = await open_store(migrations_dir=folder)
    assert await store.schema_version() == n
    assert "nicknames" in await _names(store)
    assert await store.balance(1, 2) == 1250
    rows = await store.connection.execute_fetchall("SELECT frozen FROM accounts")
    assert [r[0] for r in rows] == [0]
    with pytest.raises(sqlite3.IntegrityError, match="no; semicolons"):
        await store.connection.execute("INSERT INTO nicknames VALUES (1, 2, 'a;b')")


async def test_a_failing_migration_is_rolled_back_completely(
    open_store: OpenStore, tmp_path: Path, db_path: Path, user_version_of: Callable[[Path], int]
) -> None:
    folder, n = _release_dir(tmp_path)
    store = await open_store(migrations_dir=folder)
    await store.grant(1, 2, 250, 3)
    await store.close()
    broken = folder / f"{n:04d}_broken.sql"
    broken.write_text(
        "CREATE TABLE half_done (x INTEGER);\n"
        "UPDATE accounts SET balance = balance + 1;\n"
        "THIS IS NOT SQL;\n"
    )
    with pytest.raises(SchemaError, match=rf"{n:04d}_broken\.sql failed and was rolled back"):
        await Store.open(db_path, migrations_dir=folder)
    assert user_version_of(db_path) == n - 1
    with closing(sqlite3.connect(db_path)) as conn:
        assert conn.execute("SELECT name FROM sqlite_schema WHERE name = 'half_done'").fetchall() == []
        assert conn.execute("SELECT balance FROM accounts").fetchall() == [(1250,)]
    broken.unlink()  # so that the after-test audit can open the file


async def test_a_migration_that_breaks_foreign_keys_is_refused(
    open_store: OpenStore, tmp_path: Path, db_path: Path, user_version_of: Callable[[Path], int]
) -> None:
    folder, n = _release_dir(tmp_path)
    store = await open_store(migrations_dir=folder)
    await store.grant(1, 2, 250, 3)
    await store.close()
    orphans = folder / f"{n:04d}_orphans.sql"
    orphans.write_text("INSERT INTO seats (table_id, seat_no, user_id, stack, joined_at)"
                       " VALUES (999, 1, 2, 10, 0.0);\n")
    with pytest.raises(SchemaError, match="foreign keys broken"):
        await Store.open(db_path, migrations_dir=folder)
    assert user_version_of(db_path) == n - 1
    orphans.unlink()


async def test_a_newer_file_is_refused_and_left_unchanged(
    open_store: OpenStore, db_path: Path, user_version_of: Callable[[Path], int]
) -> None:
    store = await open_store(audit=False)
    await store.balance(1, 2)
    await store.close()
    with closing(sqlite3.connect(db_path)) as conn:
        conn.execute("PRAGMA user_version = 99")
        conn.commit()
    before = db_path.read_bytes()
    with pytest.raises(SchemaTooNew) as caught:
        await Store.open(db_path)
    message = str(caught.value)
    assert "newer version of the bot" in message and "99" in message and str(latest_version()) in message
    assert "POKER_DB" in message and "not changed" in message
    assert (caught.value.found, caught.value.known) == (99, latest_version())
    assert user_version_of(db_path) == 99
    assert db_path.read_bytes() == before


async def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite at all, just some text" * 100)
    with pytest.raises(SchemaError, match="not a usable SQLite database"):
        await Store.open(path)


def test_migration_numbering_is_checked(tmp_path: Path) -> None:
    folder = _v1_dir(tmp_path)
    (folder / "0003_skipped.sql").write_text("SELECT 1;")
    with pytest.raises(SchemaError, match=r"found 0003_skipped\.sql where 0002 was expected"):
        load_migrations(folder)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SchemaError, match="no migration files"):
        load_migrations(empty)


def test_split_sql_keeps_triggers_strings_and_comments_whole() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE a (x TEXT DEFAULT 'x;y');  /* block; comment */
    CREATE TRIGGER t BEFORE INSERT ON a BEGIN SELECT 1; SELECT 2; END;
    INSERT INTO a VALUES ('1;2'); INSERT INTO a VALUES ('3');
    -- trailing comment
    """
    statements = split_sql(script)
    assert len(statements) == 4
    assert "CREATE TRIGGER" in statements[1]
    assert statements[1].rstrip().endswith("END;")
    with pytest.raises(SchemaError, match="unterminated"):
        split_sql("CREATE TABLE b (x INTEGER)")


def test_the_package_migrations_parse() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    for migration in migrations:
        with closing(sqlite3.connect(":memory:")) as conn:
            for earlier in migrations[: migration.version]:
                for statement in split_sql(earlier.sql):
                    conn.execute(statement)
