"""The catalogues: every text a person sees, in each language the bot speaks (gettext catalogues read with Babel).

``bot/i18n/locales/messages.pot`` holds every English source (``python -m pokerdev.catalogue`` extracts it from the
code and the command tree); ``<code>.po`` its translations, one file a language. A language is chosen from
Discord's locale names (``for_locale``): a member's own for what only he reads, the table's for what everyone
reads. A text missing from a catalogue is shown in English (a test keeps the catalogues complete).

``qps`` is a pseudo-language for tests: every text comes out wrapped in ``⟦…⟧``, so that one not taken through a
catalogue shows as bare English.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from .languages import LANGUAGES, PSEUDO, SOURCE, code_for_locale
from .text import ENGLISH, Language, english_number

__all__ = ["LANGUAGES", "PSEUDO", "SOURCE", "Catalogued", "babel_locale", "for_locale", "language", "load_all",
           "translated"]

OPEN, CLOSE = "⟦", "⟧"


class Catalogued:
    """A language with a catalogue: its translations and its way of writing numbers."""

    def __init__(self, code: str, translations: NullTranslations, locale: Locale) -> None:
        self.code = code
        self._translations = translations
        self._locale = locale

    def gettext(self, source: str) -> str:
        return self._translations.gettext(source)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self._translations.ngettext(singular, plural, count)

    def number(self, value: int) -> str:
        return format_decimal(value, locale=self._locale)


class _Pseudo:
    """Every text wrapped, numbers as in English (``PSEUDO``)."""

    code = PSEUDO

    def gettext(self, source: str) -> str:
        return f"{OPEN}{source}{CLOSE}"

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return f"{OPEN}{singular if count == 1 else plural}{CLOSE}"

    def number(self, value: int) -> str:
        return english_number(value)


@cache
def language(code: str) -> Language:
    """The language of a catalogue code (``LANGUAGES``' keys, or ``PSEUDO``); English for any other."""
    if code == PSEUDO:
        return _Pseudo()
    if code not in LANGUAGES or code == SOURCE:
        return ENGLISH
    return Catalogued(code, _translations(code), Locale.parse(code))


def load_all() -> None:
    """Read every catalogue and its language's number formats now (about 0.1 s in all): the bot does it at start,
    so that the first German answer does not hold up the event loop reading them."""
    for code in LANGUAGES:
        language(code).gettext("")
        language(code).number(1)
        if code != SOURCE:
            _catalogue(code)


def for_locale(locale: object) -> Language:
    """The language for one of Discord's locales (``discord.Locale`` or its value, such as "pt-BR"), else English."""
    return language(code_for_locale(locale))


def babel_locale(language: Language) -> Locale:
    """Babel's locale of a language, for its dates, weekdays and money (English for the pseudo-language)."""
    code = language.code if language.code in LANGUAGES else SOURCE
    return Locale.parse("en_US" if code == SOURCE else code)


def translated(source: str, code: str) -> str | None:
    """``source`` in a catalogue's language, or None when that catalogue does not have it (or is English)."""
    if code == SOURCE or code not in LANGUAGES:
        return None
    text = _catalogue(code).get(source)
    return text or None


@cache
def _catalogue(code: str) -> dict[str, str]:
    """A catalogue's singular texts by source, the untranslated left out."""
    return {m.id: m.string for m in _read(code) if isinstance(m.id, str) and isinstance(m.string, str) and m.string}


@cache
def _translations(code: str) -> NullTranslations:
    compiled = io.BytesIO()
    write_mo(compiled, _read(code))
    compiled.seek(0)
    return Translations(compiled)


@cache
def _read(code: str) -> Catalog:
    with resources.files(__package__).joinpath("locales", f"{code}.po").open("rb") as po:
        return read_po(po, locale=code)
