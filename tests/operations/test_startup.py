"""Every problem at start is one line naming the problem and the file or setting, exit status 2, no traceback.

Each case runs the real entry point, ``python -m bot`` with a token and ``POKER_DB``, in a process of its own: the
checks come before the bot touches Discord, so none of these needs the network. A read-only file cannot be shown
to root (root writes any file), so that case runs without the capability that lets root ignore file permissions
(``setpriv``), as the bot's user in a container would.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.store.lock import BankLock
from tests.disks import SmallDisk, small_disk

__all__ = ["small_disk"]

ROOT = Path(__file__).resolve().parents[2]


def start(db: str, cwd: Path, *, prefix: tuple[str, ...] = (), timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` with a token and ``POKER_DB=db`` (it stops at the first start-up problem)."""
    env = {k: v for k, v in os.environ.items() if k not in ("POKER_DB", "DISCORD_TOKEN", "HEALTH_FILE")}
    env.update(DISCORD_TOKEN="not-a-real-token", POKER_DB=db, LOG_LEVEL="INFO",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([*prefix, sys.executable, "-m", "bot"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The line the bot printed (exit 2, nothing else on either stream)."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and not done.stdout.strip(), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


def bank(path: Path) -> None:
    """A bank the bot made (the tables of its schema), by the bot's own store."""
    import asyncio

    from bot.store import Store

    async def make() -> None:
        store = await Store.open(path)
        await store.balance(1, 2)
        await store.close()

    asyncio.run(make())


def test_a_corrupt_file(tmp_path: Path) -> None:
    db = tmp_path / "poker.db"
    db.write_bytes(b"these are not the pages of an SQLite database\n" * 200)
    line = one_line(start(str(db), tmp_path))
    assert line.startswith(f"POKER_DB {db} is not an SQLite database, or it is damaged") and "Backups" in line


def test_a_damaged_bank(tmp_path: Path) -> None:
    db = tmp_path / "poker.db"
    bank(db)
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")  # one file, so that the scribble below is the whole story
        [(root,)] = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'ledger'")
        [(size,)] = conn.execute("PRAGMA page_size")
    data = bytearray(db.read_bytes())
    data[(root - 1) * size: root * size] = b"\xff" * size  # the ledger's b-tree root scribbled over
    db.write_bytes(bytes(data))
    line = one_line(start(str(db), tmp_path))
    assert line.startswith(f"POKER_DB {db} ") and "damaged" in line


def test_another_programs_database_is_refused_never_adopted(tmp_path: Path) -> None:
    db = tmp_path / "photos.db"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE albums (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, album INTEGER)")
        conn.commit()
    before = db.read_bytes()
    line = one_line(start(str(db), tmp_path))
    assert line == (f"POKER_DB {db} is another program's SQLite database (tables: albums, photos): the bot will not "
                    "write into it; point POKER_DB at the bot's own file, or a new one")
    assert db.read_bytes() == before  # not adopted: not a byte changed
    with closing(sqlite3.connect(db)) as conn:
        assert {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")} == {"albums",
                                                                                                        "photos"}


def test_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    line = one_line(start(str(folder), tmp_path))
    assert line == f"POKER_DB {folder} is a folder: name the database file in it, such as {folder / 'poker.db'}"


def test_a_path_under_a_file(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    db = tmp_path / "notes.txt" / "poker.db"
    line = one_line(start(str(db), tmp_path))
    assert line == f"POKER_DB {db} cannot be used: {tmp_path / 'notes.txt'} is a file, not a folder"


def test_a_url_this_version_does_not_support(tmp_path: Path) -> None:
    line = one_line(start("postgresql://poker:secret@db.example:5432/poker", tmp_path))
    assert line == ("Configuration error: POKER_DB=postgresql://poker:***@db.example:5432/poker names PostgreSQL; "
                    "this version of the bot keeps its bank in an SQLite file only: set it to a path such as "
                    "data/poker.db")
    assert not any(p.name.startswith("postgresql") for p in tmp_path.iterdir())  # no folder "postgresql:"


def test_a_read_only_disk(tmp_path: Path, small_disk: SmallDisk) -> None:
    db = small_disk.path / "poker.db"
    bank(db)
    small_disk.read_only()
    line = one_line(start(str(db), tmp_path))
    assert line == f"POKER_DB {db} is on a read-only disk (mounted read-only): the bot must write its database"


def _without_root_powers() -> tuple[str, ...]:
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0:
        return ()
    if setpriv is None:
        pytest.skip("as root, needs setpriv (util-linux) to drop the power to write any file")
    return (setpriv, "--bounding-set=-dac_override,-dac_read_search")


def test_a_read_only_file(tmp_path: Path) -> None:
    prefix = _without_root_powers()
    db = tmp_path / "poker.db"
    bank(db)
    db.chmod(0o444)
    line = one_line(start(str(db), tmp_path, prefix=prefix))
    assert line.startswith(f"POKER_DB {db} is a read-only file for the bot (uid {os.geteuid()}; the file belongs to "
                           f"uid {db.stat().st_uid}): the bot must read and write it"), line


def test_a_read_only_folder(tmp_path: Path) -> None:
    """A bind-mounted folder the container's user cannot write: the line names the uids (README: Docker)."""
    prefix = _without_root_powers()
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "poker.db"
    bank(db)
    folder.chmod(0o555)
    try:
        line = one_line(start(str(db), tmp_path, prefix=prefix))
    finally:
        folder.chmod(0o755)
    assert line.startswith(f"POKER_DB {db}: the folder {folder} is read-only for the bot (uid {os.geteuid()}"), line


def test_a_second_bot_on_the_same_bank(tmp_path: Path) -> None:
    db = tmp_path / "poker.db"
    bank(db)
    held = BankLock(db)
    held.acquire()  # a bot already runs on it (this test's process holds the lock)
    try:
        line = one_line(start(str(db), tmp_path))
    finally:
        held.release()
    assert line.startswith(f"A bot is already running on {db} (pid {os.getpid()} on host ")
    assert line.endswith("): stop it first (two bots on one bank would carry out every command twice)")
