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

from .errors import PlanError

DEFAULT_ZONE = "UTC"
EXAMPLES = "“friday 20:00”, “2026-12-11 20:00” or “in 2 hours”"
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
    shown = wanted[:MAX_TEXT] or "(nothing)"
    names = [_zones()[c] for c in close]
    hint = f" Did you mean {' or '.join([', '.join(names[:-1]), names[-1]] if len(names) > 1 else names)}?" \
        if names else ""
    raise PlanError(f"“{shown}” is not a time zone I know.{hint} Time zones are named like Europe/Berlin, "
                    "America/New_York or Asia/Tokyo (the city's region, then the city).")


def zone_names(typed: str, limit: int = MAX_ZONE_CHOICES) -> list[str]:
    """The zone names that contain what was typed, those that start with it first (for autocomplete)."""
    key = typed.strip().replace(" ", "_").lower()
    names = sorted(_zones().values())
    starting = [n for n in names if n.lower().startswith(key)]
    inside = [n for n in names if key in n.lower() and n not in starting]
    return (starting + inside)[:limit]


def local_time(at: float, zone: str) -> str:
    """``at`` as the server's clock shows it: ``Friday 11 December 2026, 20:00 (Europe/Berlin)``."""
    moment = datetime.datetime.fromtimestamp(at, zoneinfo.ZoneInfo(zone))
    return f"{moment:%A} {moment.day} {moment:%B %Y, %H:%M} ({zone})"


def parse_when(text: str, zone: str, now: float) -> int:
    """The start a host typed, in whole seconds since the epoch, read in ``zone`` as of ``now``; a ``PlanError``
    for a text that is no time, a time that has passed, or one more than a year ahead."""
    from dateparser.date import DateDataParser  # imported on first use: it loads its language data then

    typed = " ".join(text.split())[:MAX_TEXT]
    if not typed:
        raise PlanError(f"Say when the night starts, like {EXAMPLES}.")
    base = datetime.datetime.fromtimestamp(now, zoneinfo.ZoneInfo(zone)).replace(tzinfo=None)
    parser = DateDataParser(languages=["en"], settings={
        "TIMEZONE": zone, "RETURN_AS_TIMEZONE_AWARE": True, "PREFER_DATES_FROM": "future", "RELATIVE_BASE": base,
    })
    try:
        found = parser.get_date_data(typed).date_obj
    except (ValueError, OverflowError):
        found = None
    if found is None:
        raise PlanError(f"I cannot read “{typed}” as a time. Write it like {EXAMPLES} (in {zone}).")
    at = int(found.timestamp())
    if at <= now:
        raise PlanError(f"“{typed}” is {local_time(at, zone)}, which has passed. Give a time to come, "
                        f"like {EXAMPLES}.")
    if at > now + MAX_AHEAD:
        raise PlanError(f"“{typed}” is {local_time(at, zone)}: plan a night at most a year ahead.")
    return at
