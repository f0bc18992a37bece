"""Which language a text is shown in (docs: README, "Languages").

- What one member reads (his answers, his private message at a table, his forms) is in his Discord client's
  language: the interaction's ``locale`` (``Reply.language``).
- What everyone at a table reads (the table message, its buttons, the channel's posts) is in the table's
  language: the one the host set with ``/poker table language``, else the server's preferred locale, else English.
- A DM or an alert to a member, which is no answer to an interaction, is in his language as his last interaction
  showed it (kept in memory: after a restart, until he next clicks, the table's).
"""

from __future__ import annotations

from collections import OrderedDict

import discord

from bot.i18n import Language
from bot.i18n.catalogue import for_locale, language
from bot.i18n.languages import code_for_locale
from bot.tables import Table

__all__ = ["MemberLanguages", "channel_language", "reader_language", "table_language"]

KEPT = 10_000  # members remembered at most, the least recently seen forgotten first


def reader_language(interaction: discord.Interaction) -> Language:
    """The language of the member who sent ``interaction``."""
    return for_locale(interaction.locale)


def channel_language(chosen: str | None, guild: discord.Guild | None) -> Language:
    """A table's (or a channel's) language: ``chosen`` (a catalogue code the host set), else the server's."""
    if chosen:
        return language(chosen)
    return for_locale(guild.preferred_locale) if guild is not None else language("en")


def table_language(bot: discord.Client, table: Table) -> Language:
    """What everyone at ``table`` reads in: the host's choice, else its server's language."""
    return channel_language(table.settings.language, bot.get_guild(table.record.guild_id))


class MemberLanguages:
    """Each member's language as his latest interaction showed it."""

    def __init__(self) -> None:
        self._codes: OrderedDict[int, str] = OrderedDict()

    def seen(self, interaction: discord.Interaction) -> None:
        """Remember the language of the member who sent ``interaction``."""
        user = interaction.user.id
        self._codes[user] = code_for_locale(interaction.locale)
        self._codes.move_to_end(user)
        while len(self._codes) > KEPT:
            self._codes.popitem(last=False)

    def of(self, user: int, fallback: Language) -> Language:
        """The member's language, or ``fallback`` (the table's) if he has not been seen since the bot started."""
        code = self._codes.get(user)
        return language(code) if code is not None else fallback
