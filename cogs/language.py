"""Which language a text is shown in (docs: README, "Languages").

- What one member reads (his answers, his private message at a table, his forms) is in his Discord client's
  language: the interaction's ``locale`` (``Reply.language``).
- What everyone at a table reads (the table message, its buttons, the channel's posts) is in the table's
  language: the one the host set with ``/poker table language``, else the server's preferred locale, else English.
- A DM or an alert to a member, which is no answer to an interaction, is in his language as his last interaction
  showed it (kept in memory: after a restart, until he next clicks, the table's).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable

import discord

from bot.i18n import Language
from bot.i18n.catalogue import for_locale, language
from bot.i18n.languages import code_for_locale
from bot.tables import Table

__all__ = ["MemberLanguages", "guild_language", "learn_server_languages", "reader_language", "server_language",
           "table_language"]

log = logging.getLogger(__name__)

KEPT = 10_000  # members remembered at most, the least recently seen forgotten first


def reader_language(interaction: discord.Interaction) -> Language:
    """The language of the member who sent ``interaction``."""
    return for_locale(interaction.locale)


def guild_language(interaction: discord.Interaction) -> Language:
    """The language of the server ``interaction`` comes from (its preferred locale, which every interaction
    carries): what everyone reads of an answer that belongs to no table (a public /chips answer)."""
    return for_locale(interaction.guild_locale)


def server_language(bot: discord.Client, guild_id: int, chosen: str | None = None) -> Language:
    """``chosen`` (a catalogue code a host set), else the server's language: from the guild when the gateway has
    delivered it, else as an interaction or a start-up fetch last showed it (``learn_server_languages``: a table
    is shown again at start before the gateway delivers its server), else English."""
    if chosen:
        return language(chosen)
    guild = bot.get_guild(guild_id)
    if guild is not None:
        return for_locale(guild.preferred_locale)
    known: MemberLanguages | None = getattr(bot, "member_languages", None)
    code = known.server(guild_id) if known is not None else None
    return language(code) if code is not None else language("en")


def table_language(bot: discord.Client, table: Table) -> Language:
    """What everyone at ``table`` reads in: the host's choice, else its server's language."""
    return server_language(bot, table.record.guild_id, table.settings.language)


async def learn_server_languages(bot: discord.Client, guild_ids: Iterable[int]) -> None:
    """At start, before the gateway delivers the servers: fetch the language of each server not known yet (one
    request each), so that the tables and nights shown again at once are in it. A failure leaves it unknown."""
    known: MemberLanguages | None = getattr(bot, "member_languages", None)
    if known is None:
        return
    for guild_id in set(guild_ids):
        if bot.get_guild(guild_id) is not None or known.server(guild_id) is not None:
            continue
        try:
            guild = await bot.fetch_guild(guild_id)
        except (discord.HTTPException, OSError, TimeoutError) as error:
            log.info("server %s: its language is not known until the gateway delivers it (%r)", guild_id, error)
            continue
        known.learn_server(guild_id, guild.preferred_locale)


class MemberLanguages:
    """Each member's language as his latest interaction showed it."""

    def __init__(self) -> None:
        self._codes: OrderedDict[int, str] = OrderedDict()
        self._servers: dict[int, str] = {}  # a server's language as an interaction or a fetch showed it

    def seen(self, interaction: discord.Interaction) -> None:
        """Remember the language of the member who sent ``interaction`` (and of his server)."""
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self.learn_server(interaction.guild_id, interaction.guild_locale)
        user = interaction.user.id
        self._codes[user] = code_for_locale(interaction.locale)
        self._codes.move_to_end(user)
        while len(self._codes) > KEPT:
            self._codes.popitem(last=False)

    def learn_server(self, guild_id: int, locale: object) -> None:
        """Remember a server's language (its preferred locale)."""
        self._servers[guild_id] = code_for_locale(locale)

    def server(self, guild_id: int) -> str | None:
        """A server's language (a catalogue code) as last seen, or None."""
        return self._servers.get(guild_id)

    def of(self, user: int, fallback: Language) -> Language:
        """The member's language, or ``fallback`` (the table's) if he has not been seen since the bot started."""
        code = self._codes.get(user)
        return language(code) if code is not None else fallback
