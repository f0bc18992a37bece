"""Fixtures shared by the store and table-layer tests: real SQLite files in tmp_path (each directory's
``db_path`` names its own) or real PostgreSQL databases (``tests/pg.py``), a deterministic clock, and an audit
after every test of every guild in every bank the test opened (``open_store(..., audit=False)`` opts out, for
tests that corrupt a file on purpose or cannot open it).

The store's and the table layer's tests (and any test marked ``both_engines``) run on both engines: their
``engine`` is ``sqlite`` and ``postgresql``, and ``open_store`` opens a PostgreSQL database of the test's own
for each path it is given. A test about SQLite itself (its file, its PRAGMAs) is marked ``sqlite_only``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from bot.store import Store

from .pg import drop_database, new_database, pooled_database

# No property test may fail for the machine's speed: Hypothesis's default 200 ms deadline per example fails a test
# on a machine busy with other work (seen: tests/night/test_settle.py at 329 ms). A test's own @settings keeps this.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

OpenStore = Callable[..., Awaitable[Store]]
ENGINES = ("sqlite", "postgresql")
BOTH_ENGINES = ("tests/store/", "tests/tables/")  # folders whose tests use the store run on both engines


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run on both engines each test of the store and of the table layer that opens a bank, and each test marked
    ``both_engines``."""
    if "engine" not in metafunc.fixturenames or metafunc.definition.get_closest_marker("sqlite_only"):
        return
    where = metafunc.definition.path.as_posix()
    in_folder = "open_store" in metafunc.fixturenames and any(f"/{d}" in where for d in BOTH_ENGINES)
    if in_folder or metafunc.definition.get_closest_marker("both_engines"):
        metafunc.parametrize("engine", ENGINES)


@pytest.fixture
def engine() -> str:
    """The database engine of the test (``sqlite`` unless the test runs on both)."""
    return "sqlite"


class FakeClock:
    """A clock that starts at a fixed time and advances one second per reading: every store transaction reads
    it once, so rows written by one transaction share a time and rows of two transactions never do."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


async def audit_file(path: Path | str, migrations_dir: Any = None) -> None:
    """Reopen ``path`` (a file or a PostgreSQL URL) and require a clean audit of every guild, a clean ledger and a
    sound file."""
    store = await Store.open(path, migrations_dir=migrations_dir)
    try:
        reports = await store.audit_all()
        bad = [r for r in reports if not r.ok]
        assert not bad, "\n".join(f"{r.summary()}\n  " + "\n  ".join(r.problems) for r in bad)
        for report in reports:
            assert await store.check_ledger_integrity(report.guild_id) == []
        if store.engine == "sqlite":  # PostgreSQL checks its foreign keys at every write
            assert await store.connection.execute_fetchall("PRAGMA foreign_key_check") == []
            assert next(iter(await store.connection.execute_fetchall("PRAGMA integrity_check")))[0] == "ok"
    finally:
        await store.close()


@pytest.fixture
def clock() -> FakeClock:
    """A deterministic clock for ``created_at`` columns."""
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The default database file of a test."""
    return tmp_path / "poker.db"


class Banks:
    """Where the test's banks are: SQLite files, or a PostgreSQL database of the test's own for each file name."""

    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.databases: dict[Path, str] = {}
        self.made: list[str] = []  # databases of this test alone, dropped after it

    async def address(self, path: Path, *, empty: bool = False) -> Path | str:
        """The bank a test names by ``path``: the file itself, or its database (``empty``: without the schema,
        for a test that migrates it itself)."""
        if self.engine == "sqlite":
            return path
        if path not in self.databases:
            if empty:
                self.databases[path] = await new_database(empty=True)
                self.made.append(self.databases[path])
            else:
                self.databases[path] = await pooled_database(len(self.databases) - len(self.made))
        return self.databases[path]

    async def drop(self) -> None:
        for url in self.made:
            await drop_database(url)


@pytest.fixture
async def banks(engine: str) -> AsyncIterator[Banks]:
    """The test's banks on its engine (PostgreSQL databases dropped after it)."""
    made = Banks(engine)
    yield made
    await made.drop()


@pytest.fixture(autouse=True)
async def _audited_paths(banks: Banks) -> AsyncIterator[dict[Path | str, Any]]:
    """Autouse: after the test, reopen every registered bank (path or URL -> migrations dir or None) and audit
    it."""
    paths: dict[Path | str, Any] = {}
    yield paths
    for path, migrations_dir in sorted(paths.items(), key=lambda item: str(item[0])):
        await audit_file(path, migrations_dir)


@pytest.fixture
async def open_store(db_path: Path, clock: FakeClock, banks: Banks,
                     _audited_paths: dict[Path | str, Any]) -> AsyncIterator[OpenStore]:
    """Open a Store (default: ``db_path``, or its PostgreSQL database; the fake clock); closed after the test, then
    audited."""
    opened: list[Store] = []

    async def _open(path: Path | None = None, *, audit: bool = True, **kwargs: Any) -> Store:
        target = await banks.address(db_path if path is None else path,
                                     empty=kwargs.get("migrations_dir") is not None)
        kwargs.setdefault("clock", clock)
        store = await Store.open(target, **kwargs)
        opened.append(store)
        if audit:
            _audited_paths[target] = kwargs.get("migrations_dir")
        return store

    yield _open
    for store in opened:
        await store.close()


@pytest.fixture
async def store(open_store: OpenStore) -> Store:
    """A fresh store over ``db_path``."""
    return await open_store()
