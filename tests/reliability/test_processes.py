"""The bot as a process of the host's machine: two started at once on one bank, a restart after SIGKILL, Discord
out of reach at start, SIGTERM while connecting, the log's first lines.

Each bot is the real one in a process of its own (``python -m pokerdev.launch``, which runs ``cogs.run.serve`` as
``python -m bot`` does) against the in-test fake Discord, or against a port where nothing answers.
"""

from __future__ import annotations

import asyncio
import random
import re
import socket
import time
from pathlib import Path

import pytest

from tests.e2e.fakediscord import FakeDiscord

from .conftest import Figures
from .helpers import chips_lost
from .remote import ANSI, BotProcess, RemotePlayers, Stint, query

pytestmark = pytest.mark.e2e

IN_USE = re.compile(r"^A bot is already running on (?P<db>\S+) \(pid (?P<pid>\d+) on host \S+\): stop it first "
                    r"\(two bots on one bank would carry out every command twice\)$", re.MULTILINE)


def free_port() -> int:
    """A local port where nothing listens (a connection is refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def exit_code(bot: BotProcess, timeout: float) -> int:
    assert bot.proc is not None
    code = await asyncio.wait_for(bot.proc.wait(), timeout)
    bot.proc = None
    return code


async def test_two_bots_started_at_once_one_runs_the_other_refuses(
    fake: FakeDiscord, tmp_path: Path, figures: Figures
) -> None:
    db = tmp_path / "poker.db"
    first = BotProcess(fake, db, tmp_path, name="first", log_level="INFO")
    second = BotProcess(fake, db, tmp_path, name="second", log_level="INFO")
    await asyncio.gather(first.spawn(), second.spawn())  # a host's `make run` twice, at the same moment
    await fake.wait_for(lambda: any(b.proc is not None and b.proc.returncode is not None for b in (first, second)),
                        30, what="one of the two bots to refuse to start")
    loser, winner = (first, second) if first.proc and first.proc.returncode is not None else (second, first)
    assert await exit_code(loser, 5) == 2
    refused = IN_USE.search(loser.output())
    assert refused is not None and refused["db"] == str(db), loser.output()
    assert winner.proc is not None and int(refused["pid"]) == winner.proc.pid
    assert "Traceback" not in loser.output() and not ANSI.search(loser.output())
    await fake.wait_for(lambda: fake.connected() and len(fake.identify_payloads) == 1, 30,
                        what="the other bot to connect")
    winner.stints.append(Stint(fake.now()))
    assert f"no bank at {db}: a new, empty one was created there" in winner.output()  # the log names the bank

    # Every command is carried out once: a gift, a grant, moves at a table.
    given = await fake.reply_to(await fake.slash("dave", "chips", subcommand="give",
                                                 options={"member": fake.user("erin"), "amount": 100}), timeout=10)
    assert given.content.endswith("Your balance: 900."), given.content
    granted = await fake.reply_to(await fake.slash("manager", "chips", subcommand="grant",
                                                   options={"member": fake.user("erin"), "amount": 500}), timeout=10)
    assert granted.content.endswith("balance 1,600."), granted.content
    created = await fake.reply_to(await fake.slash("alice", "poker", subcommand="create", options={
        "game": "five-card-draw", "small_blind": 5, "big_blind": 10}), timeout=10)
    assert created.content.startswith("Table open")
    for name in ("alice", "bob", "carol"):
        await fake.reply_to(await fake.slash(name, "poker", subcommand="join"), timeout=10)
    await fake.reply_to(await fake.slash("alice", "poker", group="table", subcommand="start"), timeout=10)
    players = RemotePlayers(fake, "poker", ("alice", "bob", "carol"), random.Random(5))
    moves = 0
    deadline = time.monotonic() + 60
    while moves < 12 and time.monotonic() < deadline:
        if await players.step():
            moves += 1
        else:
            await asyncio.sleep(0.05)
    assert players.moves >= 12 and not players.unanswered, (players.moves, players.unanswered, players.refused)
    assert not [text for text in players.refused if "Too late" in text or "earlier moment" in text]
    [(transfers,)] = query(db, "SELECT count(*) FROM ledger WHERE kind = 'transfer-out'")
    [(grants, minted)] = query(db, "SELECT count(*), sum(delta) FROM ledger WHERE kind = 'admin-grant'")
    assert (transfers, grants, minted) == (1, 1, 500)
    figures["commands sent to two bots started at once on one bank"] += 2 + 5 + players.moves
    figures["commands carried out twice with two bots on one bank"] += 0

    # The running bot is killed: a new one starts at once (the kernel released the lock).
    await winner.kill()
    again = BotProcess(fake, db, tmp_path, name="again", log_level="INFO")
    await again.start(timeout=30)
    balance = await fake.reply_to(await fake.slash("erin", "chips", subcommand="balance"), timeout=10)
    assert balance.content.endswith("has 1,600 chips in the bank."), balance.content
    assert await again.terminate() == 0
    assert not await chips_lost(db, fake.guild_id)
    assert not [line for b in (first, second, again) for line in b.errors()]
    figures["restarts after a SIGKILL (not blocked by the lock)"] += 1


async def test_discord_out_of_reach_at_start_is_tried_again_then_one_line(
    fake: FakeDiscord, tmp_path: Path, figures: Figures
) -> None:
    bot = BotProcess(fake, tmp_path / "poker.db", tmp_path, port=free_port(), log_level="INFO",
                     options=("--connect-for", "4"))
    await bot.spawn()
    assert await exit_code(bot, 30) == 2
    out = ANSI.sub("", bot.output())
    tries = re.findall(r"Discord cannot be reached \(.+\); trying again in (\d+) s", out)
    assert tries == ["1"], out  # tried again after a pause (each try is itself tried a few times on the way)
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"Discord cannot be reached \(.+\): gave up after 2 tries in \d+ s; check this "
                        r"machine's network and DNS", last), last
    assert "Traceback" not in out
    figures["start-up problems tried (one line, exit 2, no traceback)"] += 1


class Silent:
    """A server that accepts connections and never answers (a network that swallows packets)."""

    def __init__(self) -> None:
        self.accepted = 0
        self.writers: list[asyncio.StreamWriter] = []

    async def __call__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        self.writers.append(writer)
        await reader.read()  # until the client goes


@pytest.mark.parametrize("phase", ["connecting", "waiting to try again"])
async def test_sigterm_while_connecting_stops_the_bot_at_once(
    fake: FakeDiscord, tmp_path: Path, figures: Figures, phase: str
) -> None:
    silent = Silent()
    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1] if phase == "connecting" else free_port()
    bot = BotProcess(fake, tmp_path / "poker.db", tmp_path, port=port, log_level="INFO")
    try:
        await bot.spawn()
        if phase == "connecting":  # the bot's first request hangs: no answer will ever come
            await fake.wait_for(lambda: silent.accepted > 0, 30, what="the bot to connect to the silent server")
        else:
            await fake.wait_for(lambda: "trying again in" in bot.output(), 30, what="the bot to wait to try again")
        assert bot.proc is not None
        sent = time.monotonic()
        bot.proc.terminate()
        assert await exit_code(bot, 10) == 0
        took = time.monotonic() - sent
    finally:
        server.close()
        for writer in silent.writers:
            writer.close()
    out = bot.output()
    assert "Traceback" not in out and not ANSI.search(out), out
    assert f"no bank at {tmp_path / 'poker.db'}: a new, empty one was created there" in out  # the log names it
    figures[f"SIGTERMs while {phase} (stopped within 10 s)"] += 1
    assert took < 10
