"""The Bot: opens the store, loads the cogs, restores the tables, syncs the commands."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections import OrderedDict
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n.catalogue import load_all
from bot.runtime.bank_location import parse_bank
from bot.runtime.config import Config
from bot.runtime.startup import OpenBank, open_bank
from bot.store import Store
from bot.store.waits import limit_waits
from bot.tables import Tables

from .card_emojis import CardEmojis
from .discord_seam import Parser, wrap_parser
from .errors import admitted_first
from .gateway_watch import GatewayWatch
from .language import MemberLanguages
from .reply import release
from .translator import CatalogueTranslator
from .transport import install

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.table", "cogs.plans", "cogs.bank")  # cogs.plans joins cogs.table's /poker
# The permissions the bot uses, and only those: View Channel, Send Messages, Embed Links (the table message);
# Create Events and Manage Events (a planned night's Discord event, started and ended with the night).
# Interaction answers (ephemeral replies, files, forms) need no channel permission; application emojis none.
PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, create_events=True,
                                  manage_events=True)
SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int) -> str:
    """The OAuth2 URL that invites the bot with exactly the permissions it uses."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)
STORE_WAIT = 10.0  # seconds an interaction's store calls may wait for the database (it is acknowledged long before)
REMEMBERED_INTERACTIONS = 4096  # ids kept to recognise an interaction delivered twice


class PokerTree(app_commands.CommandTree["PokerBot"]):
    """The command tree: an interaction delivered a second time (a gateway replay) is not run again."""

    async def interaction_check(self, interaction: discord.Interaction[PokerBot], /) -> bool:
        return admitted_first(interaction) is not None  # its Reply: "thinking…" in time if the answer is slow


