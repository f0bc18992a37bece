"""Private hands by DM: the DM channels of the players, and what happens when a player's DMs are closed."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot import render
from bot.tables import Table

from ._transport import DISCORD_ERRORS, retrying

log = logging.getLogger(__name__)

CLOSED_DMS = 50007
CLOSED_NOTICE = "{mention}, I cannot DM you your cards: press **My hand** to see them (only you will)."


class DmSender:
    """Sends players their cards, for one bot. A player whose DMs are closed is told once in the table's channel
    (also across a restart: the table stores it) to use "My hand"; told again if he reopens and closes them."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.channels: dict[int, int] = {}  # user id -> his DM channel's id

    async def channel(self, user: int) -> discord.abc.Messageable:
        """The DM channel of a player. Its id never changes, so it is opened once (``Client.create_dm`` keeps only
        the last 128, which would cost a REST call per private hand in a busy server)."""
        channel_id = self.channels.get(user)
        if channel_id is None:
            channel = await self.bot.create_dm(discord.Object(user))
            self.channels[user] = channel_id = channel.id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def send(self, table: Table, user: int, text: str, post: Callable[[str], Awaitable[None]]) -> None:
        """DM a player (tried again when Discord fails); if his DMs are closed, say once in the channel (with
        ``post``) to use "My hand". Never raises: a DM that cannot be sent must not stop the table."""
        async def call() -> None:
            await (await self.channel(user)).send(text)

        try:
            await retrying(call, closed=self.bot.is_closed)
        except discord.Forbidden as error:
            if error.code == CLOSED_DMS and not table.dms_closed(user):
                await self._remember(table, user, closed=True)
                await post(CLOSED_NOTICE.format(mention=render.mention(user)))
        except DISCORD_ERRORS:
            log.warning("could not DM user %s", user, exc_info=True)
        else:
            if table.dms_closed(user):  # open again: told again if he closes them later
                await self._remember(table, user, closed=False)

    @staticmethod
    async def _remember(table: Table, user: int, *, closed: bool) -> None:
        try:
            await table.remember_dms(user, closed=closed)
        except Exception:
            log.warning("could not remember that the DMs of %s are %s", user, "closed" if closed else "open",
                        exc_info=True)
