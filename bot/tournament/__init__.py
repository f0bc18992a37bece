"""Tournaments (sit-and-go nights with rising blinds): the pure core.

No discord, no I/O, no clock: every time is a float (seconds, as from ``time.time()``) passed in by the
caller. The table layer asks :func:`level_for_next_hand` before each deal, so levels change between hands,
never during one; the store keeps a :class:`Tournament` as JSON (``to_json`` / ``from_json``).
"""

from __future__ import annotations

from .clock import (
    ClockState,
    LevelNow,
    NextHand,
    advance_due,
    current_level,
    level_for_next_hand,
    open_through_level,
    pause,
    resume,
    start_clock,
)
from .levels import (
    Break,
    Level,
    Schedule,
    Step,
    default_structure,
    format_levels,
    level_at_or_after,
    level_number,
    next_level,
    parse_levels,
    playing_levels,
    schedule_from_json,
    schedule_to_json,
    validate_schedule,
)
from .payouts import default_payouts, format_payouts, parse_payouts, prize_amounts, shares_for
from .placements import Placing, Standing, final_prizes, knock_out, placings, record_eliminations
from .state import Bust, Entry, Status, Tournament

__all__ = [
    "Break", "Bust", "ClockState", "Entry", "Level", "LevelNow", "NextHand", "Placing", "Schedule", "Standing",
    "Status", "Step", "Tournament", "advance_due", "current_level", "default_payouts", "default_structure",
    "final_prizes", "format_levels", "format_payouts", "knock_out", "level_at_or_after", "level_for_next_hand",
    "level_number",
    "next_level", "open_through_level", "parse_levels", "parse_payouts", "pause", "placings", "playing_levels",
    "prize_amounts", "record_eliminations", "resume", "schedule_from_json", "schedule_to_json", "shares_for",
    "start_clock", "validate_schedule",
]
