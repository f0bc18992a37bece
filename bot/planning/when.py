"""When a planned night starts: the time a host types, read in the server's time zone.

``parse_when("friday 20:00", "Europe/Berlin", now)`` gives the start in seconds since the epoch. dateparser reads
what hosts type ("friday 20:00", "2026-12-11 20:00", "in 2 hours", "tomorrow 8pm"), preferring the coming date
when a day or time alone is given; the IANA time zones come from the system or, in a slim container, the tzdata
package. ``now`` is always passed in.
"""

from __future__ import annotations

import datetime
import difflib
import functools
import zoneinfo
from collections.abc import Callable

from babel.dates import format_date, format_time

from ..i18n.catalogue import babel_locale
from ..i18n.text import ENGLISH, Language, Text, say
from .errors import PlanError

DEFAULT_ZONE = "UTC"
EXAMPLES = "“friday 20:00”, “2026-12-11 20:00” or “in 2 hours”"  # as the refusals below write them
MAX_AHEAD = 366 * 24 * 3600  # seconds: a night is planned at most a year ahead
MAX_TEXT = 100  # characters of a typed time that are read (and echoed back)
MAX_ZONE_CHOICES = 25  # Discord: an autocomplete answer holds at most 25 choices


@functools.cache
def _zones() -> dict[str, str]:
    """Every IANA zone name, by its lower-case form."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def time_zone(name: str) -> str:
    """The IANA name of the zone ``name`` says (any case: ``europe/berlin`` is ``Europe/Berlin``), or a
    ``PlanError`` that names the closest zones."""
    wanted = name.strip().replace(" ", "_")
    found = _zones().get(wanted.lower())
    if found is not None:
        return found
    close = difflib.get_close_matches(wanted.lower(), _zones(), n=3, cutoff=0.6)
    shown: Text | str = wanted[:MAX_TEXT] or Text("(nothing)")
    names = [_zones()[c] for c in close]
    if len(names) == 3:
        raise PlanError(Text("“{typed}” is not a time zone I know. Did you mean {first}, {second} or {third}? Time "
                             "zones are named like Europe/Berlin, America/New_York or Asia/Tokyo (the city's region, "
                             "then the city).", typed=shown, first=names[0], second=names[1], third=names[2]))
    if len(names) == 2:
        raise PlanError(Text("“{typed}” is not a time zone I know. Did you mean {first} or {second}? Time zones are "
                             "named like Europe/Berlin, America/New_York or Asia/Tokyo (the city's region, then the "
                             "city).", typed=shown, first=names[0], second=names[1]))
    if names:
        raise PlanError(Text("“{typed}” is not a time zone I know. Did you mean {zone}? Time zones are named like "
                             "Europe/Berlin, America/New_York or Asia/Tokyo (the city's region, then the city).",
                             typed=shown, zone=names[0]))
    raise PlanError(Text("“{typed}” is not a time zone I know. Time zones are named like Europe/Berlin, "
                         "America/New_York or Asia/Tokyo (the city's region, then the city).", typed=shown))


def zone_names(typed: str, limit: int = MAX_ZONE_CHOICES) -> list[str]:
    """The zone names that contain what was typed, those that start with it first (for autocomplete)."""
    key = typed.strip().replace(" ", "_").lower()
    names = sorted(_zones().values())
    starting = [n for n in names if n.lower().startswith(key)]
    inside = [n for n in names if key in n.lower() and n not in starting]
    return (starting + inside)[:limit]


def local_time(at: float, zone: str, *, lang: Language = ENGLISH) -> str:
    """``at`` as the server's clock shows it: ``Friday 11 December 2026, 20:00 (Europe/Berlin)``; in ``lang``, the
    date and the time as the language writes them (German ``Freitag, 11. Dezember 2026, 20:00 (Europe/Berlin)``)."""
    moment = datetime.datetime.fromtimestamp(at, zoneinfo.ZoneInfo(zone))
    locale = babel_locale(lang)
    if str(locale) == "en_US":  # English (and the pseudo-language): the date as it always read, not Babel's
        date, time = f"{moment:%A} {moment.day} {moment:%B %Y}", f"{moment:%H:%M}"
    else:
        date, time = format_date(moment.date(), "full", locale=locale), format_time(moment.time(), "short",
                                                                                     locale=locale)
    return say(lang, "{date}, {time} ({zone})", date=date, time=time, zone=zone)


class _LocalTime(Text):
    """A moment in a refusal, worded by :func:`local_time` in the reader's language when shown."""

    __slots__ = ()

    def __init__(self, at: float, zone: str) -> None:
        super().__init__("{at} {zone}", at=at, zone=zone)  # worded below, by local_time

    def worded(self, language: Language, member: Callable[[int], str] | None = None) -> str:
        at, zone = self.values["at"], self.values["zone"]
        assert isinstance(at, int | float) and isinstance(zone, str)
        return local_time(at, zone, lang=language)


_DATEPARSER_LANGUAGES = {"de": "de", "fr": "fr", "es": "es", "pt_BR": "pt"}  # a catalogue's code -> dateparser's


def parse_when(text: str, zone: str, now: float, *, language: str = "en") -> int:
    """The start a host typed, in whole seconds since the epoch, read in ``zone`` as of ``now``; a ``PlanError``
    for a text that is no time, a time that has passed, or one more than a year ahead. English is always read,
    and the host's own ``language`` (a catalogue code) beside it: "freitag 20:00", "dans 2 heures"."""
    from dateparser.date import DateDataParser  # imported on first use: it loads its language data then

    typed = " ".join(text.split())[:MAX_TEXT]
    if not typed:
        raise PlanError(Text("Say when the night starts, like “friday 20:00”, “2026-12-11 20:00” or “in 2 hours”."))
    base = datetime.datetime.fromtimestamp(now, zoneinfo.ZoneInfo(zone)).replace(tzinfo=None)
    own = _DATEPARSER_LANGUAGES.get(language)
    parser = DateDataParser(languages=["en", own] if own else ["en"], settings={
        "TIMEZONE": zone, "RETURN_AS_TIMEZONE_AWARE": True, "PREFER_DATES_FROM": "future", "RELATIVE_BASE": base,
    })
    try:
        found = parser.get_date_data(typed).date_obj
    except (ValueError, OverflowError):
        found = None
    if found is None:
        raise PlanError(Text("I cannot read “{typed}” as a time. Write it like “friday 20:00”, “2026-12-11 20:00” or "
                             "“in 2 hours” (in {zone}).", typed=typed, zone=zone))
    at = int(found.timestamp())
    if at <= now:
        raise PlanError(Text("“{typed}” is {time}, which has passed. Give a time to come, like “friday 20:00”, "
                             "“2026-12-11 20:00” or “in 2 hours”.", typed=typed, time=_LocalTime(at, zone)))
    if at > now + MAX_AHEAD:
        raise PlanError(Text("“{typed}” is {time}: plan a night at most a year ahead.", typed=typed,
                             time=_LocalTime(at, zone)))
    return at
