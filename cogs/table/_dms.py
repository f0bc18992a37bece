"""Private hands by DM: the DM channels of the players, what happens when a player's DMs are closed, and one DM per
player per hand (sent at the deal, then edited: an edit does not notify)."""

from __future__ import annotations

import asyncio
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
        self.hand_messages: dict[tuple[int, int], tuple[int, int]] = {}  # (table, user) -> (hand id, DM's id)
        self._hand_locks: dict[tuple[int, int], asyncio.Lock] = {}

    async def channel(self, user: int) -> discord.PartialMessageable:
        """The DM channel of a player. Its id never changes, so it is opened once (``Client.create_dm`` keeps only
        the last 128, which would cost a REST call per private hand in a busy server)."""
        channel_id = self.channels.get(user)
        if channel_id is None:
            channel = await self.bot.create_dm(discord.Object(user))
            self.channels[user] = channel_id = channel.id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def send(self, table: Table, user: int, text: str) -> int | None:
        """DM a player; note at the table whether his DMs are closed. The DM's id, None if it could not be sent. Never
        raises: a DM that cannot be sent must not stop the table."""
        nonce = secrets.token_hex(12)  # sent again by the transport after a dropped connection: posted once
        try:
            message = await (await self.channel(user)).send(text, nonce=nonce)
        except discord.Forbidden as error:
            if error.code == CLOSED_DMS and not table.dms_closed(user):
                await self._remember(table, user, closed=True)
        except DISCORD_ERRORS as error:
            log.warning("could not DM user %s (%r)", user, error)
        else:
            if table.dms_closed(user):  # open again: told again if he closes them later
                await self._remember(table, user, closed=False)
            return message.id
        return None

    async def hand(self, table: Table, user: int, hand: int, text: str) -> None:
        """The DM of a player's hand ``hand`` (its id) at ``table``: the first is sent (it notifies), the next ones
        edit it (the deal's DM then shows the hand after each draw, and no DM buzzes again). A DM the bot does not
        know (sent before a restart) or cannot edit is sent anew, rather than his cards lost. Never raises."""
        key = (table.id, user)
        async with self._hand_locks.setdefault(key, asyncio.Lock()):  # the deal's DM is known before a draw edits
            known = self.hand_messages.get(key)
            if known is not None and known[0] == hand:
                try:
                    await (await self.channel(user)).get_partial_message(known[1]).edit(content=text)
                    return
                except discord.Forbidden as error:
                    if error.code == CLOSED_DMS:
                        if not table.dms_closed(user):
                            await self._remember(table, user, closed=True)
                        return
                    log.info("could not edit the DM of user %s; sent anew (%r)", user, error)
                except DISCORD_ERRORS as error:
                    log.info("could not edit the DM of user %s; sent anew (%r)", user, error)
            sent = await self.send(table, user, text)
            if sent is not None:
                self.hand_messages[key] = (hand, sent)

    @staticmethod
    async def _remember(table: Table, user: int, *, closed: bool) -> None:
        try:
            await table.remember_dms(user, closed=closed)
        except Exception:
            log.warning("could not remember that the DMs of %s are %s", user, "closed" if closed else "open",
                        exc_info=True)
