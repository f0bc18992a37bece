"""Refusals whose words may name members, without Discord markup or a language below the cogs.

The store and the table layer say ``Text("{member} is not seated at this table", member=Member(id))``; whoever
shows the text (the cogs) words it in the reader's language and names the members as mentions. ``str()`` of a
refusal is its English, members named plainly, for logs and tests.
"""

from __future__ import annotations

from collections.abc import Callable

from .i18n.text import ENGLISH, Language, Member, Text, as_sentence, capitalized, without_full_stop

__all__ = ["Refusal", "Sentence", "reason_of"]


class Refusal(Exception):
    """A friendly sentence for a member: a ``Text`` (``args[0]`` and ``text``) whose ``Member`` values name members.

    A ``str`` is still taken, with its ``{name}`` fields filled by ``members`` (member ids), from code not
    converted yet: it is shown in English in every language (no catalogue holds it)."""

    def __init__(self, text: Text | str, **members: int) -> None:
        if not isinstance(text, Text):
            text = _Unconverted(text, **{name: Member(user) for name, user in members.items()})
        elif members:
            raise TypeError("a Text names its members itself: give them as Member values")
        super().__init__(text)
        self.text: Text = text

    def render(self, name: Callable[[int], str]) -> str:
        """The sentence in English with each member named by ``name(id)``."""
        return self.text.worded(ENGLISH, name)

    @property
    def message(self) -> str:
        """The friendly message (members named plainly)."""
        return str(self)

    def __str__(self) -> str:
        return self.text.worded(ENGLISH)


class Sentence(Text):
    """A phrase of the pure core (a lower-case ``ValueError`` such as "you are already registered") worded as a
    sentence in any language: its first letter a capital, a full stop after it unless it ends with one; or, not
    ``full_stop``, as a sentence's opening, which more words follow (its own full stop taken off)."""

    __slots__ = ()

    def __init__(self, phrase: Text | str, *, full_stop: bool = True) -> None:
        # worded below without a catalogue: the phrase is the text
        super().__init__("{phrase}", phrase=phrase, full_stop=full_stop)

    def worded(self, language: Language, member: Callable[[int], str] | None = None) -> str:
        phrase = self.values["phrase"]
        text = (phrase.worded(language, member) if isinstance(phrase, Text) else str(phrase)).strip()
        return as_sentence(text) if self.values["full_stop"] else without_full_stop(capitalized(text))


def reason_of(error: BaseException) -> Text | str:
    """What an error caught from a lower layer says, to be said again by a refusal: its ``Text`` (worded later),
    else its English."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Text) else str(error)


class _Unconverted(Text):
    """A refusal's English from code not converted to ``Text`` yet: worded as it is, in every language."""

    __slots__ = ()

    def worded(self, language: Language, member: Callable[[int], str] | None = None) -> str:
        return super().worded(ENGLISH, member)
