"""Fixtures for the end-to-end tests: the fake Discord, a bot starter, and a guard that fails a test on any
exception discord.py (or the bot) logged and swallowed.

* ``fake``: a started :class:`FakeDiscord` with discord.py patched to use it; on teardown the test fails on any
  violation the fake recorded (late or missing acknowledgements, bodies Discord would reject, double responses,
  unknown routes, ...) that the test did not take with ``fake.take_violations()``.
* ``fake_config``: the guild's shape; override it in a module or test to change channels, users, deadline...
  Every test of the bot (``poker_bot``) has members and a server speaking the pseudo-language
  (``pokerdev.fakediscord.pseudo``): a text the bot shows without its catalogue fails the test as a ``bare-text``
  violation, and the tests read the English as it is. A test marked ``languages`` keeps the locales its config
  gives (a German server, a French member).
* ``start_bot``: ``await start_bot(bot)`` starts any discord.py Client/Bot against the fake and waits until it
  is ready; ``await start_bot.stop(bot)`` closes one (for restarts); teardown settles interactions, then closes all.
* ``discord_errors`` (autouse): ERROR records of the ``discord``, ``bot`` and ``cogs`` loggers fail the test,
  unless the test takes them with ``discord_errors.take()``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import discord
import pytest
from discord import app_commands

from bot.poker import GAMES
from cogs.table._screen import SHORT_NAMES

from .fakediscord import FakeConfig, FakeDiscord, patch_discord

ClientT = TypeVar("ClientT", bound=discord.Client)

FAKE_TOKEN = "fake.bot.token"


@pytest.fixture
def fake_config() -> FakeConfig:
    return FakeConfig()


GAME_NAMES = frozenset(
    [game.name for game in GAMES.values()] + list(SHORT_NAMES.values()))  # the bot's data, not texts


@pytest.fixture
async def fake(fake_config: FakeConfig, monkeypatch: pytest.MonkeyPatch,
               request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    if "poker_bot" in request.fixturenames and request.node.get_closest_marker("languages") is None:
        fake_config = dataclasses.replace(fake_config, pseudo_locale=True, pseudo_allowed=GAME_NAMES)
    server = FakeDiscord(fake_config)
    await server.start()
    patch_discord(monkeypatch, server)
    try:
        yield server
    finally:
        await server.stop()
    problems = server.verify()
    if problems:
        pytest.fail(
            "the fake Discord saw problems (take expected ones with fake.take_violations()):\n  "
            + "\n  ".join(str(p) for p in problems),
            pytrace=False,
        )


class BotStarter:
    """Starts discord.py clients against the fake and closes them at teardown."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.running: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def __call__(self, bot: ClientT, *, timeout: float = 10.0) -> ClientT:
        bot._connection.guild_ready_timeout = 0.05  # on_ready would wait 2 s after the last GUILD_CREATE
        task = asyncio.create_task(bot.start(FAKE_TOKEN), name=f"bot-{type(bot).__name__}")
        self.running.append((bot, task))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task in done:
                self.running.remove((bot, task))
                task.result()  # raises why the bot could not start (LoginFailure, PrivilegedIntentsRequired, ...)
                raise RuntimeError("the bot stopped before it was ready")
            raise TimeoutError(f"the bot was not ready within {timeout}s")
        self.register_commands(bot)
        return bot

    def register_commands(self, bot: discord.Client) -> None:
        """Tell the fake the bot's local command tree, so ``fake.slash`` types and checks options."""
        tree = getattr(bot, "tree", None)
        if not isinstance(tree, app_commands.CommandTree):
            return
        guild = discord.Object(self.fake.guild_id)
        self.fake.register_commands(
            [command.to_dict(tree) for command in tree.get_commands()],
            [command.to_dict(tree) for command in tree.get_commands(guild=guild)],
        )

    async def stop(self, bot: discord.Client) -> None:
        """Close one bot (e.g. to start a new one on the same database) and wait for it to finish."""
        for entry in list(self.running):
            if entry[0] is bot:
                self.running.remove(entry)
                await bot.close()
                await asyncio.wait_for(entry[1], 10)

    async def close_all(self) -> None:
        if self.running:
            await self.fake.settle()
        while self.running:
            await self.stop(self.running[-1][0])


@pytest.fixture
async def start_bot(fake: FakeDiscord) -> AsyncIterator[BotStarter]:
    starter = BotStarter(fake)
    try:
        yield starter
    finally:
        await starter.close_all()


class DiscordErrors(logging.Handler):
    """Collects ERROR records: discord.py logs and swallows exceptions raised in commands, views and modals."""

    LOGGERS = ("discord", "bot", "cogs")

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def take(self, contains: str | None = None) -> list[logging.LogRecord]:
        """Remove and return the records (whose message or exception mentions ``contains``)."""
        taken = [r for r in self.records if contains is None or contains in self.describe(r)]
        self.records = [r for r in self.records if r not in taken]
        return taken

    @staticmethod
    def describe(record: logging.LogRecord) -> str:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f"\n{logging.Formatter().formatException(record.exc_info)}"
        return text


@pytest.fixture(autouse=True)
def discord_errors() -> Iterator[DiscordErrors]:
    capture = DiscordErrors()
    loggers = [logging.getLogger(name) for name in DiscordErrors.LOGGERS]
    for logger in loggers:
        logger.addHandler(capture)
    try:
        yield capture
    finally:
        for logger in loggers:
            logger.removeHandler(capture)
    if capture.records:
        pytest.fail(
            "errors were logged (and swallowed) during the test:\n"
            + "\n".join(DiscordErrors.describe(r) for r in capture.records),
            pytrace=False,
        )


from .conftest_bot import poker_bot  # noqa: E402 (the PokerBot fixture, with its audit and hole-card checks)

__all__ = ["poker_bot"]
