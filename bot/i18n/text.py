"""A sentence for a person, worded in the reader's language only when it is shown.

The engine, the store and the table layer are language-free: what they say to a person (a refusal, a line of the
table's log) is a ``Text``: its English source, which is also its key in every language's catalogue, and its
values. The Discord side words it in the reader's language (``Text.worded``); ``str()`` words it in English, for
logs, hand histories and tests. This module is pure: no catalogue is read here (``bot.i18n.catalogue`` does that).

Values are filled in by name (``{amount}``). An ``int`` is a quantity and is written with the reader's digit
grouping ("1,000", "1.000", "1 000"): pass an identifier (a hand's or a seat's number) as ``str``. A ``Text``
value is worded in the same language. A ``Member`` is a Discord member, named by whoever shows the text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

__all__ = ["ENGLISH", "Language", "Member", "Plural", "Text", "as_sentence", "capitalized", "english_number", "say",
           "say_n", "shown_length", "without_full_stop"]

_MARKS = "⟦⟧"  # the pseudo-language's wraps (bot.i18n.catalogue), which a capital or a full stop looks past


@dataclass(frozen=True, slots=True)
class Member:
    """A member named in a text: shown as a mention in Discord, as "member <id>" in English logs."""

    id: int


class Language(Protocol):
    """What wording a text needs of a language."""

    code: str

    def gettext(self, source: str) -> str: ...

    def ngettext(self, singular: str, plural: str, count: int) -> str: ...

    def number(self, value: int) -> str: ...


def english_number(value: int) -> str:
    """An English quantity: "1,000"."""
    return f"{value:,}"


class _English:
    """The source language: the texts as written in the code."""

    code = "en"

    def gettext(self, source: str) -> str:
        return source

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural

    def number(self, value: int) -> str:
        return english_number(value)


ENGLISH: Language = _English()


class Text:
    """A sentence worded when shown (see the module's docstring). ``Text("…{amount}…", amount=40)``."""

    __slots__ = ("plural", "source", "values")

    def __init__(self, source: str, plural: str | None = None, /, **values: object) -> None:
        self.source = source
        self.plural = plural
        self.values: Mapping[str, object] = values

    def worded(self, language: Language, member: Callable[[int], str] | None = None) -> str:
        """The sentence in ``language``, each ``Member`` named by ``member(id)`` (plainly if not given)."""
        if self.plural is not None:
            template = language.ngettext(self.source, self.plural, _count(self.values))
        else:
            template = language.gettext(self.source)
        if not self.values:
            return template
        return template.format(**{name: _worded(value, language, member) for name, value in self.values.items()})

    def __str__(self) -> str:
        return self.worded(ENGLISH)

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.source, self.plural, dict(self.values)) == (
            other.source, other.plural, dict(other.values))

    def __hash__(self) -> int:
        return hash((self.source, self.plural))


def Plural(singular: str, plural: str, /, count: int, **values: object) -> Text:
    """A sentence with a count, worded in the singular or a plural as the language counts: ``{count}`` is the
    number. ``Plural("{count} chip", "{count} chips", count=n)``."""
    return Text(singular, plural, count=count, **values)


def _count(values: Mapping[str, object]) -> int:
    count = values.get("count")
    if not isinstance(count, int):
        raise TypeError("a plural text needs an int count= value")
    return count


def _worded(value: object, language: Language, member: Callable[[int], str] | None) -> str:
    if isinstance(value, Text):
        return value.worded(language, member)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return language.number(value)
    if isinstance(value, Member):
        return member(value.id) if member is not None else f"member {value.id}"
    return str(value)


def say(language: Language, source: str, /, **values: object) -> str:
    """``Text(source, **values)`` worded in ``language`` at once: for the Discord side, which knows its reader."""
    return Text(source, **values).worded(language)


def say_n(language: Language, singular: str, plural: str, /, count: int, **values: object) -> str:
    """``Plural(...)`` worded in ``language`` at once."""
    return Text(singular, plural, count=count, **values).worded(language)


def capitalized(text: str) -> str:
    """``text`` with its first letter a capital (past the pseudo-language's wraps)."""
    start = len(text) - len(text.lstrip(_MARKS))
    return text[:start] + text[start:start + 1].upper() + text[start + 1:]


def as_sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, a full stop at its end unless it has one."""
    text = capitalized(text)
    return text if not text.rstrip(_MARKS) or text.rstrip(_MARKS).endswith(".") else text + "."


def without_full_stop(text: str) -> str:
    """``text`` without a full stop at its end (past the pseudo-language's wraps)."""
    core = text.rstrip(_MARKS)
    return core.rstrip(".") + text[len(core):]


def shown_length(text: str) -> int:
    """How many characters ``text`` shows (the pseudo-language's wraps are not shown)."""
    return len(text) - sum(text.count(mark) for mark in _MARKS)
