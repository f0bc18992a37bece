"""Private hands by DM: the DM channels of the players, and what happens when a player's DMs are closed."""

from __future__ import annotations

import logging
import secrets

import discord

from bot.tables import Table

from ..transport import DISCORD_ERRORS

log = logging.getLogger(__name__)

CLOSED_DMS = 50007


class DmSender:
    """Sends players their cards, for one bot. A player whose DMs are closed is noted at his table (it stores it,
    so it lasts across a restart): the table message tells him to use "My hand" until his DMs open again."""

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

    async def send(self, table: Table, user: int, text: str) -> None:
        """DM a player; note at the table whether his DMs are closed. Never raises: a DM that cannot be sent must not
        stop the table."""
        nonce = secrets.token_hex(12)  # sent again by the transport after a dropped connection: posted once
        try:
            await (await self.channel(user)).send(text, nonce=nonce)
        except discord.Forbidden as error:
            if error.code == CLOSED_DMS and not table.dms_closed(user):
                await self._remember(table, user, closed=True)
        except DISCORD_ERRORS as error:
            log.warning("could not DM user %s (%r)", user, error)
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
