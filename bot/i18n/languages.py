"""The languages the bot speaks, by catalogue code (pure: no catalogue is read here)."""

from __future__ import annotations

__all__ = ["LANGUAGES", "PSEUDO", "SOURCE", "code_for_locale"]

SOURCE = "en"
PSEUDO = "qps"  # a pseudo-language for tests: every text wrapped in ⟦…⟧
LANGUAGES: dict[str, str] = {  # code -> the language's own name, as a menu shows it
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português do Brasil",
}
_DISCORD: dict[str, str] = {"en-US": "en", "en-GB": "en", "de": "de", "fr": "fr", "es-ES": "es", "es-419": "es",
                            "pt-BR": "pt_BR", PSEUDO: PSEUDO}


def code_for_locale(locale: object) -> str:
    """The catalogue code for one of Discord's locales (``discord.Locale`` or its value, such as "pt-BR") or a
    catalogue code; English for any other."""
    value = str(getattr(locale, "value", locale) or "")
    return _DISCORD.get(value, value if value in LANGUAGES else SOURCE)
