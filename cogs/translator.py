"""The slash commands' descriptions and choices in the member's language, through discord.py's ``Translator``.

Discord shows each member a command's description, its options' descriptions and its choices' names in his own
language when the bot gives them at sync (``*_localizations``). The names of commands, groups and options stay
English in every language: players of one server tell each other the same command, and scripts keep working.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n.catalogue import for_locale, translated

__all__ = ["CatalogueTranslator"]

_NAMES = frozenset({
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
})
_LIMIT = 100  # Discord's longest description or choice name


class CatalogueTranslator(app_commands.Translator):
    """Descriptions and choice names from the catalogues; names untranslated."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if context.location in _NAMES:
            return None
        text = translated(string.message, for_locale(locale).code)
        return text if text is None or len(text) <= _LIMIT else None  # never: tests/i18n keeps them short

