"""The pseudo-language check: every text the bot shows must have come through its catalogue.

With ``FakeConfig(pseudo_locale=True)`` the fake's members and server speak the pseudo-language ``qps``, in which the
bot wraps every text it words in ``⟦…⟧``. Each request body's person-visible texts (message content, embeds,
buttons, menus, forms, scheduled events) are read as they arrive: a word of English outside the wraps is a text
that bypassed the catalogue, recorded as a ``bare-text`` violation (which fails an end-to-end test). The wraps are
then taken out, so that the rest of the fake, and the tests, see the English as it is.

Not texts: names people gave (members, the server, channels, what they typed), mentions, custom emojis,
timestamps, links, time zones' names and card faces; the caller adds the names of its own data (its games') as
``phrases``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from typing import Any

__all__ = ["CLOSE", "OPEN", "PSEUDO", "bare_words", "check_and_unwrap", "texts", "unwrapped"]

PSEUDO = "qps"
OPEN, CLOSE = "⟦", "⟧"
_WRAPPED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
# mentions, emojis, timestamps, channels; links; time zones (Europe/Berlin, America/Argentina/Buenos_Aires); cards
# as players type them (Qh 7c Th)
_NOT_WORDS = re.compile(r"<[^<>\s]*>|https?://\S+|\b[A-Za-z_]+(?:/[A-Za-z0-9_+-]+)+|\b(?:10|[2-9TJQKA])[cdhs]\b")
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
_SKIPPED_PATHS = ("/commands", "/emojis")  # the command tree (English names, localized descriptions), emoji uploads
_TEXT_KEYS = ("content", "title", "description", "label", "placeholder", "text")


def texts(body: Any) -> Iterator[tuple[dict[str, Any], str]]:
    """Every person-visible text of a request body, as (the object holding it, its key)."""
    if isinstance(body, list):
        for item in body:
            yield from texts(item)
        return
    if not isinstance(body, dict):
        return
    for key, value in body.items():
        if key == "emoji":
            continue  # an emoji's name is no text
        if isinstance(value, str):
            if key in _TEXT_KEYS:
                yield body, key
            elif key == "name" and ("value" in body or "icon_url" in body or "scheduled_start_time" in body):
                yield body, key  # an embed field's or author's name, a scheduled event's
            elif key == "value" and ("name" in body or "style" in body):
                yield body, key  # an embed field's value, a form field's prefilled text (not a menu option's id)
        elif isinstance(value, dict | list):
            yield from texts(value)


def bare_words(text: str, allowed: Callable[[str], bool], phrases: Collection[str] = ()) -> list[str]:
    """The words of ``text`` outside the pseudo-language's wraps that are not ``allowed`` nor in one of the
    ``phrases`` (names of the bot's own data, such as its games')."""
    for phrase in sorted(phrases, key=len, reverse=True):
        text = text.replace(phrase, " ")
    previous = None
    while previous != text:  # the innermost wraps first: a text may hold another
        previous, text = text, _WRAPPED.sub(" ", text)
    text = _NOT_WORDS.sub(" ", text)
    return [word for word in _WORD.findall(text) if not allowed(word)]


def check_and_unwrap(path: str, body: Any, allowed: Callable[[str], bool], phrases: Collection[str] = ()) -> list[str]:
    """Check a request body's texts (see the module's docstring) and take the wraps out of them; the texts with
    bare English, each with its words, are returned."""
    if any(part in path for part in _SKIPPED_PATHS):
        return []
    found = []
    for holder, key in texts(body):
        text = holder[key]
        words = bare_words(text, allowed, phrases)
        if words:
            found.append(f"{text!r}: {', '.join(dict.fromkeys(words))}")
        holder[key] = text.replace(OPEN, "").replace(CLOSE, "")
    return found


def unwrapped(body: Any) -> Any:
    """A body's texts without the pseudo-language's wraps, as the fake stores them (changed in place)."""
    for holder, key in texts(body):
        holder[key] = holder[key].replace(OPEN, "").replace(CLOSE, "")
    return body
