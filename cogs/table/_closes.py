"""A close the bot stored but did not show.

A table's close is one transaction; "Table closed" on its message comes after. A bot stopped in between (a kill,
a crash) left the old message with live buttons. The store keeps a closed table's message id until the close is
shown (``close_shown``); a restarted bot finds those (``closes_not_shown``) and takes their buttons away.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import Language
from bot.store import Store, StoreError, TableRecord
from cogs.language import learn_server_languages, server_language

from ..failures import DISCORD_ERRORS
from ._screen import closed_embed

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger(__name__)


async def show_closed(store: Store, table_id: int) -> None:
    """Note that the closed table's message shows it closed (a failure to note it: shown again at the next start)."""
    try:
        await store.close_shown(table_id)
    except StoreError as error:
        log.warning("table %s: could not note that its close was shown (%s)", table_id, error)


async def finish_closes(bot: PokerBot) -> int:
    """Show "Table closed" on the message of every table of this process's servers closed but not shown; the
    number shown."""
    shown = 0
    records = [record for record in await bot.store.closes_not_shown()
               if record.message_id is not None and bot.config.runs_guild(record.guild_id)]
    await learn_server_languages(bot, (record.guild_id for record in records))
    for record in records:
        assert record.message_id is not None
        message = bot.get_partial_messageable(record.channel_id).get_partial_message(record.message_id)
        try:
            await message.edit(embed=closed_embed(lang=_language(bot, record)), view=None)
        except discord.NotFound:
            pass  # the message is gone: nothing shows the table any more
        except DISCORD_ERRORS as error:
            log.warning("table %s: its close could not be shown (%r); tried again at the next start", record.id, error)
            continue
        log.info("table %s: its close, stored before the last stop, is shown now", record.id)
        await show_closed(bot.store, record.id)
        shown += 1
    return shown


def _language(bot: PokerBot, record: TableRecord) -> Language:
    """The closed table's language, as its runner had it: the host's choice, else its server's."""
    chosen = record.settings.get("language")
    return server_language(bot, record.guild_id, chosen if isinstance(chosen, str) else None)