class PokerBot(commands.Bot):
    """The poker bot. Only non-privileged intents: guilds, guild messages and guild scheduled events."""

    def __init__(
        self,
        config: Config | Path | str,
        *,
        rng: random.Random | None = None,
        next_hand_delay: float = 4.0,
        sync_commands: bool = True,
    ) -> None:
        # Guilds (channels, permissions) and guild messages (MESSAGE_DELETE: a deleted table message is posted
        # again at once). Not DM messages: every DM the bot sends would come back as an event. No message cache:
        # the bot never reads a message back, and scanning the cache on every edit event costs CPU. Guild scheduled
        # events: a member marking a planned night's event Interested is heard of at once (cogs.plans).
        intents = discord.Intents(guilds=True, guild_messages=True, guild_scheduled_events=True)
        self.config = config if isinstance(config, Config) else Config(db_path=parse_bank(str(config)).target)
        if self.config.api_base is not None:  # every REST call through one rate-limiting proxy (DISCORD_API_BASE)
            discord.http.Route.BASE = self.config.api_base
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, max_messages=None,
                         help_command=None, tree_cls=PokerTree, **self._shard_options())
        install(self.http, closed=self.is_closed)  # every REST call survives a dropped connection
        self._skip_own_message_events()
        self.db_path = self.config.db_path
        self.dev_guild_id = self.config.dev_guild_id
        self.rng = rng
        self.next_hand_delay = next_hand_delay
        self.sync_commands = sync_commands
        self._bank: OpenBank | None = None
        self._store: Store | None = None
        self._tables: Tables | None = None
        self.gateway = GatewayWatch(self, self.config.health_file)
        self.member_languages = MemberLanguages()  # each member's language as his interactions show it
        self.card_emojis: Any = None  # cogs.card_emojis.CardEmojis, once logged in (cards are text until then)
        self._delivered: OrderedDict[int, None] = OrderedDict()  # the ids of the interactions received

    def _shard_options(self) -> dict[str, Any]:
        """discord.py's shard options: none for one unsharded connection."""
        return {}

    def _skip_own_message_events(self) -> None:
        """Drop unread the gateway's events of the bot's own messages (MESSAGE_CREATE of those it posts, and
        every MESSAGE_UPDATE). The guild messages intent brings one, with the whole message, for every table
        message posted or edited, and discord.py would build a Message from each that nothing reads: the bot
        listens only to deletes, and to mentions by others (``command_prefix``)."""
        def unless_own(parse_create: Parser) -> Parser:
            def message_create(data: Any) -> None:
                author = data.get("author") or {}
                if self.user is None or str(author.get("id")) != str(self.user.id):
                    parse_create(data)

            return message_create

        wrap_parser(self, "MESSAGE_CREATE", unless_own)
        wrap_parser(self, "MESSAGE_UPDATE", lambda parse: lambda data: None)

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        """A slash command was handled: its ``Reply`` is let go (an error's is, once reported: ``CommandGroup``)."""
        release(interaction)

    def first_delivery(self, interaction: discord.Interaction) -> bool:
        """False for an interaction already received (the same id delivered again): it was handled and
        answered once, and Discord refuses a second answer, so it is ignored rather than run twice. A first
        delivery's store calls wait for the database at most ``STORE_WAIT`` seconds."""
        if interaction.id in self._delivered:
            log.info("interaction %s was delivered again; ignored", interaction.id)
            return False
        if interaction.guild_id is not None and not self.config.runs_guild(interaction.guild_id):
            # Discord sends a guild's events to the process of its shard; one that reaches another (a process
            # configured with other shards) is not carried out here: the guild's tables are another process's.
            log.warning("interaction %s of server %s reached a process that does not run its shard; ignored",
                        interaction.id, interaction.guild_id)
            return False
        self._delivered[interaction.id] = None
        limit_waits(STORE_WAIT)  # its store calls (made in this task) never wait longer for another program's lock
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

    async def open_bank(self) -> Store:
        """Take the bank's lock and open its store (once): ``bot.runtime.startup.StartupError`` says what stops it."""
        if self._bank is None:
            self._bank = await open_bank(self.config.db_path, synchronous=self.config.db_sync,
                                         shards=self.config.shards)
            self._store = self._bank.store
        return self._bank.store

    async def setup_hook(self) -> None:
        """Open the store, restore open tables, start the card emojis' upload, load the cogs, sync the slash
        commands, and say who the bot is and how to invite it."""
        await self.open_bank()
        assert self._store is not None
        self.card_emojis = CardEmojis(self)
        self.card_emojis.start()
        self._tables = Tables(self._store, self.rng)
        restored = await self._tables.restore(self.config.runs_guild)
        log.info("restored %d open table(s)", len(restored))
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("could not load %s", extension)
        if self.user is not None and self.application_id is not None:
            log.info("logged in as %s (%s); invite it with %s", self.user, self.user.id,
                     invite_url(self.application_id))
        await asyncio.to_thread(load_all)  # the catalogues read once, off the event loop, before any answer needs one
        await self.tree.set_translator(CatalogueTranslator())  # descriptions and choices in each member's language
        if self.sync_commands:
            try:
                if self.dev_guild_id is not None:
                    guild = discord.Object(self.dev_guild_id)
                    self.tree.copy_global_to(guild=guild)
                    await self.tree.sync(guild=guild)
                else:
                    await self.tree.sync()
            except (discord.HTTPException, OSError, TimeoutError) as error:  # Discord's failure: the next start syncs
                log.warning("could not sync the slash commands (%r); Discord keeps the last ones synced", error)
        self.gateway.start()
        tune_collector()

    async def close(self) -> None:
        """Stop the clocks (via the cogs' unload), then close the store and let the bank's lock go."""
        gc.unfreeze()  # what tune_collector froze may be freed again (a process that runs another bot: the tests)
        self.gateway.stop()
        if self.card_emojis is not None:
            self.card_emojis.stop()
        for extension in list(self.extensions):
            try:
                await self.unload_extension(extension)
            except Exception:
                log.exception("could not unload %s", extension)
        await super().close()
        if self._bank is not None:
            await self._bank.close()
            self._bank = None
        elif self._store is not None:
            await self._store.close()
        self._store = None


def tune_collector() -> None:
    """The garbage collector for a bot that has started: what is loaded by now (the code, the restored tables)
    lives as long as the process and is kept out of the collector's passes (``gc.freeze``), which otherwise walk
    it all (pauses of 100-200 ms under load); and the youngest objects are collected every 2,000 allocations
    instead of 700 (each click makes thousands of short-lived objects). At 10 saturated tables, three runs each:
    CPU per decision 3.7-5.0 ms against 5.3-5.6 ms with Python's thresholds, p99 100-110 ms against 160-174 ms,
    for about 15 MB more after play (``bench/load.py --variant gc-report`` against ``gc-python-thresholds``)."""
    gc.freeze()
    gc.set_threshold(2_000, 10, 10)


class ShardedPokerBot(PokerBot, commands.AutoShardedBot):
    """The poker bot over several gateway shards (``SHARD_COUNT``, optionally ``SHARD_IDS``): each guild's events
    come on the shard ``(guild_id >> 22) % SHARD_COUNT``; this process runs ``SHARD_IDS`` (default: all)."""

    def _shard_options(self) -> dict[str, Any]:
        ids = self.config.shard_ids
        return {"shard_count": self.config.shard_count, "shard_ids": list(ids) if ids is not None else None}


def make_bot(config: Config, **options: Any) -> PokerBot:
    """The bot the configuration asks for: sharded when ``SHARD_COUNT`` is set, one connection otherwise."""
    cls = ShardedPokerBot if config.sharded else PokerBot
    return cls(config, **options)
