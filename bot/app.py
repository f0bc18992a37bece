"""The Bot: opens the store, loads the cogs, restores the tables, syncs the commands."""

from __future__ import annotations

import logging
import random
from collections import OrderedDict
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from .store import Store
from .tables import Tables

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.table", "cogs.bank")
REMEMBERED_INTERACTIONS = 4096  # ids kept to recognise an interaction delivered twice


class PokerTree(app_commands.CommandTree["PokerBot"]):
    """The command tree: an interaction delivered a second time (a gateway replay) is not run again."""

    async def interaction_check(self, interaction: discord.Interaction[PokerBot], /) -> bool:
        return self.client.first_delivery(interaction)


class PokerBot(commands.Bot):
    """The poker bot. Only two non-privileged intents: guilds and guild messages."""

    def __init__(
        self,
        db_path: Path | str,
        *,
        dev_guild_id: int | None = None,
        rng: random.Random | None = None,
        next_hand_delay: float = 4.0,
        sync_commands: bool = True,
    ) -> None:
        # Guilds (channels, permissions) and guild messages (MESSAGE_DELETE: a deleted table message is posted
        # again at once). Not DM messages: every DM the bot sends would come back as an event. No message cache:
        # the bot never reads a message back, and scanning the cache on every edit event costs CPU.
        intents = discord.Intents(guilds=True, guild_messages=True)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, max_messages=None,
                         help_command=None, tree_cls=PokerTree)
        self.db_path = Path(db_path)
        self.dev_guild_id = dev_guild_id
        self.rng = rng
        self.next_hand_delay = next_hand_delay
        self.sync_commands = sync_commands
        self._store: Store | None = None
        self._tables: Tables | None = None
        self._delivered: OrderedDict[int, None] = OrderedDict()

    def first_delivery(self, interaction: discord.Interaction) -> bool:
        """False for an interaction already received (the same id delivered again): it was handled and
        answered once, and Discord refuses a second answer, so it is ignored rather than run twice."""
        if interaction.id in self._delivered:
            log.info("interaction %s was delivered again; ignored", interaction.id)
            return False
        self._delivered[interaction.id] = None
        while len(self._delivered) > REMEMBERED_INTERACTIONS:
            self._delivered.popitem(last=False)
        return True

    @property
    def store(self) -> Store:
        """The open store (after ``setup_hook``)."""
        assert self._store is not None, "the store opens in setup_hook"
        return self._store

    @property
    def tables(self) -> Tables:
        """Every open table (after ``setup_hook``)."""
        assert self._tables is not None, "the tables load in setup_hook"
        return self._tables

    async def setup_hook(self) -> None:
        """Open the store, restore open tables, load the cogs, sync the slash commands."""
        self._store = await Store.open(self.db_path)
        self._tables = Tables(self._store, self.rng)
        restored = await self._tables.restore()
        log.info("restored %d open table(s)", len(restored))
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("could not load %s", extension)
        if self.sync_commands:
            if self.dev_guild_id is not None:
                guild = discord.Object(self.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()

    async def close(self) -> None:
        """Stop the clocks (via the cogs' unload), then close the store."""
        for extension in list(self.extensions):
            try:
                await self.unload_extension(extension)
            except Exception:
                log.exception("could not unload %s", extension)
        await super().close()
        if self._store is not None:
            await self._store.close()
            self._store = None
