"""A backup taken while the bot plays, restored as the README says (stop the bot, put the file back), plays on.

The bot runs in its own process against the fake; two tables are played by scripted players while
``python -m bot db backup`` copies the bank with SQLite's online backup API. The copy checks clean. The bot is then
stopped, the copy put in place of the bank in a new folder, and a bot started on it; the hosts post their tables
again (``/poker table show``: the messages posted after the backup show moments the copy does not hold): every
table moves again, the audit passes, no chip is lost.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import sys
from pathlib import Path

import pytest

from tests.e2e.fakediscord import FakeDiscord

from .conftest import Figures
from .helpers import chips_lost
from .remote import ROOT, BotProcess, RemotePlayers, progress, query
from .test_crashes import TABLES, keep_playing, open_tables, tables_move

pytestmark = pytest.mark.e2e


async def db_backup(source: Path, target: Path) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "db", "backup", str(target), "--db", str(source), env=env, cwd=target.parent,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    return int(proc.returncode or 0), out.decode()


async def test_a_backup_taken_while_playing_restores_and_plays_on(
    fake: FakeDiscord, tmp_path: Path, figures: Figures
) -> None:
    live = tmp_path / "live" / "poker.db"
    live.parent.mkdir()
    bot = BotProcess(fake, live, tmp_path, seed=3)
    await bot.start()
    await open_tables(fake)
    table_ids = [row[0] for row in query(live, "SELECT id FROM tables ORDER BY id")]
    stop = asyncio.Event()
    players = [RemotePlayers(fake, channel, names, random.Random(i)) for i, (channel, names) in
               enumerate(TABLES.items())]
    playing = [asyncio.create_task(keep_playing(p, stop)) for p in players]
    try:
        await tables_move(fake, live, table_ids)
        backups = tmp_path / "backups"
        backups.mkdir()
        code, out = await db_backup(live, backups / "poker.db")  # while both tables play
        assert code == 0, out
        assert out.splitlines()[-1].startswith(f"Backed up to {backups / 'poker.db'}: it checks clean.")
        await tables_move(fake, live, table_ids)  # play went on during and after the backup
    finally:
        stop.set()
        await asyncio.gather(*playing)
    assert await bot.terminate() == 0
    moved_after = progress(live)
    copied = progress(backups / "poker.db")
    assert all(copied.get(t, 0) <= moved_after.get(t, 0) for t in table_ids)

    # Restore: the bot stopped, the backup put in place (a new folder here), the bot started on it.
    restored = tmp_path / "restored" / "poker.db"
    restored.parent.mkdir()
    shutil.copyfile(backups / "poker.db", restored)
    again = BotProcess(fake, restored, tmp_path, seed=4, name="restored")
    await again.start()
    for channel, (host, *_) in TABLES.items():  # messages posted after the backup show later moments: the host
        shown = await fake.reply_to(await fake.slash(host, "poker", subcommand="show", group="table",  # posts the
                                                     channel=channel), timeout=10)  # table as it is now
        assert shown.content == "Here is the table:", shown.content
    stop = asyncio.Event()
    playing = [asyncio.create_task(keep_playing(p, stop)) for p in players]
    try:
        await tables_move(fake, restored, table_ids)
    finally:
        stop.set()
        await asyncio.gather(*playing)
    assert await again.terminate() == 0
    assert not await chips_lost(restored, fake.guild_id)
    assert not await chips_lost(live, fake.guild_id)
    assert not bot.errors() and not again.errors(), bot.errors() + again.errors()
    fake.take_violations("ack-deadline")  # clicks sent to a bot that was stopping
    figures["backups taken while playing, restored and played on"] += 1
