"""Planned nights: the pure core of ``/poker night``.

No discord, no I/O, no clock: every time is seconds since the epoch, passed in. ``when`` reads the start a host
types in the server's time zone; ``night`` holds the rules of a plan (the roster and its waiting list, the
reminders, the next step, the seats held for those who signed up, clashes in a channel).
"""

from __future__ import annotations

from .errors import PlanError
from .night import (
    DEFAULT_REMIND,
    MAX_REMIND,
    NIGHT_LENGTH,
    SEAT_HOLD,
    Answer,
    Roster,
    Signup,
    Step,
    clash,
    due_reminders,
    event_name,
    holds_seats,
    interested_changes,
    next_step,
    planned_buy_ins,
    remind_at,
    roster,
    seats_held,
)
from .when import DEFAULT_ZONE, EXAMPLES, local_time, parse_when, time_zone, zone_names

__all__ = [
    "DEFAULT_REMIND", "DEFAULT_ZONE", "EXAMPLES", "MAX_REMIND", "NIGHT_LENGTH", "SEAT_HOLD", "Answer", "PlanError",
    "Roster", "Signup", "Step", "clash", "due_reminders", "event_name", "holds_seats", "interested_changes",
    "local_time", "next_step", "parse_when", "planned_buy_ins", "remind_at", "roster", "seats_held", "time_zone",
    "zone_names",
]
