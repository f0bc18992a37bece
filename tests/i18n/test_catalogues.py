"""The catalogues (bot/i18n/locales): up to date with the code and the slash commands, and every language complete,
with the same placeholders as the English source."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.i18n.catalogue import LANGUAGES, SOURCE
from pokerdev import catalogue

TRANSLATED = [code for code in LANGUAGES if code != SOURCE]


def read(code: str) -> Catalog:
    with (catalogue.LOCALES / f"{code}.po").open("rb") as po:
        return read_po(po, locale=code)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def markup(text: str) -> list[str]:
    """Discord's markup and the mentions a text carries, which a translation keeps (bold, code, emoji)."""
    return sorted(re.findall(r"\*\*|`|<[@#:][^>]*>|[\u2600-\u27bf\U0001f300-\U0001faff]", text))


def sources(message: Message) -> list[str]:
    return [message.id] if isinstance(message.id, str) else list(message.id)


def translations(message: Message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string or ())


def test_the_catalogues_are_up_to_date_with_the_code_and_the_commands() -> None:
    assert catalogue.stale() == [], "run: python -m pokerdev.catalogue"


def test_the_languages_are_the_catalogues() -> None:
    assert sorted(TRANSLATED) == sorted(catalogue.TRANSLATED)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_text_is_translated_with_the_same_placeholders(code: str) -> None:
    template = {m.id for m in catalogue.template() if m.id}
    catalog = read(code)
    have = {m.id for m in catalog if m.id}
    assert have == template
    problems = []
    for message in catalog:
        if not message.id:
            continue
        wanted = set().union(*(placeholders(s) for s in sources(message)))
        forms = translations(message)
        if not all(forms) or message.fuzzy:
            problems.append(f"untranslated: {message.id!r}")
            continue
        if isinstance(message.id, tuple) and len(forms) != catalog.num_plurals:
            problems.append(f"{message.id!r}: {len(forms)} plural forms, the language has {catalog.num_plurals}")
        for form in forms:
            # A plural form may leave the count out ("un jeton"); it may add no placeholder of its own.
            got = placeholders(form)
            if got - wanted or (not isinstance(message.id, tuple) and got != wanted):
                problems.append(f"{message.id!r} -> {form!r}: placeholders {sorted(got)}, not {sorted(wanted)}")
            if markup(form) != markup(sources(message)[0]):
                problems.append(f"{message.id!r} -> {form!r}: Discord markup {markup(form)} differs")
    assert problems == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_commands_texts_fit_discords_limit_in_every_language(code: str) -> None:
    catalog = read(code)
    commands = {source for source, _ in catalogue.command_texts()}
    too_long = [(m.id, m.string) for m in catalog
                if m.id in commands and isinstance(m.string, str) and len(m.string) > 100]
    assert too_long == []
